//go:build linux || darwin

package procbot_test

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"judge/judge"
	"judge/judge/judgetest"
	"judge/judge/procbot"
)

// A bot's environment is exactly the documented one (docs/sandbox.md):
// procbot.BaseEnv, JUDGE_SEED, the runtimes' sizes and, on a pipe made
// line-buffered, the line buffering's, at every level, whatever the
// judge's own environment holds: here an odd PATH, HOME and locale, and
// a secret, none of which a bot sees. The bot is env itself, found
// through the judge's PATH, so that no shell adds a variable of its own.
func TestEnvironmentIsOnlyTheDocumentedOne(t *testing.T) {
	const secret = "judge-secret-4711"
	odd := filepath.Join(t.TempDir(), "odd")
	t.Setenv("PATH", odd+"/bin:"+os.Getenv("PATH"))
	t.Setenv("HOME", odd+"/home")
	t.Setenv("LANG", "xx_XX.ODD")
	t.Setenv("LC_ALL", "xx_XX.ODD")
	t.Setenv("PYTHONUNBUFFERED", secret)
	t.Setenv("JUDGE_SECRET", secret)
	for _, l := range levels() {
		for _, io := range []procbot.IO{procbot.AutoIO, procbot.Pipe} {
			t.Run(string(l)+"/"+string(io), func(t *testing.T) {
				p, err := judgetest.Host().Start(t.Context(), procbot.Spec{Name: "env", Argv: []string{"env"}}, procbot.Options{Host: judgetest.Host(), Level: l, IO: io}, 7)
				if err != nil {
					t.Fatal(err)
				}
				defer p.Stop(0)
				ctx := context.Background()
				limit := 20 * time.Second
				if err := p.BeginTurn(ctx, judge.Turn{Number: 1, Limit: limit, Deadline: time.Now().Add(limit), First: true}); err != nil {
					t.Fatal(err)
				}
				got := map[string]string{}
				for {
					line, err := p.ReadLine(ctx)
					if err != nil {
						break // its output ends with it
					}
					k, v, _ := strings.Cut(string(line), "=")
					got[k] = v
				}
				want := procbot.BaseEnv()
				want["JUDGE_SEED"] = "7"
				maps.Copy(want, procbot.RuntimeEnv(procbot.DefaultLimits.Memory))
				if l == procbot.Basic {
					// Its private temporary directory, its home too.
					want["TMPDIR"], want["HOME"] = got["TMPDIR"], got["TMPDIR"]
					if !strings.HasPrefix(got["TMPDIR"], os.TempDir()+"/judge-basic-") {
						t.Errorf("TMPDIR=%s, want its private directory", got["TMPDIR"])
					}
				}
				if io == procbot.AutoIO && p.IO() == procbot.Pipe {
					for _, k := range []string{"LD_PRELOAD", "_STDBUF_O", "PYTHONUNBUFFERED", "RUBYOPT"} {
						want[k] = got[k] // their values are the line buffering's tests'
					}
					if got["PYTHONUNBUFFERED"] != "1" {
						t.Errorf("PYTHONUNBUFFERED=%s, want 1", got["PYTHONUNBUFFERED"])
					}
				}
				if !maps.Equal(got, want) {
					t.Errorf("the bot's environment:\n%s\nwant:\n%s", show(got), show(want))
				}
				for k, v := range got {
					if strings.Contains(v, secret) || strings.Contains(v, odd) || strings.Contains(v, "ODD") {
						t.Errorf("%s=%s comes from the judge's environment", k, v)
					}
				}
			})
		}
	}
}

func show(env map[string]string) string {
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(env)) {
		b.WriteString("  " + k + "=" + env[k] + "\n")
	}
	return b.String()
}
