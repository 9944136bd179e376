package bots

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"judge/judge"
)

// versionWait bounds a version command: a JVM starts in well under it.
const versionWait = 30 * time.Second

// RuntimeError is a bot whose language's runtime is missing or does not
// run: its version command could not be run or failed. The bot's, not
// the judge's: the bot cannot play on this machine.
type RuntimeError struct {
	Name    string   // the bot, by its own name (its file's or directory's)
	Lang    string   // its language
	Command []string // the version command
	Why     string   // what went wrong
}

func (e *RuntimeError) Error() string {
	return fmt.Sprintf("%s: the %s runtime is missing or does not run (%s: %s)", e.Name, e.Lang, strings.Join(e.Command, " "), e.Why)
}

type versionOnce struct {
	once sync.Once
	out  string
	why  string
}

// Runtime is the version of lang's toolchain and runtime, as its version
// command prints it (the first line of its output, trimmed); "" for
// a language without one. The command runs once per Languages, with the
// language's environment, outside the sandbox. One that cannot be run, or
// fails, is the bot's *Fault: a *RuntimeError for the bot at path.
func (l *Languages) Runtime(ctx context.Context, lang *Language, path, cache string) (string, error) {
	if len(lang.Version) == 0 {
		return "", nil
	}
	l.versionMu.Lock()
	if l.versions == nil {
		l.versions = map[string]*versionOnce{}
	}
	key := strings.Join(lang.Version, "\x00") + "\x01" + fmt.Sprint(lang.Env)
	v := l.versions[key]
	if v == nil {
		v = &versionOnce{}
		l.versions[key] = v
	}
	l.versionMu.Unlock()
	v.once.Do(func() { v.out, v.why = runVersion(ctx, lang, cache) })
	if err := ctx.Err(); err != nil {
		// Stopped (Ctrl-C): what the command said, if anything, is not
		// the runtime's fault.
		return "", fmt.Errorf("%s: checking the %s runtime (%s): %w", path, lang.Name, strings.Join(lang.Version, " "), err)
	}
	if v.why != "" {
		return "", &Fault{Err: &RuntimeError{Name: ownPathName(path), Lang: lang.Name, Command: lang.Version, Why: v.why}}
	}
	return v.out, nil
}

// runVersion runs a version command: its output, or why it failed.
func runVersion(ctx context.Context, lang *Language, cache string) (out, why string) {
	ctx, cancel := context.WithTimeout(ctx, versionWait)
	defer cancel()
	if abs, err := filepath.Abs(cache); err == nil {
		cache = abs
	}
	cmd := exec.CommandContext(ctx, lang.Version[0], lang.Version[1:]...)
	cmd.Env = compileEnv(lang.Env, cache)
	cmd.Dir = os.TempDir()
	var b bytes.Buffer
	cmd.Stdout, cmd.Stderr = &b, &b
	err := cmd.Run()
	text := strings.TrimSpace(judge.LastLines(b.Bytes(), 8, 1000))
	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil:
		return "", fmt.Sprintf("no answer in %v", versionWait)
	case errors.As(err, &ee):
		return "", fmt.Sprintf("%v: %s", err, judge.PrintableLine(text))
	case err != nil:
		return "", err.Error()
	}
	first, _, _ := strings.Cut(strings.TrimSpace(b.String()), "\n")
	return strings.TrimSpace(judge.PrintableLine(strings.ToValidUTF8(first, "?"))), ""
}
