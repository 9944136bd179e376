package procbot

import (
	"debug/elf"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
)

// The line buffering that mode AutoIO gives a bot on a pipe, language by
// language, where a pty would otherwise give it:
//
//   - C and C++ (and every dynamically linked program that writes with
//     C's stdio, interpreters included): coreutils' libstdbuf, preloaded,
//     with _STDBUF_O=L, makes stdout line-buffered before main runs, as
//     `stdbuf -oL` does. C++'s cout writes through C's stdout unless the
//     program calls ios::sync_with_stdio(false), and then it keeps its own
//     buffer, on a pty as on a pipe.
//   - Python: PYTHONUNBUFFERED=1.
//   - Ruby: RUBYOPT requires a one-line file that sets $stdout.sync.
//   - Java: System.out flushes every println and every write that holds
//     a newline, whatever it writes to; Go's os.Stdout has no buffer; Rust's
//     stdout flushes at every newline. A buffer of the bot's own (a
//     BufferedWriter, a bufio.Writer) is flushed by the bot on a pty too.
//   - Shell scripts: the shell writes what echo and printf print at
//     once, and the programs they run get the same environment.
//
// What none of these reach is a statically linked program (no ELF
// interpreter, so nothing is preloaded) that buffers in its C library, or
// a program of another ELF class or machine than libstdbuf's (a 32-bit
// one): such a bot gets a pty. A static Go program has no such buffer and
// gets a pipe.

// stdbufPaths are where Linux distributions install coreutils' libstdbuf.
var stdbufPaths = []string{
	"/usr/libexec/coreutils/libstdbuf.so",
	"/usr/lib/coreutils/libstdbuf.so",
	"/usr/lib64/coreutils/libstdbuf.so",
}

// rubySync is the file that RUBYOPT has every Ruby require.
const rubySync = "$stdout.sync = true\n"

// lineSetup is what mode AutoIO needs of the machine, found once.
type lineSetup struct {
	stdbuf string // libstdbuf's path
	// its ELF class and machine: a program of another cannot load it
	class   elf.Class
	machine elf.Machine
	ruby    string // the Ruby file's path
	err     error  // why mode AutoIO falls back to a pty for every bot
}

var (
	lineOnce sync.Once
	lineSet  lineSetup
)

// lineBuffering finds libstdbuf and writes the Ruby file, once.
func lineBuffering() lineSetup {
	lineOnce.Do(func() {
		for _, p := range stdbufPaths {
			if f, err := elf.Open(p); err == nil {
				lineSet.stdbuf, lineSet.class, lineSet.machine = p, f.Class, f.Machine
				f.Close()
				break
			}
		}
		if lineSet.stdbuf == "" {
			lineSet.err = fmt.Errorf("no libstdbuf.so (coreutils) in %s", strings.Join(stdbufPaths, ", "))
			return
		}
		lineSet.ruby, lineSet.err = writeRubySync()
	})
	return lineSet
}

// writeRubySync writes the Ruby file in a directory of the temporary
// directory that belongs to the judge's user, readable by every user
// (bots may run as another), and returns its path. A directory of that
// name that another user owns, or may write, is not used.
func writeRubySync() (string, error) {
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("judge-stdio-%d", os.Geteuid()))
	if err := os.Mkdir(dir, 0o755); err != nil && !os.IsExist(err) {
		return "", fmt.Errorf("line buffering: %w", err)
	}
	st, err := os.Lstat(dir)
	if err != nil {
		return "", fmt.Errorf("line buffering: %w", err)
	}
	if !st.IsDir() || st.Mode().Perm()&0o022 != 0 || !ownedByUs(st) {
		return "", fmt.Errorf("line buffering: %s is not a directory of the judge's user that only it may write", dir)
	}
	path := filepath.Join(dir, "sync.rb")
	if b, err := os.ReadFile(path); err == nil && string(b) == rubySync {
		return path, nil
	}
	tmp, err := os.CreateTemp(dir, "sync-*.rb")
	if err != nil {
		return "", fmt.Errorf("line buffering: %w", err)
	}
	_, err = tmp.WriteString(rubySync)
	if err == nil {
		err = tmp.Chmod(0o644)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return "", fmt.Errorf("line buffering: %w", err)
	}
	return path, nil
}

