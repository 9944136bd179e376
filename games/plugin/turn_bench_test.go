package plugin_test

import (
	"testing"

	"judge/games"
	"judge/games/connect4"
	"judge/games/plugin"
	"judge/games/plugin/plugintest"
)

// BenchmarkTurns is the cost of the calls of a game's turns, as the
// example bots make them: Orders, the queries Params and Heights, a
// DropDisc command, Commit and Apply, a turn; for the built-in game and
// the example referee in WebAssembly (docs/benchmarks.md).
//
//	go test ./games/plugin/ -run '^$' -bench Turns -benchtime 200x
func BenchmarkTurns(b *testing.B) {
	wasm, err := plugin.Load(plugintest.Connect4(b, false), plugin.Options{})
	if err != nil {
		b.Fatal(err)
	}
	st, err := wasm.New(nil, 1) // compiles the module, once
	if err != nil {
		b.Fatal(err)
	}
	games.Close(st)
	params, heights := games.ParseLine("Params"), games.ParseLine("Heights")
	for _, c := range []struct {
		name string
		g    games.Game
	}{{"builtin", connect4.Game{}}, {"wasm", wasm}} {
		b.Run(c.name, func(b *testing.B) {
			// Whole games of the same moves, the clock stopped between
			// them: each game's first turn starts a new referee.
			turns := 0
			for range b.N {
				b.StopTimer()
				st, err := c.g.New(games.Params{"width": 7, "height": 6, "k": 4}, 1)
				if err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				for col := 0; col < 7*6 && !st.Outcome().Over; col++ {
					seat := st.Movers()[0]
					o := st.Orders(seat)
					for _, l := range []games.Line{params, heights} {
						if _, err := st.Query(seat, l); err != nil {
							b.Fatal(err)
						}
					}
					// Columns 0,1,...,6 over and over: 3 turns short of
					// a full board, and a diagonal win.
					if err := o.Command(games.ParseLine("DropDisc " + string(rune('0'+col%7)))); err != nil {
						b.Fatal(err)
					}
					mv, err := o.Commit()
					if err != nil {
						b.Fatal(err)
					}
					if err := st.Apply(map[int]games.Move{seat: mv}); err != nil {
						b.Fatal(err)
					}
					turns++
				}
				b.StopTimer()
				games.Close(st)
				b.StartTimer()
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(turns), "µs/turn")
		})
	}
}
