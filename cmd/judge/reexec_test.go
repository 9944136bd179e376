//go:build linux

package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// The judge's binary run again as a program's restricted parent becomes
// one before the packages that only the judge needs are initialized:
// every sandboxed start at level basic pays for the restricted parent's
// start.
func TestReexecSkipsTheJudgesPackages(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cfgR, cfgW, err := os.Pipe() // an empty config: the parent fails at once
	if err != nil {
		t.Fatal(err)
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cfgW.Close()
	var stderr bytes.Buffer
	cmd := &exec.Cmd{
		Path:       exe,
		Args:       []string{"judge-sandbox-exec"},
		Env:        []string{"GODEBUG=inittrace=1"},
		Stderr:     &stderr,
		ExtraFiles: []*os.File{cfgR, errW},
	}
	err = cmd.Start()
	cfgR.Close()
	errW.Close()
	if err != nil {
		t.Fatal(err)
	}
	why, _ := io.ReadAll(errR)
	errR.Close()
	err = cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 127 {
		t.Fatalf("the restricted parent ended with %v, want exit status 127 (stderr: %s)", err, stderr.String())
	}
	if !strings.Contains(string(why), "config") {
		t.Errorf("its error: %q, want one about its config", why)
	}
	trace := stderr.String()
	if !strings.Contains(trace, "init judge/judge ") {
		t.Fatalf("no trace of the package inits in its stderr:\n%s", trace)
	}
	for _, pkg := range []string{"modernc.org/libc", "modernc.org/sqlite", "net/http", "judge/judge/procbot", "judge/judge/arena"} {
		if strings.Contains(trace, "init "+pkg+" ") {
			t.Errorf("package %s was initialized", pkg)
		}
	}
}
