package catalog

import (
	"fmt"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"judge/games"
	"judge/games/plugin"
	"judge/games/plugin/plugintest"
)

// fresh starts variant v with its own parameters, and gives the seat
// that moves first.
func fresh(t *testing.T, v Variant) (games.State, int) {
	t.Helper()
	p, err := v.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	st, err := v.Game.New(p, 1)
	if err != nil {
		t.Fatal(err)
	}
	return st, st.Movers()[0]
}

// TestGamesAnswer checks that every game of the catalog says how a person
// plays it (games.Playable), how its cells are drawn (games.Painter) and
// what its starter bots ask and play (games.Starter), sanely: in a fresh
// state, a person's first question has a prompt and some answer to it (a
// click on a cell, a key) makes commands the game accepts; the palette
// draws every cell its view shows; the starter's queries are queries.
func TestGamesAnswer(t *testing.T) {
	for _, v := range All() {
		t.Run(v.Name, func(t *testing.T) { answers(t, v) })
	}
}

// TestPluginGamesAnswer: the example plugin games answer as the built-in
// ones do, from their game.toml and their referees: Othello with each of
// its referees, Connect Four in WebAssembly. Othello's view reports the
// seats' discs, for charts.
func TestPluginGamesAnswer(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3")
	}
	wasm, process := plugintest.Othello(t)
	for _, dir := range []string{wasm, process, plugintest.Connect4(t, false)} {
		g, err := plugin.Load(dir, plugin.Options{})
		if err != nil {
			t.Fatal(err)
		}
		v := Variant{Name: g.Name(), Game: g, Dir: g.Dir()}
		t.Run(g.Name()+" "+g.Spec().Referee.Wasm+strings.Join(g.Spec().Referee.Command, " "), func(t *testing.T) {
			answers(t, v)
			st, _ := fresh(t, v)
			defer games.Close(st)
			if got := st.(games.Viewer).View().Numbers["discs"]; !slices.Equal(got, []float64{2, 2}) && !slices.Equal(got, []float64{0, 0}) {
				t.Errorf("the view's discs at the start: %v", got)
			}
		})
	}
}

// answers checks that v answers games.Painter, games.Viewer,
// games.Playable and games.Starter sanely.
func answers(t *testing.T, v Variant) {
	colour := regexp.MustCompile(`^#[0-9a-fA-F]{6}$`)
	pt, ok := v.Game.(games.Painter)
	if !ok {
		t.Fatalf("%T does not give its palette (games.Painter)", v.Game)
	}
	pal := pt.Palette()
	for c, paint := range pal {
		if utf8.RuneCountInString(paint.Glyph) != 1 || !colour.MatchString(paint.Colour) {
			t.Errorf("cell %q is drawn %+v: want one character and #rrggbb", c, paint)
		}
	}
	st, seat := fresh(t, v)
	vw, ok := st.(games.Viewer)
	if !ok {
		t.Fatalf("%T has no view (games.Viewer)", st)
	}
	view := vw.View()
	covered(t, "the view", view, pal)
	for s := range view.Seen {
		covered(t, fmt.Sprintf("seat %d's view", s), view.Of(s), pal)
	}
	person(t, v, st, seat, pal)
	starter(t, v, st, seat)
	games.Close(st)
}

// covered checks that the palette draws every cell of the view's grids.
func covered(t *testing.T, what string, v games.View, pal games.Palette) {
	t.Helper()
	for _, g := range v.Grids {
		if len(g.Cells) != g.W*g.H {
			t.Errorf("%s: grid %q has %d cells for %d×%d", what, g.Name, len(g.Cells), g.W, g.H)
		}
		for _, c := range g.Cells {
			if _, ok := pal[c]; !ok {
				t.Errorf("%s: grid %q has a cell %q the palette does not draw", what, g.Name, c)
				break
			}
		}
	}
}

