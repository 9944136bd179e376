package sandbox

import (
	"fmt"
	"os/exec"
	"syscall"
)

// plainCmd is the command that runs spec.Argv with no sandbox, with the
// system's process attributes attr; an environment left nil is empty,
// never the judge's.
func plainCmd(spec Spec, attr *syscall.SysProcAttr) (*exec.Cmd, error) {
	path, err := exec.LookPath(spec.Argv[0])
	if err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	cmd := &exec.Cmd{
		Path:        path,
		Args:        spec.Argv,
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
