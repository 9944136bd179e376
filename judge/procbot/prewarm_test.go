package procbot_test

import (
	"os"
	"path/filepath"
	"testing"

	"judge/judge/judgetest"
	"judge/judge/procbot"
	"judge/sandbox/sandboxtest"
)

// TestPrewarm: a bot readied ahead (Bot.Prewarm) starts in the sandbox
// made for it; one not readied starts in a sandbox built for its start.
// Each bot is a program in a folder of its own, a shape of its own.
func TestPrewarm(t *testing.T) {
	switch judgetest.Host().RunLevel(procbot.Auto) {
	case procbot.None, procbot.Basic:
		sandboxtest.SkipLevel(t, "no ready sandboxes below level namespaces")
	}
	bot := func() procbot.Bot {
		dir := t.TempDir()
		if err := os.Chmod(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, "bot.sh")
		if err := os.WriteFile(path, []byte("#!/bin/sh\nwhile read l; do echo '#END'; done\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		return procbot.Bot{Spec: procbot.Spec{Name: "bot", Argv: []string{path}, Dir: dir}, Options: procbot.Options{Host: judgetest.Host()}}
	}
	for _, readied := range []bool{false, true} {
		b := bot()
		if readied {
			if err := b.Prewarm(t.Context()); err != nil {
				t.Fatal(err)
			}
		}
		p, err := judgetest.Host().Start(t.Context(), b.Spec, b.Options, 1)
		if err != nil {
			t.Fatal(err)
		}
		warm := procbot.ProcessOf(p).Warm()
		p.Stop(0)
		if warm != readied {
			t.Errorf("readied ahead %v: started in a ready sandbox %v", readied, warm)
		}
	}
}
