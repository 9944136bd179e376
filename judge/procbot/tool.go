package procbot

import (
	"context"
	"time"

	"judge/sandbox"
)

// The sandbox's vocabulary, for the judge's packages: only this one
// starts sandboxed processes.
type (
	// Level is a sandbox level (see sandbox.Level).
	Level = sandbox.Level
	// Limits bound what a program may use (see sandbox.Limits).
	Limits = sandbox.Limits
	// Exit is how a program ended (see sandbox.Exit).
	Exit = sandbox.Exit
	// ToolSpec says how to run a tool (see sandbox.Spec).
	ToolSpec = sandbox.Spec
)

// The levels, and the limits of bots and of compilers.
const (
	Auto       = sandbox.Auto
	Full       = sandbox.Full
	Namespaces = sandbox.Namespaces
	Basic      = sandbox.Basic
	None       = sandbox.None
)

var (
	// DefaultLimits are the sandbox limits of a bot.
	DefaultLimits = sandbox.DefaultLimits
	// CompileLimits are those of a compiler building a submission.
	CompileLimits = sandbox.CompileLimits
)

// RunLevel is the level bots run at when level is asked for: the
// strongest the machine allows for Auto.
func RunLevel(level Level) Level {
	if level == sandbox.Auto {
		return sandbox.Probe().Level
	}
	return level
}

// Memory is the memory limit of a bot with these options, in bytes.
func (o Options) Memory() int64 {
	if o.Limits == (sandbox.Limits{}) {
		return sandbox.DefaultLimits.Memory
	}
	return o.Limits.Memory
}

// RunTool runs a tool (a compiler) in the sandbox to its end, or until ctx
// ends (then it is killed, and ctx's error returned). The tool's wall-clock
// limit is spec.Limits.Wall.
func RunTool(ctx context.Context, spec ToolSpec) (Exit, error) {
	p, err := sandbox.Start(spec)
	if err != nil {
		return Exit{}, err
	}
	select {
	case <-p.Done():
		return p.Exit(), nil
	case <-ctx.Done():
		p.Kill()
		t := time.NewTimer(killWait)
		defer t.Stop()
		select {
		case <-p.Done():
		case <-t.C:
		}
		return Exit{}, ctx.Err()
	}
}
