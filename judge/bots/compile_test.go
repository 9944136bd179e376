package bots

import (
	"bytes"
	"context"
	"errors"
	"judge/judge/judgetest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestCompileLimitIsCPUTime: a compile is stopped by the CPU time it uses,
// not by the wall-clock time it takes, so a busy machine does not fail a
// build. A "compiler" that spins past the limit is stopped, with a message
// that says so; one that waits longer than the limit, using no CPU, builds.
func TestCompileLimitIsCPUTime(t *testing.T) {
	for _, tc := range []struct {
		name, script string
		wantErr      string
	}{
		{"spins", "while :; do :; done", "the compiler used more than 1s of CPU time"},
		{"waits", "sleep 2; cp \"$1\" \"$2\"", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			langs, err := LoadLanguages(writeLanguages(t, `
[limits]
time = "1s"

[language.sh]
extensions = ["sh"]
compile = ["/bin/sh", "-c", `+quoteTOML(tc.script)+`, "compile", "{src}", "{exe}"]
run = ["/bin/sh", "{exe}"]
`))
			if err != nil {
				t.Fatal(err)
			}
			langs.Host = judgetest.Host()
			src := filepath.Join(t.TempDir(), "bot.sh")
			if err := os.WriteFile(src, []byte("echo hi\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			s, err := langs.Detect(src)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			_, err = langs.Build(ctx, s, t.TempDir())
			var ce *CompileError
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("build: %v", err)
			case tc.wantErr != "" && !errors.As(err, &ce):
				t.Fatalf("build: %v, want a compile error", err)
			case tc.wantErr != "" && !strings.Contains(ce.Message, tc.wantErr):
				t.Fatalf("compile error %q, want %q", ce.Message, tc.wantErr)
			}
		})
	}
}

func writeLanguages(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "languages.toml")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func quoteTOML(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

// The built-in languages table is configs/languages.toml.
func TestBuiltInLanguagesAreTheConfigFile(t *testing.T) {
	b, err := os.ReadFile("../../configs/languages.toml")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b, DefaultLanguages) {
		t.Error("judge/bots/languages.toml differs from configs/languages.toml: copy it over")
	}
	l, err := LoadLanguages("")
	if err != nil {
		t.Fatal(err)
	}
	l.Host = judgetest.Host()
	for _, name := range []string{"c", "cpp", "go", "rust", "java", "python"} {
		if l.Language[name] == nil {
			t.Errorf("no %s", name)
		}
	}
}

func TestExpand(t *testing.T) {
	vars := map[string][]string{"{dir}": {"/b/src"}, "{srcs}": {"a.c", "b.c"}, "{exe}": {"/b/out/bot"}}
	for k, v := range RunVars(256 << 20) {
		vars[k] = v
	}
	got := strings.Join(expand([]string{"gcc", "-ffile-prefix-map={dir}=.", "-o", "{exe}", "{srcs}", "x{srcs}",
		"-XX:MaxRAM={memory_mb}m", "-Xss{stack_mb}m"}, vars), " ")
	want := "gcc -ffile-prefix-map=/b/src=. -o /b/out/bot a.c b.c x{srcs} -XX:MaxRAM=256m -Xss4m"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	for _, tc := range []struct {
		mem   int64
		stack string
	}{{32 << 20, "1"}, {256 << 20, "4"}, {1 << 30, "16"}, {16 << 30, "64"}} {
		if s := RunVars(tc.mem)["{stack_mb}"][0]; s != tc.stack {
			t.Errorf("stack for %d MiB: %s, want %s", tc.mem>>20, s, tc.stack)
		}
	}
	if m := RunVars(0)["{memory_mb}"][0]; m == "0" || m == "1" {
		t.Errorf("no limit: memory_mb %s, want the machine's memory", m)
	}
}
