package judge

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"

	"judge/sandbox"
)

// IO says what a bot's standard output is.
type IO string

// The two kinds of bot output.
const (
	// PTY makes the bot's stdout a raw pseudo-terminal, so that the C and
	// Python runtimes flush every line by themselves.
	PTY IO = "pty"
	// Pipe makes it a plain pipe: faster, but a bot must flush.
	Pipe IO = "pipe"
)

// MaxLine is the longest line a bot may write, newline included.
const MaxLine = 64 << 10

// BotSpec says how to run one bot.
type BotSpec struct {
	Name string   // shown in results; defaults to the program's file name
	Argv []string // the command
	Dir  string   // working directory
}

// ParseBot turns a BOT argument into a spec: the path of an executable
// (spaces allowed), or a command line with shell-like quoting such as
// "python3 bot.py".
func ParseBot(arg string) (BotSpec, error) {
	var argv []string
	if st, err := os.Stat(arg); err == nil && !st.IsDir() {
		argv = []string{arg}
	} else {
		argv, err = SplitCommand(arg)
		if err != nil {
			return BotSpec{}, fmt.Errorf("bot %q: %w", arg, err)
		}
	}
	if len(argv) == 0 {
		return BotSpec{}, errors.New("empty bot command")
	}
	if !strings.Contains(argv[0], "/") {
		if _, err := os.Stat(argv[0]); err == nil {
			argv[0] = "./" + argv[0] // a file here, not a program in PATH
		}
	}
	main := mainFile(argv)
	if main == "" {
		return BotSpec{}, fmt.Errorf("bot %q: no such program", argv[0])
	}
	return BotSpec{Name: filepath.Base(main), Argv: argv}, nil
}

// mainFile is the file that is the bot: the last argument naming an
// existing file (the script of an interpreter), else the program itself
// as found in PATH. Empty when the program cannot be found.
func mainFile(argv []string) string {
	for i := len(argv) - 1; i >= 1; i-- {
		if st, err := os.Stat(argv[i]); err == nil && st.Mode().IsRegular() {
			return argv[i]
		}
	}
	p, err := lookPath(argv[0])
	if err != nil {
		return ""
	}
	return p
}

func lookPath(name string) (string, error) {
	if strings.Contains(name, "/") {
		st, err := os.Stat(name)
		if err != nil {
			return "", err
		}
		if st.IsDir() || st.Mode()&0o111 == 0 {
			return "", fmt.Errorf("%s is not an executable file", name)
		}
		return name, nil
	}
	return exec.LookPath(name)
}

// Hash returns the sha256 of the bot's main file, hex-encoded.
func (b BotSpec) Hash() (string, error) {
	f, err := os.Open(mainFile(b.Argv))
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// SplitCommand splits a command line into words the way a POSIX shell
// would for plain words: spaces separate, single quotes keep everything,
// double quotes keep all but \" and \\, a backslash escapes one character.
func SplitCommand(s string) ([]string, error) {
	var (
		words []string
		cur   strings.Builder
		in    bool // inside a word
	)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			if in {
				words = append(words, cur.String())
				cur.Reset()
				in = false
			}
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, errors.New("unterminated single quote")
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
			in = true
		case c == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '\\') {
					i++
				}
				cur.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, errors.New("unterminated double quote")
			}
			in = true
		case c == '\\':
			if i+1 < len(s) {
				i++
				cur.WriteByte(s[i])
			}
			in = true
		default:
			cur.WriteByte(c)
			in = true
		}
	}
	if in {
		words = append(words, cur.String())
	}
	return words, nil
}

// botProc is a running bot: its process, the judge's ends of its standard
// files, and its captured stderr.
type botProc struct {
	proc   *sandbox.Process
	out    *os.File      // the judge reads the bot's stdout here
	outR   *fdReader     // over out
	r      *bufio.Reader // over outR
	in     *os.File      // the judge writes the bot's stdin here
	stderr *tailBuffer
	errs   sync.WaitGroup // the stderr copier

	stopOnce sync.Once
}

// startBot starts spec with a minimal environment.
func startBot(spec BotSpec, mode IO, env []string, level sandbox.Level, limits sandbox.Limits, stderrCap int) (*botProc, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("stdin pipe: %w", err)
	}
	defer inR.Close()
	var outR, outW *os.File
	switch mode {
	case PTY:
		outR, outW, err = openRawPTY()
	case Pipe:
		outR, outW, err = os.Pipe()
	default:
		err = fmt.Errorf("unknown io mode %q (want pty or pipe)", mode)
	}
	if err != nil {
		inW.Close()
		return nil, err
	}
	defer outW.Close()
	errR, errW, err := os.Pipe()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, fmt.Errorf("stderr pipe: %w", err)
	}
	defer errW.Close()

	proc, err := sandbox.Start(sandbox.Spec{
		Argv: spec.Argv, Dir: spec.Dir, Env: env,
		Stdin: inR, Stdout: outW, Stderr: errW,
		Limits: limits,
		Level:  level,
		// The bot sees its own files (read-only), nothing else of ours.
		ReadOnly: sandbox.PathsOf(spec.Argv, spec.Dir),
	})
	if err != nil {
		inW.Close()
		outR.Close()
		errR.Close()
		return nil, err
	}
	fr, err := newFDReader(outR)
	if err != nil {
		proc.Kill()
		<-proc.Done()
		inW.Close()
		outR.Close()
		errR.Close()
		return nil, err
	}
	b := &botProc{
		proc:   proc,
		out:    outR,
		outR:   fr,
		r:      bufio.NewReaderSize(fr, MaxLine),
		in:     inW,
		stderr: newTailBuffer(stderrCap),
	}
	b.errs.Add(1)
	go func() {
		defer b.errs.Done()
		_, _ = io.Copy(b.stderr, errR)
		errR.Close()
	}()
	return b, nil
}

