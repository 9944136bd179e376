//go:build unix

package procbot_test

// The hostile suite: programs that attack the judge or cheat
// (sandbox/testdata/hostile), each with the status it must get. Each plays
// one turn through the judge's own process player, as a match would: the
// pty, the deadline, the output limit, the classification of its faults.
// Then nothing of it may be left: no process, no cgroup, no tmp.

import (
	"context"
	"fmt"
	"judge/sandbox/sandboxtest"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"judge/judge"
	"judge/judge/judgetest"
	"judge/judge/procbot"
	"judge/sandbox"
)

// hostileLimits are the sandbox limits of the suite (less memory than a
// bot's default, so that the memory bombs end quickly).
var hostileLimits = sandbox.Limits{Memory: 128 << 20, Procs: 64, FileSize: 16 << 20, OpenFiles: 256, TmpSize: 64 << 20}

// turn is how a program's turn went.
type turn struct {
	status judge.Status
	reason string
	out    string // the lines it wrote
	final  judge.Final
	exit   sandbox.Exit
	proc   *sandbox.Process
}

// playTurn plays one turn of spec, of at most limit, through the process
// player, and stops it as the end of a match does.
func playTurn(t *testing.T, spec procbot.Spec, o procbot.Options, limit time.Duration) turn {
	t.Helper()
	p, err := judgetest.Host().Start(t.Context(), spec, o, 1)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	tr := turn{status: judge.OK, proc: procbot.ProcessOf(p)}
	ctx := context.Background()
	fail := func(err error) {
		f := judge.AsFault(err)
		if f == nil {
			t.Fatalf("a judge error: %v", err)
		}
		tr.status, tr.reason = f.Status, f.Reason
	}
	if err := p.BeginTurn(ctx, judge.Turn{Number: 1, Limit: limit, Deadline: time.Now().Add(limit), First: true}); err != nil {
		t.Fatal(err)
	}
	var lines []string
	written := 0
	for {
		l, err := p.ReadLine(ctx)
		if err != nil {
			fail(err)
			break
		}
		written += len(l) + 1
		if written > int(judge.DefaultTurnLimits.Output) {
			tr.status, tr.reason = judge.Output, "too much output"
			break
		}
		if why := judge.NotText(l); why != "" {
			tr.status, tr.reason = judge.Protocol, why
			break
		}
		lines = append(lines, string(l))
		if string(l) == "#END" {
			break
		}
	}
	if _, err := p.EndTurn(ctx); err != nil {
		fail(err)
	}
	tr.out = strings.Join(lines, "\n")
	done := make(chan judge.Final)
	go func() { done <- p.Stop(300 * time.Millisecond) }()
	select {
	case tr.final = <-done:
	case <-time.After(15 * time.Second):
		t.Fatalf("the player did not stop within 15s")
	}
	tr.exit = p.Exit()
	return tr
}

// checkGone checks that nothing of the sandbox is left.
func checkGone(t *testing.T, tr turn, marker string) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for {
		left := judgetest.Running(marker)
		if len(left) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Errorf("processes remain after the end:\n%s", strings.Join(left, "\n"))
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	for _, l := range tr.proc.Leftovers() {
		t.Errorf("%s remains", l)
	}
}

// hostile is one program of the suite.
type hostile struct {
	name, src string
	want      string        // status at levels with namespaces and cgroups
	or        string        // another status it may get, by a race it does not decide
	lower     string        // status at lower levels when different; "-" to skip them
	reason    string        // the reason must contain this
	limit     time.Duration // the turn's time limit; 2s by default
	args      func(t *testing.T) ([]string, func(t *testing.T))
	env       bool              // the args are paths: give them in TARGETS, not on the command line
	environ   map[string]string // added to the program's environment
	io        procbot.IO        // the bot's stdout; the default when empty
}

