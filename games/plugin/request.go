package plugin

import (
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"unicode/utf8"

	"judge/games"
)

// The requests of a match are written by hand: a call costs a few
// microseconds, and encoding/json's reflection as many.

// seatRequest is {"op":OP,"seat":SEAT}; op needs no escape.
func seatRequest(op string, seat int) []byte {
	return append(seatFields(make([]byte, 0, 32), op, seat), '}')
}

// lineRequest is {"op":OP,"seat":SEAT,"line":LINE}.
func lineRequest(op string, seat int, line string) []byte {
	b := seatFields(make([]byte, 0, 48+len(line)), op, seat)
	b = append(b, `,"line":`...)
	b = appendString(b, line)
	return append(b, '}')
}

// applyRequest is {"op":"apply","moves":[{"seat":S,"move":[...]},...]},
// a move with no words written as encoding/json writes it (null, []).
func applyRequest(list []seatMove) []byte {
	b := append(make([]byte, 0, 64), `{"op":"apply","moves":[`...)
	for i, m := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"seat":`...)
		b = strconv.AppendInt(b, int64(m.Seat), 10)
		b = append(b, `,"move":`...)
		if m.Move == nil {
			b = append(b, "null"...)
		} else {
			b = append(b, '[')
			for j, w := range m.Move {
				if j > 0 {
					b = append(b, ',')
				}
				b = appendString(b, w)
			}
			b = append(b, ']')
		}
		b = append(b, '}')
	}
	return append(b, "]}"...)
}

// newRequest is {"op":"new","params":{...},"seed":SEED}, the params in
// the order of their names (as encoding/json writes a map).
func newRequest(p games.Params, seed uint64) []byte {
	b := append(make([]byte, 0, 96), `{"op":"new","params":`...)
	if p == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '{')
		for i, name := range slices.Sorted(maps.Keys(p)) {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(appendString(b, name), ':')
			b = strconv.AppendInt(b, int64(p[name]), 10)
		}
		b = append(b, '}')
	}
	b = append(b, `,"seed":`...)
	b = strconv.AppendUint(b, seed, 10)
	return append(b, '}')
}

func seatFields(b []byte, op string, seat int) []byte {
	b = append(b, `{"op":"`...)
	b = append(b, op...)
	b = append(b, `","seat":`...)
	return strconv.AppendInt(b, int64(seat), 10)
}

// appendString appends s as a JSON string: as it is when it needs no
// escape, else as encoding/json writes it.
func appendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= utf8.RuneSelf || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s) // a string always encodes
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}
