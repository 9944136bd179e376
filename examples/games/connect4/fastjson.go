package main

import (
	"encoding/json"
	"errors"
	"strconv"
	"unicode/utf8"
)

// A referee answers every call of a match; in WebAssembly each function
// call of its own costs (the judge can stop a module at any call), and
// encoding/json's reflection makes many, the more in a new instance (its
// caches are built at the first use). The requests the judge sends are of
// a few shapes and the responses small: they are read and written by
// hand here, and encoding/json does the rest (what the judge does not
// send, and values of other types).

var errNotFlat = errors.New("not a flat object")

// decode reads a request line into r.
func decode(line []byte, r *request) error {
	if err := decodeFlat(line, r); err == nil {
		return nil
	}
	*r = request{}
	return json.Unmarshal(line, r)
}

// decodeFlat reads a request of the shapes the judge sends: strings and
// integers, new's params (an object of integers) and apply's moves;
// errNotFlat for anything else, which encoding/json then reads.
func decodeFlat(b []byte, r *request) error {
	i, err := object(b, skip(b, 0), func(key []byte, i int) (int, error) {
		var err error
		switch string(key) {
		case "op":
			var op []byte
			op, i, err = raw(b, i)
			r.Op = intern(op)
		case "line":
			r.Line, i, err = str(b, i)
		case "seat":
			r.Seat, i, err = integer(b, i)
		case "protocol":
			r.Protocol, i, err = integer(b, i)
		case "seed":
			j := digits(b, i)
			r.Seed, err = strconv.ParseUint(string(b[i:j]), 10, 64)
			i = j
		case "params":
			if r.Params == nil {
				r.Params = map[string]int{}
			}
			i, err = object(b, i, func(name []byte, i int) (int, error) {
				n, j, err := integer(b, i)
				r.Params[string(name)] = n
				return j, err
			})
		case "moves":
			r.Moves = r.Moves[:0]
			if r.Moves == nil {
				r.Moves = make([]struct {
					Seat int      `json:"seat"`
					Move []string `json:"move"`
				}, 0)
			}
			i, err = array(b, i, func(i int) (int, error) {
				r.Moves = append(r.Moves, struct {
					Seat int      `json:"seat"`
					Move []string `json:"move"`
				}{})
				m := &r.Moves[len(r.Moves)-1]
				return object(b, i, func(key []byte, i int) (int, error) {
					var err error
					switch string(key) {
					case "seat":
						m.Seat, i, err = integer(b, i)
					case "move":
						m.Move = []string{}
						i, err = array(b, i, func(i int) (int, error) {
							s, j, err := str(b, i)
							m.Move = append(m.Move, s)
							return j, err
						})
					default:
						err = errNotFlat
					}
					return i, err
				})
			})
		default:
			err = errNotFlat // encoding/json matches keys in any case
		}
		if err != nil {
			return 0, errNotFlat
		}
		return i, nil
	})
	if err != nil {
		return err
	}
	return end(b, i)
}

// object reads the object at b[i], calling field with each key and the
// index of its value, which field reads; it returns the index after the
// object.
func object(b []byte, i int, field func(key []byte, i int) (int, error)) (int, error) {
	if i >= len(b) || b[i] != '{' {
		return 0, errNotFlat
	}
	i = skip(b, i+1)
	if i < len(b) && b[i] == '}' {
		return i + 1, nil
	}
	for {
		key, j, err := raw(b, i)
		if err != nil {
			return 0, err
		}
		i = skip(b, j)
		if i >= len(b) || b[i] != ':' {
			return 0, errNotFlat
		}
		if i, err = field(key, skip(b, i+1)); err != nil {
			return 0, err
		}
		i = skip(b, i)
		switch {
		case i < len(b) && b[i] == ',':
			i = skip(b, i+1)
		case i < len(b) && b[i] == '}':
			return i + 1, nil
		default:
			return 0, errNotFlat
		}
	}
}