func hostileSuite() []hostile {
	return []hostile{
		{name: "spin", src: "spin.c", want: "timeout"},
		{name: "busy threads", src: "threads.c", want: "timeout"},
		{name: "sleep forever", src: "sleep.c", want: "timeout"},
		{name: "busy-wait on the clock", src: "clockwait.c", want: "timeout"},
		// Its 64 processes may fill the memory limit before the time
		// limit (3× the turn when the machine keeps it waiting) runs out.
		{name: "fork bomb", src: "forkbomb.c", want: "timeout", or: "memory", lower: "-"},
		{name: "memory bomb C", src: "memory.c", want: "memory", lower: "crash", limit: 10 * time.Second},
		{name: "memory bomb Python", src: "memory.py", want: "memory", lower: "crash", limit: 10 * time.Second},
		// The JVM sized from the limit (procbot.RuntimeEnv) stops at
		// its own heap's limit, at every level.
		{name: "memory bomb Java", src: "Memory.java", want: "crash", reason: "OutOfMemoryError", limit: 20 * time.Second},
		// One that sets its own heap's limit, far above, meets the cgroup.
		{name: "memory bomb Java with its own heap", src: "Memory.java", want: "memory", lower: "-", limit: 20 * time.Second,
			environ: map[string]string{"JAVA_TOOL_OPTIONS": "-Xmx4g"}},
		{name: "memory bomb Go", src: "memorygo", want: "memory", lower: "crash", limit: 10 * time.Second},
		{name: "fd bomb", src: "fdbomb.c", want: "ok"},
		{name: "huge file", src: "hugefile.c", want: "crash", reason: "SIGXFSZ"},
		{name: "stdout flood without newline", src: "flood.c", want: "protocol", reason: "longer than 65536 bytes"},
		{name: "stdout flood of lines", src: "floodlines.c", want: "output"},
		{name: "stderr flood", src: "stderrflood.c", want: "ok", limit: 10 * time.Second},
		{name: "daemon", src: "daemon.c", want: "ok"},
		{name: "kill parent and -1", src: "killparent.c", want: "ok"},
		{name: "read others' files", src: "readfiles.c", want: "ok", args: readArgs, env: true},
		{name: "write outside", src: "writefiles.c", want: "ok", args: writeArgs, env: true},
		{name: "tcp connect", src: "tcp.c", want: "ok", args: tcpArgs},
		{name: "udp send", src: "udp.c", want: "ok", args: udpArgs},
		{name: "abstract unix socket", src: "abstract.c", want: "ok", args: abstractArgs},
		{name: "ptrace", src: "ptrace.c", want: "ok"},
		{name: "TIOCSTI", src: "tiocsti.c", want: "ok", io: procbot.PTY},
		{name: "segfault", src: "segfault.c", want: "crash", reason: "SIGSEGV"},
		{name: "abort", src: "abort.c", want: "crash", reason: "SIGABRT"},
		{name: "uncaught C++ exception", src: "throw.cpp", want: "crash", reason: "SIGABRT"},
		{name: "close stdout", src: "closeout.c", want: "crash"},
		{name: "garbage bytes", src: "garbage.c", want: "protocol"},
		{name: "10 MB line", src: "longline.c", want: "protocol"},
		{name: "no flush", src: "noflush.c", want: "ok"},
		{name: "no flush on a pty", src: "noflush.c", want: "ok", io: procbot.PTY},
		{name: "forgot to flush", src: "forgotflush.c", want: "timeout", reason: "flush"},
	}
}

// readArgs: a file of another bot and the judge's own files.
func readArgs(t *testing.T) ([]string, func(*testing.T)) {
	other := t.TempDir()
	_ = os.Chmod(other, 0o755)
	secret := filepath.Join(other, "secret.txt")
	if err := os.WriteFile(secret, []byte("secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	exe, _ := os.Executable()
	mod := filepath.Join(judgetest.Root(t), "go.mod")
	return []string{secret, exe, mod, "/proc/self/../" + strconv.Itoa(os.Getpid()) + "/environ"}, nil
}

// writeArgs: a world-writable directory elsewhere and the judge's own.
func writeArgs(t *testing.T) ([]string, func(*testing.T)) {
	other := t.TempDir()
	_ = os.Chmod(other, 0o777)
	cwd, _ := os.Getwd()
	targets := []string{filepath.Join(other, "leak"), filepath.Join(cwd, "leak"), "/var/tmp/judge-hostile-leak"}
	return targets, func(t *testing.T) {
		for _, p := range targets {
			if _, err := os.Stat(p); err == nil {
				os.Remove(p)
				t.Errorf("the program created %s", p)
			}
		}
	}
}

// countAccepts accepts and closes every connection to ln until it is
// closed; close closes it and says how many there were.
func countAccepts(ln net.Listener) (close func() int) {
	var mu sync.Mutex
	got := 0
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			got++
			mu.Unlock()
			c.Close()
		}
	}()
	return func() int {
		ln.Close()
		mu.Lock()
		defer mu.Unlock()
		return got
	}
}

func tcpArgs(t *testing.T) ([]string, func(*testing.T)) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closeLn := countAccepts(ln)
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	return []string{port}, func(t *testing.T) {
		if got := closeLn(); got > 0 {
			t.Errorf("the listener accepted %d connections", got)
		}
	}
}

