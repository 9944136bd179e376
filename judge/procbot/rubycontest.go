package procbot

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"judge/judge"
	"judge/sandbox"
)

// checkCPU bounds the CPU time of the loading of a player by
// CheckRubyContest.
const checkCPU = 30 * time.Second

// CheckRubyContest loads the contest player of spec (ruby [OPTIONS] HOST
// FILE.rb, as package bots makes it for ruby-contest:FILE.rb)
// in the sandbox, as the host does before a game, and makes an instance
// of its class, without playing. why is empty when it can play, else the
// host's reason: Ruby's own message for a file that does not parse or
// raises as it loads, or what is missing. err is the judge's failure to
// run it at all.
func CheckRubyContest(ctx context.Context, spec Spec) (why string, err error) {
	n := len(spec.Argv)
	if n < 3 {
		return "", fmt.Errorf("%v is not a Ruby contest player's command", spec.Argv)
	}
	file := spec.Argv[n-1]
	out, err := os.CreateTemp("", "ruby-check-*.log")
	if err != nil {
		return "", fmt.Errorf("checking %s: %w", file, err)
	}
	defer os.Remove(out.Name())
	defer out.Close()
	argv := append(slices.Clone(spec.Argv[:n-1]), "--check", file)
	lim := sandbox.DefaultLimits
	lim.Wall = 10 * checkCPU // a player that waits on nothing
	ex, overCPU, err := RunTool(ctx, ToolSpec{
		Argv: argv, Dir: spec.Dir, Env: Env(nil, 0, lim.Memory),
		Stdout: out, Stderr: out,
		Limits:   lim,
		ReadOnly: sandbox.PathsOf(argv, spec.Dir),
	}, checkCPU)
	if err != nil {
		return "", fmt.Errorf("checking %s: %w", file, err)
	}
	text, _ := os.ReadFile(out.Name())
	msg := strings.TrimSpace(string(judge.LastLines(text, 8, 2000)))
	switch {
	case overCPU:
		return fmt.Sprintf("it used more than %v of CPU time to load", checkCPU), nil
	case ex.Wall:
		return fmt.Sprintf("it took more than %v to load", lim.Wall), nil
	case ex.Code != 0 || ex.Signaled():
		if msg == "" {
			msg = ex.String()
		}
		return msg, nil
	}
	return "", nil
}
