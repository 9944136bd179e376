// Package procbot runs bot programs as players of a match: each in the
// sandbox, its stdout a raw pseudo-terminal or a pipe, frozen between its
// turns, its CPU time measured, its stderr kept, and its faults — a time
// out, a crash, a closed stream, a memory limit — told apart. It is the
// only part of the judge that starts processes for matches.
package procbot

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
)

// Spec says how to run one bot.
type Spec struct {
	Name string   // shown in results; defaults to the program's file name
	Argv []string // the command
	Dir  string   // working directory
}

// ParseBot turns a BOT argument into a spec: the path of an executable
// (spaces allowed), or a command line with shell-like quoting such as
// "python3 bot.py".
func ParseBot(arg string) (Spec, error) {
	var argv []string
	if st, err := os.Stat(arg); err == nil && !st.IsDir() {
		argv = []string{arg}
	} else {
		argv, err = SplitCommand(arg)
		if err != nil {
			return Spec{}, fmt.Errorf("bot %q: %w", arg, err)
		}
	}
	if len(argv) == 0 {
		return Spec{}, errors.New("empty bot command")
	}
	if !strings.Contains(argv[0], "/") {
		if _, err := os.Stat(argv[0]); err == nil {
			argv[0] = "./" + argv[0] // a file here, not a program in PATH
		}
	}
	if err := checkSpecial(argv); err != nil {
		return Spec{}, err
	}
	if p, err := lookPath(argv[0]); err == nil {
		if _, err := interpreterOf(p, ""); err != nil {
			return Spec{}, fmt.Errorf("bot %s: %w", argv[0], err)
		}
	}
	if len(argv) == 1 {
		if err := checkProgram(argv[0]); err != nil {
			return Spec{}, err
		}
	}
	if err := checkScripts(arg, argv); err != nil {
		return Spec{}, err
	}
	main := mainFile(argv)
	if main == "" {
		return Spec{}, fmt.Errorf("bot %q: no such program", argv[0])
	}
	if err := CheckReadable(main); err != nil {
		return Spec{}, err
	}
	return Spec{Name: filepath.Base(main), Argv: argv}, nil
}

// checkSpecial refuses a command whose program, or whose script (the
// last argument naming a file, as mainFile finds it), is a FIFO, a socket
// or a device: the judge would wait for ever opening or reading it, and
// so would the bot.
func checkSpecial(argv []string) error {
	check := func(path string) (bool, error) {
		st, err := os.Stat(path)
		if err != nil || st.IsDir() {
			return false, nil
		}
		if kind := special(st.Mode()); kind != "" {
			return true, fmt.Errorf("bot %s is %s, not a program or a script", path, kind)
		}
		return true, nil
	}
	if strings.Contains(argv[0], "/") {
		if _, err := check(argv[0]); err != nil {
			return err
		}
	}
	for i := len(argv) - 1; i >= 1; i-- {
		if file, err := check(argv[i]); file || err != nil {
			return err
		}
	}
	return nil
}

// special names what a file of mode m is when it is neither a regular
// file nor a directory (nor a link), else "".
func special(m os.FileMode) string {
	switch {
	case m&os.ModeNamedPipe != 0:
		return "a FIFO (named pipe)"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m&os.ModeCharDevice != 0:
		return "a character device"
	case m&os.ModeDevice != 0:
		return "a block device"
	case m&os.ModeIrregular != 0:
		return "not a regular file"
	}
	return ""
}

// maxShebangs is how many #! lines the kernel follows from a program to
// the one it runs (Linux's BINPRM_MAX_RECURSION).
const maxShebangs = 4

