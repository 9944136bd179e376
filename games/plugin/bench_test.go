package plugin_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"judge/games"
	"judge/games/connect4"
	"judge/games/plugin"
	"judge/games/plugin/plugintest"
)

// BenchmarkQuery is the cost of one query of Connect Four: the built-in
// game's Query, and a call to the example referee, in WebAssembly and as
// a process (the same Go referee built natively), and the Python referee
// (referee.py, a process), each a request and a response line
// (docs/benchmarks.md).
//
//	go test ./games/plugin/ -run '^$' -bench Query -benchtime 20000x
func BenchmarkQuery(b *testing.B) {
	dir := plugintest.Connect4(b, true)
	wasm, err := plugin.Load(dir, plugin.Options{})
	if err != nil {
		b.Fatal(err)
	}
	spec, err := os.ReadFile(filepath.Join(dir, "game.toml"))
	if err != nil {
		b.Fatal(err)
	}
	pdir := b.TempDir()
	text := strings.Replace(string(spec), `wasm = "referee.wasm"`, `command = ["`+filepath.Join(dir, "referee")+`"]`, 1)
	if err := os.WriteFile(filepath.Join(pdir, "game.toml"), []byte(text), 0o644); err != nil {
		b.Fatal(err)
	}
	proc, err := plugin.Load(pdir, plugin.Options{})
	if err != nil {
		b.Fatal(err)
	}
	python, err := plugin.Load(plugintest.Connect4Python(b), plugin.Options{})
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		g    games.Game
	}{{"builtin", connect4.Game{}}, {"wasm", wasm}, {"process", proc}, {"python", python}} {
		b.Run(c.name, func(b *testing.B) {
			st, err := c.g.New(games.Params{"width": 7, "height": 6, "k": 4}, 1)
			if err != nil {
				b.Fatal(err)
			}
			defer games.Close(st)
			l := games.ParseLine("Heights")
			b.ResetTimer()
			for range b.N {
				if _, err := st.Query(0, l); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N), "µs/call")
		})
	}
}

// BenchmarkNew is the cost of a new game: for the WebAssembly referee,
// an instance of the compiled module, greeted and started.
func BenchmarkNew(b *testing.B) {
	g, err := plugin.Load(plugintest.Connect4(b, false), plugin.Options{})
	if err != nil {
		b.Fatal(err)
	}
	st, err := g.New(nil, 1) // compiles the module, once
	if err != nil {
		b.Fatal(err)
	}
	games.Close(st)
	b.ResetTimer()
	for range b.N {
		st, err := g.New(nil, 1)
		if err != nil {
			b.Fatal(err)
		}
		games.Close(st)
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N), "µs/game")
}
