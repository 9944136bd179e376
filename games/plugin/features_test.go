package plugin_test

import (
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"judge/games"
	"judge/games/plugin"
	"judge/games/plugin/plugintest"
	"judge/judge/judgetest"
)

// TestTurnOrders plays the same games with the Python Connect Four
// referee declaring turn-orders and declaring no feature (as a referee
// written before it): the same statuses and boards turn by turn; the
// judge sends orders at no turn's start to the first, at every turn's to
// the second, and to both when a seat's commands start again within a
// turn.
func TestTurnOrders(t *testing.T) {
	gNew, logNew := relayed(t, plugin.FeatureTurnOrders)
	gOld, logOld := relayed(t, "-")
	var err error
	for seed := uint64(1); seed <= 3; seed++ {
		// The logs grow: referees are started ahead for the next game.
		seenOld, seenNew := count(t, logOld, "orders"), count(t, logNew, "orders")
		a, b := newState(t, gNew, seed), newState(t, gOld, seed)
		turns := 0
		for !a.Outcome().Over {
			turns++
			seat := a.Movers()[0]
			moves := a.Moves(seat)
			mv := moves[(int(seed)+turns)%len(moves)]
			got := [2]games.Move{}
			for i, st := range []*plugin.State{a, b} {
				o := st.Orders(seat)
				// A column that is not one: refused, and forgotten when
				// the seat's commands start again.
				if err := o.Command(games.ParseLine("DropDisc 99")); err == nil {
					t.Fatalf("DropDisc 99 taken")
				}
				if turns%3 == 0 {
					o = st.Orders(seat)
				}
				for _, l := range mv {
					if err := o.Command(games.ParseLine(l)); err != nil {
						t.Fatalf("%s: %v", l, err)
					}
				}
				if got[i], err = o.Commit(); err != nil {
					t.Fatal(err)
				}
				if err := st.Apply(map[int]games.Move{seat: got[i]}); err != nil {
					t.Fatal(err)
				}
			}
			if !slices.Equal(got[0], got[1]) || a.Render() != b.Render() || a.Turn() != b.Turn() {
				t.Fatalf("seed %d, turn %d: %q / %q:\n%s\n%s", seed, turns, got[0], got[1], a.Render(), b.Render())
			}
		}
		if oa, ob := a.Outcome(), b.Outcome(); oa.Winner != ob.Winner || oa.Reason != ob.Reason {
			t.Errorf("seed %d: outcomes %+v and %+v", seed, oa, ob)
		}
		games.Close(a)
		games.Close(b)
		// Every turn's orders, and those within a turn (every third).
		if n, want := count(t, logOld, "orders")-seenOld, turns+turns/3; n != want {
			t.Errorf("seed %d: %d orders to the referee without features in %d turns; want %d", seed, n, turns, want)
		}
		if n, want := count(t, logNew, "orders")-seenNew, turns/3; n != want {
			t.Errorf("seed %d: %d orders to the referee with turn-orders in %d turns; want %d", seed, n, turns, want)
		}
	}
}

// TestCommandMoves plays the same games with the Python Connect Four
// referee declaring command-moves and not (its answers to commands carry
// the move either way; the judge reads it only with the feature): the
// same moves, refusals and boards turn by turn; the judge sends commit to
// the first only for a seat with no move bound (its commands started
// again), to learn why, and to the second at every commit.
func TestCommandMoves(t *testing.T) {
	with := plugin.FeatureTurnOrders + "," + plugin.FeatureCommandMoves
	gNew, logNew := relayed(t, with)
	gOld, logOld := relayed(t, plugin.FeatureTurnOrders)
	for seed := uint64(1); seed <= 3; seed++ {
		seenOld, seenNew := count(t, logOld, "commit"), count(t, logNew, "commit")
		a, b := newState(t, gNew, seed), newState(t, gOld, seed)
		turns := 0
		for !a.Outcome().Over {
			turns++
			seat := a.Movers()[0]
			moves := a.Moves(seat)
			mv := moves[(int(seed)+turns)%len(moves)]
			var got [2]games.Move
			var why [2]string
			for i, st := range []*plugin.State{a, b} {
				o := st.Orders(seat)
				if err := o.Command(games.ParseLine("DropDisc 99")); err == nil {
					t.Fatalf("DropDisc 99 taken")
				}
				if turns%3 == 0 {
					// A move bound, then forgotten: no move to commit.
					command(t, o, mv)
					o = st.Orders(seat)
					m, err := o.Commit()
					if err == nil {
						t.Fatalf("seed %d, turn %d: commit %q after the commands started again", seed, turns, m)
					}
					why[i] = err.Error()
				}
				command(t, o, mv)
				var err error
				if got[i], err = o.Commit(); err != nil {
					t.Fatal(err)
				}
				if err := st.Apply(map[int]games.Move{seat: got[i]}); err != nil {
					t.Fatal(err)
				}
			}
			if !slices.Equal(got[0], got[1]) || why[0] != why[1] || a.Render() != b.Render() {
				t.Fatalf("seed %d, turn %d: %q / %q, %q / %q:\n%s\n%s", seed, turns, got[0], got[1], why[0], why[1], a.Render(), b.Render())
			}
		}
		games.Close(a)
		games.Close(b)
		if n, want := count(t, logOld, "commit")-seenOld, turns+turns/3; n != want {
			t.Errorf("seed %d: %d commits to the referee without command-moves in %d turns; want %d", seed, n, turns, want)
		}
		if n, want := count(t, logNew, "commit")-seenNew, turns/3; n != want {
			t.Errorf("seed %d: %d commits to the referee with command-moves in %d turns; want %d", seed, n, turns, want)
		}
	}
}

