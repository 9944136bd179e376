package battleship_test

import (
	"strings"
	"testing"

	"judge/games"
	"judge/games/battleship"
)

// TestView: each seat's Seen is what its MyBoard and Board queries
// answer; the spectators see every ship, a sunk one as '#'; the last shot
// is marked on the waters it hit.
func TestView(t *testing.T) {
	s := newGame(t, 4, 3, [battleship.MaxLen + 1]int{1: 1, 2: 1})
	a := parseFleet(t, `
		a - - -
		- - - -
		- - b b`)
	b := parseFleet(t, `
		- - - -
		- b b -
		- - - a`)
	if err := s.Apply(map[int]games.Move{0: fleetMove(a), 1: fleetMove(b)}); err != nil {
		t.Fatal(err)
	}
	for _, shot := range []string{"3 2", "0 0", "1 1"} {
		m, err := commit(s, s.ToMove(), "Shoot "+shot)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Apply(map[int]games.Move{s.ToMove(): m}); err != nil {
			t.Fatal(err)
		}
	}
	v := s.View()
	flat := func(b string) string { return strings.NewReplacer(" ", "", "\n", "").Replace(b) }
	for seat := 0; seat < 2; seat++ {
		mine, _ := s.Query(seat, games.ParseLine("MyBoard"))
		theirs, _ := s.Query(seat, games.ParseLine("Board"))
		if got := string(v.Seen[seat][seat].Cells); got != flat(mine) {
			t.Errorf("seat %d sees its waters as %q, MyBoard says %q", seat, got, flat(mine))
		}
		if got := string(v.Seen[seat][1-seat].Cells); got != flat(theirs) {
			t.Errorf("seat %d sees the enemy's waters as %q, Board says %q", seat, got, flat(theirs))
		}
	}
	want := []string{
		"#---" + "----" + "--SS",
		"----" + "-xS-" + "---#",
	}
	for p, w := range want {
		if got := string(v.Grids[p].Cells); got != w {
			t.Errorf("spectators see seat %d's waters as %q, want %q", p, got, w)
		}
	}
	if m := (games.Mark{Grid: 1, X: 1, Y: 1, Seat: 0, Kind: games.MarkLast}); len(v.Marks) != 1 || v.Marks[0] != m {
		t.Errorf("marks %+v, want %+v", v.Marks, m)
	}
}
