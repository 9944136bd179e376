// Command hostile is a referee that misbehaves at turn 3, in the way its
// seed says (see mode): the judge must end its match as a referee error.
// Until then it plays a game of ten turns: seats take turns; the query
// Turn answers the turn; the command Go is the only move. It builds as a
// WASI command, and as a reactor (go build -buildmode=c-shared).
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

// The misbehaviours, by seed.
const (
	good      = iota // none: ten turns, a draw
	loop             // an endless loop
	bomb             // allocates memory without end
	huge             // an answer of 8 MiB
	garbage          // a line that is not JSON
	exit             // exits, saying why on stderr
	errorResp        // answers {"error"}
	badStatus        // a status whose movers are not seats
	extra            // two lines for one request
	starve           // reads on without answering its request
)

var sink [][]byte

// The referee's stdin, stdout and game, kept from one request to the
// next: main serves them in a loop; built as a reactor (step_wasip1.go),
// the judge calls step for each.
var (
	in         = bufio.NewScanner(os.Stdin)
	out        = bufio.NewWriter(os.Stdout)
	mode, turn = uint64(0), 1
	// news counts the games this referee has started: the query Games
	// answers it (the judge may give a referee many, FeatureReuse).
	news = 0
)

func say(s string) { out.WriteString(s + "\n"); out.Flush() }

func status() string {
	if turn > 10 {
		return `{"turn":11,"movers":[],"over":true,"winner":-1,"scores":[0.5,0.5],"reason":"ten turns","notes":[]}`
	}
	return fmt.Sprintf(`{"turn":%d,"movers":[%d],"over":false,"winner":-1,"scores":[],"reason":"","notes":[]}`, turn, (turn-1)%2)
}

func main() {
	for step() {
	}
}

// step serves one request; false once stdin has ended.
func step() bool {
	if !in.Scan() {
		return false
	}
	var r struct {
		Op   string `json:"op"`
		Seed uint64 `json:"seed"`
		Line string `json:"line"`
		Seat int    `json:"seat"`
	}
	json.Unmarshal(in.Bytes(), &r)
	if turn == 3 && r.Op == "query" {
		misbehave(mode, say, in)
	}
	switch r.Op {
	case "hello":
		// reuse: new starts a game afresh, whatever came before.
		say(`{"protocol":1,"features":["reuse"]}`)
	case "new":
		mode, turn = r.Seed, 1
		news++
		say(`{"seats":2,"status":` + status() + `}`)
	case "query":
		switch r.Line {
		case "Turn":
			say(fmt.Sprintf(`{"answer":"%d"}`, turn))
		case "Games":
			say(fmt.Sprintf(`{"answer":"%d"}`, news))
		default:
			say(`{"not_query":true}`)
		}
	case "orders", "command":
		if r.Op == "command" && !strings.HasPrefix(r.Line, "Go") {
			say(`{"unknown":"not a command"}`)
			break
		}
		say(`{}`)
	case "commit":
		say(`{"move":["Go"]}`)
	case "apply", "forfeit":
		if mode == badStatus && turn == 3 {
			say(`{"status":{"turn":4,"movers":[7],"over":false,"winner":-1,"scores":[],"reason":"","notes":[]}}`)
			break
		}
		turn++
		if r.Op == "forfeit" {
			turn = 11
		}
		say(`{"status":` + status() + `}`)
	default:
		say(`{"error":"unknown op ` + r.Op + `"}`)
	}
	return true
}

func misbehave(mode uint64, say func(string), in *bufio.Scanner) {
	switch mode {
	case loop:
		for i := 0; ; i++ {
			if i < 0 {
				say("never")
			}
		}
	case bomb:
		for {
			sink = append(sink, make([]byte, 1<<20))
			for i := range sink[len(sink)-1] {
				sink[len(sink)-1][i] = 1
			}
		}
	case huge:
		say(`{"answer":"` + strings.Repeat("x", 8<<20) + `"}`)
	case garbage:
		say("hello, judge")
	case exit:
		fmt.Fprintln(os.Stderr, "hostile: giving up at turn 3")
		os.Exit(3)
	case errorResp:
		say(`{"error":"the referee lost its way"}`)
	case extra:
		say(`{"answer":"3"}`)
		say(`{"answer":"4"}`)
	case starve:
		in.Scan() // the next request, which never comes
	}
}
