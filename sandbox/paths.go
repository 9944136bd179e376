package sandbox

import (
	"os"
	"path/filepath"
	"strings"
)

// PathsOf lists what a command needs to see, for Spec.ReadOnly: dir, and
// for every argument naming an existing file its directory, or the
// directory it names (a Java class path). Arguments are taken relative to
// dir, or to the current directory when dir is empty.
func PathsOf(argv []string, dir string) []string {
	var out []string
	seen := map[string]bool{}
	add := func(p string) {
		if p, err := filepath.Abs(p); err == nil && !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	if dir != "" {
		add(dir)
	}
	for i, a := range argv {
		if a == "" || strings.HasPrefix(a, "-") || i == 0 && !strings.Contains(a, "/") {
			continue
		}
		p := a
		if !filepath.IsAbs(p) && dir != "" {
			p = filepath.Join(dir, p)
		}
		st, err := os.Stat(p)
		switch {
		case err != nil:
		case st.IsDir():
			add(p)
		default:
			add(filepath.Dir(p))
		}
	}
	return out
}
