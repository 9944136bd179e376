package games

import (
	"strings"
	"testing"
)

// A game that plays by its table: a click or a typed cell makes the
// click's command, a key its own, anything else is the command typed.
func TestPlayTable(t *testing.T) {
	tab := PlayTable{Prompt: "Place x y, or Pass", Click: "Place {x} {y}", Keys: map[string]string{"p": "Pass"}}
	pal := Palette{'.': {Glyph: " ", Colour: "#2e7d32"}, 'B': {Glyph: "●", Colour: "#000000"}}
	view := &View{Grids: []Grid{{Name: "board", W: 3, H: 2, Cells: []byte("..B...")}}, Seats: []string{"black: 1", "white: 0"}}
	p, err := tab.Plan(PlaySeat{Seat: 1, Seats: 2, Opponents: []string{"ann"}, View: view}, pal)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"board\n   0 1 2\n0      ●\n1", "seat 0: black: 1", "You are seat 1 (blue), against ann."} {
		if !strings.Contains(p.Text, want) {
			t.Errorf("the text does not show %q:\n%s", want, p.Text)
		}
	}
	if p.Help != "Click a cell, or type x y; p: Pass; or type a command." {
		t.Errorf("help %q", p.Help)
	}
	if p.Board == nil || len(p.Board().Grids) != 1 || len(p.Steps) != 1 {
		t.Fatalf("plan %+v", p)
	}
	st := p.Steps[0]
	if st.Prompt != tab.Prompt || st.Click != ClickCell || st.Key {
		t.Errorf("step %+v", st)
	}
	for _, tt := range []struct{ in, want, err string }{
		{"3 4", "Place 3 4", ""},
		{"3,4", "Place 3 4", ""},
		{"p", "Pass", ""},
		{"Place 1 1", "Place 1 1", ""},
		{"", "", "p (Pass)"},
	} {
		got, err := st.Parse(tt.in)
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
	column, _ := PlayTable{Prompt: "a column", Click: "DropDisc {x}"}.Plan(PlaySeat{}, nil)
	for in, want := range map[string]string{"3": "DropDisc 3", "3 5": "DropDisc 3", "DropDisc 1": "DropDisc 1"} {
		if got, err := column.Steps[0].Parse(in); err != nil || len(got) != 1 || got[0] != want {
			t.Errorf("a column's click, %q: got %q, %v; want %q", in, got, err, want)
		}
	}
	keys := PlayTable{Prompt: "a direction", Keys: map[string]string{"n": "Go N"}}
	if p, _ := keys.Plan(PlaySeat{}, nil); !p.Steps[0].Key || p.Steps[0].Click != "" || p.Board != nil {
		t.Errorf("a table of keys only: %+v", p.Steps[0])
	}
}
