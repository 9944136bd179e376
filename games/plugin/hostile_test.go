package plugin_test

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"judge/games"
	"judge/games/plugin"
	"judge/games/plugin/plugintest"
)

// The misbehaviours of testdata/hostile, by seed.
const (
	modeGood = iota
	modeLoop
	modeBomb
	modeHuge
	modeGarbage
	modeExit
	modeError
	modeBadStatus
	modeExtra
	modeStarve
	modeQuits // testdata/hostile.py only: exits once the game is over
)

// heapBound is what a hostile referee may add to the judge's heap, in
// MiB: a WebAssembly instance's memory may live there (where it cannot
// be mapped apart; on Unix it is), up to memory_mib (64) and twice that
// for a moment while it grows (the old memory copied into the new),
// besides an answer read up to MaxAnswer and the judge's own
// work. An unbounded referee would go far past it (the huge answer is
// 8 MiB a line, the memory bomb endless).
const heapBound = 2*64 + 2*plugin.MaxAnswer>>20 + 16

// hostileSpec is the game.toml of the hostile referees; referee is its
// [referee] table's first line.
func hostileGame(t *testing.T, referee string) string {
	t.Helper()
	dir := t.TempDir()
	spec := `protocol = 1
name = "hostile"
description = "a referee that misbehaves at turn 3"
seats = [2, 2]
[referee]
` + referee + `
memory_mib = 64
call_ms = 500
[[queries]]
name = "Turn"
[[queries]]
name = "Games"
[[commands]]
name = "Go"
`
	if err := os.WriteFile(filepath.Join(dir, "game.toml"), []byte(spec), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// hostileWasm is the folder of the hostile referee in WebAssembly, built
// with the go build flags given (plugintest.Reactor, or none: a WASI
// command).
func hostileWasm(t *testing.T, flags ...string) string {
	dir := hostileGame(t, `wasm = "hostile.wasm"`)
	plugintest.Build(t, filepath.Join(plugintest.Root(t), "games", "plugin", "testdata", "hostile"), filepath.Join(dir, "hostile.wasm"), "wasip1", "wasm", flags...)
	return dir
}

// play plays the hostile game of seed until it ends or its referee fails,
// and returns the fault.
func play(t *testing.T, g *plugin.Game, seed uint64) error {
	t.Helper()
	st, err := g.New(nil, seed)
	if err != nil {
		t.Fatal(err)
	}
	defer games.Close(st)
	for n := 0; !st.Outcome().Over && n < 20; n++ {
		if err := games.Fault(st); err != nil {
			return err
		}
		movers := st.Movers()
		if len(movers) == 0 {
			break
		}
		seat := movers[0]
		o := st.Orders(seat)
		if _, err := st.Query(seat, games.ParseLine("Turn")); err != nil {
			if !errors.Is(err, games.ErrReferee) {
				t.Fatalf("seed %d: query: %v, want a referee error", seed, err)
			}
			continue
		}
		if err := o.Command(games.ParseLine("Go")); err != nil {
			continue
		}
		mv, err := o.Commit()
		if err != nil {
			continue
		}
		_ = st.Apply(map[int]games.Move{seat: mv})
	}
	return games.Fault(st)
}

// peakHeap samples the heap in use until stop is called, and returns the
// largest growth seen over the heap at its start, in MiB.
func peakHeap() (stop func() float64) {
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	base, peak := ms.HeapInuse, ms.HeapInuse
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				var m runtime.MemStats
				runtime.ReadMemStats(&m)
				peak = max(peak, m.HeapInuse)
			}
		}
	}()
	return func() float64 {
		close(done)
		wg.Wait()
		return float64(peak-base) / (1 << 20)
	}
}

type hostileCase struct {
	name   string
	seed   uint64
	reason string // a part of the fault's words
	// wasm, when not "", is the part for a WebAssembly referee;
	// reactor, for one built as a reactor.
	wasm, reactor string
}

// wasmReason is a part of the fault's words for a WebAssembly referee,
// a reactor or a WASI command.
func (c hostileCase) wasmReason(reactor bool) string {
	switch {
	case reactor && c.reactor != "":
		return c.reactor
	case c.wasm != "":
		return c.wasm
	}
	return c.reason
}

