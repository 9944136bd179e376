package procbot_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"judge/judge"
	"judge/judge/judgetest"
	"judge/judge/procbot"
)

// A Go bot that keeps 100 MiB and makes garbage runs at level namespaces,
// where only an RLIMIT_DATA bounds its memory (256 MiB): GOMEMLIMIT in its
// environment (procbot.RuntimeEnv) keeps Go's heap within it. Without it
// (GOMEMLIMIT=off) the same bot runs out of memory with the Go of today;
// that is logged, not asserted.
func TestGoKeepsToTheLimit(t *testing.T) {
	if !slices.Contains(levels(), procbot.Namespaces) {
		t.Skip("no level namespaces here")
	}
	argv := judgetest.Bot(t, "judge/procbot/testdata/gochurn")
	run := func(env map[string]string) turn {
		return playTurn(t, procbot.Spec{Name: "gochurn", Argv: argv},
			procbot.Options{Level: procbot.Namespaces, Env: env}, 30*time.Second)
	}
	tr := run(nil)
	if tr.status != judge.OK || !strings.Contains(tr.out, "#END") {
		t.Errorf("with GOMEMLIMIT from the limit: %s (%s), output %q", tr.status, tr.reason, tr.out)
	}
	t.Logf("with GOMEMLIMIT from the limit: %s", strings.TrimSpace(string(tr.final.Stderr)))
	off := run(map[string]string{"GOMEMLIMIT": "off"})
	t.Logf("with GOMEMLIMIT=off: %s (%.100s)", off.status, off.reason)
}
