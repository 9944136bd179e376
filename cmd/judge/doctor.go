package main

import (
	"context"
	"fmt"
	"os"
	"strings"

	"judge/judge/procbot"
)

// The files judge doctor reads to tell whether AppArmor is what keeps the
// sandbox from its user namespaces: the restriction of Ubuntu 23.10 and
// later, and the judge's own AppArmor label.
const (
	appArmorRestrictUserNS = "/proc/sys/kernel/apparmor_restrict_unprivileged_userns"
	appArmorLabel          = "/proc/self/attr/current"
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
	exe, _ := os.Executable()
	fmt.Fprint(m.Stdout, appArmorAdvice(m.Host.Sandbox().Probe(), appArmorRestrictUserNS, appArmorLabel, exe))
	fmt.Fprintln(m.Stdout, "web bots (http://…, https://…): outside the sandbox, on their own servers; the judge only sends them requests")
	return nil
}

// appArmorAdvice says, when the sandbox has no user namespace, whether
// AppArmor's restriction of unprivileged user namespaces (the sysctl
// file) is why, and what to run; "" when it is not. label is the file
// holding the judge's AppArmor label, exe the judge's path.
func appArmorAdvice(r *procbot.Report, sysctl, label, exe string) string {
	for _, c := range r.Checks {
		if c.Name == "user namespace" && c.Active {
			return ""
		}
	}
	b, err := os.ReadFile(sysctl)
	if err != nil || strings.TrimSpace(string(b)) != "1" {
		return ""
	}
	confined := "unconfined"
	if l, err := os.ReadFile(label); err == nil {
		confined = strings.TrimSpace(strings.TrimRight(string(l), "\x00"))
	}
	var s strings.Builder
	fmt.Fprintf(&s, "AppArmor: kernel.apparmor_restrict_unprivileged_userns=1 (%s) is what lowers the level to %s: "+
		"it gives a program without an AppArmor profile that allows user namespaces no capabilities in those it makes, "+
		"and this judge (%s) runs with AppArmor label %q\n", sysctl, r.Level, exe, confined)
	fmt.Fprintf(&s, "  to do: install the judge with its profile (configs/apparmor/judge), as root from the checkout: "+
		"sudo make install PREFIX=/usr/local, then run /usr/local/bin/judge; "+
		"or lift the restriction for every program: sudo sysctl kernel.apparmor_restrict_unprivileged_userns=0 "+
		"(until the next boot; for good, in a file of /etc/sysctl.d)\n")
	return s.String()
}
