//go:build unix

package bots

import (
	"os"
	"path/filepath"
	"testing"

	"judge/judge/judgetest"
)

// The judge's own failures in making a bot ready are errors that stop
// whatever was to play, never the bot's Err: a build cache it cannot
// write in, a compiler the sandbox cannot start. The bot's own faults
// are kept in its Err, as *Fault.
func TestJudgeFailuresAreNotTheBots(t *testing.T) {
	for _, tc := range []struct {
		name, lang string
		setup      func(cache string)
	}{
		{"a build cache it cannot write in", `
[language.x]
extensions = ["x"]
compile = ["/bin/sh", "-c", "exit 0"]
env = { TMPDIR = "{cache}/tmp" }
run = ["{exe}"]
`, func(cache string) {
			if err := os.WriteFile(filepath.Join(cache, "tmp"), nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}},
		{"a compiler the sandbox cannot start", `
[language.x]
extensions = ["x"]
compile = ["/no/such/compiler", "{src}"]
run = ["{exe}"]
`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			langs, err := LoadLanguages(writeLanguages(t, tc.lang))
			if err != nil {
				t.Fatal(err)
			}
			dir := judgetest.TempDir(t)
			bot := filepath.Join(dir, "bot.x")
			if err := os.WriteFile(bot, []byte("x"), 0o644); err != nil {
				t.Fatal(err)
			}
			cache := judgetest.TempDir(t)
			if tc.setup != nil {
				tc.setup(cache)
			}
			ents, err := Prepare(t.Context(), []string{bot}, langs, cache, 1)
			if err == nil || AsFault(err) != nil {
				var why error
				if len(ents) == 1 {
					why = ents[0].Err
				}
				t.Errorf("Prepare: %v (the bot's Err: %v), want the judge's error", err, why)
			}
		})
	}
}
