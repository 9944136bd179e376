package battleship_test

import (
	"strings"
	"testing"

	"judge/games"
	"judge/games/battleship"
)

// Each shot that sinks a ship is named, the first and the last apart;
// other shots are not; the end says the turn it came after.
func TestExplainSinks(t *testing.T) {
	s := newGame(t, 3, 2, [battleship.MaxLen + 1]int{1: 2})
	fleet := parseFleet(t, `
		a - b
		- - -`)
	if err := s.Apply(map[int]games.Move{0: fleetMove(fleet), 1: fleetMove(fleet)}); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, shot := range []string{"0 0", "1 1", "1 0", "0 1", "2 0"} {
		seat := s.ToMove()
		m, err := commit(s, seat, "Shoot "+shot)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Apply(map[int]games.Move{seat: m}); err != nil {
			t.Fatal(err)
		}
		for _, n := range s.Explain() {
			got = append(got, n.Kind+" "+n.Text)
		}
	}
	want := []string{
		"sunk seat 0 sank seat 1's ship of 1 at (0, 0): the first of its 2",
		"sunk seat 0 sank seat 1's ship of 1 at (2, 0): the last of its fleet",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("notes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if r := s.Render(); !strings.HasPrefix(r, "game over after turn 6: seat 0 sank the whole fleet of seat 1\n") {
		t.Errorf("the end is drawn as\n%s", r)
	}
}
