package main

import (
	"context"
	"fmt"
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
	fmt.Fprint(m.Stdout, m.Host.Doctor())
	fmt.Fprintln(m.Stdout, "web bots (http://…, https://…): outside the sandbox, on their own servers; the judge only sends them requests")
	return nil
}
