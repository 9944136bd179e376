package plugin

import (
	"slices"
	"strconv"
	"unicode/utf8"
)

// decodeReply reads the responses a referee gives most, those to query,
// command, apply and new, without encoding/json's reflection: an object
// of answer, move, status, invalid, unknown, not_query, error and seats,
// with strings that need no escape, numbers as JSON writes them and no
// null. It gives what encoding/json gives, or false for any other line
// (which encoding/json then reads); r is not changed then.
func decodeReply(line []byte, r *reply) bool {
	d := replyReader{b: line}
	var out reply
	const (
		answer = 1 << iota
		move
		stat
		invalid
		unknown
		notQuery
		failed
		seats
	)
	seen := 0
	once := func(bit int) bool {
		if seen&bit != 0 {
			return false // given twice: encoding/json's merging is its own
		}
		seen |= bit
		return true
	}
	ok := d.object(func(key string) bool {
		switch key {
		case "answer":
			return once(answer) && d.strPtr(&out.Answer)
		case "move":
			return once(move) && d.strings(&out.Move)
		case "status":
			out.Status = &status{}
			return once(stat) && d.status(out.Status)
		case "invalid":
			return once(invalid) && d.strPtr(&out.Invalid)
		case "unknown":
			return once(unknown) && d.strPtr(&out.Unknown)
		case "not_query":
			return once(notQuery) && d.boolean(&out.NotQuery)
		case "error":
			return once(failed) && d.strPtr(&out.Error)
		case "seats":
			return once(seats) && d.intPtr(&out.Seats)
		}
		return false
	})
	d.space()
	if !ok || d.i != len(d.b) {
		return false
	}
	*r = out
	return true
}

// replyReader reads JSON from b, from i on; each of its reads reports
// whether what it found is of the shapes decodeReply reads.
type replyReader struct {
	b []byte
	i int
}

func (d *replyReader) space() {
	for d.i < len(d.b) && (d.b[d.i] == ' ' || d.b[d.i] == '\t' || d.b[d.i] == '\r' || d.b[d.i] == '\n') {
		d.i++
	}
}

// next reads the byte c if it comes next.
func (d *replyReader) next(c byte) bool {
	d.space()
	if d.i < len(d.b) && d.b[d.i] == c {
		d.i++
		return true
	}
	return false
}

// object reads an object, calling field for each key with the reader at
// its value, which field reads.
func (d *replyReader) object(field func(key string) bool) bool {
	if !d.next('{') {
		return false
	}
	if d.next('}') {
		return true
	}
	for {
		var key string
		if !d.str(&key) || !d.next(':') || !field(key) {
			return false
		}
		if d.next('}') {
			return true
		}
		if !d.next(',') {
			return false
		}
	}
}

// array reads an array, calling elem with the reader at each element.
func (d *replyReader) array(elem func() bool) bool {
	if !d.next('[') {
		return false
	}
	if d.next(']') {
		return true
	}
	for {
		if !elem() {
			return false
		}
		if d.next(']') {
			return true
		}
		if !d.next(',') {
			return false
		}
	}
}

// str reads a string with no escape, of valid UTF-8.
func (d *replyReader) str(s *string) bool {
	if !d.next('"') {
		return false
	}
	start := d.i
	for ; d.i < len(d.b); d.i++ {
		switch c := d.b[d.i]; {
		case c == '"':
			if !utf8.Valid(d.b[start:d.i]) {
				return false
			}
			*s = string(d.b[start:d.i])
			d.i++
			return true
		case c == '\\' || c < 0x20:
			return false
		}
	}
	return false
}

func (d *replyReader) strPtr(p **string) bool {
	var s string
	if !d.str(&s) {
		return false
	}
	*p = &s
	return true
}

// strings reads an array of strings: [] is an empty list, not nil.
func (d *replyReader) strings(l *[]string) bool {
	*l = []string{}
	return d.array(func() bool {
		var s string
		if !d.str(&s) {
			return false
		}
		*l = append(*l, s)
		return true
	})
}

// number is the number at i, as JSON writes one; integer says it has no
// fraction and no exponent.
func (d *replyReader) number() (n []byte, integer bool) {
	d.space()
	start, i := d.i, d.i
	digits := func() bool {
		j := i
		for i < len(d.b) && '0' <= d.b[i] && d.b[i] <= '9' {
			i++
		}
		return i > j
	}
	if i < len(d.b) && d.b[i] == '-' {
		i++
	}
	switch {
	case i < len(d.b) && d.b[i] == '0':
		i++
	case !digits():
		return nil, false
	}
	integer = true
	if i < len(d.b) && d.b[i] == '.' {
		i++
		if !digits() {
			return nil, false
		}
		integer = false
	}
	if i < len(d.b) && (d.b[i] == 'e' || d.b[i] == 'E') {
		i++
		if i < len(d.b) && (d.b[i] == '+' || d.b[i] == '-') {
			i++
		}
		if !digits() {
			return nil, false
		}
		integer = false
	}
	d.i = i
	return d.b[start:i], integer
}

func (d *replyReader) integer(n *int) bool {
	b, integer := d.number()
	if !integer {
		return false
	}
	x, err := strconv.ParseInt(string(b), 10, strconv.IntSize)
	*n = int(x)
	return err == nil
}

func (d *replyReader) intPtr(p **int) bool {
	var n int
	if !d.integer(&n) {
		return false
	}
	*p = &n
	return true
}

func (d *replyReader) float(x *float64) bool {
	b, _ := d.number()
	if b == nil {
		return false
	}
	f, err := strconv.ParseFloat(string(b), 64)
	*x = f
	return err == nil
}

func (d *replyReader) boolean(v *bool) bool {
	d.space()
	switch {
	case d.i+4 <= len(d.b) && string(d.b[d.i:d.i+4]) == "true":
		*v = true
		d.i += 4
	case d.i+5 <= len(d.b) && string(d.b[d.i:d.i+5]) == "false":
		*v = false
		d.i += 5
	default:
		return false
	}
	return true
}

// statusKeys are the fields of a status decodeReply reads.
var statusKeys = []string{"turn", "winner", "over", "reason", "notes", "movers", "scores", "answers"}

// status reads a status object, each field at most once.
func (d *replyReader) status(st *status) bool {
	seen := 0
	return d.object(func(key string) bool {
		bit := 1 << (slices.Index(statusKeys, key) + 1) // 1 for a key of none
		if seen&bit != 0 {
			return false
		}
		seen |= bit
		switch key {
		case "turn":
			return d.intPtr(&st.Turn)
		case "winner":
			return d.intPtr(&st.Winner)
		case "over":
			var v bool
			st.Over = &v
			return d.boolean(&v)
		case "reason":
			return d.str(&st.Reason)
		case "notes":
			return d.strings(&st.Notes)
		case "movers":
			st.Movers = []int{}
			return d.array(func() bool {
				var n int
				if !d.integer(&n) {
					return false
				}
				st.Movers = append(st.Movers, n)
				return true
			})
		case "scores":
			st.Scores = []float64{}
			return d.array(func() bool {
				var x float64
				if !d.float(&x) {
					return false
				}
				st.Scores = append(st.Scores, x)
				return true
			})
		case "answers":
			st.Answers = map[string]string{}
			return d.object(func(line string) bool {
				if _, twice := st.Answers[line]; twice {
					return false
				}
				var a string
				if !d.str(&a) {
					return false
				}
				st.Answers[line] = a
				return true
			})
		}
		return false
	})
}
