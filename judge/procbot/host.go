package procbot

import (
	"fmt"
	"strings"

	"judge/sandbox"
)

// Init runs the sandbox's init when the program was started as one, and
// never returns then; otherwise it returns at once. A program that runs
// bots calls it first thing in main.
func Init() { sandbox.Init() }

// Close releases what the sandboxes kept ready hold (their cgroups); a
// program that runs bots calls it before it exits.
func Close() { sandbox.Close() }

// Doctor says, for this machine, which protections the sandbox gives bots,
// the level matches run at by default, what to do about what is missing,
// and whether bots start in sandboxes made ready ahead.
func Doctor() string {
	var b strings.Builder
	pr := sandbox.Probe()
	b.WriteString(pr.String())
	switch err := sandbox.ReuseProblem(); {
	case pr.Level != sandbox.Full && pr.Level != sandbox.Namespaces:
		fmt.Fprintln(&b, "reused sandboxes: none at this level; every bot gets a sandbox of its own")
	case err != nil:
		fmt.Fprintf(&b, "reused sandboxes: NO, every bot gets a sandbox of its own (about 12 ms a start instead of 1.5): %v\n", err)
	default:
		fmt.Fprintln(&b, "reused sandboxes: yes, bots start in sandboxes made ready ahead (docs/sandbox.md)")
	}
	if ls := lineBuffering(); ls.err != nil {
		fmt.Fprintf(&b, "line-buffered pipes: NO, every bot writes to a pty (slower per line): %v\n", ls.err)
	} else {
		fmt.Fprintf(&b, "line-buffered pipes: yes, bots write to pipes with C stdio line-buffered (%s), Python and Ruby too; static programs that are not Go to a pty\n", ls.stdbuf)
	}
	return b.String()
}
