// Package sandboxtest helps the tests of the sandbox and of what runs
// programs in it: a test that cannot run at the level this machine gives
// skips through SkipLevel, which fails it instead where the machine is
// required to give level full (RequireEnv), so that a sandbox that
// reports a lower level than the machine has cannot hide its failures as
// skips.
package sandboxtest

import (
	"fmt"
	"os"
	"testing"
)

// RequireEnv is the environment variable that, set to "full", makes
// every SkipLevel a failure. .ci/run sets it where the machine gives
// level full, judged without the sandbox's code (see .ci/run).
const RequireEnv = "JUDGE_REQUIRE_LEVEL"

// Required says whether this run requires level full (RequireEnv).
func Required() bool { return os.Getenv(RequireEnv) == "full" }

// SkipLevel skips the test, because the machine does not give the
// sandbox what it needs (a level, a cgroup controller, seccomp), as
// format says; where the run requires level full, it fails it instead.
func SkipLevel(tb testing.TB, format string, args ...any) {
	tb.Helper()
	msg := fmt.Sprintf(format, args...)
	if Required() {
		tb.Fatalf("%s=full, yet the sandbox says: %s", RequireEnv, msg)
	}
	tb.Skip(msg)
}
