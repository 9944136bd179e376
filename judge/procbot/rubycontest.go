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
// [--contest DIR] FILE.rb, as package bots makes it for
// ruby-contest:FILE.rb) in the sandbox at level, as its games run, as the
// host does before a game, and makes an instance of its class, without
// playing. why is empty when it can play, else the host's reason: Ruby's
// own message for a file that does not parse or raises as it loads, or
// what is missing; for a require that found nothing, where it looked and
// which folders the player could see. err is the judge's failure to run
// it at all.
func (h *Host) CheckRubyContest(ctx context.Context, spec Spec, level Level) (why string, err error) {
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
	ro := sandbox.PathsOf(argv, spec.Dir)
	ex, overCPU, err := h.RunTool(ctx, ToolSpec{
		Argv: argv, Dir: spec.Dir, Env: Env(nil, 0, lim.Memory),
		Stdout: out, Stderr: out,
		Limits:   lim,
		Level:    level,
		ReadOnly: ro,
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
		if strings.Contains(msg, "LoadError") {
			msg += "\n  " + h.visible(level, ro)
		}
		return msg, nil
	}
	return "", nil
}

// visible says which folders a player run at level sees, of those
// outside Ruby's own: ro, read-only, or all at level none.
func (h *Host) visible(level Level, ro []string) string {
	if h.RunLevel(level) == None {
		return "at sandbox level none the player sees every folder of the machine"
	}
	var dirs []string
	for _, d := range ro {
		if !strings.HasPrefix(d, os.TempDir()+"/judge-hosts-") {
			dirs = append(dirs, d+"/")
		}
	}
	return fmt.Sprintf("the sandbox (level %s) shows the player only %s, read-only, and Ruby's own files", h.RunLevel(level), strings.Join(dirs, " and "))
}
