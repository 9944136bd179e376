//go:build linux

package sandbox

import (
	"context"
	"errors"
	"net"
	"path/filepath"
	"testing"
	"time"
)

// promptly bounds how long a cancelled start may take to return: far
// more than it needs (a kill and a wait), far less than what it cancels
// (a bus that never answers, scopeTimeout).
const promptly = 5 * time.Second

// TestStartCancelled: Start on a context already ended returns its
// error at once, before probing the machine, and the Host then starts
// programs as if nothing had happened.
func TestStartCancelled(t *testing.T) {
	t.Parallel()
	h := newHost(t, Options{})
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := h.Start(ctx, Spec{Argv: []string{"/bin/true"}, Limits: DefaultLimits}); !errors.Is(err, context.Canceled) {
		t.Fatalf("Start on a cancelled context: %v, want context.Canceled", err)
	}
	p, err := h.Start(t.Context(), Spec{Argv: []string{"/bin/true"}, Limits: DefaultLimits})
	if err != nil {
		t.Fatal(err)
	}
	<-p.Done()
	if e := p.Exit(); e.Code != 0 {
		t.Errorf("exit %v", e)
	}
}

// TestPrewarmCancelled: cancelling while ready sandboxes are built ends
// the build under way (its init killed, its cgroups removed) and the
// ones after it; Prewarm says so with ctx's error.
func TestPrewarmCancelled(t *testing.T) {
	t.Parallel()
	available(t, Namespaces)
	h := newHost(t, Options{})
	spec := Spec{Argv: []string{"/bin/true"}, Limits: hostileLimits}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	// Cancelled once the first is built: the next build is under way.
	go func() {
		for ctx.Err() == nil {
			h.pool.mu.Lock()
			n := h.pool.nIdle
			h.pool.mu.Unlock()
			if n > 0 {
				cancel()
				return
			}
			time.Sleep(time.Millisecond)
		}
	}()
	start := time.Now()
	err := h.Prewarm(ctx, spec, maxIdlePerShape)
	took := time.Since(start)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Prewarm cancelled: %v, want context.Canceled", err)
	}
	if took > promptly {
		t.Errorf("Prewarm took %v to end once cancelled", took)
	}
	h.pool.mu.Lock()
	n := h.pool.nIdle
	h.pool.mu.Unlock()
	if n >= maxIdlePerShape {
		t.Errorf("%d ready sandboxes: the builds went on after the cancel", n)
	}
}

// TestBuildCancelled: a slot build cancelled while its init is being
// made ready returns ctx's error and leaves no init behind.
func TestBuildCancelled(t *testing.T) {
	t.Parallel()
	available(t, Namespaces)
	h := newHost(t, Options{})
	sh, _, err := h.prepare(t.Context(), Spec{Argv: []string{"/bin/true"}, Limits: hostileLimits})
	if err != nil || sh == nil {
		t.Fatalf("prepare: %v, %v", sh, err)
	}
	for range 20 {
		ctx, cancel := context.WithCancel(t.Context())
		// Cancelled as soon as the build runs: in the middle of it, or
		// before, never after (each build is a fresh init).
		go cancel()
		s, err := buildSlot(ctx, sh)
		if err == nil {
			// Cancelled after the init was ready: a good slot.
			s.destroy()
			continue
		}
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("buildSlot cancelled: %v, want context.Canceled", err)
		}
	}
}

// TestScopeRequestCancelled: asking systemd for a scope, where the bus
// accepts the connection and never answers, ends as soon as ctx ends,
// with its error.
func TestScopeRequestCancelled(t *testing.T) {
	t.Parallel()
	sock := filepath.Join(t.TempDir(), "bus")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		var held []net.Conn
		defer func() {
			for _, c := range held {
				c.Close()
			}
		}()
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			held = append(held, c) // read nothing, answer nothing
		}
	}()
	ctx, cancel := context.WithCancel(t.Context())
	time.AfterFunc(200*time.Millisecond, cancel)
	start := time.Now()
	err = startScope(ctx, []busAddr{{"unix:path=" + sock, false}}, "judge-test.scope", 1)
	took := time.Since(start)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("startScope with a bus that never answers: %v, want context.Canceled", err)
	}
	if took > promptly {
		t.Errorf("startScope took %v to end once cancelled", took)
	}
}
