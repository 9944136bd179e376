package main

import (
	"encoding/json"
	"reflect"
	"testing"
)

// judgeRequests are requests of every shape the judge sends.
var judgeRequests = []string{
	`{"op":"hello","protocol":1}`,
	`{"op":"query","seat":1,"line":"Heights"}`,
	`{"op":"command","seat":0,"line":"DropDisc 3"}`,
	`{"op":"commit","seat":0}`, `{"op":"orders","seat":1}`, `{"op":"forfeit","seat":1}`,
	`{"op":"new","params":{"width":7,"height":6,"k":4},"seed":18446744073709551615}`,
	`{"op":"apply","moves":[{"seat":0,"move":["DropDisc 3"]}]}`,
	`{"op":"apply","moves":[{"seat":0,"move":null},{"seat":1,"move":[]}]}`,
	`{"op":"query","seat":0,"line":"Say \"hi\"\u00e9 \\ \ud83d\ude00\t\u0001"}`,
	`{"op":"view"}`, `{"op":"render"}`, `{"op":"explain"}`, `{"op":"moves","seat":0}`,
}

// FuzzDecode: the hand-written reading of a request gives what
// encoding/json gives, or refuses the line; it reads every request the
// judge sends.
func FuzzDecode(f *testing.F) {
	for _, s := range judgeRequests {
		f.Add(s)
	}
	for _, s := range []string{
		`{}`, ` { "seat" : -2 , "op" : "x" } `, `{"op":"query","seat":1.5}`, `{"seat":99999999999999999999}`,
		`{"op":"a"}x`, `{"op":"a","op":null,"line":"\ud800\u0041\udc00"}`, `{"OP":"query"}`,
		`{"params":{"a":1},"params":{"b":null}}`, `{"x":[{"y":[1e3,true,false,null,"\""]}],"seat":3}`,
		`{"line":"\xff\xfe","moves":[null,{"seat":1}]}`, `null`, `{"moves":[],"moves":[]}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		var want request
		if json.Unmarshal([]byte(line), &want) != nil {
			return
		}
		var got request
		err := decode([]byte(line), &got)
		if err == nil && !reflect.DeepEqual(got, want) {
			t.Errorf("%s: decode gives %+v; encoding/json %+v", line, got, want)
		}
	})
}

func TestDecodeJudgeRequests(t *testing.T) {
	for _, line := range judgeRequests {
		var got, want request
		if err := json.Unmarshal([]byte(line), &want); err != nil {
			t.Fatal(err)
		}
		if err := decode([]byte(line), &got); err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: decode gives %+v, %v; encoding/json %+v", line, got, err, want)
		}
	}
}

// FuzzEncode: a response written by hand reads back, through
// encoding/json, as what it was made of.
func FuzzEncode(f *testing.F) {
	f.Add("Heights", "0 1 2\nx\"\\\x01é\xff\x7f", 3, 0.5, true)
	f.Fuzz(func(t *testing.T, k, s string, n int, x float64, b bool) {
		var w writer
		w.open('{').key(k).str(s).key("n").int(n).key("x").float(x).key("b").bool(b)
		w.key("l").strs(s, k).key("i").ints(n, n).key("e").open('[').close(']')
		w.key("o").open('{').key("s").str(s).close('}')
		w.key("os").open('[').open('{').key("s").str(s).close('}').open('{').close('}').close(']')
		w.close('}')
		m := map[string]any{k: s, "n": n, "x": x, "b": b, "l": []string{s, k}, "i": []int{n, n}, "e": []int{},
			"o": map[string]any{"s": s}, "os": []any{map[string]any{"s": s}, map[string]any{}}}
		wb, err := json.Marshal(m)
		if err != nil {
			return // a NaN or an infinity: no JSON for it
		}
		var got, want any
		if err := json.Unmarshal(w.b, &got); err != nil {
			t.Fatalf("%s: %v", w.b, err)
		}
		if err := json.Unmarshal(wb, &want); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("writer: %s\nencoding/json: %s", w.b, wb)
		}
	})
}
