//go:build unix

package procbot_test

import (
	"fmt"
	"testing"
	"time"

	"judge/judge"
	"judge/judge/judgetest"
	"judge/judge/procbot"
)

// A bot that closes its stdin or its stdout, and then exits, waits
// without a word, or asks a question and computes on, is a crash: every
// time, whichever the judge sees first of the closed pipe, the closed
// pty and the bot's end. The turn's limit is long, so a run that waits
// for it shows as a timeout; the status is what is checked.
func TestClosedStreamIsACrash(t *testing.T) {
	if testing.Short() {
		t.Skip("300 turns take a while")
	}
	const limit = 20 * time.Second
	for _, io := range []procbot.IO{procbot.PTY, procbot.Pipe} {
		runs := 40
		if io == procbot.Pipe {
			runs = 10
		}
		for _, which := range []string{"in", "out"} {
			for _, then := range []string{"exit", "wait", "query"} {
				t.Run(fmt.Sprintf("%s/%s-%s", io, which, then), func(t *testing.T) {
					t.Parallel()
					spec := judgetest.Spec(t, "closein", "judge/procbot/testdata/closein.c", which, then)
					statuses := map[judge.Status]int{}
					failed := 0
					for i := 0; i < runs && failed < 3; i++ {
						start := time.Now()
						tr := playTurn(t, spec, procbot.Options{Host: judgetest.Host(), IO: io}, limit)
						statuses[tr.status]++
						if tr.status != judge.Crash {
							failed++
							t.Errorf("run %d: %s after %v (%s)", i+1, tr.status, time.Since(start).Round(time.Millisecond), tr.reason)
						}
					}
					t.Logf("%d runs: %v", runs, statuses)
				})
			}
		}
	}
}
