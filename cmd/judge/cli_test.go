package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"judge/games"
	"judge/games/catalog"
	"judge/judge"
	"judge/judge/judgetest"
)

// TestHelpDashes: every command's help writes its flags as the docs do,
// --name, and an error in a flag prints one message, not the help.
func TestHelpDashes(t *testing.T) {
	single := regexp.MustCompile(`(?m)^  -[a-z][a-z-]+`)
	for _, c := range commands {
		code, out, _ := run(t, c.name, "--help")
		if code != 0 {
			t.Errorf("%s --help: exit %d", c.name, code)
		}
		if c.name != "games" && c.name != "doctor" && !strings.Contains(out, "\n  --") {
			t.Errorf("%s --help lists no --flag:\n%s", c.name, out)
		}
		if m := single.FindString(out); m != "" {
			t.Errorf("%s --help writes %q with one dash", c.name, m)
		}
	}
	code, out, errs := run(t, "match", "--game", "tictactoe", "--bogus", "a", "b")
	if code != 2 || out != "" || !strings.Contains(errs, "--bogus") || strings.Contains(errs, "Usage:") {
		t.Errorf("bad flag: exit %d, stdout %q, stderr %q", code, out, errs)
	}
}

func TestParamMustBeNumber(t *testing.T) {
	for _, v := range []string{"n=9x", "n=", "n=9.5", "n=0x10", "n"} {
		code, _, errs := run(t, "match", "--game", "gomoku", "--param", v, "a", "b")
		if code != 2 || !strings.Contains(errs, "--param") {
			t.Errorf("--param %s: exit %d, %q; want 2 and a message", v, code, errs)
		}
	}
	var p paramFlag
	if err := p.Set(" k = 4 "); err != nil || p["k"] != 4 {
		t.Errorf("Set(\" k = 4 \") = %v, %v", err, p)
	}
}

func TestFitSeats(t *testing.T) {
	splix, _ := catalog.Lookup("splix-small")
	ttt, _ := catalog.Lookup("tictactoe")
	for _, c := range []struct {
		name     string
		v        catalog.Variant
		bots     int
		explicit games.Params
		want     int // players afterwards; -1: no such parameter
		err      bool
	}{
		{"three bots", splix, 3, nil, 3, false},
		{"five bots", splix, 5, nil, 5, false},
		{"set by --param", splix, 3, games.Params{"players": 2}, 2, false},
		{"too many", splix, 6, nil, 0, true},
		{"two-player game", ttt, 3, nil, -1, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := c.v.Resolve(c.explicit)
			if err != nil {
				t.Fatal(err)
			}
			su := &setup{variant: c.v, match: judge.Match{Game: c.v.Game, Name: c.v.Name, Params: p}, explicit: c.explicit}
			err = su.fitSeats(c.bots)
			mt := su.match
			if (err != nil) != c.err {
				t.Fatalf("err %v, want error %v", err, c.err)
			}
			got, ok := mt.Params["players"]
			if c.want < 0 && ok || c.want >= 0 && !c.err && got != c.want {
				t.Errorf("players %d (set %v), want %d", got, ok, c.want)
			}
		})
	}
}

func TestMatchThreeSplixBots(t *testing.T) {
	looper := quote(judgetest.Bot(t, "examples/splix/looper"))
	code, out, errs := run(t, "match", "--game", "splix-small", "--seed", "4", looper, looper, looper)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "players=3") || !strings.Contains(out, "seat 2") {
		t.Errorf("output:\n%s", out)
	}
}

// TestReplayTrace: transcripts come turn by turn, and a replay without
// them says so.
func TestReplayTrace(t *testing.T) {
	c := quote(judgetest.Bot(t, "examples/gomoku/random.c"))
	dir := t.TempDir()
	for _, withTrace := range []bool{true, false} {
		replay := filepath.Join(dir, fmt.Sprintf("r-%v.json", withTrace))
		args := []string{"match", "--game", "tictactoe", "--seed", "3", "--replay", replay, c, c}
		if withTrace {
			args = append(args[:1], append([]string{"--trace"}, args[1:]...)...)
		}
		code, mout, errs := run(t, args...)
		if code != 0 {
			t.Fatalf("match: exit %d: %s", code, errs)
		}
		code, out, errs := run(t, "replay", "--trace", replay)
		if code != 0 {
			t.Fatalf("replay: exit %d: %s", code, errs)
		}
		// The reason in the same words as match's: the bots named.
		first, _, _ := strings.Cut(mout, "\n")
		reason := first[strings.LastIndex(first, ": ")+2:]
		if !strings.Contains(reason, "examples_gomoku_random_c") && !strings.Contains(reason, "full") ||
			!strings.Contains(out, "wins: "+reason+"\n") && !strings.Contains(out, "no winner: "+reason+"\n") {
			t.Errorf("match's reason %q, not replay's:\n%s", reason, out)
		}
		if withTrace {
			for _, want := range []string{"turn 1\n", "turn 2\n", "turn 3\n", "bot> Board", "   < - - -", "bot> #END"} {
				if !strings.Contains(out, want) {
					t.Errorf("with --trace: no %q in\n%s", want, out)
				}
			}
		} else if !strings.Contains(out, "no transcripts") {
			t.Errorf("without --trace: output does not say there are no transcripts:\n%s", out)
		}
	}
}

// A web bot given by its URL plays a full game in judge match.
func TestMatchWebBot(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var q struct {
			Action string
			Board  [][]string
		}
		if json.NewDecoder(r.Body).Decode(&q) != nil || q.Action == "init" {
			return
		}
		for x := range q.Board[len(q.Board)-1] {
			if q.Board[len(q.Board)-1][x] == "" {
				fmt.Fprintf(w, `{"play":"%d"}`, x)
				return
			}
		}
	}))
	defer srv.Close()
	c := quote(judgetest.Bot(t, "examples/connect4/random.c"))
	code, out, errs := run(t, "match", "--game", "connect4", "--seed", "2", srv.URL+"/bot.php", c)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "seat 0  "+strings.TrimPrefix(srv.URL, "http://")+"/bot.php") || strings.Count(out, " ok ") != 2 || !strings.Contains(out, "seat 0 is a web bot: it ran on its own server, outside the sandbox") {
		t.Errorf("output:\n%s", out)
	}
}

// judge match takes a web bot anywhere, on the loopback address too (the
// machine's user runs it), and tells that user what its server answered.
func TestMatchWebBotAnswer(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "no such page: /bot.php", http.StatusNotFound)
	}))
	defer srv.Close()
	c := quote(judgetest.Bot(t, "examples/connect4/random.c"))
	code, out, errs := run(t, "match", "--game", "connect4", "--seed", "2", srv.URL+"/bot.php", c)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, srv.URL+"/bot.php answered HTTP 404") || !strings.Contains(out, "seat 0's server answered: no such page: /bot.php") {
		t.Errorf("output:\n%s", out)
	}
}