// person checks a person's first turn in st, a fresh state.
func person(t *testing.T, v Variant, st games.State, seat int, pal games.Palette) {
	t.Helper()
	pg, ok := v.Game.(games.Playable)
	if !ok {
		t.Fatalf("%T cannot be played by a person (games.Playable)", v.Game)
	}
	view := st.(games.Viewer).View().Of(seat)
	ask := func(q string) (string, error) { return st.Query(seat, games.ParseLine(q)) }
	p, err := pg.Play(games.PlaySeat{Seat: seat, Seats: st.Seats(), View: &view, Ask: ask, IntN: func(int) int { return 0 }})
	if err != nil {
		t.Fatal(err)
	}
	if p.Text == "" || p.Status == "" || p.Help == "" || len(p.Steps) == 0 {
		t.Fatalf("a person's turn: %+v", p)
	}
	if p.Board != nil {
		covered(t, "a person's board", p.Board(), pal)
	}
	st0 := p.Steps[0]
	if st0.Prompt == "" || st0.Parse == nil {
		t.Fatalf("a person's first question: %+v", st0)
	}
	var tries []string
	switch {
	case st0.Click == games.ClickCell, st0.Click == games.ClickShip:
		g := view.Grids[st0.Grid]
		for y := range g.H {
			for x := range g.W {
				tries = append(tries, fmt.Sprintf("%d %d", x, y))
				if st0.Click == games.ClickShip {
					for n := range max(g.W, g.H) {
						tries = append(tries, fmt.Sprintf("%d,%d-%d,%d", x, y, x+n, y), fmt.Sprintf("%d,%d-%d,%d", x, y, x, y+n))
					}
				}
			}
		}
	case st0.Click == games.ClickColumn:
		for x := range view.Grids[st0.Grid].W {
			tries = append(tries, fmt.Sprint(x))
		}
	case st0.Key:
		tries = []string{"\x1b[A", "\x1b[B", "\x1b[C", "\x1b[D"}
		for c := 'a'; c <= 'z'; c++ {
			tries = append(tries, string(c))
		}
	default:
		t.Fatalf("a person's first question takes no click and no key: %+v", st0)
	}
	for _, in := range tries {
		cmds, err := st0.Parse(in)
		if err != nil || len(cmds) == 0 {
			continue
		}
		if accepted(st, seat, cmds) {
			return
		}
	}
	t.Errorf("no click or key of %d tried (%q…) makes a command the game accepts", len(tries), tries[0])
}

// accepted says whether seat's orders take every command.
func accepted(st games.State, seat int, cmds []string) bool {
	o := st.Orders(seat)
	for _, c := range cmds {
		if o.Command(games.ParseLine(c)) != nil {
			return false
		}
	}
	return true
}

// commits gives why seat's orders of cmds make no move, or nil.
func commits(st games.State, seat int, cmds []string) error {
	o := st.Orders(seat)
	for _, c := range cmds {
		if err := o.Command(games.ParseLine(c)); err != nil {
			return err
		}
	}
	_, err := o.Commit()
	return err
}

// starter checks what a starter bot of the game asks and plays.
func starter(t *testing.T, v Variant, st games.State, seat int) {
	t.Helper()
	sg, ok := v.Game.(games.Starter)
	if !ok {
		t.Fatalf("%T has no starter (games.Starter)", v.Game)
	}
	s := sg.Starter()
	if s.Title == "" || s.Move == "" || len(s.Queries) == 0 || s.Calls != "" && !regexp.MustCompile(`\{[a-z_]+\}`).MatchString(s.Calls) {
		t.Fatalf("starter: %+v", s)
	}
	for lang, code := range s.Code {
		if !slices.Contains([]string{"c", "cpp", "go", "java", "python", "rust"}, lang) || strings.TrimSpace(code) == "" {
			t.Errorf("the starter's code in %q: %.40q", lang, code)
		}
	}
	for _, q := range s.Queries {
		if a, err := st.Query(seat, games.ParseLine(q)); err != nil || strings.Contains(a, "\n") {
			t.Errorf("the starter's query %q: %q, %v; want one line", q, a, err)
		}
	}
	if err := commits(st, seat, s.Example); len(s.Example) == 0 || err != nil {
		t.Errorf("the starter's example move %q is not a move: %v", s.Example, err)
	}
}
