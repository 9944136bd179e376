//go:build linux

package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A program named without a slash that only the judge's PATH finds (a
// runtime its operator installed) runs at every level, though the
// program's own PATH has not its directory; its argv[0] is then its
// path, from which a runtime such as Python finds its files.
func TestProgramOnTheJudgesPath(t *testing.T) {
	dir := t.TempDir()
	for d := dir; d != os.TempDir() && d != "/"; d = filepath.Dir(d) {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	prog := filepath.Join(dir, "judge-only-cat")
	if err := os.Symlink("/bin/cat", prog); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(filepath.ListSeparator)+os.Getenv("PATH"))
	for _, l := range levels {
		t.Run(string(l), func(t *testing.T) {
			available(t, l)
			out, e := run(t, l, Spec{Argv: []string{"judge-only-cat", "/proc/self/cmdline"},
				Env: []string{"PATH=/usr/bin:/bin"}, ReadOnly: []string{dir}, Limits: DefaultLimits})
			argv := strings.Split(strings.TrimSuffix(out, "\x00"), "\x00")
			if e.Code != 0 || argv[0] != prog {
				t.Errorf("%v, argv %q; want argv[0] %s", e, argv, prog)
			}
			// One the program's PATH finds too keeps its name.
			out, e = run(t, l, Spec{Argv: []string{"cat", "/proc/self/cmdline"},
				Env: []string{"PATH=/usr/bin:/bin"}, Limits: DefaultLimits})
			if argv := strings.Split(out, "\x00"); e.Code != 0 || argv[0] != "cat" {
				t.Errorf("cat: %v, argv %q; want argv[0] cat", e, argv)
			}
		})
	}
}
