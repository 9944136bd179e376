// Package procbot runs bot programs as players of a match: each in the
// sandbox, its stdout a raw pseudo-terminal or a pipe, frozen between its
// turns, its CPU time measured, its stderr kept, and its faults — a time
// out, a crash, a closed stream, a memory limit — told apart. It is the
// only part of the judge that starts processes for matches.
package procbot

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
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
	main := mainFile(argv)
	if main == "" {
		return Spec{}, fmt.Errorf("bot %q: no such program", argv[0])
	}
	return Spec{Name: filepath.Base(main), Argv: argv}, nil
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
func (b Spec) Hash() (string, error) {
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
