package sandbox

import (
	"fmt"
	"os/exec"
	"runtime"
	"strings"
	"syscall"
)

// plainCmd is the command that runs spec.Argv with no sandbox, with the
// system's process attributes attr; an environment left nil is empty,
// never the judge's. A program named without a slash is found in the
// judge's PATH (lookup.go).
func plainCmd(spec Spec, attr *syscall.SysProcAttr) (*exec.Cmd, error) {
	args := append([]string(nil), spec.Argv...)
	path, err := exec.LookPath(args[0])
	if real, _ := pyenvProgram(args[0], spec.Env); real != "" {
		path, err, args[0] = real, nil, real
	}
	if err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	if runtime.GOOS != "windows" && !strings.Contains(args[0], "/") && !envFinds(args[0], spec.Env, path, nil) {
		args[0] = path
	}
	cmd := &exec.Cmd{
		Path:        path,
		Args:        args,
		Dir:         spec.Dir,
		Env:         spec.Env,
		Stdin:       spec.Stdin,
		Stdout:      spec.Stdout,
		Stderr:      spec.Stderr,
		SysProcAttr: attr,
	}
	if cmd.Env == nil {
		cmd.Env = []string{}
	}
	return cmd, nil
}
