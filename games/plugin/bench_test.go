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

// BenchmarkQuery is the cost of one query of Connect Four, LastMove (a
// seat's: no status answers it ahead): the built-in game's Query, and a
// call to the example referee, in WebAssembly and as a process (the same
// Go referee built natively), and the Python referee (referee.py, a
// process), each a request and a response line (docs/benchmarks.md).
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
			l := games.ParseLine("LastMove")
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

// BenchmarkNew is the cost of a new game of the WebAssembly referee:
// kept, new on the referee of the game before (the example referee takes
// new again, plugin.FeatureReuse); instance, the same referee without the
// feature: an instance of the compiled module started, greeted and given
// new.
func BenchmarkNew(b *testing.B) {
	kept := plugintest.Connect4(b, false)
	// The example's sources, less the feature.
	src := filepath.Join(plugintest.Root(b), "examples", "games", "connect4")
	tmp := b.TempDir()
	if err := os.CopyFS(tmp, os.DirFS(src)); err != nil {
		b.Fatal(err)
	}
	ref := filepath.Join(tmp, "referee.go")
	code, err := os.ReadFile(ref)
	if err != nil {
		b.Fatal(err)
	}
	const feature = `"reuse", `
	if !strings.Contains(string(code), feature) {
		b.Fatalf("%s lists no %s", ref, feature)
	}
	if err := os.WriteFile(ref, []byte(strings.Replace(string(code), feature, "", 1)), 0o644); err != nil {
		b.Fatal(err)
	}
	// A module of its own: the standard library only.
	if err := os.WriteFile(filepath.Join(tmp, "go.mod"), []byte("module referee\n\ngo 1.24\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	instance := b.TempDir()
	if err := os.CopyFS(instance, os.DirFS(kept)); err != nil {
		b.Fatal(err)
	}
	plugintest.Build(b, tmp, filepath.Join(instance, "referee.wasm"), "wasip1", "wasm", plugintest.Reactor)
	for _, c := range []struct{ name, dir string }{{"kept", kept}, {"instance", instance}} {
		b.Run(c.name, func(b *testing.B) {
			g, err := plugin.Load(c.dir, plugin.Options{})
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
		})
	}
}
