package connect4_test

import (
	"maps"
	"path/filepath"
	"strings"
	"testing"

	"judge/games"
	"judge/games/catalog"
	"judge/judge"
	"judge/judge/config"
	"judge/judge/judgetest"
	"judge/judge/procbot"
)

func TestMain(m *testing.M) { judgetest.Main(m) }

func TestAlphaBetaBeatsRandom(t *testing.T) {
	if testing.Short() {
		t.Skip("plays real matches")
	}
	strong := judgetest.Spec(t, "alphabeta", "examples/connect4/alphabeta.rs")
	random := judgetest.Spec(t, "random", "examples/connect4/random.c")
	wins := 0
	const games = 4
	for seed := uint64(1); seed <= games; seed++ {
		seat := int(seed % 2) // the strong bot plays both sides
		bots := []procbot.Spec{random, random}
		bots[seat] = strong
		res := judgetest.Play(t, "connect4", seed, nil, bots...)
		for i, pr := range res.Players {
			if pr.Status != judge.OK {
				t.Errorf("seed %d: %s: %s: %s", seed, pr.Name, pr.Status, pr.Reason)
			}
			_ = i
		}
		if res.Winner == seat {
			wins++
		}
		t.Logf("seed %d: strong as seat %d: winner %d (%s) in %d turns", seed, seat, res.Winner, res.Reason, res.Turns)
	}
	if wins < games-1 {
		t.Errorf("alphabeta won %d of %d games against random", wins, games)
	}
}

func TestRandomPlaysToTheEnd(t *testing.T) {
	random := judgetest.Spec(t, "random", "examples/connect4/random.c")
	python := judgetest.Spec(t, "random_bot.py", "examples/connect4/random_bot.py")
	res := judgetest.Play(t, "connect4", 7, nil, random, python)
	for _, pr := range res.Players {
		if pr.Status != judge.OK {
			t.Errorf("%s: %s: %s", pr.Name, pr.Status, pr.Reason)
		}
	}
	if res.Reason == "" || res.Turns < 7 {
		t.Errorf("odd result: %+v", res)
	}
}

func TestRuleBreakers(t *testing.T) {
	random := judgetest.Spec(t, "random", "examples/connect4/random.c")
	for _, tt := range []struct {
		mode   string
		vs     procbot.Spec // seat 1
		reason string
	}{
		// Two bots filling column 0: X's 7th disc does not fit.
		{"column0", judgetest.Spec(t, "column0", "examples/connect4/testdata/cheat.py", "column0"),
			"turn 7: no valid DropDisc before #END (last one was DropDisc 0: column 0 is full)"},
		{"offboard", random, "turn 1: no valid DropDisc before #END (last one was DropDisc 7: column 7 is off the board (columns 0..6))"},
		{"nomove", random, "turn 1: no DropDisc before #END"},
	} {
		t.Run(tt.mode, func(t *testing.T) {
			cheat := judgetest.Spec(t, tt.mode, "examples/connect4/testdata/cheat.py", tt.mode)
			res := judgetest.Play(t, "connect4", 1, nil, cheat, tt.vs)
			got := res.Players[0]
			if got.Status != judge.Illegal || got.Reason != tt.reason {
				t.Errorf("got %s %q, want %s %q", got.Status, got.Reason, judge.Illegal, tt.reason)
			}
			if res.Winner != 1 || res.Players[1].Status != judge.OK {
				t.Errorf("the other bot: winner %d, %+v", res.Winner, res.Players[1])
			}
			if !strings.HasPrefix(res.Reason, tt.mode) || !strings.Contains(res.Reason, " made an illegal move at turn ") {
				t.Errorf("reason %q", res.Reason)
			}
		})
	}
}

// The config file plays the catalog's variant.
func TestConfig(t *testing.T) {
	checkConfig(t, "configs/connect4.toml", "connect4")
}

func checkConfig(t *testing.T, path, variant string) {
	t.Helper()
	c, err := config.Load(filepath.Join(judgetest.Root(t), path))
	if err != nil {
		t.Fatal(err)
	}
	v, err := catalog.Lookup(variant)
	if err != nil {
		t.Fatal(err)
	}
	fromFile, err := v.Resolve(c.Params)
	if err != nil {
		t.Fatal(err)
	}
	preset, err := v.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	if !maps.Equal(fromFile, preset) || !maps.Equal(games.Params(c.Params), v.Params) {
		t.Errorf("%s: params %v, the catalog's %s has %v", path, c.Params, variant, v.Params)
	}
	if fv, err := catalog.Lookup(c.Game); err != nil || fv.Game.Name() != v.Game.Name() {
		t.Errorf("%s: game %q is not %s (%v)", path, c.Game, variant, err)
	}
}
