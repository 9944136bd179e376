package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"

	"judge/judge/judgetest"
)

// readingOrder is every cell of a 3×3 board, row by row: a person who
// types them in turn plays a whole game, each taken cell being refused
// and asked again.
var readingOrder = []string{"0 0", "1 0", "2 0", "0 1", "1 1", "2 1", "0 2", "1 2", "2 2"}

func TestPlayUsage(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"play", "--game", "tictactoe"}, "no bots given"},
		{[]string{"play", "--game", "tictactoe", "--seat", "2", "bot"}, "--seat 2: with 1 bots, the seats are 0..1"},
		{[]string{"play", "--game", "tictactoe", "--seat", "-1", "bot"}, "--seat -1"},
		{[]string{"play", "bot"}, "no game"},
	} {
		code, _, errs := run(t, tt.args...)
		if code != 2 || !strings.Contains(errs, tt.want) {
			t.Errorf("judge %s: status %d, %q; want 2 saying %q", strings.Join(tt.args, " "), code, errs, tt.want)
		}
	}
	code, out, _ := run(t, "play", "--help")
	if code != 0 || !strings.Contains(out, "--seat") || !strings.Contains(out, "--timed") {
		t.Errorf("help: %d %q", code, out)
	}
}

// judge play in-process, the person at seat 1, with the moves read from
// its Stdin, the replay written.
func TestPlayInProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a bot program")
	}
	bot := quote(judgetest.Bot(t, "examples/gomoku/random.c"))
	replay := filepath.Join(t.TempDir(), "game.json")
	var out, errb bytes.Buffer
	m := &Main{Stdin: strings.NewReader(strings.Join(readingOrder, "\n") + "\n"), Stdout: &out, Stderr: &errb, Host: judgetest.Host()}
	code := m.Run(context.Background(), []string{"play", "--game", "tictactoe", "--seat", "1", "--name", "ann",
		"--seed", "3", "--replay", replay, bot})
	if code != 0 {
		t.Fatalf("status %d\n%s\n%s", code, out.String(), errb.String())
	}
	text := out.String()
	for _, w := range []string{"tictactoe (k=3 n=3), seed 3: you are seat 1 of 2. Ctrl-D leaves the game.", "You are O", "(X) played",
		"already taken by X", "The end of the game:", "seat 1  ann                  ok"} {
		if !strings.Contains(text, w) {
			t.Errorf("the output does not say %q:\n%s", w, text)
		}
	}
	var rp struct {
		Bots []struct{ Name string }
	}
	b, err := os.ReadFile(replay)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &rp); err != nil || len(rp.Bots) != 2 || rp.Bots[1].Name != "ann" {
		t.Errorf("replay: %v, %+v", err, rp.Bots)
	}
}

// screen is what a terminal showed.
type screen struct {
	mu   sync.Mutex
	b    strings.Builder
	more chan struct{} // a signal for each read
}

func (s *screen) read(f *os.File) {
	buf := make([]byte, 4096)
	for {
		n, err := f.Read(buf)
		s.mu.Lock()
		s.b.Write(buf[:n])
		s.mu.Unlock()
		select {
		case s.more <- struct{}{}:
		default:
		}
		if err != nil {
			close(s.more)
			return
		}
	}
}

func (s *screen) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// waitFor waits, within a minute, until the screen shows what ok looks
// for; false when it never does (or the terminal closed first).
func (s *screen) waitFor(ok func(string) bool) bool {
	deadline := time.NewTimer(time.Minute)
	defer deadline.Stop()
	for !ok(s.String()) {
		select {
		case _, open := <-s.more:
			if !open {
				return ok(s.String())
			}
		case <-deadline.C:
			return false
		}
	}
	return true
}

// judgeProgram builds the judge into the test's temporary directory.
func judgeProgram(t *testing.T) string {
	t.Helper()
	return buildJudge(t, t.TempDir())
}

// buildJudge builds the judge into dir and returns its path.
func buildJudge(t *testing.T, dir string) string {
	t.Helper()
	bin := filepath.Join(dir, "judge")
	build := exec.Command("go", "build", "-o", bin, "./cmd/judge")
	build.Dir = judgetest.Root(t)
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// playOnTerminal runs judge play with args on a pseudo-terminal and types
// moves (each with end, "\r" for Enter, or none for a key press), each
// once prompt is shown again, until the screen shows result. It returns
// the screen and how many moves were typed.
func playOnTerminal(t *testing.T, args []string, prompt, end string, moves []string, result *regexp.Regexp) (string, int) {
	t.Helper()
	cmd := exec.Command(judgeProgram(t), append([]string{"play"}, args...)...)
	cmd.Dir = judgetest.Root(t)
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 40, Cols: 120})
	if err != nil {
		t.Fatal(err)
	}
	defer tty.Close()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	exited := false
	defer func() {
		if !exited {
			_ = cmd.Process.Kill()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Errorf("judge play (pid %d) did not end within 10s of SIGKILL", cmd.Process.Pid)
			}
		}
	}()
	scr := &screen{more: make(chan struct{}, 1)}
	go scr.read(tty)

	over := func(s string) bool { return result.MatchString(s) }
	typed := 0
	for _, mv := range moves {
		if !scr.waitFor(func(s string) bool { return over(s) || strings.Count(s, prompt) > typed }) {
			t.Fatalf("no prompt after %d moves:\n%s", typed, scr)
		}
		if over(scr.String()) {
			break
		}
		if _, err := tty.Write([]byte(mv + end)); err != nil {
			t.Fatal(err)
		}
		typed++
	}
	if !scr.waitFor(over) {
		t.Fatalf("no result after %d moves:\n%s", typed, scr)
	}
	select {
	case err := <-done:
		exited = true
		if err != nil {
			t.Fatalf("judge play: %v\n%s", err, scr)
		}
	case <-time.After(time.Minute):
		t.Fatalf("judge play did not exit:\n%s", scr)
	}
	return scr.String(), typed
}