// command gives the lines of mv to o.
func command(t *testing.T, o games.Orders, mv games.Move) {
	t.Helper()
	for _, l := range mv {
		if err := o.Command(games.ParseLine(l)); err != nil {
			t.Fatalf("%s: %v", l, err)
		}
	}
}

func newState(t *testing.T, g *plugin.Game, seed uint64) *plugin.State {
	t.Helper()
	st, err := g.New(nil, seed)
	if err != nil {
		t.Fatal(err)
	}
	return st.(*plugin.State)
}

// count is how many lines of the file at path are op; none when there
// is no file.
func count(t *testing.T, path, op string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return 0
	}
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, l := range strings.Split(string(b), "\n") {
		if l == op {
			n++
		}
	}
	return n
}

// relayed is the example Connect Four with its Python referee behind
// testdata/relay.py, which answers hello with features (comma-separated,
// "-" for none) and logs the op of every request to the file log.
func relayed(t *testing.T, features string) (g *plugin.Game, log string) {
	t.Helper()
	return relayedWith(t, features, "", plugin.Options{})
}

// relayedWith is relayed, the answers of its statuses spoiled as spoil
// says (relay.py), and the game loaded with opts.
func relayedWith(t *testing.T, features, spoil string, opts plugin.Options) (g *plugin.Game, log string) {
	t.Helper()
	src := plugintest.Connect4Python(t)
	relay, err := filepath.Abs("testdata/relay.py")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	log = filepath.Join(dir, "log")
	spec, err := os.ReadFile(filepath.Join(src, "game.toml"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := "\n" + `command = ["python3", "` + relay + `", "` + log + `", "` + features + `", "` + filepath.Join(src, "referee.py") + `", "` + spoil + `"]` + "\n"
	text := strings.Replace(string(spec), "\n"+`command = ["python3", "referee.py"]`+"\n", cmd, 1)
	if err := os.WriteFile(filepath.Join(dir, "game.toml"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	g, err = plugin.Load(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	return g, log
}

// TestFixedQueries: the queries game.toml declares fixed (Params,
// MySymbol) are asked of the referee once a seat and line in a match;
// the others every time.
func TestFixedQueries(t *testing.T) {
	g, log := relayed(t, "-")
	st := newState(t, g, 1)
	defer games.Close(st)
	want := map[string]string{"0 Params": "7 6 4", "1 Params": "7 6 4", "0 MySymbol": "X", "1 MySymbol": "O", "0 Heights": "0 0 0 0 0 0 0"}
	for range 3 {
		for _, k := range slices.Sorted(maps.Keys(want)) {
			seat, line, _ := strings.Cut(k, " ")
			a, err := st.Query(int(seat[0]-'0'), games.ParseLine(line))
			if err != nil || a != want[k] {
				t.Fatalf("seat %s: %s: %q, %v; want %q", seat, line, a, err, want[k])
			}
		}
	}
	if n := count(t, log, "query"); n != 4+3 {
		t.Errorf("%d queries to the referee; want 4 (Params and MySymbol, a seat each) and 3 (Heights)", n)
	}
}

// TestReuse: a referee that takes new again (FeatureReuse) — a
// WebAssembly one, a WASI command or a reactor, or a program — plays the
// game's next match once its match has ended, without a second hello; one
// that failed is never given another. The hostile referee's query Games
// answers how many games it has started.
func TestReuse(t *testing.T) {
	for _, build := range []struct {
		name  string
		flags []string
	}{{"command", nil}, {"reactor", []string{plugintest.Reactor}}, {"process", nil}} {
		t.Run(build.name, func(t *testing.T) {
			var dir string
			if build.name == "process" {
				judgetest.NeedTools(t, "python3")
				script := filepath.Join(plugintest.Root(t), "games", "plugin", "testdata", "hostile.py")
				dir = hostileGame(t, `command = ["python3", "`+script+`"]`)
			} else {
				dir = hostileWasm(t, build.flags...)
			}
			g, err := plugin.Load(dir, plugin.Options{})
			if err != nil {
				t.Fatal(err)
			}
			started := func() string {
				t.Helper()
				st, err := g.New(nil, modeGood)
				if err != nil {
					t.Fatal(err)
				}
				defer games.Close(st)
				ans, err := st.Query(0, games.ParseLine("Games"))
				if err != nil {
					t.Fatal(err)
				}
				return ans
			}
			var got []string
			for range 3 {
				got = append(got, started())
			}
			if want := []string{"1", "2", "3"}; !slices.Equal(got, want) {
				t.Errorf("games started by the referee of each match: %v, want %v (one referee for all)", got, want)
			}
			if err := play(t, g, modeError); !errors.Is(err, games.ErrReferee) {
				t.Fatalf("the failing match: %v, want a referee error", err)
			}
			if n := started(); n != "1" {
				t.Errorf("the match after a referee failed: its referee had started %s games, want 1 (a new referee)", n)
			}
			if build.name != "process" {
				return
			}
			// A program kept after its match that ends before the next
			// is not the next match's fault.
			if err := play(t, g, modeQuits); err != nil {
				t.Fatalf("a game whose referee exits once it is over: %v", err)
			}
			if n := started(); n != "1" {
				t.Errorf("the match after a kept referee ended: its referee had started %s games, want 1 (a new referee)", n)
			}
		})
	}
}

// TestAnswers: the queries a referee declaring answers answers in its
// statuses ahead (the Python Connect Four's Heights every turn, and Params
// at each seat's first) are asked of it no more, and answered as a
// referee without the feature answers them when asked. A status that
// answers a line that is no query, or with more than a line, is the
// referee's fault; one whose answer ahead differs from its query's is
// taken at its word, and found out when the game is loaded with AskAhead
// (judge game check).
func TestAnswers(t *testing.T) {
	gNew, logNew := relayed(t, plugin.FeatureTurnOrders+","+plugin.FeatureCommandMoves+","+plugin.FeatureAnswers)
	gOld, logOld := relayed(t, plugin.FeatureTurnOrders+","+plugin.FeatureCommandMoves)
	a, b := newState(t, gNew, 1), newState(t, gOld, 1)
	turns := 0
	for !a.Outcome().Over {
		turns++
		seat := a.Movers()[0]
		for _, q := range []string{"Heights", "Params", "Heights"} {
			x, err1 := a.Query(seat, games.ParseLine(q))
			y, err2 := b.Query(seat, games.ParseLine(q))
			if err1 != nil || err2 != nil || x != y {
				t.Fatalf("turn %d: %s: %q, %v with answers; %q, %v without", turns, q, x, err1, y, err2)
			}
		}
		moves := a.Moves(seat)
		mv := moves[turns%len(moves)]
		for _, st := range []*plugin.State{a, b} {
			o := st.Orders(seat)
			for _, l := range mv {
				if err := o.Command(games.ParseLine(l)); err != nil {
					t.Fatal(err)
				}
			}
			m, err := o.Commit()
			if err == nil {
				err = st.Apply(map[int]games.Move{seat: m})
			}
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	games.Close(a)
	games.Close(b)
	if n := count(t, logNew, "query"); n != 0 {
		t.Errorf("%d queries to the referee with answers; want none", n)
	}
	if n, want := count(t, logOld, "query"), 2*turns+2; n != want {
		t.Errorf("%d queries to the referee without answers in %d turns; want %d (Heights twice a turn, Params once a seat)", n, turns, want)
	}

	for _, tc := range []struct {
		spoil string
		opts  plugin.Options
		want  string // the fault, at new or at the query; "" for none
	}{
		{"astray", plugin.Options{}, ""},
		{"astray", plugin.Options{AskAhead: true}, `"Heights": its status answered "0 0 0 0 0 0 0 9" ahead, the query answers "0 0 0 0 0 0 0"`},
		{"command", plugin.Options{}, `its status: answers: "DropDisc 3": DropDisc is not a query of game.toml`},
		{"lines", plugin.Options{}, `its status: answers: "Heights": answer "0 0 0 0 0 0 0\n" ends with a newline`},
	} {
		g, _ := relayedWith(t, plugin.FeatureAnswers, tc.spoil, tc.opts)
		st, err := g.New(nil, 1)
		var a string
		if err == nil {
			a, err = st.Query(0, games.ParseLine("Heights"))
			games.Close(st)
		}
		switch {
		case tc.want == "" && (err != nil || a != "0 0 0 0 0 0 0 9"):
			t.Errorf("%s: %q, %v; want the answer ahead, taken", tc.spoil, a, err)
		case tc.want != "" && (!errors.Is(err, games.ErrReferee) || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s, %+v: %v; want a referee error with %q", tc.spoil, tc.opts, err, tc.want)
		}
	}
}

// TestGridKinds: the kinds a state tells without drawing are those of the
// grids its view draws.
func TestGridKinds(t *testing.T) {
	g, log := relayed(t, "-")
	st := newState(t, g, 1)
	defer games.Close(st)
	views := count(t, log, "view")
	kinds := st.GridKinds()
	if n := count(t, log, "view"); n != views {
		t.Errorf("GridKinds called the referee's view")
	}
	v := st.View()
	if len(v.Grids) == 0 {
		t.Fatal("no grid drawn")
	}
	for _, gr := range v.Grids {
		if !slices.Contains(kinds, gr.Kind) {
			t.Errorf("grid %s of kind %q; GridKinds says %q", gr.Name, gr.Kind, kinds)
		}
	}
}