func udpArgs(t *testing.T) ([]string, func(*testing.T)) {
	c, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := strconv.Itoa(c.LocalAddr().(*net.UDPAddr).Port)
	return []string{port}, func(t *testing.T) {
		defer c.Close()
		_ = c.SetReadDeadline(time.Now().Add(100 * time.Millisecond))
		buf := make([]byte, 64)
		if n, _, err := c.ReadFrom(buf); err == nil {
			t.Errorf("the listener received %q", buf[:n])
		}
	}
}

// abstractArgs: another bot listens on an abstract unix socket.
func abstractArgs(t *testing.T) ([]string, func(*testing.T)) {
	name := fmt.Sprintf("judge-hostile-%d-%d", os.Getpid(), time.Now().UnixNano())
	ln, err := net.Listen("unix", "@"+name)
	if err != nil {
		t.Fatal(err)
	}
	closeLn := countAccepts(ln)
	return []string{name}, func(t *testing.T) {
		if got := closeLn(); got > 0 {
			t.Errorf("the other bot's socket accepted %d connections", got)
		}
	}
}

func runHostile(t *testing.T, h hostile, level sandbox.Level) {
	path := "sandbox/testdata/hostile/" + h.src
	argv := judgetest.Bot(t, path)
	marker := argv[len(argv)-1]
	if argv[0] == "java" {
		marker = argv[2] // the class directory
	}
	env := map[string]string{}
	for k, v := range h.environ {
		env[k] = v
	}
	var check func(*testing.T)
	if h.args != nil {
		var extra []string
		extra, check = h.args(t)
		if h.env {
			env["TARGETS"] = strings.Join(extra, " ")
		} else {
			argv = append(argv, extra...)
		}
	}
	limit := h.limit
	if limit == 0 {
		limit = 2 * time.Second
	}
	want := h.want
	if level != sandbox.Full && h.lower != "" {
		want = h.lower
	}
	if h.src == "killparent.c" && level == sandbox.Basic && os.Geteuid() != 0 && landlockABI() < 6 {
		// Below Landlock ABI 6 nothing keeps a bot at basic from
		// signalling its parent, the sandbox's reaper, which is its own
		// user's (docs/sandbox.md, Older kernels): it may end its own
		// sandbox, and nothing else.
		h.or = "crash"
	}
	tr := playTurn(t, procbot.Spec{Name: h.name, Argv: argv}, procbot.Options{Host: judgetest.Host(), Level: level, Limits: hostileLimits, Env: env, IO: h.io}, limit)
	t.Logf("%s: %s (%s); exit: %v; stderr %d bytes; cpu %v", h.name, tr.status, tr.reason, tr.exit, tr.final.StderrBytes, tr.exit.CPU)
	if string(tr.status) != want && (h.or == "" || string(tr.status) != h.or) {
		t.Errorf("status %s (%s), want %s", tr.status, tr.reason, want)
	}
	if h.reason != "" && !strings.Contains(tr.reason, h.reason) {
		t.Errorf("reason %q does not say %q", tr.reason, h.reason)
	}
	if strings.Contains(tr.out, "LEAK") {
		t.Errorf("a protection failed:\n%s", tr.out)
	}
	if check != nil {
		check(t)
	}
	checkGone(t, tr, marker)
}

func TestHostile(t *testing.T) {
	if testing.Short() {
		t.Skip("the hostile suite takes a while")
	}
	level := judgetest.Host().RunLevel(procbot.Auto)
	if level == sandbox.None {
		sandboxtest.SkipLevel(t, "no sandbox here:\n%s", judgetest.Host().Sandbox().Probe())
	}
	for _, h := range hostileSuite() {
		t.Run(h.name, func(t *testing.T) {
			t.Parallel()
			runHostile(t, h, level)
		})
	}
}

// TestHostileLower runs the suite at the levels below the best one, as on
// machines without cgroups or without user namespaces.
func TestHostileLower(t *testing.T) {
	if testing.Short() {
		t.Skip("the hostile suite takes a while")
	}
	all := levels()
	for _, level := range all[1 : len(all)-1] { // basic and namespaces, when the best is higher
		if level != sandbox.Basic && level != sandbox.Namespaces {
			continue
		}
		t.Run(string(level), func(t *testing.T) {
			for _, h := range hostileSuite() {
				if h.lower == "-" || strings.HasPrefix(h.src, "memory") && level == sandbox.Basic {
					continue
				}
				t.Run(h.name, func(t *testing.T) {
					t.Parallel()
					runHostile(t, h, level)
				})
			}
		})
	}
}
