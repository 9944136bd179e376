package main

import (
	"errors"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// A referee answers every call of a match, and in WebAssembly every
// instruction and every allocation counts: encoding/json's reflection and
// fmt would be most of a call's time and a third of the module (which the
// judge loads at each run). The requests the judge sends are flat JSON
// objects of a few shapes and the responses small: both are read and
// written here by hand, with no allocation but the strings kept.

// errBad says a request line is not one the judge sends.
var errBad = errors.New("not a JSON object of a request")

// reader reads a JSON value from b, from i on.
type reader struct {
	b      []byte
	i      int
	opened bool // the last byte read opened an object or array
	err    error
}

// decode reads a request line into r, as encoding/json would; or it
// refuses a line the judge does not send: a key that differs from one of
// request's only in case, moves given twice, a line that is not an
// object.
func decode(line []byte, r *request) error {
	p := reader{b: line}
	if !p.open('{') {
		return errBad
	}
	for p.more('}') {
		switch key := p.key(); string(key) {
		case "op":
			r.Op = p.op(r.Op)
		case "line":
			r.Line = p.str(r.Line)
		case "seat":
			r.Seat = p.integer(r.Seat)
		case "protocol":
			r.Protocol = p.integer(r.Protocol)
		case "seed":
			r.Seed = p.unsigned(r.Seed)
		case "params":
			if p.null() {
				r.Params = nil
				break
			}
			if r.Params == nil {
				r.Params = map[string]int{}
			}
			for p.open('{'); p.more('}'); {
				name := string(p.key())
				r.Params[name] = p.integer(0)
			}
		case "moves":
			if r.Moves != nil {
				p.fail()
				break
			}
			if p.null() {
				break
			}
			r.Moves = make([]seatMove, 0, 2)
			for p.open('['); p.more(']'); {
				r.Moves = append(r.Moves, seatMove{})
				m := &r.Moves[len(r.Moves)-1]
				if p.null() {
					continue
				}
				for p.open('{'); p.more('}'); {
					switch k := p.key(); string(k) {
					case "seat":
						m.Seat = p.integer(m.Seat)
					case "move":
						if p.null() {
							m.Move = nil
							break
						}
						m.Move = make([]string, 0, 1)
						for p.open('['); p.more(']'); {
							m.Move = append(m.Move, p.str(""))
						}
					default:
						p.unknown(k, "seat", "move")
					}
				}
			}
		default:
			p.unknown(key, "op", "line", "seat", "protocol", "seed", "params", "moves")
		}
	}
	p.space()
	if p.err == nil && p.i != len(p.b) {
		p.err = errBad
	}
	return p.err
}

// op reads the string of an op: one of the judge's frequent ones is
// not copied. null leaves old.
func (p *reader) op(old string) string {
	p.space()
	if p.i < len(p.b) && p.b[p.i] == '"' {
		for j := p.i + 1; j < len(p.b) && p.b[j] != '\\'; j++ {
			if p.b[j] == '"' {
				for _, o := range [...]string{"query", "command", "apply", "commit", "orders", "new"} {
					if string(p.b[p.i+1:j]) == o {
						p.i = j + 1
						return o
					}
				}
				break
			}
		}
	}
	return p.str(old)
}

// fail records the first error; the reader then reads nothing more.
func (p *reader) fail() {
	if p.err == nil {
		p.err = errBad
	}
	p.i = len(p.b)
}

func (p *reader) space() {
	for p.i < len(p.b) && (p.b[p.i] == ' ' || p.b[p.i] == '\t' || p.b[p.i] == '\r' || p.b[p.i] == '\n') {
		p.i++
	}
}

// open reads the byte c ('{' or '['), which must come next.
func (p *reader) open(c byte) bool {
	p.space()
	if p.i >= len(p.b) || p.b[p.i] != c {
		p.fail()
		return false
	}
	p.i++
	p.opened = true
	return true
}

// more reports whether the object or array being read, which close
// ends, has another member: it reads the comma before it, or close.
func (p *reader) more(close byte) bool {
	p.space()
	switch {
	case p.err != nil:
		return false
	case p.i < len(p.b) && p.b[p.i] == close:
		p.i++
		p.opened = false
		return false
	case p.opened:
		p.opened = false
		return true
	case p.i < len(p.b) && p.b[p.i] == ',':
		p.i++
		return true
	}
	p.fail()
	return false
}

// key reads an object's key and its colon. A key with no escape is not
// copied: it is b's, for the time of a comparison.
func (p *reader) key() []byte {
	var k []byte
	p.space()
	if p.i < len(p.b) && p.b[p.i] == '"' {
		for j := p.i + 1; j < len(p.b) && p.b[j] != '\\' && p.b[j] >= 0x20 && p.b[j] < utf8.RuneSelf; j++ {
			if p.b[j] == '"' {
				k, p.i = p.b[p.i+1:j], j+1
				break
			}
		}
	}
	if k == nil {
		k = []byte(p.str(""))
	}
	p.space()
	if p.i >= len(p.b) || p.b[p.i] != ':' {
		p.fail()
		return nil
	}
	p.i++
	return k
}

// unknown skips the value of a key that is none of known; one that
// differs from one of them only in case is an error (encoding/json would
// take it for that one).
func (p *reader) unknown(key []byte, known ...string) {
	for _, k := range known {
		if equalFold(string(key), k) {
			p.fail()
			return
		}
	}
	p.skip()
}

func equalFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

// null reads null if it comes next.
func (p *reader) null() bool {
	p.space()
	if p.i+4 <= len(p.b) && string(p.b[p.i:p.i+4]) == "null" {
		p.i += 4
		return true
	}
	return false
}

// str reads a string, its escapes and any invalid UTF-8 read as
// encoding/json reads them; null leaves old.
func (p *reader) str(old string) string {
	if p.null() {
		return old
	}
	if p.i >= len(p.b) || p.b[p.i] != '"' {
		p.fail()
		return ""
	}
	p.i++
	start := p.i
	for p.i < len(p.b) {
		c := p.b[p.i]
		switch {
		case c == '"':
			p.i++
			return string(p.b[start : p.i-1]) // no escape: the common case
		case c == '\\' || c >= utf8.RuneSelf:
			return p.escaped(start)
		case c < 0x20:
			p.fail()
			return ""
		}
		p.i++
	}
	p.fail()
	return ""
}

// escaped reads the rest of a string from p.i, which holds an escape or
// a byte past ASCII; it began at start.
func (p *reader) escaped(start int) string {
	s := append([]byte(nil), p.b[start:p.i]...)
	for p.i < len(p.b) {
		c := p.b[p.i]
		switch {
		case c == '"':
			p.i++
			return string(s)
		case c < 0x20:
			p.fail()
			return ""
		case c >= utf8.RuneSelf:
			r, n := utf8.DecodeRune(p.b[p.i:])
			if r == utf8.RuneError && n == 1 {
				s = utf8.AppendRune(s, utf8.RuneError)
			} else {
				s = append(s, p.b[p.i:p.i+n]...)
			}
			p.i += n
			continue
		case c != '\\':
			s = append(s, c)
			p.i++
			continue
		}
		if p.i+1 >= len(p.b) {
			break
		}
		p.i += 2
		switch e := p.b[p.i-1]; e {
		case '"', '\\', '/':
			s = append(s, e)
		case 'b':
			s = append(s, '\b')
		case 'f':
			s = append(s, '\f')
		case 'n':
			s = append(s, '\n')
		case 'r':
			s = append(s, '\r')
		case 't':
			s = append(s, '\t')
		case 'u':
			r := p.hex4()
			if utf16.IsSurrogate(r) {
				r2 := rune(-1)
				if p.i+1 < len(p.b) && p.b[p.i] == '\\' && p.b[p.i+1] == 'u' {
					save := p.i
					p.i += 2
					if r2 = p.hex4(); utf16.DecodeRune(r, r2) == utf8.RuneError {
						p.i, r2 = save, -1 // not a pair: read on its own
					}
				}
				r = utf16.DecodeRune(r, r2)
			}
			s = utf8.AppendRune(s, r)
		default:
			p.fail()
			return ""
		}
	}
	p.fail()
	return ""
}

// hex4 reads the four hex digits of a \u escape.
func (p *reader) hex4() rune {
	if p.i+4 > len(p.b) {
		p.fail()
		return 0
	}
	n, err := strconv.ParseUint(string(p.b[p.i:p.i+4]), 16, 16)
	if err != nil {
		p.fail()
		return 0
	}
	p.i += 4
	return rune(n)
}

// number is the extent of the number at p.i.
func (p *reader) number() []byte {
	p.space()
	j := p.i
	for j < len(p.b) && (p.b[j] == '-' || p.b[j] == '+' || p.b[j] == '.' || p.b[j] == 'e' || p.b[j] == 'E' || '0' <= p.b[j] && p.b[j] <= '9') {
		j++
	}
	n := p.b[p.i:j]
	p.i = j
	return n
}

// integer reads an integer; a fraction or an exponent is an error, as
// encoding/json makes it for an int; null leaves old.
func (p *reader) integer(old int) int {
	if p.null() {
		return old
	}
	n, err := strconv.ParseInt(string(p.number()), 10, 64)
	if err != nil {
		p.fail()
	}
	return int(n)
}

func (p *reader) unsigned(old uint64) uint64 {
	if p.null() {
		return old
	}
	n, err := strconv.ParseUint(string(p.number()), 10, 64)
	if err != nil {
		p.fail()
	}
	return n
}

// skip reads any value and forgets it.
func (p *reader) skip() {
	p.space()
	if p.i >= len(p.b) {
		p.fail()
		return
	}
	switch c := p.b[p.i]; {
	case c == '"':
		p.str("")
	case c == '{':
		for p.open('{'); p.more('}'); {
			p.key()
			p.skip()
		}
	case c == '[':
		for p.open('['); p.more(']'); {
			p.skip()
		}
	case p.null():
	case p.i+4 <= len(p.b) && string(p.b[p.i:p.i+4]) == "true":
		p.i += 4
	case p.i+5 <= len(p.b) && string(p.b[p.i:p.i+5]) == "false":
		p.i += 5
	default:
		if _, err := strconv.ParseFloat(string(p.number()), 64); err != nil {
			p.fail()
		}
	}
}

// writer writes a JSON response: objects and arrays opened and closed,
// keys, and values, the commas between them put by itself.
type writer struct {
	b     []byte
	comma bool // a value was written: the next one takes a comma
}

func (w *writer) sep() {
	if w.comma {
		w.b = append(w.b, ',')
	}
	w.comma = false
}

// open opens an object ('{') or an array ('['); close closes it.
func (w *writer) open(c byte) *writer {
	w.sep()
	w.b = append(w.b, c)
	return w
}

func (w *writer) close(c byte) *writer {
	w.b = append(w.b, c)
	w.comma = true
	return w
}

// key writes an object's key; its value comes next.
func (w *writer) key(k string) *writer {
	w.sep()
	w.b = append(appendString(w.b, k), ':')
	return w
}

func (w *writer) str(s string) *writer {
	w.sep()
	w.b = appendString(w.b, s)
	w.comma = true
	return w
}

func (w *writer) int(n int) *writer {
	w.sep()
	w.b = strconv.AppendInt(w.b, int64(n), 10)
	w.comma = true
	return w
}

func (w *writer) float(x float64) *writer {
	w.sep()
	w.b = strconv.AppendFloat(w.b, x, 'g', -1, 64)
	w.comma = true
	return w
}

func (w *writer) bool(v bool) *writer {
	w.sep()
	w.b = strconv.AppendBool(w.b, v)
	w.comma = true
	return w
}

// strs writes an array of strings.
func (w *writer) strs(l ...string) *writer {
	w.open('[')
	for _, s := range l {
		w.str(s)
	}
	return w.close(']')
}

// ints writes an array of integers.
func (w *writer) ints(l ...int) *writer {
	w.open('[')
	for _, n := range l {
		w.int(n)
	}
	return w.close(']')
}

// appendString appends s as a JSON string.
func appendString(buf []byte, s string) []byte {
	const hex = "0123456789abcdef"
	buf = append(buf, '"')
	for i := 0; i < len(s); {
		j := i
		for j < len(s) && s[j] >= 0x20 && s[j] < 0x7f && s[j] != '"' && s[j] != '\\' {
			j++
		}
		buf = append(buf, s[i:j]...) // what needs no escape, at once
		if i = j; i == len(s) {
			break
		}
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			buf = append(buf, '\\', c)
		case c == '\n':
			buf = append(buf, '\\', 'n')
		case c < 0x20 || c == 0x7f:
			buf = append(buf, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
		case c < utf8.RuneSelf:
			buf = append(buf, c)
		default:
			r, n := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && n == 1 {
				buf = append(buf, `\ufffd`...)
			} else {
				buf = append(buf, s[i:i+n]...)
			}
			i += n
			continue
		}
		i++
	}
	return append(buf, '"')
}
