package sandbox

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// The hostile suite: programs that attack the judge or cheat, each with
// the status it must get. It plays one turn the way the judge does (a raw
// pty for stdout, a deadline, an output limit, lines of text), then checks
// that the program and all it started are gone and that nothing leaked.

// hostileLimits are the sandbox limits of the suite (less memory than a
// bot's default, so that the memory bombs end quickly).
var hostileLimits = Limits{Memory: 128 << 20, Procs: 64, FileSize: 16 << 20, OpenFiles: 256, TmpSize: 64 << 20}

const (
	turnOutput = 1 << 20  // bytes a program may write in its turn
	maxLine    = 64 << 10 // the longest line
)

// build compiles a program of testdata/hostile into a directory of its
// own that a program running as nobody can read, and returns its command.
func build(t *testing.T, src string) (argv []string, dir string) {
	t.Helper()
	dir = t.TempDir()
	for d := dir; d != os.TempDir() && d != "/"; d = filepath.Dir(d) {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	in, err := filepath.Abs(filepath.Join("testdata", "hostile", src))
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, strings.TrimSuffix(filepath.Base(src), filepath.Ext(src)))
	sh := func(args ...string) {
		t.Helper()
		if _, err := exec.LookPath(args[0]); err != nil {
			t.Skipf("needs %s, not installed here ('make tools' installs the toolchains)", args[0])
		}
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Dir = filepath.Dir(in)
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, b)
		}
	}
	switch filepath.Ext(src) {
	case ".c":
		sh("gcc", "-O1", "-pthread", "-o", out, in)
		return []string{out}, dir
	case ".cpp":
		sh("g++", "-O1", "-o", out, in)
		return []string{out}, dir
	case ".py":
		if _, err := exec.LookPath("python3"); err != nil {
			t.Skip("needs python3, not installed here ('make tools' installs the toolchains)")
		}
		if err := os.WriteFile(out+".py", mustRead(t, in), 0o644); err != nil {
			t.Fatal(err)
		}
		return []string{"python3", out + ".py"}, dir
	case ".java":
		sh("javac", "-d", dir, in)
		return []string{"java", "-Xmx1g", "-XX:+UseSerialGC", "-cp", dir, strings.TrimSuffix(filepath.Base(src), ".java")}, dir
	default: // a Go package
		sh("go", "build", "-o", out, "./"+src)
		return []string{out}, dir
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// rawPTY opens a pseudo-terminal in raw mode, as the judge does.
func rawPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	m, s, err := pty.Open()
	if err != nil {
		t.Skipf("no pty: %v", err)
	}
	tio, err := unix.IoctlGetTermios(int(s.Fd()), unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	tio.Iflag &^= unix.IGNBRK | unix.BRKINT | unix.PARMRK | unix.ISTRIP | unix.INLCR | unix.IGNCR | unix.ICRNL | unix.IXON
	tio.Oflag &^= unix.OPOST
	tio.Lflag &^= unix.ECHO | unix.ECHONL | unix.ICANON | unix.ISIG | unix.IEXTEN
	tio.Cflag &^= unix.CSIZE | unix.PARENB
	tio.Cflag |= unix.CS8
	tio.Cc[unix.VMIN], tio.Cc[unix.VTIME] = 1, 0
	if err := unix.IoctlSetTermios(int(s.Fd()), unix.TCSETS, tio); err != nil {
		t.Fatal(err)
	}
	fd, err := unix.FcntlInt(m.Fd(), unix.F_DUPFD_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	_ = unix.SetNonblock(fd, true)
	m.Close()
	return os.NewFile(uintptr(fd), "/dev/ptmx"), s
}

// turn is how a program's turn went.
type turn struct {
	status string // ok, timeout, crash, memory, output, protocol
	reason string
	out    string // the lines it wrote
	stderr int64  // bytes it wrote to stderr
	exit   Exit
	proc   *Process
}

// countTail counts what is written and keeps the end of it.
type countTail struct {
	mu   sync.Mutex
	n    int64
	tail []byte
}

func (c *countTail) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n += int64(len(p))
	c.tail = append(c.tail, p...)
	if len(c.tail) > 4096 {
		c.tail = c.tail[len(c.tail)-4096:]
	}
	return len(p), nil
}

// playTurn runs argv for one turn of at most limit.
func playTurn(t *testing.T, spec Spec, limit time.Duration) turn {
	t.Helper()
	master, slave := rawPTY(t)
	defer master.Close()
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	spec.Stdin, spec.Stdout, spec.Stderr = inR, slave, errW
	if spec.Limits == (Limits{}) {
		spec.Limits = hostileLimits
	}
	if spec.Env == nil {
		spec.Env = []string{"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=/tmp", "LANG=C.UTF-8"}
	}
	p, err := Start(spec)
	inR.Close()
	slave.Close()
	errW.Close()
	if err != nil {
		inW.Close()
		errR.Close()
		t.Fatalf("Start: %v", err)
	}
	var stderr countTail
	var copied sync.WaitGroup
	copied.Add(1)
	go func() {
		defer copied.Done()
		_, _ = io.Copy(&stderr, errR)
		errR.Close()
	}()
	tr := turn{proc: p, status: "ok"}
	deadline := time.Now().Add(limit)
	_ = master.SetReadDeadline(deadline)
	_ = inW.SetWriteDeadline(deadline)
	_, _ = inW.Write([]byte("turn 1\n"))
	r := bufio.NewReaderSize(master, maxLine)
	var written int
	var lines []string
	fail := func(status, reason string) {
		if tr.status == "ok" {
			tr.status, tr.reason = status, reason
		}
	}
	ended := func() {
		// Like the judge: wait a little for the exit, then tell why.
		select {
		case <-p.Done():
			e := p.Exit()
			if e.OOM {
				fail("memory", e.String())
			} else {
				fail("crash", e.String())
			}
		case <-time.After(500 * time.Millisecond):
			fail("crash", "closed its standard output")
		}
	}
	for {
		line, err := r.ReadSlice('\n')
		written += len(line)
		if written > turnOutput {
			fail("output", fmt.Sprintf("more than %d bytes", turnOutput))
			break
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			fail("protocol", "line too long")
			break
		}
		if errors.Is(err, os.ErrDeadlineExceeded) {
			reason := "no #END"
			if len(line) > 0 {
				reason += "; last output has no newline"
			} else if p.Blocked() == "read stdin" {
				reason += "; it was waiting for an answer: forgot to flush"
			}
			select {
			case <-p.Done():
				ended()
			default:
				fail("timeout", reason)
			}
			break
		}
		if err != nil { // EOF, EIO: no writer left
			ended()
			break
		}
		text := strings.TrimRight(string(line), "\r\n")
		if !utf8.ValidString(text) || strings.ContainsFunc(text, func(r rune) bool { return r < 0x20 && r != '\t' || r == 0x7f }) {
			fail("protocol", "not text")
			break
		}
		lines = append(lines, text)
		if text == "#END" {
			break
		}
	}
	tr.out = strings.Join(lines, "\n")
	// The end of the match: stdin closes, a little grace, then the kill.
	inW.Close()
	select {
	case <-p.Done():
	case <-time.After(300 * time.Millisecond):
	}
	p.Kill()
	select {
	case <-p.Done():
	case <-time.After(10 * time.Second):
		t.Fatalf("the sandbox did not end within 10s of Kill")
	}
	copied.Wait()
	tr.exit = p.Exit()
	tr.stderr = stderr.n
	if tr.status == "crash" && len(stderr.tail) > 0 {
		tr.reason += "; stderr: " + lastLine(stderr.tail)
	}
	return tr
}

func lastLine(b []byte) string {
	b = bytes.TrimRight(b, "\n")
	if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
		b = b[i+1:]
	}
	if len(b) > 200 {
		b = b[:200]
	}
	return string(b)
}

