package procbot_test

import (
	"context"
	"judge/judge/bots"
	"judge/sandbox/sandboxtest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"judge/judge"
	"judge/judge/judgetest"
	"judge/judge/procbot"
)

// rubyPlayer is the spec of a contest player in testdata/rubycontest.
func rubyPlayer(t *testing.T, file string) procbot.Spec {
	t.Helper()
	spec, ok, err := bots.ParseRubyContest(bots.RubyContestPrefix + filepath.Join("testdata", "rubycontest", file))
	if !ok || err != nil {
		t.Fatalf("ParseRubyContest: %v %v", ok, err)
	}
	return spec
}

// TestRubyContest plays contest players, unmodified, against the C
// example bot: one that plays to the end (its lib/ helper on the load
// path, its puts kept off the protocol), one that raises (a crash with
// the Ruby message and where it came from), one whose fleet overlaps
// (illegal), on both seats.
func TestRubyContest(t *testing.T) {
	t.Parallel()
	judgetest.NeedTools(t, "ruby", "gcc")
	random := judgetest.Spec(t, "random", "examples/battleship/random.c")
	for _, tt := range []struct {
		file, name string
		status     judge.Status
		reason     []string // what the reason says
	}{
		{"corner_player.rb", "Corner Team", judge.OK, nil},
		{"raising_player.rb", "Raiser", judge.Crash, []string{"exit code 1", "take_turn: ArgumentError: no idea where to shoot",
			"raising_player.rb:15:in `aim'", "raising_player.rb:11:in `take_turn'"}},
		{"bad_fleet_player.rb", "Overlapper", judge.Illegal, []string{"turn 1: illegal fleet: ship 2,0-2,3 overlaps ship 0,0-4,0 at 2,0"}},
		// Ruby 3 adds a code snippet to the message: the reason keeps the
		// exception's own line and the player's frames.
		{"nil_player.rb", "Nil", judge.Crash, []string{"take_turn: NoMethodError: undefined method `first' for nil:NilClass\n",
			"nil_player.rb:16:in `aim'", "nil_player.rb:11:in `take_turn'"}},
		// [0.0, 0.0] and [-0.0, 0] are wasted shots, as in the contest's runner.
		{"float_player.rb", "Floaty", judge.OK, nil},
		// Fleets read as the runner reads them: a length of 5.0 is 5
		// cells; "across" is no direction, so no ship at all.
		{"loose_fleet_player.rb", "Loose", judge.OK, nil},
		{"word_fleet_player.rb", "Words", judge.Illegal, []string{`turn 1: no fleet: new_game returned [[0, 0, 5, "across"],`,
			`[0, 0, 5, "across"] is not [x, y, length, :across or :down]`}},
		// In a contest's folder: its lib/ and data/, what its runner
		// loads before the player; readers for methods; new_game raising.
		{"contest/contestants/runner_lib_player.rb", "Runner Lib", judge.OK, nil},
		{"contest/contestants/reader_player.rb", "reader_player", judge.OK, nil},
		{"contest/contestants/new_game_raises_player.rb", "Raises At Start", judge.Crash, []string{"new_game: IOError: no fleet file",
			"new_game_raises_player.rb:18:in `fleet_from_file'"}},
		// Ruby 2's subclasses of Array, as the contest ran them.
		{"subclass_player.rb", "Subclass", judge.OK, nil},
		// A class named Player, writing files where it runs.
		{"writer_player.rb", "Writer", judge.OK, nil},
	} {
		for seat := range 2 {
			t.Run(tt.file+"/seat"+string(rune('0'+seat)), func(t *testing.T) {
				bots := []procbot.Spec{rubyPlayer(t, tt.file), random}
				if seat == 1 {
					bots[0], bots[1] = bots[1], bots[0]
				}
				res := judgetest.Play(t, "battleship-contest", 7, nil, bots...)
				p, o := res.Players[seat], res.Players[1-seat]
				if p.Name != tt.name || p.Status != tt.status || o.Status != judge.OK {
					t.Fatalf("%s: %s %q; opponent %s %q", p.Name, p.Status, p.Reason, o.Status, o.Reason)
				}
				for _, w := range tt.reason {
					if !strings.Contains(p.Reason, w) {
						t.Errorf("reason %q does not say %q", p.Reason, w)
					}
				}
				if tt.status == judge.OK && res.Turns < 30 {
					t.Errorf("a whole game in %d turns", res.Turns)
				}
			})
		}
	}
}

