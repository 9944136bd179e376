package connect4_test

import (
	"testing"
	"time"

	"judge/games"
	"judge/games/catalog"
	"judge/games/plugin"
	"judge/games/plugin/plugintest"
	"judge/judge/judgetest"
)

// BenchmarkPluginMatches plays the same matches of the example bots
// (random.c against random_bot.py) through the built-in connect4 and
// through Connect Four as a plugin game, its referee in WebAssembly,
// alternately, and reports the ratio of their times: plugin / built-in
// (docs/benchmarks.md).
//
//	go test ./examples/connect4/ -run '^$' -bench PluginMatches -benchtime 20x
func BenchmarkPluginMatches(b *testing.B) {
	g, err := plugin.Load(plugintest.Connect4(b, false), plugin.Options{})
	if err != nil {
		b.Fatal(err)
	}
	builtin, err := catalog.Lookup("connect4")
	if err != nil {
		b.Fatal(err)
	}
	py, err := plugin.Load(plugintest.Connect4Python(b), plugin.Options{})
	if err != nil {
		b.Fatal(err)
	}
	// The referee's module is compiled once, at the game's first match:
	// not counted.
	st, err := g.New(nil, 1)
	if err != nil {
		b.Fatal(err)
	}
	games.Close(st)
	random := judgetest.Spec(b, "random", "examples/connect4/random.c")
	python := judgetest.Spec(b, "random_bot.py", "examples/connect4/random_bot.py")
	var spent [3]time.Duration
	turns := 0
	b.ResetTimer()
	for i := range b.N {
		seed := uint64(i + 1)
		for k, game := range []games.Game{builtin.Game, g, py} {
			t0 := time.Now()
			res := judgetest.PlayGame(b, game, seed, nil, random, python)
			spent[k] += time.Since(t0)
			turns += res.Turns
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(spent[0].Milliseconds())/float64(b.N), "builtin-ms/match")
	b.ReportMetric(float64(spent[1].Milliseconds())/float64(b.N), "wasm-ms/match")
	b.ReportMetric(float64(spent[1])/float64(spent[0]), "wasm/builtin")
	b.ReportMetric(float64(spent[2].Milliseconds())/float64(b.N), "python-ms/match")
	b.ReportMetric(float64(spent[2])/float64(spent[0]), "python/builtin")
	b.ReportMetric(float64(turns)/float64(3*b.N), "turns/match")
}
