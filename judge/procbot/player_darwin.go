package procbot

import (
	"fmt"
	"os"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// The ioctls that read and set a terminal's attributes.
const (
	termiosGet = unix.TIOCGETA
	termiosSet = unix.TIOCSETA
)

// canWatchWriter says whether noReader can tell, in the runtime poller,
// that a pipe's write end has no reader left: not on macOS, where a bot
// that closed its stdin is found when the judge writes to it.
const canWatchWriter = false

func noReader(uintptr) bool { return false }

// writeFD writes what fits of b to the non-blocking descriptor fd.
func writeFD(fd uintptr, b []byte) (int, error) { return unix.Write(int(fd), b) }

// fionread is macOS's FIONREAD, _IOR('f', 127, int), which x/sys/unix
// does not name.
const fionread = 0x4004667f

// outPipe makes the pipe of a bot's stdout.
func outPipe() (r, w *os.File, err error) { return os.Pipe() }

// openRawPTY opens a pseudo-terminal in raw mode: no echo, no CR/LF
// translation, no line editing or length limit. The master end is read
// by a pumpReader, blocking.
func openRawPTY() (master, slave *os.File, err error) {
	m, s, err := pty.Open()
	if err != nil {
		return nil, nil, fmt.Errorf("open pty: %w", err)
	}
	if err := MakeRaw(s); err != nil {
		m.Close()
		s.Close()
		return nil, nil, err
	}
	return m, s, nil
}
