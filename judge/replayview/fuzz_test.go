package replayview_test

import (
	"bytes"
	"os"
	"testing"

	"judge/games/catalog"
	"judge/judge"
	"judge/judge/replayview"
)

// FuzzReplay: a replay file, however damaged, is read, played through its
// game's rules and decoded for the viewer with an error or a result:
// never a panic or a hang.
func FuzzReplay(f *testing.F) {
	golden, err := os.ReadFile("../procbot/testdata/golden/tictactoe-strong-override.json")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(golden)
	for _, s := range []string{
		`{"version":1,"game":"connect4","params":{},"seed":3,"turns":[{"turn":1,"moves":[{"seat":0,"move":["DropDisc 3"],"status":"ok"}]},{"turn":2,"moves":[{"seat":1,"status":"crash"}]}],"outcome":{"winner":0}}`,
		`{"version":1,"game":"gomoku","params":{"n":9},"seed":2,"turns":[{"turn":1,"moves":[{"seat":0,"move":["PlaceSymbol 4 4"],"status":"ok"}]}],"outcome":{"winner":-1}}`,
		`{"version":1,"game":"battleship","seed":4,"turns":[{"turn":1,"moves":[{"seat":0,"move":["PlaceShip 2 0 0 H"],"status":"ok"},{"seat":1,"status":"timeout"}]}],"outcome":{"winner":0}}`,
		`{"version":1,"game":"splix-small","params":{"size":24,"turns":5,"players":3},"seed":5,"turns":[{"turn":1,"moves":[{"seat":0,"move":["Move up"],"status":"ok"},{"seat":1,"status":"crash"},{"seat":2,"status":"crash"}]}],"outcome":{"winner":0}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		rp, err := judge.ReadReplay(bytes.NewReader(data))
		if err != nil {
			return
		}
		v, err := catalog.Lookup(rp.Game)
		if err != nil {
			return
		}
		steps, seats := 0, 0
		err = replayview.Play(v.Game, rp, func(s replayview.Step) error {
			if s.Index != steps {
				t.Fatalf("step %d after %d steps", s.Index, steps)
			}
			steps++
			seats = s.State.Seats()
			return nil
		})
		if err == nil && steps != len(rp.Turns)+1 {
			t.Errorf("%d steps for %d turns", steps, len(rp.Turns))
		}
		if w := rp.Outcome.Winner; err == nil && (w < -1 || w >= seats) {
			t.Errorf("a replay whose winner is seat %d of %d plays", w, seats)
		}
		if d, err := replayview.Decode(v.Game, rp); err == nil && len(d.Frames) != len(rp.Turns)+1 {
			t.Errorf("%d frames for %d turns", len(d.Frames), len(rp.Turns))
		}
		replayview.TurnTraces(rp)
	})
}
