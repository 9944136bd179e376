package main

import (
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"unicode/utf8"
)

// A referee answers every call of a match; in WebAssembly each function
// call of its own costs (the judge can stop a module at any call), and
// encoding/json's reflection makes many. The requests the judge sends
// most (query, orders, command, commit) are flat objects of strings and
// numbers, and the responses small: they are read and written by hand
// here, and encoding/json does the rest (new's params, apply's moves).

var errNotFlat = errors.New("not a flat object")

// decode reads a request line into r.
func decode(line []byte, r *request) error {
	if err := decodeFlat(line, r); err == nil {
		return nil
	}
	*r = request{}
	return json.Unmarshal(line, r)
}

// decodeFlat reads an object whose values are strings and integers;
// errNotFlat for any other.
func decodeFlat(b []byte, r *request) error {
	i := skip(b, 0)
	if i >= len(b) || b[i] != '{' {
		return errNotFlat
	}
	i = skip(b, i+1)
	if i < len(b) && b[i] == '}' {
		return end(b, i+1)
	}
	for {
		key, j, err := str(b, i)
		if err != nil {
			return err
		}
		switch key {
		case "op", "line", "seat", "protocol":
		default:
			return errNotFlat // encoding/json matches keys in any case
		}
		i = skip(b, j)
		if i >= len(b) || b[i] != ':' {
			return errNotFlat
		}
		i = skip(b, i+1)
		if i >= len(b) {
			return errNotFlat
		}
		if b[i] == '"' {
			var v string
			if v, i, err = str(b, i); err != nil {
				return err
			}
			switch key {
			case "op":
				r.Op = v
			case "line":
				r.Line = v
			}
		} else {
			j := i
			for j < len(b) && (b[j] == '-' || b[j] >= '0' && b[j] <= '9') {
				j++
			}
			if j == i {
				return errNotFlat // an object, an array, true, false, null, a fraction
			}
			n, err := strconv.ParseInt(string(b[i:j]), 10, 64)
			if err != nil {
				return errNotFlat
			}
			switch key {
			case "seat":
				r.Seat = int(n)
			case "protocol":
				r.Protocol = int(n)
			}
			i = j
		}
		i = skip(b, i)
		switch {
		case i < len(b) && b[i] == ',':
			i = skip(b, i+1)
		case i < len(b) && b[i] == '}':
			return end(b, i+1)
		default:
			return errNotFlat
		}
	}
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
	if i >= len(b) || b[i] != '"' {
		return "", 0, errNotFlat
	}
	for j := i + 1; j < len(b); j++ {
		switch c := b[j]; {
		case c == '"':
			return string(b[i+1 : j]), j + 1, nil
		case c == '\\' || c < 0x20:
			return "", 0, errNotFlat
		case c >= utf8.RuneSelf:
			if r, n := utf8.DecodeRune(b[j:]); r == utf8.RuneError && n == 1 {
				return "", 0, errNotFlat // encoding/json replaces it
			}
		}
	}
	return "", 0, errNotFlat
}

// encode appends v's JSON to buf: objects (keys sorted, as encoding/json
// writes a map), strings, booleans, numbers and lists of them.
func encode(buf []byte, v any) []byte {
	switch v := v.(type) {
	case obj:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		buf = append(buf, '{')
		for i, k := range keys {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = appendString(buf, k)
			buf = append(buf, ':')
			buf = encode(buf, v[k])
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
	}
	b, err := json.Marshal(v)
	if err != nil {
		b, _ = json.Marshal(obj{"error": err.Error()})
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
