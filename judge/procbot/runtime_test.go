//go:build unix

package procbot_test

import (
	"judge/sandbox/sandboxtest"
	"slices"
	"strings"
	"testing"
	"time"

	"judge/judge"
	"judge/judge/judgetest"
	"judge/judge/procbot"
	"judge/sandbox"
)

// A Go bot that keeps 100 MiB and makes garbage runs at level namespaces,
// where only an RLIMIT_DATA bounds its memory (256 MiB): GOMEMLIMIT in its
// environment (procbot.RuntimeEnv) keeps Go's heap within it. Without it
// (GOMEMLIMIT=off) the same bot runs out of memory with the Go of today;
// that is logged, not asserted. The turn's limit scales with how long the
// bot takes unsandboxed on this machine.
func TestGoKeepsToTheLimit(t *testing.T) {
	t.Parallel()
	if !slices.Contains(levels(), procbot.Namespaces) {
		sandboxtest.SkipLevel(t, "no level namespaces here")
	}
	argv := judgetest.Bot(t, "judge/procbot/testdata/gochurn")
	// Its work without a limit, unsandboxed, sets the turn's limit: 30 s
	// where that takes a second, longer on a slower machine (an emulated
	// one takes tens of seconds).
	start := time.Now()
	ref := playTurn(t, procbot.Spec{Name: "gochurn", Argv: argv},
		procbot.Options{Host: judgetest.Host(), Level: procbot.None, Env: map[string]string{"GOMEMLIMIT": "off"},
			Limits: sandbox.Limits{Memory: 4 << 30, Procs: 256, OpenFiles: 256}}, 10*time.Minute)
	limit := max(30*time.Second, 10*time.Since(start))
	if ref.status != judge.OK {
		t.Fatalf("unsandboxed, without a limit: %s (%s)", ref.status, ref.reason)
	}
	t.Logf("unsandboxed, without a limit: %v; the turn's limit: %v", time.Since(start).Round(time.Millisecond), limit)
	run := func(env map[string]string) turn {
		return playTurn(t, procbot.Spec{Name: "gochurn", Argv: argv},
			procbot.Options{Host: judgetest.Host(), Level: procbot.Namespaces, Env: env}, limit)
	}
	tr := run(nil)
	if tr.status != judge.OK || !strings.Contains(tr.out, "#END") {
		t.Errorf("with GOMEMLIMIT from the limit: %s (%s), output %q", tr.status, tr.reason, tr.out)
	}
	t.Logf("with GOMEMLIMIT from the limit: %s", strings.TrimSpace(string(tr.final.Stderr)))
	off := run(map[string]string{"GOMEMLIMIT": "off"})
	t.Logf("with GOMEMLIMIT=off: %s (%.100s)", off.status, off.reason)
}

// A JVM given as a plain command says that it read JAVA_TOOL_OPTIONS on
// its stderr, never on its stdout; the bot's stderr keeps only what the
// bot wrote, and a crash's reason quotes the bot's own lines.
func TestJVMSaysItOnStderr(t *testing.T) {
	t.Parallel()
	argv := judgetest.Bot(t, "sandbox/testdata/hostile/Memory.java")
	tr := playTurn(t, procbot.Spec{Name: "Memory", Argv: argv}, procbot.Options{Host: judgetest.Host()}, 20*time.Second)
	if strings.Contains(string(tr.final.Stderr), "Picked up") || !strings.Contains(string(tr.final.Stderr), "OutOfMemoryError") {
		t.Errorf("the bot's stderr has the JVM's line, or not its own:\n%s", tr.final.Stderr)
	}
	if strings.Contains(tr.out, "Picked up") {
		t.Errorf("stdout has the JVM's line: %q", tr.out)
	}
	if tr.status != judge.Crash || !strings.Contains(tr.reason, "OutOfMemoryError") || strings.Contains(tr.reason, "Picked up") {
		t.Errorf("%s (%s), want a crash of its own OutOfMemoryError, without the JVM's first line", tr.status, tr.reason)
	}
}
