package procbot

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/windows"
)

// canWatchWriter says whether noReader can tell that a pipe's write end
// has no reader left: not on Windows, where a bot that closed its stdin
// is found when the judge writes to it.
const canWatchWriter = false

func noReader(uintptr) bool { return false }

// writeFD would write without waiting: Windows's pipes cannot.
func writeFD(uintptr, []byte) (int, error) {
	return 0, errors.New("no non-blocking write on Windows")
}

// pipeBytes is how many bytes a pipe holds, unread: not told on Windows.
func pipeBytes(uintptr) int { return 0 }

// outPipe makes the pipe of a bot's stdout.
func outPipe() (r, w *os.File, err error) { return os.Pipe() }

// openRawPTY gives a pipe: Windows has no pseudo-terminals, and a bot
// must flush every line (judge doctor says so).
func openRawPTY() (master, slave *os.File, err error) { return os.Pipe() }

// stdinPipe makes the pipe of a bot's stdin. Windows's pipes take no
// write deadline: the judge's answers to a bot that does not read them
// wait in a buffer of stdinBuffer bytes, and past it the judge's write
// waits until the bot reads or ends.
func stdinPipe() (r, w *os.File, err error) {
	var rh, wh windows.Handle
	if err := windows.CreatePipe(&rh, &wh, nil, stdinBuffer); err != nil {
		return nil, nil, fmt.Errorf("pipe: %w", err)
	}
	return os.NewFile(uintptr(rh), "|0"), os.NewFile(uintptr(wh), "|1"), nil
}

// stdinBuffer is the size of a bot's stdin pipe on Windows.
const stdinBuffer = 1 << 20

// SystemEnv are the variables of the judge's environment that every
// program needs on this system: where Windows, the user's profile and
// temporary files are, and how commands are found.
var SystemEnv = []string{"SystemRoot", "SystemDrive", "windir", "ComSpec", "PATHEXT",
	"TEMP", "TMP", "USERPROFILE", "APPDATA", "LOCALAPPDATA", "ProgramData"}

// BaseEnv is the environment every bot starts from: on Windows, which
// has no sandbox (bots run as the judge's user, for trying them), the
// judge's PATH and SystemEnv, without which Windows programs do not
// start, and UTF-8 text.
func BaseEnv() map[string]string {
	env := map[string]string{"LANG": "C.UTF-8"}
	for _, k := range append([]string{"PATH"}, SystemEnv...) {
		if v, ok := os.LookupEnv(k); ok {
			env[k] = v
		}
	}
	return env
}
