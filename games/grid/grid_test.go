package grid

import (
	"math/rand/v2"
	"testing"
)

func TestLines(t *testing.T) {
	tests := []struct {
		board string
		k     int
		win   byte
	}{
		{"- - -\n- - -\n- - -", 3, Empty},
		{"X X X\n- O -\nO - -", 3, 'X'},
		{"O X -\nO X -\nO - X", 3, 'O'},
		{"X - -\n- X -\n- - X", 3, 'X'},
		{"- - O\n- O -\nO - -", 3, 'O'},
		{"X X - X", 3, Empty},
		{"X X - X", 2, 'X'},
		{"- - - -\n- - - -\nO O O O", 4, 'O'},
		{"-\nX\nX\nX", 3, 'X'},
	}
	for _, tt := range tests {
		b, err := Parse(tt.board, "-XO")
		if err != nil {
			t.Fatal(err)
		}
		if got := b.Winner(tt.k); got != tt.win {
			t.Errorf("%q k=%d: Winner %q, want %q", tt.board, tt.k, got, tt.win)
		}
		if b.String() != tt.board {
			t.Errorf("String() = %q, want %q", b.String(), tt.board)
		}
	}
	if _, err := Parse("X X\nX", "-XO"); err == nil {
		t.Error("ragged board: no error")
	}
	if _, err := Parse("X Y", "-XO"); err == nil {
		t.Error("bad symbol: no error")
	}
}

// TestLineThroughMatchesWinner fills random boards cell by cell and
// checks the check after a move against a scan of the whole board.
func TestLineThroughMatchesWinner(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for g := 0; g < 2000; g++ {
		w, h := 1+rng.IntN(8), 1+rng.IntN(8)
		k := 1 + rng.IntN(max(w, h))
		b := New(w, h)
		for i := 0; i < w*h; i++ {
			x, y := rng.IntN(w), rng.IntN(h)
			if b.At(x, y) != Empty {
				continue
			}
			c := "XO"[rng.IntN(2)]
			before := b.Winner(k)
			b.Set(x, y, c)
			if before != Empty {
				break // a game would have ended
			}
			if got, want := b.LineThrough(x, y, k), b.Winner(k) == c; got != want {
				t.Fatalf("%d×%d k=%d after %c at (%d,%d): LineThrough %v, Winner %q\n%s", w, h, k, c, x, y, got, b.Winner(k), b)
			}
		}
	}
}
