//go:build linux

package sandbox

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestBasicTmpSweep: the temporary directories of judges that are gone
// are removed; those of a running judge are not.
func TestBasicTmpSweep(t *testing.T) {
	root := t.TempDir()
	mine := filepath.Join(root, fmt.Sprintf("%d-%d-abc", os.Getpid(), startTime(os.Getpid())))
	gone := filepath.Join(root, fmt.Sprintf("%d-%d-abc", os.Getpid(), startTime(os.Getpid())+1)) // a reused pid
	dead := filepath.Join(root, "2147483646-5-abc")
	// A judge killed with kill -9 and not yet reaped: a zombie.
	z := exec.Command("sleep", "0.1")
	if err := z.Start(); err != nil {
		t.Fatal(err)
	}
	zombie := filepath.Join(root, fmt.Sprintf("%d-%d-abc", z.Process.Pid, startTime(z.Process.Pid)))
	time.Sleep(300 * time.Millisecond)
	defer z.Wait()
	other := filepath.Join(root, "notes")
	for _, d := range []string{mine, gone, dead, other, zombie} {
		if err := os.MkdirAll(filepath.Join(d, "sub"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	sweepBasicTmp(root)
	for d, want := range map[string]bool{mine: true, gone: false, dead: false, other: true, zombie: false} {
		if _, err := os.Stat(d); (err == nil) != want {
			t.Errorf("%s: exists %v, want %v", filepath.Base(d), err == nil, want)
		}
	}
}

func TestNotice(t *testing.T) {
	for l, want := range map[Level]string{Full: "", Namespaces: "", Auto: "", Basic: "sandbox level basic: ", None: "NO SANDBOX"} {
		if got := l.Notice(); !strings.HasPrefix(got, want) || (want == "") != (got == "") || strings.Contains(got, "\n") {
			t.Errorf("%q.Notice() = %q, want one line starting %q", l, got, want)
		}
	}
}
