//go:build linux || darwin

package procbot

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// MakeRaw puts the terminal f in raw mode (cfmakeraw, and no output
// processing at all).
func MakeRaw(f *os.File) error {
	t, err := unix.IoctlGetTermios(int(f.Fd()), termiosGet)
	if err != nil {
		return fmt.Errorf("pty termios: %w", err)
	}
	t.Iflag &^= unix.IGNBRK | unix.BRKINT | unix.PARMRK | unix.ISTRIP | unix.INLCR | unix.IGNCR | unix.ICRNL | unix.IXON
	t.Oflag &^= unix.OPOST
	t.Lflag &^= unix.ECHO | unix.ECHONL | unix.ICANON | unix.ISIG | unix.IEXTEN
	t.Cflag &^= unix.CSIZE | unix.PARENB
	t.Cflag |= unix.CS8
	t.Cc[unix.VMIN] = 1
	t.Cc[unix.VTIME] = 0
	if err := unix.IoctlSetTermios(int(f.Fd()), termiosSet, t); err != nil {
		return fmt.Errorf("pty raw mode: %w", err)
	}
	return nil
}

// stdinPipe makes the pipe of a bot's stdin.
func stdinPipe() (r, w *os.File, err error) { return os.Pipe() }

// SystemEnv are the variables of the judge's environment that every
// program needs on this system, besides PATH, HOME and LANG: none on
// Unix.
var SystemEnv []string

// pipeBytes is how many bytes the pipe fd holds, unread (FIONREAD); 0
// when it cannot tell.
func pipeBytes(fd uintptr) int {
	n, err := unix.IoctlGetInt(int(fd), fionread)
	if err != nil {
		return 0
	}
	return n
}
