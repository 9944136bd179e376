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
// program needs on this system: none on Unix.
var SystemEnv []string

// BaseEnv is the environment every bot starts from, the same whatever
// the judge's: programs in the system's directories (a program named
// without a slash is found in the judge's PATH before it starts, see
// package sandbox), its private /tmp as its home (at level basic its
// private temporary directory), and UTF-8 text.
func BaseEnv() map[string]string {
	return map[string]string{
		"PATH": "/usr/local/bin:/usr/bin:/bin",
		"HOME": "/tmp",
		"LANG": "C.UTF-8",
	}
}

// pipeBytes is how many bytes the pipe fd holds, unread (FIONREAD); 0
// when it cannot tell.
func pipeBytes(fd uintptr) int {
	n, err := unix.IoctlGetInt(int(fd), fionread)
	if err != nil {
		return 0
	}
	return n
}