var hostileCases = []hostileCase{
	{"endless loop", modeLoop, "did not answer within 500ms", "", ""},
	{"memory bomb", modeBomb, "", "", ""},
	{"huge answer", modeHuge, "longer than 1048576 bytes", "", ""},
	{"not JSON", modeGarbage, `answered "hello, judge", not a JSON object`, "", ""},
	{"exits", modeExit, "hostile: giving up at turn 3", "", ""},
	{"error", modeError, "it answered an error: the referee lost its way", "", ""},
	{"bad status", modeBadStatus, "movers [7]", "", ""},
	// Seen at the next request, or taken for its answer (the line may
	// arrive after the request): either way a fault. A reactor's step
	// is seen to write two, at the next call.
	{"extra line", modeExtra, "", "", "it wrote a line no request asked for"},
	// A process is only seen not to answer; a WebAssembly referee, to
	// wait for input with its request read, at once.
	{"reads on", modeStarve, "did not answer within 500ms", "waited for more input without answering", ""},
}

// TestHostileWasm: each misbehaviour of a WebAssembly referee, a WASI
// command or a reactor, is its fault, a referee error with a reason, and
// the judge's memory stays bounded. The referee takes new again
// (FeatureReuse): each match after the well-behaved one may get its
// instance, never one that failed.
func TestHostileWasm(t *testing.T) {
	t.Run("command", func(t *testing.T) { hostileWasmCases(t, false) })
	t.Run("reactor", func(t *testing.T) { hostileWasmCases(t, true) })
}

func hostileWasmCases(t *testing.T, reactor bool) {
	var dir string
	if reactor {
		dir = hostileWasm(t, plugintest.Reactor)
	} else {
		dir = hostileWasm(t)
	}
	g, err := plugin.Load(dir, plugin.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// The huge answer is the size bound's to catch, not the clock's: its
	// referee gets 10 s a call, to build 8 MiB in time however slow the
	// machine (the race detector, other work).
	slow := filepath.Join(t.TempDir(), "slow")
	if err := os.CopyFS(slow, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	spec, err := os.ReadFile(filepath.Join(slow, "game.toml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(slow, "game.toml"), bytes.Replace(spec, []byte("call_ms = 500"), []byte("call_ms = 10000"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	huge, err := plugin.Load(slow, plugin.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := play(t, g, modeGood); err != nil {
		t.Fatalf("the well-behaved game: %v", err)
	}
	for _, tc := range hostileCases {
		t.Run(tc.name, func(t *testing.T) {
			gg := g
			if tc.seed == modeHuge {
				gg = huge
			}
			stop := peakHeap()
			err := play(t, gg, tc.seed)
			grew := stop()
			t.Logf("%s: %v (heap grew by %.1f MiB at most)", tc.name, err, grew)
			checkFault(t, err, tc.wasmReason(reactor))
			if grew > heapBound {
				t.Errorf("the judge's heap grew by %.0f MiB, over %d", grew, heapBound)
			}
		})
	}
}

// TestHostileProcess: the same with the referee in Python, run as a
// plain process (the memory bomb needs the sandbox: procbot's tests).
func TestHostileProcess(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("needs python3")
	}
	script := filepath.Join(plugintest.Root(t), "games", "plugin", "testdata", "hostile.py")
	g, err := plugin.Load(hostileGame(t, `command = ["python3", "`+script+`"]`), plugin.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := play(t, g, modeGood); err != nil {
		t.Fatalf("the well-behaved game: %v", err)
	}
	for _, tc := range hostileCases {
		if tc.seed == modeBomb {
			continue
		}
		t.Run(tc.name, func(t *testing.T) {
			stop := peakHeap()
			err := play(t, g, tc.seed)
			grew := stop()
			t.Logf("%s: %v (heap grew by %.1f MiB at most)", tc.name, err, grew)
			checkFault(t, err, tc.reason)
			if grew > heapBound {
				t.Errorf("the judge's heap grew by %.0f MiB, over %d", grew, heapBound)
			}
		})
	}
}

func checkFault(t *testing.T, err error, reason string) {
	t.Helper()
	if err == nil || !errors.Is(err, games.ErrReferee) {
		t.Fatalf("fault %v, want a referee error", err)
	}
	if !strings.Contains(err.Error(), reason) {
		t.Errorf("fault %q, want it to say %q", err, reason)
	}
}