// remains lists the processes whose command line mentions dir.
func remains(dir string) []string {
	ents, _ := os.ReadDir("/proc")
	var out []string
	for _, e := range ents {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err == nil && bytes.Contains(b, []byte(dir)) {
			out = append(out, e.Name()+": "+strings.ReplaceAll(string(b), "\x00", " "))
		}
	}
	return out
}

// checkGone checks that nothing of the sandbox is left.
func checkGone(t *testing.T, tr turn, dir string) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for {
		left := remains(dir)
		if len(left) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Errorf("processes remain after the end:\n%s", strings.Join(left, "\n"))
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if unix.Kill(tr.proc.Pid(), 0) == nil {
		t.Errorf("the program's pid %d still exists", tr.proc.Pid())
	}
	if tr.proc.cg != nil {
		for _, d := range tr.proc.cg.dirs {
			if _, err := os.Stat(d); err == nil {
				t.Errorf("cgroup %s remains", d)
			}
		}
	}
	if tr.proc.tmpDir != "" {
		if _, err := os.Stat(tr.proc.tmpDir); err == nil {
			t.Errorf("private tmp %s remains", tr.proc.tmpDir)
		}
	}
}

// hostile is one program of the suite.
type hostile struct {
	name, src string
	want      string        // status at levels with namespaces and cgroups
	lower     string        // status at lower levels when different; "-" to skip them
	reason    string        // the reason must contain this
	limit     time.Duration // the turn's time limit; 2s by default
	args      func(t *testing.T) ([]string, func(t *testing.T))
}

