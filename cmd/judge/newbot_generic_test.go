package main

import (
	"context"
	"go/format"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"judge/games"
	"judge/games/catalog"
	"judge/judge"
	"judge/judge/judgetest"
	"judge/judge/procbot"
)

// TestStarterGeneric: for a language a game has no code of its own in, a
// starter asks the game's one-line queries and plays its example move
// every turn. Written for Connect Four, built as new-bot says (a compiler
// that warns is an error) and played against itself, it drops its discs
// in column 3 until the column is full: six good moves, then an illegal
// one, and never a broken protocol.
func TestStarterGeneric(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and plays 6 bots")
	}
	root := judgetest.Root(t)
	v, err := catalog.Lookup("connect4")
	if err != nil {
		t.Fatal(err)
	}
	params, err := v.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	spec := v.Game.(games.Starter).Starter()
	spec.Code = nil
	for _, lang := range starterLangNames() {
		t.Run(lang, func(t *testing.T) {
			judgetest.NeedTools(t, starterTools[lang]...)
			dir := filepath.Join(openTempDir(t), "generic")
			files, err := renderStarter("connect4", "connect4", spec, lang, dir)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			for f, b := range files {
				if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			src := files[starterLangs[lang].file]
			if !strings.Contains(string(src), "plays an example move") || !strings.Contains(string(src), `"SymbolAt 0 0"`) {
				t.Errorf("the starter does not say what it does, or asks no SymbolAt 0 0:\n%.800s", src)
			}
			if f, err := format.Source(src); lang == "go" && (err != nil || string(f) != string(src)) {
				t.Errorf("the Go starter is not gofmt-formatted (%v)", err)
			}
			e := procbot.Bot{Spec: buildStarter(t, root, dir, lang), Options: judgetest.Proc(procbot.Options{IO: procbot.Pipe})}
			m := judge.Match{Game: v.Game, Name: v.Name, Params: params, Seed: 5, Limits: judge.DefaultTurnLimits, Entrants: []judge.Entrant{e, e}}
			m.Limits.FirstTurn = 20 * time.Second // a JVM on a busy machine
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			res, err := judge.Run(ctx, m)
			if err != nil {
				t.Fatal(err)
			}
			if p := res.Players; p[0].Status != judge.Illegal || p[1].Status != judge.OK {
				t.Errorf("statuses %s (%s), %s (%s); want the first illegal once column 3 is full", p[0].Status, p[0].Reason, p[1].Status, p[1].Reason)
			}
			if n := len(res.Replay.Turns); n != 7 {
				t.Fatalf("%d turns, want 7", n)
			}
			for _, tn := range res.Replay.Turns[:6] {
				for _, mv := range tn.Moves {
					if strings.Join(mv.Move, "; ") != "DropDisc 3" {
						t.Errorf("turn %d: seat %d played %q", tn.Turn, mv.Seat, mv.Move)
					}
				}
			}
		})
	}
}

// A game's words that cannot be written into a program as they are
// leave it with no starter written from its queries.
func TestStarterGenericRefuses(t *testing.T) {
	for _, spec := range []games.StarterSpec{
		{Title: "t", Move: "m", Example: []string{"Go"}},
		{Title: "t", Move: "m", Queries: []string{"Board"}},
		{Title: "t", Move: "m", Queries: []string{`Say "hi"`}, Example: []string{"Go"}},
		{Title: "t", Move: "a */ comment", Queries: []string{"Board"}, Example: []string{"Go"}},
		{Title: "t", Move: `back\slash`, Queries: []string{"Board"}, Example: []string{"Go"}},
	} {
		if _, err := renderStarter("g", "g", spec, "c", "DIR"); err == nil || !strings.Contains(err.Error(), "no c starter bot for g") {
			t.Errorf("%+v: %v", spec, err)
		}
	}
}
