package tournament

import (
	"context"
	"math"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"judge/judge/judgetest"
)

// TestAdmission: a match is held back while the bots spend more than a
// tenth of their turns waiting for a CPU, and the progress line says so;
// it is admitted when they no longer do, when the share is taken over too
// little time to mean anything, and always when no match is playing.
func TestAdmission(t *testing.T) {
	var share atomic.Uint64 // float64 bits
	set := func(f float64) { share.Store(math.Float64bits(f)) }
	over := time.Second
	set(0.5)
	var out judgetest.SyncBuffer // the held match's wait reports as the test reads
	p := &Progress{W: &out, Terminal: true}
	p.begin(3, 0, false)
	a := &admission{cpus: 2, lateness: func() (float64, time.Duration) { return math.Float64frombits(share.Load()), over }, poll: time.Millisecond, progress: p}
	ctx := context.Background()

	// None playing: admitted whatever the lateness.
	if err := a.wait(ctx); err != nil {
		t.Fatal(err)
	}
	// One playing, bots waiting half their time: held back until they
	// no longer do.
	admitted := make(chan error, 1)
	go func() { admitted <- a.wait(ctx) }()
	select {
	case err := <-admitted:
		t.Fatalf("admitted (%v) with bots waiting for a CPU half their time", err)
	case <-time.After(50 * time.Millisecond):
	}
	if !strings.Contains(out.String(), "holding back: bots waited for a CPU 50% of their time limits") {
		t.Errorf("the progress line does not say it holds back: %q", out.String())
	}
	set(0.05)
	if err := <-admitted; err != nil {
		t.Fatal(err)
	}
	if p.held != "" {
		t.Errorf("still %q once admitted", p.held)
	}
	// Held back, then the run ends: the wait ends with it.
	set(0.9)
	cctx, cancel := context.WithCancel(ctx)
	go func() { admitted <- a.wait(cctx) }()
	time.Sleep(10 * time.Millisecond)
	cancel()
	if err := <-admitted; err == nil {
		t.Error("admitted after the context ended")
	}
	// Both matches end: the next is admitted at once.
	a.done()
	a.done()
	if err := a.wait(ctx); err != nil {
		t.Fatal(err)
	}
}
