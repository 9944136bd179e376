package judge

import (
	"fmt"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"
)

// A seat's fault in words, as a match's reason gives it: who, what, at
// which turn, and why in one line.
//
//	alice crashed at turn 3: ZeroDivisionError: division by zero
//	bob timed out at turn 3 after 1s
//	carol made an illegal move at turn 5: no valid PlaceSymbol before #END (…)

// faultWords is the fault of a seat that did not end OK, in one line.
func (s *seat) faultWords(name string) string {
	w := fmt.Sprintf("%s %s at turn %d", name, s.status.verb(s.person != nil), s.failTurn)
	why := firstLine(s.reason)
	switch s.status {
	case Timeout:
		if s.failLimit > 0 {
			return w + " after " + s.failLimit.Round(time.Millisecond).String()
		}
	case Crash:
		if s.person != nil {
			return w
		}
		why = crashWhy(why, s.final.Stderr)
	case Memory:
		return w
	case Illegal:
		// The turn is said already.
		why = turnPrefix.ReplaceAllString(why, "")
	case Output:
		why = strings.TrimPrefix(why, "wrote ")
	case Protocol:
		// The game's queries and commands are for its author.
		why, _, _ = strings.Cut(why, "; the game's ")
	}
	if why == "" {
		return w
	}
	return w + ": " + clipRunes(why, whyBytes)
}

// whyBytes bounds the why of a fault in words.
const whyBytes = 400

// turnPrefix is the "turn 3: " an illegal move's reason starts with.
var turnPrefix = regexp.MustCompile(`^turn [0-9]+: `)

// faultReason is a match's reason when seats failed: each failed seat's
// fault in words, in seat order. A game that the faults ended (a
// forfeit ends a two-seat game) is told by them alone; one that went on
// (Splix) keeps its own reason first.
func faultReason(seats []*seat, game string, forfeitEnded bool) string {
	var faults []string
	names := map[string]int{}
	for _, s := range seats {
		names[s.info.Name]++
	}
	for _, s := range seats {
		if s.status == OK {
			continue
		}
		name := s.info.Name
		if names[name] > 1 || name == "" {
			name = strings.TrimSpace(fmt.Sprintf("%s (seat %d)", name, s.index))
		}
		faults = append(faults, s.faultWords(name))
	}
	switch {
	case len(faults) == 0:
		return game
	case forfeitEnded || game == "":
		return strings.Join(faults, "; ")
	}
	return game + "; " + strings.Join(faults, "; ")
}

// firstLine is the first line of a reason, without what it quotes of
// the player's stderr (the crash's words quote one line of it).
func firstLine(reason string) string {
	reason, _, _ = strings.Cut(reason, "; stderr: ")
	reason, _, _ = strings.Cut(reason, "\n")
	return strings.TrimSpace(reason)
}

// crashWhy says why a program crashed: the most telling line of its
// stderr's tail, after how it ended when that says more than an exit
// code.
func crashWhy(how string, stderr []byte) string {
	line := StderrLine(stderr)
	switch {
	case line == "":
		return how
	case how == "" || exitCode.MatchString(how):
		return line
	}
	return how + ": " + line
}

// exitCode is a program's plain exit with an error status: its stderr
// says why better.
var exitCode = regexp.MustCompile(`^exit code [0-9]+$`)

// StderrLineBytes is how much of a line of a bot's stderr a reason quotes.
const StderrLineBytes = 160

// StderrLine picks the line of a program's stderr that says best why it
// failed, as a match's reason quotes it: the exception after Python's
// last traceback, else the last line that names an error (Java's
// exception, Go's panic, Rust's panic with the message that follows
// it, C's failed assertion), else the last line that is not blank or
// indented (stack frames are). It is one line of valid UTF-8, without
// control characters, at most StderrLineBytes bytes and "…". "" when
// the stderr says nothing.
func StderrLine(stderr []byte) string {
	text := strings.ToValidUTF8(string(stderr), "\uFFFD")
	var lines []string
	for _, l := range strings.Split(text, "\n") {
		// What a carriage return wrote over is gone from a terminal too.
		if i := strings.LastIndexByte(strings.TrimRight(l, "\r"), '\r'); i >= 0 {
			l = l[i+1:]
		}
		lines = append(lines, strings.TrimRight(l, " \t\r"))
	}
	pick := func() string {
		for i := len(lines) - 1; i >= 0; i-- {
			if strings.HasPrefix(lines[i], "Traceback (most recent call last):") {
				for _, l := range lines[i+1:] {
					if l != "" && !indented(l) {
						return l
					}
				}
			}
		}
		for i := len(lines) - 1; i >= 0; i-- {
			if l := lines[i]; errorWord.MatchString(l) {
				l = strings.TrimSpace(l)
				if strings.HasSuffix(l, ":") && i+1 < len(lines) && strings.TrimSpace(lines[i+1]) != "" {
					l += " " + strings.TrimSpace(lines[i+1])
				}
				return l
			}
		}
		for i := len(lines) - 1; i >= 0; i-- {
			if l := lines[i]; l != "" && !indented(l) {
				return l
			}
		}
		for i := len(lines) - 1; i >= 0; i-- {
			if l := strings.TrimSpace(lines[i]); l != "" {
				return l
			}
		}
		return ""
	}
	return clipRunes(oneLine(pick()), StderrLineBytes)
}

// errorWord is a line that names an error.
var errorWord = regexp.MustCompile(`(?i)error|exception|panic|assert|abort|fatal|fault|what\(\):|terminate`)

func indented(l string) bool { return l[0] == ' ' || l[0] == '\t' }

// oneLine replaces with spaces the characters of s that Printable
// escapes: controls, those of bidirectional text.
func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if unprintable(r, utf8.RuneLen(r), true) {
			return ' '
		}
		return r
	}, strings.TrimSpace(s))
}

// clipRunes is s cut to at most n bytes, whole characters, and "…".
func clipRunes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "…"
}
