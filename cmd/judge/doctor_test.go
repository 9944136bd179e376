package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"judge/sandbox"
)

// TestDoctorAppArmor: judge doctor names AppArmor's restriction of user
// namespaces, and what to run, when the sandbox has none and the sysctl
// is 1; and only then.
func TestDoctorAppArmor(t *testing.T) {
	dir := t.TempDir()
	file := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	on, off := file("on", "1\n"), file("off", "0\n")
	label := file("label", "unconfined\n")
	missing := filepath.Join(dir, "missing")
	noNS := &sandbox.Report{Level: sandbox.Basic, Checks: []sandbox.Check{
		{Name: "user namespace", Detail: "cannot mount: permission denied"},
	}}
	withNS := &sandbox.Report{Level: sandbox.Namespaces, Checks: []sandbox.Check{
		{Name: "user namespace", Active: true},
	}}
	for _, tc := range []struct {
		name   string
		r      *sandbox.Report
		sysctl string
		want   []string // "" for no advice
	}{
		{"restricted", noNS, on, []string{
			"kernel.apparmor_restrict_unprivileged_userns=1 (" + on + ") is what lowers the level to basic",
			`this judge (/opt/j/judge) runs with AppArmor label "unconfined"`,
			"sudo make install PREFIX=/usr/local",
			"sudo sysctl kernel.apparmor_restrict_unprivileged_userns=0",
		}},
		{"not restricted", noNS, off, nil},
		{"no AppArmor", noNS, missing, nil},
		{"namespaces work", withNS, on, nil},
	} {
		got := appArmorAdvice(tc.r, tc.sysctl, label, "/opt/j/judge")
		if tc.want == nil {
			if got != "" {
				t.Errorf("%s: advice %q, want none", tc.name, got)
			}
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: advice lacks %q:\n%s", tc.name, w, got)
			}
		}
		t.Logf("%s:\n%s", tc.name, got)
	}
}
