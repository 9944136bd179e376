package tournament

import (
	"strings"
	"testing"
	"time"

	"judge/judge"
	"judge/judge/judgetest"
	"judge/judge/procbot"
)

func TestRunSettings(t *testing.T) {
	o := &Options{Match: judge.Match{Limits: judge.DefaultTurnLimits}}
	use(o, nil, procbot.Options{Host: judgetest.Host(), IO: procbot.Pipe, Env: map[string]string{"TOKEN": "s3cret", "A": "1"}})
	o.Match.Limits.TurnCPU = 250 * time.Millisecond
	o.Match.Limits.Output = 1000
	got := RunSettings(o)
	for k, want := range map[string]string{
		SetTurn: "1s", SetFirstTurn: "5s", SetTurnCPU: "250ms", SetBank: "none", SetOverruns: "0",
		SetOutput: "1000B", SetIO: "pipe", SetMemory: "256MiB", SetProcs: "64", SetTmp: "64MiB", SetWall: "none",
		SetJudge: JudgeVersion(),
	} {
		if got[k] != want {
			t.Errorf("%s = %q, want %q", k, got[k], want)
		}
	}
	// The environment's names are kept, its values only hashed.
	env := got[SetEnv]
	if !strings.HasPrefix(env, "A=sha256:") || !strings.Contains(env, " TOKEN=sha256:") || strings.Contains(env, "s3cret") {
		t.Errorf("env = %q", env)
	}
	o.BotSettings.Env["TOKEN"] = "other"
	o.BotSettings.Memory = 3 << 30
	again := RunSettings(o)
	if again[SetEnv] == env || again[SetMemory] != "3GiB" {
		t.Errorf("another value: env %q (was %q), memory %q", again[SetEnv], env, again[SetMemory])
	}
	if d := settingsDiff(again, got, "ref"); !strings.HasPrefix(d, "env is A=sha256:") || !strings.Contains(d, ", ref has A=sha256:") {
		t.Errorf("settingsDiff: %q", d)
	}
	if d := settingsDiff(nil, nil, "ref"); d != "" {
		t.Errorf("settingsDiff of two older logs: %q", d)
	}
}
