package main

import (
	"strings"
	"testing"

	"judge/judge/judgetest"
	"judge/judge/procbot"
)

func TestRubyContestEntrant(t *testing.T) {
	judgetest.NeedTools(t, "ruby")
	e, err := entrant("ruby-contest:../../judge/procbot/testdata/rubycontest/corner_player.rb", procbot.Options{})
	if err != nil {
		t.Fatal(err)
	}
	info, err := e.Info()
	if err != nil {
		t.Fatal(err)
	}
	if info.Name != "Corner Team" || len(info.Command) != 3 || info.Command[0] != "ruby" || !strings.HasSuffix(info.Command[2], "corner_player.rb") {
		t.Errorf("info %+v", info)
	}
	if _, err := entrant("ruby-contest:../../judge/procbot/testdata/rubycontest/lib/corner/shots.rb", procbot.Options{}); err == nil ||
		!strings.Contains(err.Error(), "shots.rb: no classes named ...Player with name, new_game and take_turn") {
		t.Errorf("a helper taken for a player: %v", err)
	}
	if _, err := entrant("ruby-contest:../../judge/tournament/testdata/contest/magrails/broken/broken_player.rb", procbot.Options{}); err == nil ||
		!strings.Contains(err.Error(), "loading broken_player.rb: SyntaxError: broken_player.rb:9: syntax error") {
		t.Errorf("a player that does not parse: %v", err)
	}
}
