package plugin

import (
	"encoding/json"
	"testing"

	"judge/games"
)

// FuzzRequests: the requests written by hand are byte for byte what
// encoding/json writes for them.
func FuzzRequests(f *testing.F) {
	f.Add(1, "Heights", "DropDisc 3", true)
	f.Add(0, "Say \"hi\" <&> \u00e9\x01\xff", "", false)
	f.Fuzz(func(t *testing.T, seat int, line, word string, twoSeats bool) {
		check := func(what string, got []byte, v any) {
			t.Helper()
			want, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != string(want) {
				t.Errorf("%s:\n got %s\nwant %s", what, got, want)
			}
		}
		check("lineRequest", lineRequest("query", seat, line), struct {
			Op   string `json:"op"`
			Seat int    `json:"seat"`
			Line string `json:"line"`
		}{"query", seat, line})
		check("seatRequest", seatRequest("commit", seat), struct {
			Op   string `json:"op"`
			Seat int    `json:"seat"`
		}{"commit", seat})
		list := []seatMove{{seat, games.Move{line, word}}}
		if twoSeats {
			list = append(list, seatMove{seat + 1, nil}, seatMove{seat + 2, games.Move{}})
		}
		params := games.Params{line: seat, word: -seat, "k": 4}
		if twoSeats {
			params = nil
		}
		check("newRequest", newRequest(params, uint64(seat)), struct {
			Op     string       `json:"op"`
			Params games.Params `json:"params"`
			Seed   uint64       `json:"seed"`
		}{"new", params, uint64(seat)})
		check("applyRequest", applyRequest(list), struct {
			Op    string     `json:"op"`
			Moves []seatMove `json:"moves"`
		}{"apply", list})
	})
}
