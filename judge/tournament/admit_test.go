package tournament

import (
	"bytes"
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestAdmission: a match is held back while more tasks are runnable than
// there are CPUs, and the progress line says so; it is admitted when the
// queue shrinks, and always when no match is playing.
func TestAdmission(t *testing.T) {
	var queue atomic.Int64
	queue.Store(7)
	var out bytes.Buffer
	p := &Progress{W: &out, Terminal: true}
	p.begin(3, 0, false)
	a := &admission{cpus: 2, runnable: func() (int, error) { return int(queue.Load()), nil }, poll: time.Millisecond, progress: p}
	ctx := context.Background()

	// None playing: admitted whatever the queue.
	if err := a.wait(ctx); err != nil {
		t.Fatal(err)
	}
	// One playing, a long queue: held back until it shrinks.
	admitted := make(chan error, 1)
	go func() { admitted <- a.wait(ctx) }()
	select {
	case err := <-admitted:
		t.Fatalf("admitted (%v) with 7 runnable tasks on 2 CPUs", err)
	case <-time.After(50 * time.Millisecond):
	}
	if !strings.Contains(out.String(), "holding back: 7 tasks runnable on 2 CPUs") {
		t.Errorf("the progress line does not say it holds back: %q", out.String())
	}
	queue.Store(2)
	if err := <-admitted; err != nil {
		t.Fatal(err)
	}
	if p.held != "" {
		t.Errorf("still %q once admitted", p.held)
	}
	// Held back, then the run ends: the wait ends with it.
	queue.Store(9)
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

func TestRunQueue(t *testing.T) {
	n, err := runQueue()
	if err != nil {
		t.Skip(err)
	}
	if n < 0 {
		t.Errorf("run queue %d", n)
	}
}
