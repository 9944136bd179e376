package judge

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"
)

// LastLines returns at most n of the last lines of text, at most max
// bytes, as valid UTF-8: the end of a program's stderr, for a message.
func LastLines(text []byte, n, max int) string {
	text = bytes.TrimRight(text, "\n")
	if len(text) > max {
		text = text[len(text)-max:]
	}
	lines := bytes.Split(text, []byte("\n"))
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.ToValidUTF8(string(bytes.Join(lines, []byte("\n"))), "?")
}

// ClipLine is how much of a player's line a message quotes, in bytes.
const ClipLine = 80

// Clip shortens s to its first n bytes and "…", for a message that quotes
// it; a shorter s is returned as it is.
func Clip(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// Printable returns s fit to print on a terminal or write into a text
// file: every character a terminal acts on is written out as a Go escape,
// so that a bot cannot set a window's title, write to the clipboard,
// colour or erase the screen, or reorder what follows. Those are the C0
// controls but newline and tab (ESC is \x1b, BEL \x07, carriage return
// \r), DEL, the C1 controls (\u009b), the controls of bidirectional text
// (\u202e) and bytes that are not UTF-8 (\xff). Everything else is kept
// as it is.
//
// Whatever comes from a bot (its name, its stderr, its lines, the reasons
// that quote them) goes through Printable or PrintableLine wherever the
// judge prints it or writes it as text; JSON keeps it exact.
func Printable(s string) string { return printable(s, false) }

// PrintableLine is Printable for text that must stay on one line, such as
// a table's cell: newline and tab are escaped too (\n, \t).
func PrintableLine(s string) string { return printable(s, true) }

func printable(s string, oneLine bool) string {
	i := 0
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if unprintable(r, size, oneLine) {
			break
		}
		i += size
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if !unprintable(r, size, oneLine) {
			b.WriteString(s[i : i+size])
			i += size
			continue
		}
		switch {
		case r == utf8.RuneError:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x80:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
		i += size
	}
	return b.String()
}

// unprintable reports whether the rune r, size bytes long, must be
// escaped.
func unprintable(r rune, size int, oneLine bool) bool {
	switch {
	case r == utf8.RuneError && size <= 1:
		return true
	case r == '\n' || r == '\t':
		return oneLine
	case r < 0x20 || r == 0x7f:
		return true
	case r >= 0x80 && r < 0xa0:
		return true
	case r == 0x061c || r == 0x200e || r == 0x200f || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}
