package plugin

import (
	"encoding/json"
	"reflect"
	"testing"
)

// The replies the example referees give, which decodeReply reads itself.
var commonReplies = []string{
	`{"answer":"0 0 1 0 0 0 0"}`, `{"move":["DropDisc 3"]}`, `{"move":[]}`, `{"invalid":"column 9 is off the board"}`,
	`{"unknown":"not a command"}`, `{"not_query":true}`, `{"error":"game is over"}`, `{}`, `{"seats":2,"status":{"turn":1,"movers":[0],"over":false,"winner":-1}}`,
	`{"status":{"turn":5,"movers":[0],"over":false,"winner":-1,"scores":[],"reason":"","notes":[],"answers":{"Heights":"0 1 2","Params":"7 6 4"}}}`,
	`{"status":{"turn":9,"movers":[],"over":true,"winner":1,"scores":[0,1],"reason":"O made 4 in a row","notes":["a","b"]}}`,
	` { "status" : { "scores" : [ 0.5 , 5e-1 , -0, 1E+0 ] , "turn" : 1 , "over" : true , "winner" : -1 } } `,
}

// FuzzReplies: a reply decodeReply reads is what encoding/json reads.
func FuzzReplies(f *testing.F) {
	for _, l := range commonReplies {
		f.Add(l)
	}
	for _, l := range []string{`{"answer":"\u0041"}`, `{"Answer":"x"}`, `{"answer":"x","answer":"y"}`, `{"answer":null}`,
		`{"status":{"turn":1.0}}`, `{"status":{"scores":[1e400]}}`, `{"move":["\xff"]}`, `{"status":{"answers":{"a":"1","a":"2"}}}`,
		`{"answer":"x"} x`, `{"status":{"turn":01}}`, `{"seats":2}`, `[]`} {
		f.Add(l)
	}
	f.Fuzz(func(t *testing.T, line string) {
		var got reply
		if !decodeReply([]byte(line), &got) {
			if !reflect.DeepEqual(got, reply{}) {
				t.Fatalf("%s: refused, and changed the reply: %+v", line, got)
			}
			return
		}
		var want reply
		if err := json.Unmarshal([]byte(line), &want); err != nil {
			t.Fatalf("%s: read by hand as %+v; encoding/json: %v", line, got, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: read by hand as %+v; encoding/json %+v", line, got, want)
		}
	})
}

// TestCommonRepliesByHand: the replies of every turn are read without
// encoding/json.
func TestCommonRepliesByHand(t *testing.T) {
	for _, l := range commonReplies {
		var r reply
		if !decodeReply([]byte(l), &r) {
			t.Errorf("%s: left to encoding/json", l)
		}
	}
}

func BenchmarkReplies(b *testing.B) {
	for _, l := range []string{commonReplies[0], commonReplies[1], commonReplies[8]} {
		b.Run(l[2:8], func(b *testing.B) {
			b.Run("hand", func(b *testing.B) {
				for b.Loop() {
					var r reply
					decodeReply([]byte(l), &r)
				}
			})
			b.Run("encoding-json", func(b *testing.B) {
				for b.Loop() {
					var r reply
					json.Unmarshal([]byte(l), &r)
				}
			})
		})
	}
}
