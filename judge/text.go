package judge

import (
	"bytes"
	"strings"
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
