package battleship_test

import (
	"maps"
	"path/filepath"
	"testing"

	"judge/games"
	"judge/games/catalog"
	"judge/judge"
	"judge/judge/config"
	"judge/judge/judgetest"
	"judge/judge/procbot"
)

func TestMain(m *testing.M) { judgetest.Main(m) }

func TestHunterBeatsRandom(t *testing.T) {
	if testing.Short() {
		t.Skip("plays real matches")
	}
	hunter := judgetest.Spec(t, "hunter", "examples/battleship/hunter")
	random := judgetest.Spec(t, "random", "examples/battleship/random.c")
	wins := 0
	const games = 4
	for seed := uint64(1); seed <= games; seed++ {
		seat := int(seed % 2)
		bots := []procbot.Spec{random, random}
		bots[seat] = hunter
		res := judgetest.Play(t, "battleship", seed, nil, bots...)
		for _, pr := range res.Players {
			if pr.Status != judge.OK {
				t.Errorf("seed %d: %s: %s: %s", seed, pr.Name, pr.Status, pr.Reason)
			}
		}
		if res.Winner == seat {
			wins++
		}
		t.Logf("seed %d: hunter as seat %d: winner %d (%s) in %d turns", seed, seat, res.Winner, res.Reason, res.Turns)
	}
	if wins < games-1 {
		t.Errorf("hunter won %d of %d games against random", wins, games)
	}
}

func TestRandomPlaysToTheEnd(t *testing.T) {
	random := judgetest.Spec(t, "random", "examples/battleship/random.c")
	python := judgetest.Spec(t, "random_bot.py", "examples/battleship/random_bot.py")
	res := judgetest.Play(t, "battleship-botsarena", 3, nil, python, random)
	for _, pr := range res.Players {
		if pr.Status != judge.OK {
			t.Errorf("%s: %s: %s", pr.Name, pr.Status, pr.Reason)
		}
	}
	if res.Winner < 0 || res.Turns < 1+17 {
		t.Errorf("odd result: %+v", res)
	}
}

func TestRuleBreakers(t *testing.T) {
	random := judgetest.Spec(t, "random", "examples/battleship/random.c")
	for _, tt := range []struct {
		mode   string
		reason string
	}{
		{"overlap", "turn 1: illegal fleet: ship 1,2-3,2 overlaps ship 2,1-2,4 at 2,2"},
		{"offboard", "turn 1: illegal fleet: PlaceShip 9,8-10,8: ship 9,8-10,8 leaves the 10×10 board (cells 0..9, 0..9)"},
		{"missing", "turn 1: illegal fleet: 1 ship of length 2 missing: the fleet has 1 (lengths 5 4 3 3 2), 0 placed"},
		{"badshot", "turn 2: no valid Shoot before #END (last one was Shoot 10 0: shot 10,0 is off the 10×10 board (cells 0..9, 0..9))"},
	} {
		t.Run(tt.mode, func(t *testing.T) {
			cheat := judgetest.Spec(t, tt.mode, "examples/battleship/testdata/cheat.py", tt.mode)
			res := judgetest.Play(t, "battleship", 1, nil, cheat, random)
			got := res.Players[0]
			if got.Status != judge.Illegal || got.Reason != tt.reason {
				t.Errorf("got %s %q, want %s %q", got.Status, got.Reason, judge.Illegal, tt.reason)
			}
			if res.Winner != 1 || res.Players[1].Status != judge.OK {
				t.Errorf("the other bot: winner %d, %+v", res.Winner, res.Players[1])
			}
		})
	}
}

// Both fleets illegal: both seats lose.
func TestBothIllegal(t *testing.T) {
	a := judgetest.Spec(t, "overlap", "examples/battleship/testdata/cheat.py", "overlap")
	b := judgetest.Spec(t, "missing", "examples/battleship/testdata/cheat.py", "missing")
	res := judgetest.Play(t, "battleship", 1, nil, a, b)
	if res.Winner != -1 || res.Players[0].Status != judge.Illegal || res.Players[1].Status != judge.Illegal {
		t.Fatalf("%+v", res)
	}
	if res.Players[0].Score != 0 || res.Players[1].Score != 0 {
		t.Fatalf("scores %v %v, want 0 0", res.Players[0].Score, res.Players[1].Score)
	}
}

// The config files play the catalog's variants.
func TestConfig(t *testing.T) {
	checkConfig(t, "configs/battleship.toml", "battleship")
	checkConfig(t, "configs/battleship-botsarena.toml", "battleship-botsarena")
	checkConfig(t, "configs/battleship-contest.toml", "battleship-contest")
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