func hostileSuite() []hostile {
	return []hostile{
		{name: "spin", src: "spin.c", want: "timeout"},
		{name: "busy threads", src: "threads.c", want: "timeout"},
		{name: "sleep forever", src: "sleep.c", want: "timeout"},
		{name: "busy-wait on the clock", src: "clockwait.c", want: "timeout"},
		{name: "fork bomb", src: "forkbomb.c", want: "timeout", lower: "-"},
		{name: "memory bomb C", src: "memory.c", want: "memory", lower: "crash", limit: 10 * time.Second},
		{name: "memory bomb Python", src: "memory.py", want: "memory", lower: "crash", limit: 10 * time.Second},
		{name: "memory bomb Java", src: "Memory.java", want: "memory", lower: "-", limit: 20 * time.Second},
		{name: "memory bomb Go", src: "memorygo", want: "memory", lower: "crash", limit: 10 * time.Second},
		{name: "fd bomb", src: "fdbomb.c", want: "ok"},
		{name: "huge file", src: "hugefile.c", want: "crash", reason: "SIGXFSZ"},
		{name: "stdout flood without newline", src: "flood.c", want: "protocol", reason: "line too long"},
		{name: "stdout flood of lines", src: "floodlines.c", want: "output"},
		{name: "stderr flood", src: "stderrflood.c", want: "ok", limit: 10 * time.Second},
		{name: "daemon", src: "daemon.c", want: "ok"},
		{name: "kill parent and -1", src: "killparent.c", want: "ok"},
		{name: "read others' files", src: "readfiles.c", want: "ok", args: readArgs},
		{name: "write outside", src: "writefiles.c", want: "ok", args: writeArgs},
		{name: "tcp connect", src: "tcp.c", want: "ok", args: tcpArgs},
		{name: "udp send", src: "udp.c", want: "ok", args: udpArgs},
		{name: "abstract unix socket", src: "abstract.c", want: "ok", args: abstractArgs},
		{name: "ptrace", src: "ptrace.c", want: "ok"},
		{name: "TIOCSTI", src: "tiocsti.c", want: "ok"},
		{name: "segfault", src: "segfault.c", want: "crash", reason: "SIGSEGV"},
		{name: "abort", src: "abort.c", want: "crash", reason: "SIGABRT"},
		{name: "uncaught C++ exception", src: "throw.cpp", want: "crash", reason: "SIGABRT"},
		{name: "close stdout", src: "closeout.c", want: "crash"},
		{name: "garbage bytes", src: "garbage.c", want: "protocol"},
		{name: "10 MB line", src: "longline.c", want: "protocol"},
		{name: "no flush on a pty", src: "noflush.c", want: "ok"},
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
	mod, _ := filepath.Abs("../go.mod")
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

func runHostile(t *testing.T, h hostile, level Level) {
	argv, dir := build(t, h.src)
	var check func(*testing.T)
	if h.args != nil {
		var extra []string
		extra, check = h.args(t)
		argv = append(argv, extra...)
	}
	limit := h.limit
	if limit == 0 {
		limit = 2 * time.Second
	}
	want := h.want
	if level != Full && h.lower != "" {
		want = h.lower
	}
	tr := playTurn(t, Spec{Argv: argv, Dir: dir, ReadOnly: []string{dir}, Level: level}, limit)
	t.Logf("%s: %s (%s); exit: %v; stderr %d bytes; cpu %v", h.name, tr.status, tr.reason, tr.exit, tr.stderr, tr.exit.CPU)
	if tr.status != want {
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
	checkGone(t, tr, dir)
}

func TestHostile(t *testing.T) {
	if testing.Short() {
		t.Skip("the hostile suite takes a while")
	}
	available(t, Probe().Level)
	level := Probe().Level
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
	for _, level := range []Level{Namespaces, Basic} {
		if level.rank() >= Probe().Level.rank() {
			continue
		}
		t.Run(string(level), func(t *testing.T) {
			for _, h := range hostileSuite() {
				if h.lower == "-" || strings.HasPrefix(h.src, "memory") && level == Basic {
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