// chooseIO is the output a bot whose program runs interp (its #!
// interpreter for a script; "" when it was not found) gets in mode m,
// and whether the line buffering of mode AutoIO is added to its
// environment.
func (h *Host) chooseIO(m IO, interp string) (out IO, shims bool) {
	switch m {
	case PTY, Pipe:
		return m, false
	}
	if lineBuffering().err != nil {
		return PTY, false
	}
	if interp == "" {
		// The sandbox says why it cannot start it.
		return Pipe, true
	}
	if h.unreachedProgram(interp) {
		return PTY, false
	}
	return Pipe, true
}

// lineEnv adds to env (sorted KEY=VALUE, as Env makes it) the variables
// that make a bot's runtimes flush every line: libstdbuf first among the
// preloaded libraries and Ruby's file first among RUBYOPT's options, and
// PYTHONUNBUFFERED and _STDBUF_O unless env sets them.
func lineEnv(env []string) []string {
	ls := lineBuffering()
	add := map[string]string{
		"LD_PRELOAD":       ls.stdbuf,
		"RUBYOPT":          "-r" + ls.ruby,
		"PYTHONUNBUFFERED": "1",
		"_STDBUF_O":        "L",
	}
	out := make([]string, 0, len(env)+len(add))
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		mine, ok := add[k]
		switch {
		case !ok:
		case k == "LD_PRELOAD" && v != "":
			kv = k + "=" + mine + ":" + v
		case k == "RUBYOPT" && v != "":
			kv = k + "=" + mine + " " + v
		}
		delete(add, k)
		out = append(out, kv)
	}
	for k, v := range add {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}

// progKey identifies one version of a program file.
type progKey struct {
	path  string
	size  int64
	mtime time.Time
}

// unreached says whether the program at path is an ELF file into which
// libstdbuf cannot be preloaded (unreachedProgram); a script is judged by
// its interpreter (the #! line's program).
func (h *Host) unreached(path string) bool {
	interp, err := interpreterOf(path, "")
	return err == nil && h.unreachedProgram(interp)
}

// unreachedProgram says whether the program at path (no script) is an
// ELF file into which libstdbuf cannot be preloaded: one that the kernel
// runs without an interpreter (ld.so), unless it is Go (whose output has
// no buffer of the C library), or one of another ELF class or machine
// than libstdbuf.
func (h *Host) unreachedProgram(path string) bool {
	f, err := OpenFile(path)
	if err != nil {
		return false
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return false
	}
	key := progKey{path, st.Size(), st.ModTime()}
	if v, ok := h.progs.Load(key); ok {
		return v.(bool)
	}
	static := unreachedELF(f)
	h.progs.Store(key, static)
	return static
}

// unreachedELF tells an ELF program with no interpreter that is not Go,
// or one that cannot load libstdbuf.
func unreachedELF(f *os.File) bool {
	e, err := elf.NewFile(f)
	if err != nil {
		return false
	}
	ls := lineBuffering()
	if e.Class != ls.class || e.Machine != ls.machine {
		return true
	}
	for _, p := range e.Progs {
		if p.Type == elf.PT_INTERP {
			return false
		}
	}
	return e.Section(".go.buildinfo") == nil && e.Section(".note.go.buildid") == nil
}

// LineEnv is env (KEY=VALUE) with the variables that make a program's
// runtimes send every line of its stdout on a pipe as it ends (C's stdio
// through libstdbuf, Python, Ruby), as mode AutoIO gives a bot; env as
// it is on a machine without libstdbuf. For a program the judge runs
// outside a match (judge debug).
func LineEnv(env []string) []string {
	if lineBuffering().err != nil {
		return append(env, "PYTHONUNBUFFERED=1")
	}
	return lineEnv(env)
}
