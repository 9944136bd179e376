//go:build linux

package sandbox

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The hostile programs of testdata/hostile attack the judge or cheat.
// The suite that plays them, each for one turn through the judge's own
// process player, is in package judge/procbot; the tests here use some
// of them to check the sandbox alone.

// hostileLimits are the sandbox limits of the suite (less memory than a
// bot's default, so that the memory bombs end quickly).
var hostileLimits = Limits{Memory: 128 << 20, Procs: 64, FileSize: 16 << 20, OpenFiles: 256, TmpSize: 64 << 20}

// build compiles a program of testdata/hostile into a directory of its
// own that a program running as nobody can read, and returns its command.
func build(t *testing.T, src string) (argv []string, dir string) {
	t.Helper()
	dir = t.TempDir()
	for d := dir; d != os.TempDir() && d != "/"; d = filepath.Dir(d) {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	in, err := filepath.Abs(filepath.Join("testdata", "hostile", src))
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, strings.TrimSuffix(filepath.Base(src), filepath.Ext(src)))
	sh := func(args ...string) {
		t.Helper()
		if _, err := exec.LookPath(args[0]); err != nil {
			t.Skipf("needs %s, not installed here ('make tools' installs the toolchains)", args[0])
		}
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Dir = filepath.Dir(in)
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, b)
		}
	}
	switch filepath.Ext(src) {
	case ".c":
		sh("gcc", "-O1", "-pthread", "-o", out, in)
		return []string{out}, dir
	case ".cpp":
		sh("g++", "-O1", "-o", out, in)
		return []string{out}, dir
	case ".py":
		if _, err := exec.LookPath("python3"); err != nil {
			t.Skip("needs python3, not installed here ('make tools' installs the toolchains)")
		}
		if err := os.WriteFile(out+".py", mustRead(t, in), 0o644); err != nil {
			t.Fatal(err)
		}
		return []string{"python3", out + ".py"}, dir
	case ".java":
		sh("javac", "-d", dir, in)
		return []string{"java", "-Xmx1g", "-XX:+UseSerialGC", "-cp", dir, strings.TrimSuffix(filepath.Base(src), ".java")}, dir
	default: // a Go package
		sh("go", "build", "-o", out, "./"+src)
		return []string{out}, dir
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// remains lists the processes whose command line mentions dir.
func remains(dir string) []string {
	ents, _ := os.ReadDir("/proc")
	var out []string
	for _, e := range ents {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err == nil && bytes.Contains(b, []byte(dir)) {
			out = append(out, e.Name()+": "+strings.ReplaceAll(string(b), "\x00", " "))
		}
	}
	return out
}
