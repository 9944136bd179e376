package main

import (
	"encoding/json"
	"reflect"
	"testing"
)

// FuzzDecode: the hand-written reading of a request gives what
// encoding/json gives, for any line encoding/json reads.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		`{"op":"query","seat":1,"line":"Heights"}`,
		`{"op":"command","seat":0,"line":"DropDisc 3"}`,
		`{"op":"commit","seat":0}`, `{"op":"orders","seat":1}`, `{}`,
		`{"op":"new","params":{"width":7,"height":6,"k":4},"seed":18446744073709551615}`,
		`{"op":"apply","moves":[{"seat":0,"move":["DropDisc 3"]}]}`,
		`{"op":"query","seat":0,"line":"Say \"hi\"\u00e9"}`, ` { "seat" : -2 , "op" : "x" } `,
		`{"op":"query","seat":1.5}`, `{"seat":99999999999999999999}`, `{"op":"a"}x`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		var want request
		if json.Unmarshal([]byte(line), &want) != nil {
			return
		}
		var got request
		if err := decode([]byte(line), &got); err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: decode gives %+v, %v; encoding/json %+v", line, got, err, want)
		}
	})
}

// FuzzEncode: a response written by hand reads back, through
// encoding/json, as what it was made of.
func FuzzEncode(f *testing.F) {
	f.Add("Heights", "0 1 2\nx\"\\\x01é\xff", 3, 0.5, true)
	f.Fuzz(func(t *testing.T, k, s string, n int, x float64, b bool) {
		v := obj{{k, s}, {"n", n}, {"x", x}, {"b", b}, {"l", []string{s, k}}, {"m", [][]string{{s}}}, {"i", []int{n}}, {"f", []float64{x}}, {"o", obj{{"s", s}}}, {"os", []obj{{{"s", s}}, {}}}}
		line := encode(nil, v)
		var got, want any
		if err := json.Unmarshal(line, &got); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		wb, err := json.Marshal(asMap(v))
		if err != nil {
			return // a NaN or an infinity: no JSON for it
		}
		if err := json.Unmarshal(wb, &want); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("encode: %s\nencoding/json: %s", line, wb)
		}
	})
}

// asMap is v with its objects made maps, for encoding/json (a key given
// twice keeps its last value, as a JSON reader does).
func asMap(v any) any {
	switch v := v.(type) {
	case obj:
		m := map[string]any{}
		for _, f := range v {
			m[f.key] = asMap(f.val)
		}
		return m
	case []obj:
		l := make([]any, len(v))
		for i, o := range v {
			l[i] = asMap(o)
		}
		return l
	}
	return v
}