// interpreterOf is the program that runs for the program at path: path
// itself for a binary, else the program its #! line names, followed
// through scripts as the kernel does. Relative paths are taken from dir
// (the program's working directory; "" for the current one). It never
// waits: a file of the chain that is not a regular file (a FIFO, a
// directory, a socket, a device) is an error that says what it is, found
// before it is opened, and every file is opened with OpenFile.
func interpreterOf(path, dir string) (string, error) {
	head := make([]byte, 256) // what the kernel reads of a #! line
	from := ""                // the script whose #! line names path
	for range maxShebangs + 1 {
		p := path
		if dir != "" && !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		st, err := os.Stat(p)
		switch {
		case err != nil && from != "":
			return "", fmt.Errorf("the #! line of %s names %s: %w", from, path, err)
		case err != nil:
			return "", err
		case from != "" && !st.Mode().IsRegular():
			kind := special(st.Mode())
			if st.IsDir() {
				kind = "a directory"
			}
			return "", fmt.Errorf("the #! line of %s names %s, which is %s, not a program", from, path, kind)
		}
		f, err := OpenFile(p)
		if err != nil {
			if st.Mode().IsRegular() {
				return p, nil // one the judge may not read (or replaced since): the kernel knows
			}
			return "", err
		}
		n, _ := f.ReadAt(head, 0)
		f.Close()
		line, ok := bytes.CutPrefix(head[:n], []byte("#!"))
		if !ok {
			return p, nil
		}
		line, _, _ = bytes.Cut(line, []byte("\n"))
		fields := strings.Fields(string(line))
		if len(fields) == 0 {
			return p, nil // the kernel will not run it, and says so
		}
		from, path = p, fields[0]
	}
	return "", fmt.Errorf("%s: more than %d #! lines lead to a program", from, maxShebangs)
}

