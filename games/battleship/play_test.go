package battleship

import (
	"maps"
	"strings"
	"testing"
)

// A fleet is checked ship by ship as it is typed: forms, length, grid,
// overlaps.
func TestPersonFleet(t *testing.T) {
	fl := &fleet{w: 10, h: 10, at: map[[2]int]bool{}}
	for _, tt := range []struct {
		in   string
		n    int
		want string
		err  string
	}{
		{"3,3-3,7", 5, "PlaceShip 3,3-3,7", ""},
		{"3,7-3,3", 5, "", "overlaps a ship you placed at 3,3"},
		{"5,0-2,0", 4, "PlaceShip 2,0-5,0", ""},
		{"0 1 3 down", 3, "PlaceShip 0,1-0,3", ""},
		{"0 5 across", 3, "PlaceShip 0,5-2,5", ""},
		{"8 8 A", 2, "PlaceShip 8,8-9,8", ""},
		{"9 9 across", 2, "", "leaves the 10×10 grid"},
		{"0 9 3 across", 2, "", "length is 2, not 3"},
		{"0,0-1,1", 2, "", "not straight"},
		{"0,0-2,0", 2, "", "is 3 long"},
		{"0 0 sideways", 2, "", "two ends"},
		{"0,0-x", 2, "", "two ends"},
	} {
		got, err := fl.place(tt.in, tt.n)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%q: got %q, %v; want an error saying %q", tt.in, got, err, tt.err)
			}
			continue
		}
		if err != nil || strings.Join(got, "; ") != tt.want {
			t.Errorf("%q: got %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
	if d := fl.draw(); !strings.Contains(d, "3  S - - S - - - - - -") || !strings.Contains(d, "0  - - S S S S - - - -") {
		t.Errorf("the fleet drawn:\n%s", d)
	}
}

// random places the rest of a fleet where it fits, clear of the ships
// placed, and leaves the fleet as it was when it cannot.
func TestPersonFleetRandom(t *testing.T) {
	fl := &fleet{w: 5, h: 3, at: map[[2]int]bool{}}
	if _, err := fl.place("0,0-4,0", 5); err != nil {
		t.Fatal(err)
	}
	for _, intN := range []func(int) int{func(int) int { return 0 }, func(n int) int { return n - 1 }} {
		f := &fleet{w: fl.w, h: fl.h, at: maps.Clone(fl.at), placed: 1}
		cmds, err := f.random([]int{5, 3}, intN)
		if err != nil || len(cmds) != 2 || f.placed != 3 || len(f.at) != 13 {
			t.Fatalf("%q, %v; %d ships on %d cells", cmds, err, f.placed, len(f.at))
		}
		if !strings.HasPrefix(cmds[0], "PlaceShip ") || !strings.HasSuffix(cmds[0], ",1-4,1") && !strings.HasSuffix(cmds[0], ",2-4,2") {
			t.Errorf("the ship of 5 at %q", cmds[0])
		}
	}
	if _, err := fl.random([]int{5, 5, 5}, func(int) int { return 0 }); err == nil || !strings.Contains(err.Error(), "no room") {
		t.Errorf("three ships of 5 more on 5×3: %v", err)
	}
	if fl.placed != 1 || len(fl.at) != 5 {
		t.Errorf("after no room: %d ships on %d cells", fl.placed, len(fl.at))
	}
}
