package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

// A program named without a slash is found as the judge would run it:
// in the judge's own PATH first, where the runtimes its operator
// installed are (a pyenv shim stands for the interpreter it runs, see
// pyenvProgram), then in the PATH of the program's environment. Nothing
// of the judge's PATH reaches the program: where its own PATH would find
// another file under that name, or none, its argv[0] is the path found,
// for the runtimes that find their own files from it (Python).

// searchPath lists the directories a program named without a slash is
// looked for in: the judge's PATH, then env's; absolute ones only, each
// once.
func searchPath(env []string) []string {
	var dirs []string
	seen := map[string]bool{}
	for _, list := range []string{os.Getenv("PATH"), envPath(env)} {
		for _, d := range filepath.SplitList(list) {
			if d != "" && filepath.IsAbs(d) && !seen[d] {
				seen[d] = true
				dirs = append(dirs, d)
			}
		}
	}
	return dirs
}

// envPath is the PATH that env gives, or "".
func envPath(env []string) string {
	path := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			path = v
		}
	}
	return path
}

// executableFile reports whether p is a file someone may execute.
func executableFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir() && st.Mode()&0o111 != 0
}

// envFinds reports whether env's own PATH finds argv0 (named without a
// slash) at path, among the files accept takes (nil: all), as the
// program, or a program it runs, would look for it.
func envFinds(argv0 string, env []string, path string, accept func(string) bool) bool {
	for _, d := range filepath.SplitList(envPath(env)) {
		if d == "" || !filepath.IsAbs(d) {
			continue
		}
		p := filepath.Join(d, argv0)
		if executableFile(p) && (accept == nil || accept(p)) {
			return p == filepath.Clean(path)
		}
	}
	return false
}

// pyenvProgram resolves a program that the judge's PATH finds first as a
// pyenv shim (a script that runs pyenv, which the sandbox does not show,
// and which would hand the program an environment of its own) to the
// interpreter it stands for, with its installation directory. Only the
// global version ($PYENV_VERSION, else $PYENV_ROOT/version) counts. It
// returns "" when argv0 is no pyenv shim.
func pyenvProgram(argv0 string, env []string) (real, install string) {
	if strings.Contains(argv0, "/") || runtime.GOOS == "windows" {
		return "", ""
	}
	path, err := exec.LookPath(argv0)
	if err != nil || filepath.Base(filepath.Dir(path)) != "shims" {
		return "", ""
	}
	root := filepath.Dir(filepath.Dir(path))
	version := os.Getenv("PYENV_VERSION")
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PYENV_VERSION="); ok {
			version = v
		}
	}
	if version == "" {
		b, err := os.ReadFile(filepath.Join(root, "version"))
		if err != nil {
			return "", ""
		}
		version = strings.TrimSpace(strings.SplitN(string(b), "\n", 2)[0])
	}
	install = filepath.Join(root, "versions", version)
	real = filepath.Join(install, "bin", argv0)
	if st, err := os.Stat(real); err != nil || st.IsDir() {
		return "", ""
	}
	return real, install
}