// ReadFile is os.ReadFile through OpenFile: it never waits on a FIFO or
// a device.
func ReadFile(path string) ([]byte, error) {
	f, err := OpenFile(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// interpreters run scripts by their extension, for the hints.
var interpreters = map[string]string{".py": "python3", ".rb": "ruby", ".php": "php", ".js": "node", ".sh": "sh", ".pl": "perl", ".lua": "lua"}

// sources are compiled languages, for the hints.
var sources = map[string]string{".c": "gcc -O2 -o %s %s", ".cpp": "g++ -O2 -o %s %s", ".cc": "g++ -O2 -o %s %s",
	".go": "go build -o %s %s", ".rs": "rustc -O -o %s %s"}

// checkScripts refuses a command whose script does not exist: an
// argument named like a script or a source file (bot.py, Bot.java) that
// is no file. The interpreter would say so with a path of its own
// directory, where the bot runs; this names where it was looked for.
func checkScripts(arg string, argv []string) error {
	for _, a := range argv[1:] {
		ext := filepath.Ext(a)
		if strings.HasPrefix(a, "-") || interpreters[ext] == "" && sources[ext] == "" && ext != ".jar" {
			continue
		}
		if _, err := os.Stat(a); err == nil || !errors.Is(err, os.ErrNotExist) {
			continue
		}
		where := a
		if !filepath.IsAbs(a) {
			wd, err := os.Getwd()
			if err != nil {
				wd = "."
			}
			where = fmt.Sprintf("%s, relative to %s, the directory the judge runs in", filepath.Join(wd, a), wd)
		}
		return fmt.Errorf("bot %q: the file %s does not exist (looked for as %s)", arg, a, where)
	}
	return nil
}

var (
	javaComment = regexp.MustCompile(`(?s)/\*.*?\*/|//[^\n]*`)
	javaPackage = regexp.MustCompile(`(?m)^\s*package\s+([\w.]+)\s*;`)
	javaClassRe = regexp.MustCompile(`\b(?:class|record|enum|interface)\s+(\w+)`)
	javaMain    = regexp.MustCompile(`\bstatic\s+(?:final\s+)?void\s+main\s*\(`)
)

// JavaClass is the class java runs for the source file path: the
// top-level class whose body holds the main method, else the file's
// name, with the file's package ("demo.Bot").
func JavaClass(path string) string {
	name := strings.TrimSuffix(filepath.Base(path), ".java")
	src, err := readHead(path)
	if err != nil {
		return name
	}
	src = javaComment.ReplaceAll(src, nil)
	if m := javaMain.FindIndex(src); m != nil {
		for _, c := range javaClassRe.FindAllSubmatchIndex(src[:m[0]], -1) {
			// Top-level: no brace open before it.
			if bytes.Count(src[:c[0]], []byte("{")) == bytes.Count(src[:c[0]], []byte("}")) {
				name = string(src[c[2]:c[3]])
			}
		}
	}
	if p := javaPackage.FindSubmatch(src); p != nil {
		name = string(p[1]) + "." + name
	}
	return name
}

// readHead reads the first 1 MiB of the file path.
func readHead(path string) ([]byte, error) {
	f, err := OpenFile(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, 1<<20))
}

// checkProgram says what to do when a BOT argument names a file that
// cannot be run as it is: a source file, a script without execute
// permission or without a #! line.
func checkProgram(path string) error {
	st, err := os.Stat(path)
	if err != nil || st.IsDir() {
		return nil // "no such program" follows, or a directory for tournaments
	}
	ext := filepath.Ext(path)
	base := strings.TrimSuffix(path, ext)
	if ext == ".java" {
		dir := filepath.Dir(path)
		return fmt.Errorf("bot %s is a source file, not a program: build it first (javac -d %s %s) and give \"java -cp %s %s\", or make it not executable (chmod -x %s): the judge builds a source file that is not executable", path, dir, path, dir, JavaClass(path), path)
	}
	if build, ok := sources[ext]; ok {
		return fmt.Errorf("bot %s is a source file, not a program: build it first (%s) and give the program, or make it not executable (chmod -x %s): the judge builds a source file that is not executable", path, fmt.Sprintf(build, base, path), path)
	}
	head := make([]byte, 4)
	if f, err := OpenFile(path); err == nil {
		n, _ := f.Read(head)
		head = head[:n]
		f.Close()
	}
	interp := interpreters[ext]
	if interp == "" {
		interp = "INTERPRETER"
	}
	switch {
	case !IsExecutable(st):
		return fmt.Errorf("bot %s is not executable: give it as \"%s %s\", or make it executable (chmod +x %s) with a #! line", path, interp, path, path)
	case len(head) >= 2 && string(head[:2]) != "#!" && !isBinary(head):
		return fmt.Errorf("bot %s is neither a program nor a script with a #! line (such as #!/usr/bin/env %s): give it as \"%s %s\", or add that line", path, interp, interp, path)
	}
	return nil
}

// isBinary reports whether head, a file's first 4 bytes, starts a
// program: ELF (Linux), Mach-O (macOS, one architecture or several), PE
// (Windows).
func isBinary(head []byte) bool {
	switch string(head) {
	case "\x7fELF", "\xcf\xfa\xed\xfe", "\xce\xfa\xed\xfe", "\xca\xfe\xba\xbe":
		return true
	}
	return len(head) >= 2 && string(head[:2]) == "MZ"
}

// CheckReadable says when a bot's file cannot be read by the user bots
// run as: nobody, when the judge runs as root.
func CheckReadable(path string) error {
	if os.Geteuid() != 0 {
		return nil
	}
	st, err := os.Stat(path)
	if err != nil || !st.Mode().IsRegular() {
		return nil
	}
	if st.Mode().Perm()&0o004 == 0 {
		return fmt.Errorf("bot %s cannot be read by others (mode %v): a judge run as root runs bots as the user nobody; chmod o+r %s (and o+x on the directories above it)", path, st.Mode().Perm(), path)
	}
	return nil
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

// inDir is the program name as found from the directory dir: a
// relative path with a slash is taken from dir.
func inDir(name, dir string) string {
	if dir == "" || filepath.IsAbs(name) || !strings.Contains(name, "/") {
		return name
	}
	return filepath.Join(dir, name)
}

func lookPath(name string) (string, error) {
	if strings.Contains(name, "/") {
		st, err := os.Stat(name)
		if err != nil {
			return "", err
		}
		if st.IsDir() || !IsExecutable(st) {
			return "", fmt.Errorf("%s is not an executable file", name)
		}
		return name, nil
	}
	return exec.LookPath(name)
}

// Hash returns the sha256 of the bot's main file, hex-encoded.
func (b Spec) Hash() (string, error) {
	if len(b.Argv) == 0 {
		return "", errors.New("empty bot command")
	}
	main := mainFile(b.Argv)
	if main == "" {
		return "", fmt.Errorf("bot %q: no such program", b.Argv[0])
	}
	f, err := OpenFile(main)
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
