package bots

import (
	"context"
	"errors"
	"judge/judge/judgetest"
	"testing"
	"time"
)

// TestRuntimeInterrupted: a version command stopped by the caller (a
// Ctrl-C) is the interruption, not a runtime that gives no answer.
func TestRuntimeInterrupted(t *testing.T) {
	l := &Languages{Host: judgetest.Host()}
	lang := &Language{Name: "slow", Version: []string{"sleep", "10"}}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	_, err := l.Runtime(ctx, lang, "bot.slow", t.TempDir())
	var re *RuntimeError
	if !errors.Is(err, context.Canceled) || errors.As(err, &re) {
		t.Fatalf("Runtime = %v; want the interruption, not a RuntimeError", err)
	}
}
