//go:build unix

package bots

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"judge/judge/judgetest"
)

// A contest player that is a FIFO is refused at once, never waited on.
func TestRubyContestFIFO(t *testing.T) {
	rb := filepath.Join(t.TempDir(), "fifo_player.rb")
	if err := syscall.Mkfifo(rb, 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		if IsRubyContest(rb) {
			t.Errorf("a FIFO named %s is taken for a Ruby contest player", rb)
		}
		_, _, err := ParseRubyContest(RubyContestPrefix + rb)
		done <- err
	}()
	var err error
	select {
	case err = <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("still waiting on a FIFO after 5s")
	}
	if err == nil || !strings.Contains(err.Error(), "FIFO") {
		t.Errorf("a Ruby contest player that is a FIFO: %v, want an error saying it is a FIFO", err)
	}
}

func TestRubyContestFiles(t *testing.T) {
	judgetest.NeedTools(t, "ruby")
	dir := t.TempDir()
	write := func(name, src string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	player := "class XPlayer\n  def name() 'x' end\n  def new_game\n  end\n  def take_turn(s, r)\n  end\nend\n"
	for _, tt := range []struct {
		name, src string
		is        bool
		spec      string // the spec's name, when it is a player
	}{
		{"a.rb", player, true, "a"},
		{"b.rb", strings.Replace(player, "def name() 'x' end", "def name\n    \"Team B\"\n  end", 1), true, "Team B"},
		{"c.rb", strings.Replace(player, "def name() 'x' end", "def name; 'Team C'; end", 1), true, "Team C"},
		{"d.rb", strings.Replace(player, "XPlayer", "Helper", 1), false, "d"},
		{"e.rb", strings.Replace(player, "take_turn", "turn", 1), false, "e"},
		{"f.py", player, false, "f.py"},
		{"player.rb", strings.Replace(player, "XPlayer", "Player", 1), true, "player"},
		{"g.rb", strings.Replace(player, "XPlayer", "PlayerX", 1), false, "g"},
		{"h.rb", strings.Replace(player, "XPlayer", "Club::Player < Base", 1), true, "h"},
		// Methods as attribute readers, found by the runner among the
		// class's instance methods.
		{"r.rb", "class RPlayer\n  attr_accessor :shots\n  attr_reader   :name, :new_game\n  def take_turn(s, r)\n  end\nend\n", true, "r"},
		{"s.rb", "class SPlayer\n  attr_reader :name, :new_game_x\n  def take_turn(s, r)\n  end\nend\n", false, "s"},
	} {
		p := write(tt.name, tt.src)
		if got := IsRubyContest(p); got != tt.is {
			t.Errorf("%s: IsRubyContest = %v", tt.name, got)
		}
		// Whether the file holds a player is Ruby's to say
		// (CheckRubyContest): every readable file has a spec.
		spec, ok, err := ParseRubyContest("ruby-contest:" + p)
		if !ok || err != nil {
			t.Errorf("%s: ParseRubyContest: %v %v", tt.name, ok, err)
		}
		if spec.Name != tt.spec || len(spec.Argv) != 4 || spec.Argv[0] != "ruby" || spec.Argv[1] != "--disable-gems" || spec.Argv[3] != p {
			t.Errorf("%s: spec %+v", tt.name, spec)
		}
	}
	if _, ok, _ := ParseRubyContest("ruby x.rb"); ok {
		t.Error("a command line taken for a contest player")
	}
}

// TestRubyContestBotArgs: --bots finds the players of a contest's folder
// as its runner loads them, attribute readers included, and each is
// given the folder (--contest DIR) that holds the runner.
func TestRubyContestBotArgs(t *testing.T) {
	dir := filepath.Join("..", "procbot", "testdata", "rubycontest", "contest")
	args, skipped, err := BotArgs(filepath.Join(dir, "contestants"), &Languages{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, a := range args {
		names = append(names, filepath.Base(a))
	}
	if want := "new_game_raises_player.rb reader_player.rb runner_lib_player.rb"; strings.Join(names, " ") != want || len(skipped) != 0 {
		t.Errorf("bots %v, skipped %v; want %s", names, skipped, want)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := RubyContestFolder(filepath.Join(dir, "contestants", "reader_player.rb")); got != abs {
		t.Errorf("RubyContestFolder = %q, want %q", got, abs)
	}
	if got := RubyContestFolder(filepath.Join(dir, "..", "corner_player.rb")); got != "" {
		t.Errorf("RubyContestFolder of a player in no contest's folder = %q", got)
	}
}
