//go:build linux || darwin

package human

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// On a terminal, a key press is an answer without Enter, and the
// terminal is given back as it was.
func TestHumanTerminalKeys(t *testing.T) {
	ptm, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer ptm.Close()
	defer tty.Close()
	go io.Copy(io.Discard, ptm) // what the terminal echoes
	var out strings.Builder
	term := NewTerminal(tty, &out)
	if term.tty < 0 {
		t.Fatal("a pseudo-terminal is not taken for a terminal")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for _, k := range []string{"\x1b[A", "w", "\r"} {
		if _, err := ptm.Write([]byte(k)); err != nil {
			t.Fatal(err)
		}
		got, err := term.AskKey(ctx, "move")
		if want := strings.TrimSuffix(k, "\r"); err != nil || got != want {
			t.Fatalf("typed %q: got %q, %v", k, got, err)
		}
	}
	if got := out.String(); got != "move> up\nmove> w\nmove> (Enter)\n" {
		t.Errorf("the screen: %q", got)
	}
	st, err := unix.IoctlGetTermios(int(tty.Fd()), termiosGet)
	if err != nil || st.Lflag&unix.ICANON == 0 || st.Lflag&unix.ECHO == 0 {
		t.Errorf("the terminal was not given back: %v, lflag %#x", err, st.Lflag)
	}
	// Lines still work, and Ctrl-D in a key press leaves.
	ptm.Write([]byte("1 2\n"))
	if got, err := term.Ask(ctx, "cell"); err != nil || got != "1 2" {
		t.Errorf("a line: %q, %v", got, err)
	}
	ptm.Write([]byte{4})
	if k, err := term.AskKey(ctx, "move"); err != io.EOF {
		t.Errorf("Ctrl-D: %q, %v", k, err)
	}
}
