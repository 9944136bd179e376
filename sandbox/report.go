package sandbox

import (
	"fmt"
	"strings"
)

// Check is one protection: whether it is active, what it does or why it
// is not, and what a user can do about it.
type Check struct {
	Name   string
	Active bool
	Detail string
	Advice string
}

// writeChecks writes the level and each check, a line each, with what
// to do about a missing one: the head of a Report's String.
func writeChecks(b *strings.Builder, level Level, checks []Check) {
	fmt.Fprintf(b, "sandbox level: %s\n", level)
	for _, c := range checks {
		state := "active "
		if !c.Active {
			state = "MISSING"
		}
		fmt.Fprintf(b, "  %s  %-40s %s\n", state, c.Name, c.Detail)
		if !c.Active && c.Advice != "" {
			fmt.Fprintf(b, "           %-40s what to do: %s\n", "", c.Advice)
		}
	}
}