// TestRubyContestTmpLimit: what a player writes where it runs counts
// against the bot's tmp size: 2 MiB do not fit in 1 MiB.
func TestRubyContestTmpLimit(t *testing.T) {
	t.Parallel()
	judgetest.NeedTools(t, "ruby", "gcc")
	if judgetest.Host().RunLevel(procbot.Auto) == procbot.None {
		sandboxtest.SkipLevel(t, "no sandbox here: the working directory is the machine's")
	}
	random := judgetest.Spec(t, "random", "examples/battleship/random.c")
	res := judgetest.Play(t, "battleship-contest", 7, func(s *judgetest.Setup) {
		s.Proc.Limits = procbot.DefaultLimits
		s.Proc.Limits.TmpSize = 1 << 20
	}, rubyPlayer(t, "writer_player.rb"), random)
	p := res.Players[0]
	if p.Status != judge.Crash || !strings.Contains(p.Reason, "new_game: Errno::ENOSPC") {
		t.Fatalf("%s %q, want a crash for the full directory", p.Status, p.Reason)
	}
}

// TestRubyContestWorkRemoved: at level none, where the working directory
// is in the machine's temporary directory, the host removes it when the
// game ends, with what the player left there (folders, a read-only file),
// and not what a link there points to.
func TestRubyContestWorkRemoved(t *testing.T) {
	t.Parallel()
	judgetest.NeedTools(t, "ruby", "gcc")
	tmp, keep, dir := t.TempDir(), filepath.Join(t.TempDir(), "keep.txt"), t.TempDir()
	if err := os.WriteFile(keep, []byte("kept\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	player := filepath.Join(dir, "litter_player.rb")
	src := `class LitterPlayer
  def name; "Litter"; end
  def new_game
    Dir.mkdir("a"); Dir.mkdir("a/b")
    File.write("a/b/c.txt", "c")
    File.write("ro", "r"); File.chmod(0o444, "ro")
    File.symlink("KEEP", "link")
    [[0, 9, 5, :across], [5, 9, 4, :across], [0, 8, 3, :across], [3, 8, 3, :across], [6, 8, 2, :across]]
  end
  def take_turn(state, ships_remaining)
    n = @n = (@n || -1) + 1
    [n % 10, n / 10]
  end
end
`
	if err := os.WriteFile(player, []byte(strings.Replace(src, "KEEP", keep, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	spec, err := bots.RubyContestSpec(player)
	if err != nil {
		t.Fatal(err)
	}
	random := judgetest.Spec(t, "random", "examples/battleship/random.c")
	res := judgetest.Play(t, "battleship-contest", 7, func(s *judgetest.Setup) {
		s.Proc.Level = procbot.None
		s.Proc.Env = map[string]string{"TMPDIR": tmp}
	}, spec, random)
	if p := res.Players[0]; p.Status != judge.OK {
		t.Fatalf("%s: %s %q", p.Name, p.Status, p.Reason)
	}
	// The host removes it as it exits, which the match's end does not
	// wait for.
	var left []os.DirEntry
	for range 100 {
		if left, err = os.ReadDir(tmp); err != nil || len(left) == 0 {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err != nil || len(left) != 0 {
		t.Errorf("left in the temporary directory: %v %v", left, err)
	}
	if b, err := os.ReadFile(keep); err != nil || string(b) != "kept\n" {
		t.Errorf("the link's target: %q %v", b, err)
	}
}

// TestCheckRubyContest: loading a file in the sandbox tells a player from
// a file that does not parse (Ruby's message), raises as it loads, or
// holds no player; a player that requires a gem loads.
func TestCheckRubyContest(t *testing.T) {
	t.Parallel()
	judgetest.NeedTools(t, "ruby")
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, src string
		why       string // "" for a player
	}{
		{"ok.rb", "class Player\n  def name; 'p'; end\n  def new_game; end\n  def take_turn(s, r); end\nend\n", ""},
		{"syntax.rb", "class XPlayer\n  def new_game\n    [1, 2\n  end\n  def take_turn(s, r); end\nend\n",
			"loading syntax.rb: SyntaxError: syntax.rb:4: syntax error, unexpected `end'"},
		{"raises.rb", "raise IOError, 'no data file'\nclass XPlayer\n  def new_game; end\n  def take_turn(s, r); end\nend\n",
			"loading raises.rb: IOError: no data file"},
		{"helper.rb", "class Helper\n  def new_game; end\n  def take_turn(s, r); end\nend\n",
			"helper.rb: no classes named ...Player with name, new_game and take_turn"},
		{"noname.rb", "class XPlayer\n  def new_game; end\n  def take_turn(s, r); end\nend\n",
			"noname.rb: no classes named ...Player with name, new_game and take_turn"},
		{"new.rb", "class XPlayer\n  def initialize; raise 'no'; end\n  def name; 'x'; end\n  def new_game; end\n  def take_turn(s, r); end\nend\n",
			"XPlayer.new: RuntimeError: no"},
		// Ruby starts without RubyGems: a library that is a gem (matrix
		// and prime since Ruby 3.1) loads it, one found nowhere is
		// Ruby's LoadError, and a NameError keeps its suggestions.
		{"gems.rb", "gem 'matrix'\nrequire 'matrix'\nrequire 'prime'\nclass XPlayer\n  def initialize; Matrix[[Prime.first]]; end\n  def name; 'x'; end\n" +
			"  def new_game; end\n  def take_turn(s, r); end\nend\n", ""},
		{"missing.rb", "require 'no_such_library'\nclass XPlayer\n  def name; 'x'; end\n  def new_game; end\n  def take_turn(s, r); end\nend\n",
			"loading missing.rb: LoadError: cannot load such file -- no_such_library"},
		{"typo.rb", "class XPlayer\n  def initialize; frist_shot; end\n  def first_shot; end\n  def name; 'x'; end\n  def new_game; end\n  def take_turn(s, r); end\nend\n",
			"> / Did you mean?  first_shot"}, // the message: undefined local variable or method …
	} {
		p := filepath.Join(dir, tt.name)
		if err := os.WriteFile(p, []byte(tt.src), 0o644); err != nil {
			t.Fatal(err)
		}
		spec, err := bots.RubyContestSpec(p)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		why, err := judgetest.Host().CheckRubyContest(context.Background(), spec, procbot.Auto)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if tt.why == "" && why != "" || !strings.Contains(why, tt.why) {
			t.Errorf("%s: %q, want %q", tt.name, why, tt.why)
		}
	}
}

// TestCheckRubyContestFolder: a player in a contest's folder (one holding
// bin/player_server.rb) loads with the folder's lib/ and data/, as the
// runner loads it; copied out of it, its LoadError says which require,
// where it looked, that there is no contest folder, and what the player
// could see, at the level its games run.
func TestCheckRubyContestFolder(t *testing.T) {
	t.Parallel()
	judgetest.NeedTools(t, "ruby")
	in := filepath.Join("testdata", "rubycontest", "contest", "contestants", "runner_lib_player.rb")
	spec, err := bots.RubyContestSpec(in)
	if err != nil {
		t.Fatal(err)
	}
	if why, err := judgetest.Host().CheckRubyContest(t.Context(), spec, procbot.Auto); err != nil || why != "" {
		t.Errorf("in the contest's folder: %q %v", why, err)
	}
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(in)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "runner_lib_player.rb")
	if err := os.WriteFile(out, src, 0o644); err != nil {
		t.Fatal(err)
	}
	if spec, err = bots.RubyContestSpec(out); err != nil {
		t.Fatal(err)
	}
	for _, level := range []procbot.Level{procbot.Auto, procbot.None} {
		why, err := judgetest.Host().CheckRubyContest(t.Context(), spec, level)
		if err != nil {
			t.Fatal(err)
		}
		seen := "the sandbox (level "
		if judgetest.Host().RunLevel(level) == procbot.None {
			seen = "at sandbox level none the player sees every folder"
		}
		for _, w := range []string{"LoadError: cannot load such file -- battleship/board",
			"require 'battleship/board' looked in: lib/ (not there), Ruby's own libraries; no contest folder (none above the player holds bin/player_server.rb",
			seen} {
			if !strings.Contains(why, w) {
				t.Errorf("level %q: %q does not say %q", level, why, w)
			}
		}
	}
}
