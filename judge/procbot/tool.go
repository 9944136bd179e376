package procbot

import (
	"context"
	"errors"
	"fmt"
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
	// Report is what the sandbox found of the machine (see sandbox.Report).
	Report = sandbox.Report
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
// strongest the machine allows for Auto, and None whatever level where
// the system has no sandbox (off Linux).
func (h *Host) RunLevel(level Level) Level {
	if level == sandbox.Auto || !sandbox.Sandboxed {
		return h.sb.Probe().Level
	}
	return level
}

// Memory is the memory limit of a bot with these options, in bytes.
func (o Options) Memory() int64 {
	return o.SandboxLimits().Memory
}

// SandboxLimits are the limits of a bot's sandbox with these options:
// sandbox.DefaultLimits when they give none.
func (o Options) SandboxLimits() sandbox.Limits {
	if o.Limits == (sandbox.Limits{}) {
		return sandbox.DefaultLimits
	}
	return o.Limits
}

// RunTool runs a tool (a compiler) in the sandbox to its end, or until ctx
// ends (then it is killed, and ctx's error returned). The tool's wall-clock
// limit is spec.Limits.Wall. A positive cpu is a limit on the CPU time of
// all the tool's processes together: past it the tool is killed and the
// second result is true. CPU time, unlike the wall clock, does not grow
// when the machine is busy with other work.
//
// When RunTool returns without an error, or with ctx's, every process the
// tool started has ended, so that the caller may look at what it wrote
// with nothing changing it meanwhile: at levels with namespaces its PID
// namespace is empty (the kernel ends every process in it with its init);
// at level basic the init, a subreaper, has reaped every descendant, and
// the cgroup, where there is one, is empty; at level none only the
// process group is killed, and a process that left it may live on. A
// tool that is not gone killWait after it was killed is an error that
// says so (ErrToolAlive), and what it wrote is not to be trusted.
func (h *Host) RunTool(ctx context.Context, spec ToolSpec, cpu time.Duration) (Exit, bool, error) {
	if h == nil {
		return Exit{}, false, errNoHost
	}
	p, err := h.sb.Start(ctx, spec)
	if err != nil {
		return Exit{}, false, err
	}
	var tick <-chan time.Time
	if cpu > 0 {
		t := time.NewTicker(toolPoll)
		defer t.Stop()
		tick = t.C
	}
	for {
		select {
		case <-p.Done():
			e := p.Exit()
			return e, cpu > 0 && e.CPU > cpu, nil
		case <-tick:
			if used, err := p.CPUTime(); err == nil && used > cpu {
				p.Kill()
				<-p.Done()
				return p.Exit(), true, nil
			}
		case <-ctx.Done():
			p.Kill()
			t := time.NewTimer(killWait)
			defer t.Stop()
			select {
			case <-p.Done():
			case <-t.C:
				return Exit{}, false, fmt.Errorf("%w %v after it was killed (%w)", ErrToolAlive, killWait, ctx.Err())
			}
			return Exit{}, false, ctx.Err()
		}
	}
}

// ErrToolAlive is a tool whose processes had not all ended a while after
// RunTool killed it.
var ErrToolAlive = errors.New("the tool had not ended")

// toolPoll is how often a tool's CPU time is read against its limit.
const toolPoll = 100 * time.Millisecond