// array reads the array at b[i], calling elem with the index of each
// element, which elem reads; it returns the index after the array.
func array(b []byte, i int, elem func(i int) (int, error)) (int, error) {
	if i >= len(b) || b[i] != '[' {
		return 0, errNotFlat
	}
	i = skip(b, i+1)
	if i < len(b) && b[i] == ']' {
		return i + 1, nil
	}
	for {
		var err error
		if i, err = elem(i); err != nil {
			return 0, err
		}
		i = skip(b, i)
		switch {
		case i < len(b) && b[i] == ',':
			i = skip(b, i+1)
		case i < len(b) && b[i] == ']':
			return i + 1, nil
		default:
			return 0, errNotFlat
		}
	}
}

// integer reads the integer at b[i].
func integer(b []byte, i int) (int, int, error) {
	j := digits(b, i)
	n, err := strconv.ParseInt(string(b[i:j]), 10, 64)
	if err != nil || j < len(b) && (b[j] == '.' || b[j] == 'e' || b[j] == 'E') {
		return 0, 0, errNotFlat
	}
	return int(n), j, nil
}

func digits(b []byte, i int) int {
	j := i
	for j < len(b) && (b[j] == '-' || b[j] >= '0' && b[j] <= '9') {
		j++
	}
	return j
}

func skip(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}

func end(b []byte, i int) error {
	if skip(b, i) != len(b) {
		return errNotFlat
	}
	return nil
}

// str reads the JSON string at b[i]; one with escapes is left to
// encoding/json (errNotFlat).
func str(b []byte, i int) (string, int, error) {
	s, j, err := raw(b, i)
	return string(s), j, err
}

// raw is str's bytes, within b: it copies nothing (keys, known words).
func raw(b []byte, i int) ([]byte, int, error) {
	if i >= len(b) || b[i] != '"' {
		return nil, 0, errNotFlat
	}
	for j := i + 1; j < len(b); j++ {
		switch c := b[j]; {
		case c == '"':
			return b[i+1 : j], j + 1, nil
		case c == '\\' || c < 0x20:
			return nil, 0, errNotFlat
		case c >= utf8.RuneSelf:
			if r, n := utf8.DecodeRune(b[j:]); r == utf8.RuneError && n == 1 {
				return nil, 0, errNotFlat // encoding/json replaces it
			}
		}
	}
	return nil, 0, errNotFlat
}

// intern is the op named op: the judge's ops without a copy.
func intern(op []byte) string {
	switch string(op) {
	case "query":
		return "query"
	case "command":
		return "command"
	case "apply":
		return "apply"
	case "commit":
		return "commit"
	case "orders":
		return "orders"
	case "new":
		return "new"
	}
	return string(op)
}

// encode appends v's JSON to buf: objects (their fields in order),
// strings, booleans, numbers and lists of them.
func encode(buf []byte, v any) []byte {
	switch v := v.(type) {
	case obj:
		buf = append(buf, '{')
		for i, f := range v {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = appendString(buf, f.key)
			buf = append(buf, ':')
			buf = encode(buf, f.val)
		}
		return append(buf, '}')
	case string:
		return appendString(buf, v)
	case bool:
		return strconv.AppendBool(buf, v)
	case int:
		return strconv.AppendInt(buf, int64(v), 10)
	case float64:
		return strconv.AppendFloat(buf, v, 'g', -1, 64)
	case []int:
		return list(buf, v)
	case []float64:
		return list(buf, v)
	case []string:
		return list(buf, v)
	case [][]string:
		return list(buf, v)
	case []obj:
		return list(buf, v)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return encode(buf, obj{{"error", err.Error()}})
	}
	return append(buf, b...)
}

func list[T any](buf []byte, vs []T) []byte {
	buf = append(buf, '[')
	for i, x := range vs {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = encode(buf, any(x))
	}
	return append(buf, ']')
}

// appendString appends s as a JSON string.
func appendString(buf []byte, s string) []byte {
	const hex = "0123456789abcdef"
	buf = append(buf, '"')
	for i := 0; i < len(s); {
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
