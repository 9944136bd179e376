package othello_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"judge/games"
	"judge/games/gamecheck"
	"judge/games/plugin"
	"judge/games/plugin/plugintest"
	"judge/judge"
	"judge/judge/judgetest"
	"judge/judge/procbot"
	"judge/judge/refereetest"
)

func TestMain(m *testing.M) { judgetest.Main(m) }

// queries are the lines every mover asks each turn.
var queries = []string{"Board", "Color", "Legal", "Discs", "Size", "CurrentTurn", "LastMove", "Legal 3"}

// probes are commands tried before a move: most are refused, each with
// its reason.
var probes = []string{"Pass", "Pass 1", "Place 0 0", "Place 3", "Place a b", "Place 99 -1", "Place +2 -0",
	"Place 3 3", "Place 2 3 4", "Place ٣ 2", "Place 99999999999999999999 1"}

// TestRefereesAgree plays random legal games with the Python referee and
// the Go referee (built natively) and requires the same transcript, every
// response byte for byte, for every seed and size.
func TestRefereesAgree(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3")
	}
	ctx := context.Background()
	goRef := filepath.Join(t.TempDir(), "referee")
	if out, err := exec.CommandContext(ctx, "go", "build", "-o", goRef, "./go").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	py, err := refereetest.Start(ctx, ".", "python3", "referee.py")
	if err != nil {
		t.Fatal(err)
	}
	defer py.Close()
	native, err := refereetest.Start(ctx, ".", goRef)
	if err != nil {
		t.Fatal(err)
	}
	defer native.Close()
	// 40 games of every size compare some 80,000 responses; a change to
	// the rules is worth a longer run (OTHELLO_SEEDS=1000).
	seeds := 40
	if n, err := strconv.Atoi(os.Getenv("OTHELLO_SEEDS")); err == nil && n > 0 {
		seeds = n
	} else if testing.Short() {
		seeds = 20
	}
	sizes := []int{8, 8, 8, 4, 6, 10, 16}
	lines, passes, forfeits := 0, 0, 0
	for seed := uint64(1); seed <= uint64(seeds); seed++ {
		g := refereetest.Game{Params: map[string]int{"size": sizes[seed%uint64(len(sizes))]}, Seed: seed, Queries: queries, Probes: probes}
		a, errA := refereetest.Play(py, g)
		b, errB := refereetest.Play(native, g)
		if errA != nil || errB != nil {
			t.Fatalf("seed %d: python: %v; go: %v", seed, errA, errB)
		}
		if d := refereetest.Diff(a, b); d != "" {
			t.Fatalf("seed %d, size %d: python (a) and go (b) differ: %s", seed, g.Params["size"], d)
		}
		lines += len(a)
		if slices.ContainsFunc(a, func(l string) bool { return strings.Contains(l, `"move":["Pass"]`) }) {
			passes++
		}
		if strings.Contains(a[len(a)-1], "forfeited") {
			forfeits++
		}
	}
	t.Logf("%d games (%d with a pass, %d ended by a forfeit), %d transcript lines, identical", seeds, passes, forfeits, lines)
	if passes == 0 {
		t.Error("no game had a pass: the rule is not tried")
	}
}

// TestRefused: the referee refuses sizes it cannot play.
func TestRefused(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3")
	}
	py, err := refereetest.Start(context.Background(), ".", "python3", "referee.py")
	if err != nil {
		t.Fatal(err)
	}
	defer py.Close()
	for _, n := range []int{7, 2, 18} {
		got, err := py.Call(fmt.Sprintf(`{"op":"new","params":{"size":%d},"seed":1}`, n))
		want := fmt.Sprintf(`{"refused":"size must be even, 4..16, got %d"}`, n)
		if err != nil || got != want {
			t.Errorf("size %d: got %s, %v; want %s", n, got, err, want)
		}
	}
}

