package catalog

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"judge/games"
	"judge/games/battleship"
)

// TestSharedNames checks the names every game agrees on: each lists its
// queries and commands (games.Verbs) and answers every query it lists;
// CurrentTurn, Params, MySeat, Board, CellAt and LastMove are everywhere;
// a cell is "x y" or "x,y" alike; SymbolAt, where there is one, is CellAt.
func TestSharedNames(t *testing.T) {
	shared := []string{"CurrentTurn", "Params", "MySeat", "Board", "CellAt", "LastMove"}
	for _, v := range All() {
		t.Run(v.Name, func(t *testing.T) {
			p, err := v.Resolve(nil)
			if err != nil {
				t.Fatal(err)
			}
			st, err := v.Game.New(p, 1)
			if err != nil {
				t.Fatal(err)
			}
			vb, ok := st.(games.Verbs)
			if !ok {
				t.Fatalf("%T does not list its verbs (games.Verbs)", st)
			}
			qs, cs := vb.Queries(), vb.Commands()
			if k := games.Known(st); !strings.HasPrefix(k, "queries: CurrentTurn, ") || !strings.Contains(k, "; commands: "+cs[0]) {
				t.Errorf("Known() = %q", k)
			}
			for _, q := range shared {
				if !slices.Contains(qs, q) {
					t.Errorf("no %s among the queries %v", q, qs)
				}
			}
			for seat := 0; seat < st.Seats(); seat++ {
				for _, q := range qs {
					if _, err := st.Query(seat, games.ParseLine(q+" 0 0")); errors.Is(err, games.ErrNotQuery) {
						t.Errorf("listed query %s is not answered", q)
					}
				}
				if got, _ := st.Query(seat, games.ParseLine("MySeat")); got != string(rune('0'+seat)) {
					t.Errorf("seat %d: MySeat = %q", seat, got)
				}
				two, _ := st.Query(seat, games.ParseLine("CellAt 1 0"))
				one, _ := st.Query(seat, games.ParseLine("CellAt 1,0"))
				if two != one || two == "!" {
					t.Errorf("CellAt 1 0 = %q, CellAt 1,0 = %q", two, one)
				}
				if bad, _ := st.Query(seat, games.ParseLine("CellAt 1,x")); bad != "!" {
					t.Errorf("CellAt 1,x = %q, want !", bad)
				}
				if slices.Contains(qs, "SymbolAt") {
					if sym, _ := st.Query(seat, games.ParseLine("SymbolAt 1 0")); sym != two {
						t.Errorf("SymbolAt 1 0 = %q, CellAt 1 0 = %q", sym, two)
					}
				}
			}
			for _, c := range cs {
				seat := st.Movers()[0]
				if err := st.Orders(seat).Command(games.ParseLine(c + " 0 0")); errors.Is(err, games.ErrUnknown) {
					t.Errorf("listed command %s is unknown", c)
				}
			}
			if err := st.Orders(st.Movers()[0]).Command(games.ParseLine("Nonsense")); !errors.Is(err, games.ErrUnknown) {
				t.Errorf("Nonsense as a command: %v, want ErrUnknown", err)
			}
			if _, err := st.Query(0, games.ParseLine(strings.ToLower(qs[0]))); !errors.Is(err, games.ErrNotQuery) {
				t.Errorf("%s in lower case is a query: names are case-sensitive everywhere", strings.ToLower(qs[0]))
			}
		})
	}
}

func TestFixedVariant(t *testing.T) {
	v, err := Lookup("battleship-contest")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		over games.Params
		want string // "" when it resolves
	}{
		{nil, ""},
		{games.Params{"width": 10, "ship5": 1}, ""}, // restating a preset
		{games.Params{"width": 8}, "width=8 cannot be set"},
		{games.Params{"ship6": 1}, "ship6=1 cannot be set"},
		{games.Params{"nope": 1}, "nope=1 cannot be set"},
	} {
		p, err := v.Resolve(tt.over)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%v: %v", tt.over, err)
		case tt.want == "" && (p["width"] != 10 || p["height"] != 10 || p["ship3"] != 2 || p["ship1"] != 0):
			t.Errorf("%v: resolved to %v", tt.over, p)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%v: got %v, want an error saying %q", tt.over, err, tt.want)
		}
	}
	// battleship-botsarena takes its parameters within botsarena's ranges.
	b, _ := Lookup("battleship-botsarena")
	if p, err := b.Resolve(games.Params{"width": 100, "ship6": 10}); err != nil || p["width"] != 100 {
		t.Errorf("botsarena: %v %v", p, err)
	}
	if _, err := b.Resolve(games.Params{"width": 101}); err == nil {
		t.Error("botsarena: width=101 accepted")
	}
	// It is played by botsarena's rules (no cap on the shots, sunk ships
	// gone); battleship keeps the judge's.
	for name, want := range map[string]bool{"battleship-botsarena": true, "battleship": false, "battleship-contest": false} {
		v, _ := Lookup(name)
		if g, ok := v.Game.(battleship.Game); !ok || g.Botsarena != want {
			t.Errorf("%s: game %+v, want Botsarena %v", name, v.Game, want)
		}
	}
}
