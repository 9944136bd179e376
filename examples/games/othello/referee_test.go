package othello_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"judge/games"
	"judge/games/gamecheck"
	"judge/judge/refereetest"
)

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
	seeds := 120
	if testing.Short() {
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

// othello is the game as game.toml declares it, played by a referee
// program.
func othello(dir string, argv ...string) refereetest.ProcessGame {
	return refereetest.ProcessGame{
		GameName: "othello", Dir: dir, Argv: argv,
		Specs:    []games.ParamSpec{{Name: "size", Default: 8, Min: 4, Max: 16}},
		Queries:  []string{"Board", "Color", "Legal", "Discs", "Size", "CurrentTurn", "LastMove"},
		Commands: []string{"Place", "Pass"},
		Many:     []string{"Board"},
	}
}

// TestGameCheck: judge game check's checks find nothing wrong with either
// referee.
func TestGameCheck(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3")
	}
	goRef := filepath.Join(t.TempDir(), "referee")
	if out, err := exec.Command("go", "build", "-o", goRef, "./go").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, g := range []refereetest.ProcessGame{othello(".", "python3", "referee.py"), othello(".", goRef)} {
		for _, size := range []int{8, 6} {
			r, err := gamecheck.Check(context.Background(), g, gamecheck.Options{Seeds: 6, Params: games.Params{"size": size}})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s, size %d: %s", g.Argv[0], size, strings.TrimSpace(r.Summary()))
			if !r.OK() || r.Ended != r.Seeds {
				t.Errorf("%s: %s", g.Argv[0], r.Summary())
			}
		}
	}
}

// TestWasmBuilds: the Go referee builds for WebAssembly (WASI preview 1),
// as game.toml's referee.wasm.
func TestWasmBuilds(t *testing.T) {
	out := filepath.Join(t.TempDir(), "referee.wasm")
	cmd := exec.Command("go", "build", "-o", out, "./go")
	cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("GOOS=wasip1 GOARCH=wasm go build: %v\n%s", err, b)
	}
	if b, err := os.ReadFile(out); err != nil || !strings.HasPrefix(string(b), "\x00asm") {
		t.Errorf("not a WebAssembly module: %v", err)
	}
}