// A game of tic-tac-toe typed into judge play on a real terminal, to its
// end, with a move off the board that is explained and asked again.
func TestPlayTerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the judge and plays on a terminal")
	}
	judgetest.NeedTools(t, "gcc")
	bot := quote(judgetest.Bot(t, "examples/gomoku/random.c"))
	replay := filepath.Join(t.TempDir(), "game.json")
	const prompt = "your move (x y)> "
	result := regexp.MustCompile(`tictactoe \(k=3 n=3\), seed 7: (seat \d \(\S+\) wins|no winner) after \d+ turns`)
	s, typed := playOnTerminal(t, []string{"--game", "tictactoe", "--seed", "7", "--replay", replay, bot},
		prompt, "\r", append([]string{"3 3"}, readingOrder...), result)
	for _, w := range []string{
		"you are seat 0 of 2",
		prompt + "3 3\r\nRefused: PlaceSymbol 3 3: (3,3) is off the 3×3 board (cells 0..2). Try again.",
		"   0 1 2\r\n0  X",
		"seat 0  you ",
	} {
		if !strings.Contains(s, w) {
			t.Errorf("the screen does not show %q:\n%s", w, s)
		}
	}
	if _, err := os.Stat(replay); err != nil {
		t.Errorf("no replay: %v", err)
	}
	t.Logf("%d moves typed; %s", typed, result.FindString(s))
}

// Splix on a terminal: a move is one key press, arrow keys or letters,
// without Enter.
func TestPlayTerminalKeys(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the judge and plays on a terminal")
	}
	bot := quote(judgetest.Bot(t, "examples/splix/looper"))
	const prompt = "your move (n, e, s, w or an arrow key; Enter goes straight on)> "
	result := regexp.MustCompile(`splix-small \(lag=1 players=2 size=32 turns=6\), seed 7: (seat \d \(\S+\) wins|no winner) after 6 turns`)
	// Two north, two east, two south: never off the land it starts on.
	keys := []string{"\x1b[A", "x", "n", "\x1b[C", "e", "\x1b[B", "s"}
	s, typed := playOnTerminal(t, []string{"--game", "splix-small", "--param", "turns=6", "--seed", "7", bot},
		prompt, "", keys, result)
	for _, w := range []string{
		prompt + "up\r\n",
		prompt + "x\r\n\"x\" is not a direction",
		prompt + "right\r\n",
		"seat 0  you                  ok",
	} {
		if !strings.Contains(s, w) {
			t.Errorf("the screen does not show %q:\n%s", w, s)
		}
	}
	if typed != len(keys) {
		t.Errorf("%d keys typed, want %d", typed, len(keys))
	}
}

// TestPlayInterrupted: a signal during judge play says what it
// interrupted, the game, not "context canceled".
func TestPlayInterrupted(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a bot program")
	}
	bot := quote(judgetest.Bot(t, "examples/gomoku/random.c"))
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	in, w := io.Pipe() // the person never moves
	defer w.Close()
	var out, errb judgetest.SyncBuffer
	m := &Main{Stdin: in, Stdout: &out, Stderr: &errb, Host: judgetest.Host()}
	done := make(chan int, 1)
	go func() { done <- m.Run(ctx, []string{"play", "--game", "tictactoe", "--no-sandbox", bot}) }()
	for !strings.Contains(out.String(), "your move") {
		select {
		case code := <-done:
			t.Fatalf("ended before the game asked a move: status %d\n%s\n%s", code, out.String(), errb.String())
		case <-time.After(10 * time.Millisecond):
		}
	}
	cancel(signalled(syscall.SIGINT))
	code := <-done
	errs := errb.String()
	if code != 130 || !strings.Contains(errs, "judge play: interrupted by SIGINT: the game was not finished") || strings.Contains(errs, "context canceled") {
		t.Errorf("status %d, stderr %q; want 130 saying the game was interrupted", code, errs)
	}
}
