package main

import (
	"context"
	"fmt"

	"judge/sandbox"
)

func (m *Main) doctor(_ context.Context, args []string) error {
	fs := m.newFlags("doctor", "",
		"Says, for this machine, which protections the sandbox can give bots (namespaces,\n"+
			"cgroup memory and pids limits, the freezer, Landlock, seccomp, the pty), which\n"+
			"level matches run at by default, and what to do about what is missing.")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return fmt.Errorf("%w: unexpected arguments %q", errUsage, pos)
	}
	pr := sandbox.Probe()
	fmt.Fprint(m.Stdout, pr.String())
	switch err := sandbox.ReuseProblem(); {
	case pr.Level != sandbox.Full && pr.Level != sandbox.Namespaces:
		fmt.Fprintln(m.Stdout, "reused sandboxes: none at this level; every bot gets a sandbox of its own")
	case err != nil:
		fmt.Fprintf(m.Stdout, "reused sandboxes: NO, every bot gets a sandbox of its own (about 12 ms a start instead of 1.5): %v\n", err)
	default:
		fmt.Fprintln(m.Stdout, "reused sandboxes: yes, bots start in sandboxes made ready ahead (docs/sandbox.md)")
	}
	fmt.Fprintln(m.Stdout, "web bots (http://…, https://…): outside the sandbox, on their own servers; the judge only sends them requests")
	return nil
}
