package sandboxtest

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestSkipLevel runs this test binary again, with and without
// JUDGE_REQUIRE_LEVEL=full, on a test that SkipLevels: it skips, then
// fails.
func TestSkipLevel(t *testing.T) {
	if os.Getenv("SANDBOXTEST_CHILD") != "" {
		SkipLevel(t, "level %s is not available here", "full")
		return
	}
	for _, c := range []struct {
		require string
		fails   bool
		says    string
	}{{"", false, "SKIP"}, {"namespaces", false, "SKIP"}, {"full", true, "JUDGE_REQUIRE_LEVEL=full, yet the sandbox says: level full is not available here"}} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestSkipLevel$", "-test.v", "-test.count=1")
		cmd.Env = append(os.Environ(), "SANDBOXTEST_CHILD=1", RequireEnv+"="+c.require)
		out, err := cmd.CombinedOutput()
		if (err != nil) != c.fails || !strings.Contains(string(out), c.says) {
			t.Errorf("%s=%q: %v\n%s", RequireEnv, c.require, err, out)
		}
	}
}
