package catalog

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"judge/games"
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