// openRawPTY opens a pseudo-terminal in raw mode: no echo, no CR/LF
// translation, no line editing or length limit. The master end comes back
// non-blocking, so reads can have deadlines.
func openRawPTY() (master, slave *os.File, err error) {
	m, s, err := pty.Open()
	if err != nil {
		return nil, nil, fmt.Errorf("open pty: %w", err)
	}
	defer func() {
		if err != nil {
			m.Close()
			s.Close()
		}
	}()
	t, err := unix.IoctlGetTermios(int(s.Fd()), unix.TCGETS)
	if err != nil {
		return nil, nil, fmt.Errorf("pty termios: %w", err)
	}
	// cfmakeraw, and no output processing at all.
	t.Iflag &^= unix.IGNBRK | unix.BRKINT | unix.PARMRK | unix.ISTRIP | unix.INLCR | unix.IGNCR | unix.ICRNL | unix.IXON
	t.Oflag &^= unix.OPOST
	t.Lflag &^= unix.ECHO | unix.ECHONL | unix.ICANON | unix.ISIG | unix.IEXTEN
	t.Cflag &^= unix.CSIZE | unix.PARENB
	t.Cflag |= unix.CS8
	t.Cc[unix.VMIN] = 1
	t.Cc[unix.VTIME] = 0
	if err := unix.IoctlSetTermios(int(s.Fd()), unix.TCSETS, t); err != nil {
		return nil, nil, fmt.Errorf("pty raw mode: %w", err)
	}
	// pty.Open used the master's Fd, which made it blocking; take a fresh
	// non-blocking descriptor so the runtime poller serves it.
	fd, err := unix.FcntlInt(m.Fd(), unix.F_DUPFD_CLOEXEC, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("pty dup: %w", err)
	}
	if err := unix.SetNonblock(fd, true); err != nil {
		unix.Close(fd)
		return nil, nil, fmt.Errorf("pty nonblock: %w", err)
	}
	m.Close()
	return os.NewFile(uintptr(fd), "/dev/ptmx"), s, nil
}

// errLineTooLong is returned by readLine for a line over MaxLine bytes.
var errLineTooLong = errors.New("line too long")

// readLine reads one line, newline included, before b.outR's deadline.
// The returned slice is valid until the next read. io.EOF means the
// bot closed its output (or exited).
func (b *botProc) readLine() ([]byte, error) {
	line, err := b.r.ReadSlice('\n')
	switch {
	case err == nil:
		return line, nil
	case errors.Is(err, bufio.ErrBufferFull):
		return line, errLineTooLong
	}
	return line, err
}

// write sends text to the bot's stdin before the write deadline of b.in.
func (b *botProc) write(p []byte) error {
	_, err := b.in.Write(p)
	return err
}

// stop ends the bot: its stdin is closed, it has grace to exit by itself,
// then its whole process group is killed. It returns once the process is
// reaped and its stderr read to the end.
// It may be called more than once; only the first call acts.
func (b *botProc) stop(grace time.Duration) sandbox.Exit {
	b.stopOnce.Do(func() {
		_ = b.proc.Thaw() // to exit by itself, it must run
		b.in.Close()
		t := time.NewTimer(grace)
		select {
		case <-b.proc.Done():
		case <-t.C:
		}
		t.Stop()
		b.proc.Kill()
		<-b.proc.Done()
		b.outR.close()
		b.out.Close()
		b.errs.Wait()
	})
	return b.proc.Exit()
}

// tailBuffer keeps the last cap bytes written to it and counts the rest.
type tailBuffer struct {
	mu    sync.Mutex
	buf   []byte
	cap   int
	total int64
}

func newTailBuffer(n int) *tailBuffer { return &tailBuffer{cap: n} }

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.total += int64(len(p))
	if t.cap <= 0 {
		return len(p), nil
	}
	if len(p) >= t.cap {
		t.buf = append(t.buf[:0], p[len(p)-t.cap:]...)
		return len(p), nil
	}
	if over := len(t.buf) + len(p) - t.cap; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	t.buf = append(t.buf, p...)
	return len(p), nil
}

// Bytes returns what is kept and how many bytes were written in all.
func (t *tailBuffer) Bytes() ([]byte, int64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]byte(nil), t.buf...), t.total
}

// LastLines returns at most n of the last lines of text, at most max
// bytes, as valid UTF-8: the end of a program's stderr, for a message.
func LastLines(text []byte, n, max int) string {
	text = bytes.TrimRight(text, "\n")
	if len(text) > max {
		text = text[len(text)-max:]
	}
	lines := bytes.Split(text, []byte("\n"))
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.ToValidUTF8(string(bytes.Join(lines, []byte("\n"))), "?")
}
