package procbot_test

import (
	"context"
	"errors"
	"testing"

	"judge/judge"
	"judge/judge/judgetest"
	"judge/judge/procbot"
)

// TestStartCancelled: a bot whose match is cancelled before its program
// started does not start: Bot.Start passes its context down to the
// sandbox, and returns its error. A bot whose Options have no Host says
// so.
func TestStartCancelled(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	b := procbot.Bot{Spec: procbot.Spec{Name: "true", Argv: []string{"/bin/true"}}, Options: judgetest.Proc(procbot.Options{})}
	if p, err := b.Start(ctx, judge.Seat{}); !errors.Is(err, context.Canceled) {
		if err == nil {
			p.Stop(0)
		}
		t.Fatalf("Start on a cancelled context: %v, want context.Canceled", err)
	}
	b.Options.Host = nil
	if _, err := b.Start(t.Context(), judge.Seat{}); err == nil {
		t.Fatal("a bot with no Host started")
	}
}