// TestGameCheck: judge game check's checks find nothing wrong with either
// referee, each loaded as a plugin game: the Go one in WebAssembly, the
// Python one a process.
func TestGameCheck(t *testing.T) {
	judgetest.NeedTools(t, "python3")
	wasm, process := plugintest.Othello(t)
	for _, dir := range []string{wasm, process} {
		g, err := plugin.Load(dir, plugin.Options{})
		if err != nil {
			t.Fatal(err)
		}
		name := g.Spec().Referee.Wasm + strings.Join(g.Spec().Referee.Command, " ")
		for _, size := range []int{8, 6} {
			r, err := gamecheck.Check(context.Background(), g, gamecheck.Options{Seeds: 6, Params: games.Params{"size": size}})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s, size %d: %s", name, size, strings.TrimSpace(r.Summary()))
			if !r.OK() || r.Ended != r.Seeds {
				t.Errorf("%s: %s", name, r.Summary())
			}
		}
	}
}

// TestReplaysAgree: the example bots play matches, as judge match plays
// them, with each referee; the replays are the same, timings aside.
func TestReplaysAgree(t *testing.T) {
	judgetest.NeedTools(t, "python3", "gcc")
	wasmDir, processDir := plugintest.Othello(t)
	var gs [2]games.Game
	for i, dir := range []string{wasmDir, processDir} {
		g, err := plugin.Load(dir, plugin.Options{})
		if err != nil {
			t.Fatal(err)
		}
		gs[i] = g
	}
	random := judgetest.Spec(t, "random", "examples/othello/random_bot.py")
	greedy := judgetest.Spec(t, "greedy", "examples/othello/greedy.c")
	seeds := uint64(6)
	if testing.Short() {
		seeds = 2
	}
	for seed := uint64(1); seed <= seeds; seed++ {
		bots := []procbot.Spec{random, greedy}
		if seed%2 == 0 {
			bots = []procbot.Spec{greedy, random}
		}
		var got [2][]byte
		for i, g := range gs {
			res := judgetest.PlayGame(t, g, seed, nil, bots...)
			if res.Players[0].Status != judge.OK || res.Players[1].Status != judge.OK || len(res.Replay.Turns) < 10 {
				t.Fatalf("seed %d: %s after %d turns", seed, res.Reason, len(res.Replay.Turns))
			}
			got[i] = timeless(t, res.Replay)
		}
		if !bytes.Equal(got[0], got[1]) {
			t.Fatalf("seed %d: the replays differ:\nwasm:    %s\nprocess: %s", seed, got[0], got[1])
		}
	}
}

// timeless is rp's JSON without what differs between runs: timings, the
// game's hash (each folder's own) and the sandbox.
func timeless(t *testing.T, rp *judge.Replay) []byte {
	t.Helper()
	c := *rp
	c.GameHash, c.Sandbox = "", ""
	c.Bots = slices.Clone(rp.Bots)
	for i := range c.Bots {
		c.Bots[i].Sandbox = ""
	}
	c.Turns = slices.Clone(rp.Turns)
	for i := range c.Turns {
		c.Turns[i].Moves = slices.Clone(c.Turns[i].Moves)
		for j := range c.Turns[i].Moves {
			m := &c.Turns[i].Moves[j]
			m.WallUS, m.CPUUS, m.WaitUS, m.BankUS = 0, 0, 0, 0
		}
	}
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestWasmBuilds: the Go referee builds for WebAssembly (WASI preview 1),
// as game.toml's referee.wasm, a reactor.
func TestWasmBuilds(t *testing.T) {
	out := filepath.Join(t.TempDir(), "referee.wasm")
	cmd := exec.Command("go", "build", "-buildmode=c-shared", "-o", out, "./go")
	cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("GOOS=wasip1 GOARCH=wasm go build: %v\n%s", err, b)
	}
	if b, err := os.ReadFile(out); err != nil || !strings.HasPrefix(string(b), "\x00asm") {
		t.Errorf("not a WebAssembly module: %v", err)
	}
}
