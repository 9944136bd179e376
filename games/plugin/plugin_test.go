package plugin_test

import (
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"judge/games"
	"judge/games/connect4"
	"judge/games/gametest"
	"judge/games/plugin"
	"judge/games/plugin/plugintest"
)

// TestConnect4SameAsBuiltIn plays random games through the wasm referee
// and the built-in connect4 side by side: every query's answer, every
// command's verdict, every commit and every status must agree.
func TestConnect4SameAsBuiltIn(t *testing.T) {
	dir := plugintest.Connect4(t, true)
	wasm, err := plugin.Load(dir, plugin.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// The same folder with the referee as a process.
	spec, _ := os.ReadFile(filepath.Join(dir, "game.toml"))
	pdir := t.TempDir()
	os.WriteFile(filepath.Join(pdir, "game.toml"), []byte(strings.Replace(string(spec), `wasm = "referee.wasm"`, `command = ["`+filepath.Join(dir, "referee")+`"]`, 1)), 0o644)
	proc, err := plugin.Load(pdir, plugin.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range []*plugin.Game{wasm, proc} {
		for seed := uint64(1); seed <= 10; seed++ {
			p := games.Params{"width": 7, "height": 6, "k": 4}
			if seed%3 == 0 {
				p = games.Params{"width": 5, "height": 4, "k": 3}
			}
			compare(t, g, p, seed)
		}
	}
}

func compare(t *testing.T, g *plugin.Game, p games.Params, seed uint64) {
	t.Helper()
	want, err := connect4.Game{}.New(p, seed)
	if err != nil {
		t.Fatal(err)
	}
	got, err := g.New(p, seed)
	if err != nil {
		t.Fatal(err)
	}
	defer games.Close(got)
	r := rand.New(rand.NewPCG(seed, 7))
	queries := []string{"CurrentTurn", "Params", "MySymbol", "MySeat", "LastMove", "Board", "Heights",
		"SymbolAt 3 0", "CellAt 2,1", "SymbolAt 9 9", "SymbolAt x", "Nope"}
	for !want.Outcome().Over {
		if !slices.Equal(got.Movers(), want.Movers()) || got.Turn() != want.Turn() {
			t.Fatalf("seed %d: movers %v turn %d, want %v %d", seed, got.Movers(), got.Turn(), want.Movers(), want.Turn())
		}
		seat := want.Movers()[0]
		for _, q := range queries {
			l := games.ParseLine(q)
			a1, e1 := want.Query(seat, l)
			a2, e2 := got.Query(seat, l)
			if a1 != a2 || (e1 == nil) != (e2 == nil) {
				t.Fatalf("seed %d turn %d: %s: got %q %v, want %q %v", seed, want.Turn(), q, a2, e2, a1, e1)
			}
		}
		wo, go_ := want.Orders(seat), got.Orders(seat)
		for range 1 + r.IntN(3) {
			l := games.ParseLine("DropDisc " + strconv.Itoa(r.IntN(9)-1))
			if r.IntN(10) == 0 {
				l = games.ParseLine("Drop 1")
			}
			e1, e2 := wo.Command(l), go_.Command(l)
			if errStr(e1) != errStr(e2) && !(isUnknown(e1) && isUnknown(e2)) {
				t.Fatalf("seed %d: %s: got %v, want %v", seed, l, e2, e1)
			}
		}
		m1, e1 := wo.Commit()
		m2, e2 := go_.Commit()
		if !slices.Equal(m1, m2) || errStr(e1) != errStr(e2) {
			t.Fatalf("seed %d: commit: got %v %v, want %v %v", seed, m2, e2, m1, e1)
		}
		if e1 != nil {
			want.Forfeit(seat)
			got.Forfeit(seat)
			break
		}
		mv := map[int]games.Move{seat: m1}
		if err := want.Apply(mv); err != nil {
			t.Fatal(err)
		}
		if err := got.Apply(mv); err != nil {
			t.Fatal(err)
		}
		if got.Render() != want.Render() {
			t.Fatalf("render:\n%s\nwant\n%s", got.Render(), want.Render())
		}
	}
	o1, o2 := want.Outcome(), got.Outcome()
	if o1.Over != o2.Over || o1.Winner != o2.Winner || o1.Reason != o2.Reason || !slices.Equal(o1.Scores, o2.Scores) {
		t.Fatalf("seed %d: outcome %+v, want %+v", seed, o2, o1)
	}
	if err := games.Fault(got); err != nil {
		t.Fatal(err)
	}
}

func errStr(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func isUnknown(err error) bool { return err != nil && errors.Is(err, games.ErrUnknown) }

// TestConformance runs the games' conformance suite (gametest) on
// Connect Four as a plugin game: its random player plays the moves the
// referee lists.
func TestConformance(t *testing.T) {
	g, err := plugin.Load(plugintest.Connect4(t, false), plugin.Options{})
	if err != nil {
		t.Fatal(err)
	}
	random := func(st games.State, seat int, rng *rand.Rand) games.Move {
		moves := st.(games.Mover).Moves(seat)
		if err := games.Fault(st); err != nil || len(moves) == 0 {
			t.Fatalf("moves of seat %d: %v %v", seat, moves, err)
		}
		return moves[rng.IntN(len(moves))]
	}
	illegal := func(st games.State, seat int, rng *rand.Rand) []games.Move {
		return []games.Move{{"DropDisc 7"}, {"DropDisc -1"}, {"DropDisc x"}}
	}
	gametest.Check(t, g, nil, random, gametest.Playouts(4),
		gametest.Queries("CurrentTurn", "Board", "Heights", "LastMove", "SymbolAt 0 0"), gametest.Illegal(illegal))
}

// TestExecStarterKeepsStderr: a plain referee that says why on its
// stderr and exits keeps what it said for a reader that comes to it
// only after Stop, as a reader busy elsewhere does; and says how it
// ended.
func TestExecStarterKeepsStderr(t *testing.T) {
	p, err := plugin.ExecStarter(t.Context(), []string{"sh", "-c", "echo giving up >&2; exit 3"}, t.TempDir(), 0)
	if err != nil {
		t.Fatal(err)
	}
	if b, err := io.ReadAll(p.Stdout); err != nil || len(b) != 0 {
		t.Fatalf("stdout: %q, %v", b, err)
	}
	p.Stop()
	b, err := io.ReadAll(p.Stderr)
	if err != nil || string(b) != "giving up\n" {
		t.Fatalf("stderr read after Stop: %q, %v; want what the referee wrote", b, err)
	}
	if how := p.Exited(); how != "exit code 3" {
		t.Fatalf("Exited() = %q, want exit code 3", how)
	}
}
