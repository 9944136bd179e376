package bots

import (
	"context"
	"strings"
	"testing"

	"judge/judge"
	"judge/judge/judgetest"
	"judge/judge/procbot"
)

func TestRubyContestEntrant(t *testing.T) {
	judgetest.NeedTools(t, "ruby")
	entrant := func(arg string, proc procbot.Options) (judge.Entrant, error) {
		return Entrant(context.Background(), arg, proc, nil, "")
	}
	e, err := entrant("ruby-contest:../procbot/testdata/rubycontest/corner_player.rb", procbot.Options{})
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
	if _, err := entrant("ruby-contest:../procbot/testdata/rubycontest/lib/corner/shots.rb", procbot.Options{}); err == nil ||
		!strings.Contains(err.Error(), "shots.rb: no classes named ...Player with name, new_game and take_turn") {
		t.Errorf("a helper taken for a player: %v", err)
	}
	if _, err := entrant("ruby-contest:../tournament/testdata/contest/magrails/broken/broken_player.rb", procbot.Options{}); err == nil ||
		!strings.Contains(err.Error(), "loading broken_player.rb: SyntaxError: broken_player.rb:9: syntax error") {
		t.Errorf("a player that does not parse: %v", err)
	}
}
