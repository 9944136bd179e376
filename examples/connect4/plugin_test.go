package connect4_test

import (
	"bytes"
	"fmt"
	"os"
	"testing"

	"judge/games/catalog"
	"judge/games/plugin"
	"judge/games/plugin/plugintest"
	"judge/judge"
	"judge/judge/judgetest"
	"judge/judge/procbot"
)

// TestPluginSameReplays plays the example bots through Connect Four as a
// plugin (examples/games/connect4, its Go referee in WebAssembly) and
// through the built-in connect4, seed by seed: the replays must be the
// same bytes but for the game's identity (game, game_hash) and the
// timings (wall_us, cpu_us, wait_us), which differ between any two runs.
// C4_PLUGIN_MATCHES=100 plays 100 matches instead of 10.
func TestPluginSameReplays(t *testing.T) {
	if testing.Short() {
		t.Skip("plays real matches")
	}
	judgetest.NeedTools(t, "python3")
	dir := plugintest.Connect4(t, false)
	g, err := plugin.Load(dir, plugin.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// The same game with its referee in Python, run as a program.
	py, err := plugin.Load(plugintest.Connect4Python(t), plugin.Options{})
	if err != nil {
		t.Fatal(err)
	}
	builtin, err := catalog.Lookup("connect4")
	if err != nil {
		t.Fatal(err)
	}
	n := 10
	if os.Getenv("C4_PLUGIN_MATCHES") != "" {
		fmt.Sscan(os.Getenv("C4_PLUGIN_MATCHES"), &n)
	}
	random := judgetest.Spec(t, "random", "examples/connect4/random.c")
	python := judgetest.Spec(t, "random_bot.py", "examples/connect4/random_bot.py")
	pairs := [][]procbot.Spec{
		{random, python},
		{python, random},
		{random, random},
		// Rule breakers: illegal moves and their reasons.
		{judgetest.Spec(t, "column0", "examples/connect4/testdata/cheat.py", "column0"), python},
		{random, judgetest.Spec(t, "offboard", "examples/connect4/testdata/cheat.py", "offboard")},
	}
	for i := range n {
		seed := uint64(i + 1)
		bots := pairs[i%len(pairs)]
		want := judgetest.PlayGame(t, builtin.Game, seed, nil, bots...)
		got := judgetest.PlayGame(t, g, seed, nil, bots...)
		w, gt := canonical(t, want.Replay), canonical(t, got.Replay)
		if !bytes.Equal(w, gt) {
			t.Errorf("seed %d (%s vs %s): replays differ:\nbuilt-in: %s\nplugin:   %s", seed, bots[0].Name, bots[1].Name, w, gt)
		}
		if p := canonical(t, judgetest.PlayGame(t, py, seed, nil, bots...).Replay); !bytes.Equal(w, p) {
			t.Errorf("seed %d (%s vs %s): replays differ:\nbuilt-in:       %s\nPython referee: %s", seed, bots[0].Name, bots[1].Name, w, p)
		}
		if got.Replay.Game != "connect4-plugin" || got.Replay.GameHash != g.Hash() || want.Replay.GameHash != "" {
			t.Errorf("seed %d: game %q hash %q, want connect4-plugin %s", seed, got.Replay.Game, got.Replay.GameHash, g.Hash())
		}
		for _, p := range got.Players {
			if p.Status == judge.RefereeError {
				t.Errorf("seed %d: %s", seed, p.Reason)
			}
		}
	}
}

// canonical is a replay's file form with the fields that may differ
// between the two games emptied: the game's identity and the timings.
func canonical(t *testing.T, rp *judge.Replay) []byte {
	t.Helper()
	c := *rp
	c.Game, c.GameHash = "", ""
	c.Turns = nil
	for _, tn := range rp.Turns {
		moves := append([]judge.TurnMove(nil), tn.Moves...)
		for i := range moves {
			moves[i].WallUS, moves[i].CPUUS, moves[i].WaitUS = 0, 0, 0
		}
		c.Turns = append(c.Turns, judge.ReplayTurn{Turn: tn.Turn, Moves: moves})
	}
	b, err := judge.EncodeReplay(&c)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
