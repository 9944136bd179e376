package plugin

import (
	"strings"
	"testing"
)

const goodSpec = `protocol = 1
name = "tiny-game"
description = "a game"
seats = [2, 2]
[referee]
wasm = "referee.wasm"
[[params]]
name = "size"
default = 8
min = 4
max = 16
[[commands]]
name = "Go"
[draw]
"." = { glyph = " ", colour = "#2e7d32" }
`

// TestParseSpec: each rule of game.toml, broken once, is an error naming
// the file and the key; the defaults of [referee] are filled in.
func TestParseSpec(t *testing.T) {
	s, err := ParseSpec("g/game.toml", []byte(goodSpec))
	if err != nil {
		t.Fatal(err)
	}
	if s.Referee.MemoryMiB != DefaultMemoryMiB || s.Referee.CallMS != DefaultCallMS || s.Params[0].Default != 8 {
		t.Errorf("got %+v", s)
	}
	many := strings.Replace(goodSpec, "[[commands]]", "[[queries]]\nname = \"Board\"\nlines = \"many\"\n[[queries]]\nname = \"Turn\"\nlines = \"one\"\n[[commands]]", 1)
	if s, err := ParseSpec("g/game.toml", []byte(many)); err != nil || s.Queries[0].Lines != "many" || s.Queries[1].Lines != "one" {
		t.Errorf("lines: %v, %+v", err, s)
	}
	for _, tc := range []struct{ old, new, want string }{
		{`protocol = 1`, `protocol = 2`, "protocol = 2: this judge speaks referee protocol 1"},
		{`name = "tiny-game"`, `name = "Tiny"`, `name = "Tiny": a name is lower-case`},
		{`name = "tiny-game"`, `name = "tiny-game"` + "\nnmae = 1", "g/game.toml: unknown key nmae"},
		{`[referee]`, "[referee]\ncpu_ms = 1", "unknown key referee.cpu_ms"},
		{`seats = [2, 2]`, `seats = [3, 2]`, "seats = [3 2]: want [min, max]"},
		{`wasm = "referee.wasm"`, `wasm = "../x.wasm"`, `referee.wasm = "../x.wasm": a file in the game's folder`},
		{`wasm = "referee.wasm"`, `command = []`, "referee: give wasm"},
		{`wasm = "referee.wasm"`, "wasm = \"r.wasm\"\ncommand = [\"x\"]", "referee: give wasm"},
		{`wasm = "referee.wasm"`, "wasm = \"r.wasm\"\ncall_ms = 0", "referee.call_ms = 0: want 1..60000"},
		{`default = 8`, `default = 20`, "params[0] (size): want min <= default <= max"},
		{`name = "size"`, `name = "Size"`, `params[0]: name = "Size"`},
		{`name = "Go"`, `name = "TimeLeft"`, "TimeLeft is the judge's own query"},
		{`name = "Go"`, `name = "Go Now"`, `commands[0]: name = "Go Now"`},
		{`"." = {`, `".." = {`, `draw: key "..": a cell is one printable ASCII character`},
		{`colour = "#2e7d32"`, `colour = "green"`, `colour = "green": want #rrggbb`},
		{`seats = [2, 2]`, `seats = "two"`, `line 4 (last key "seats")`},
		{`glyph = " "`, `glyph = "ab"`, `glyph = "ab": one printable character`},
		{`glyph = " "`, `glyph = ""`, `glyph = "": one printable character`},
		{`colour = "#2e7d32"`, `colour = ""`, `colour = "": want #rrggbb`},
		{`name = "Go"`, "name = \"Go\"\nlines = \"many\"", "commands[0] (Go): lines is a query's"},
		{`name = "Go"`, "name = \"Go\"\nfixed = true", "commands[0] (Go): fixed is a query's"},
		{`[[commands]]`, "[[queries]]\nname = \"Board\"\nlines = \"all\"\n[[commands]]", `queries[0] (Board): lines = "all": want "one" or "many"`},
	} {
		text := strings.Replace(goodSpec, tc.old, tc.new, 1)
		_, err := ParseSpec("g/game.toml", []byte(text))
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "g/game.toml") {
			t.Errorf("%s → %s: got %v, want %q", tc.old, tc.new, err, tc.want)
		}
	}
}

// FuzzParseSpec: any text is a spec or an error, never a panic; a spec
// it accepts keeps its rules.
func FuzzParseSpec(f *testing.F) {
	f.Add(goodSpec)
	f.Add(`protocol = 1`)
	f.Add("[draw]\n\"x\" = {glyph=\"ab\"}")
	f.Fuzz(func(t *testing.T, text string) {
		s, err := ParseSpec("game.toml", []byte(text))
		if err != nil {
			return
		}
		if err := s.check(); err != nil {
			t.Fatalf("accepted a spec that breaks its rules: %v", err)
		}
		if s.Referee.MemoryMiB < 1 || s.Referee.CallMS < 1 {
			t.Fatalf("limits %+v", s.Referee)
		}
	})
}

// FuzzCheckStatus: any status decoded from a referee is accepted only
// when it keeps the rules the judge relies on.
func FuzzCheckStatus(f *testing.F) {
	f.Add(2, 1, false, -1, 0, 0, 0, false)
	f.Add(2, 3, true, 0, 0, 2, 0, false)
	f.Fuzz(func(t *testing.T, n, turn int, over bool, winner, m0, nScores, nNotes int, simultaneous bool) {
		if n < 1 || n > 8 || nScores < 0 || nScores > 10 || nNotes < 0 || nNotes > 10 {
			return
		}
		st := &status{Turn: &turn, Over: &over, Winner: &winner, Movers: []int{m0},
			Scores: make([]float64, nScores), Notes: make([]string, nNotes)}
		if over {
			st.Movers = nil
		}
		if checkStatus(st, n, simultaneous) != "" {
			return
		}
		if turn < 1 || winner < -1 || winner >= n || over && len(st.Scores) != n || !over && (m0 < 0 || m0 >= n) {
			t.Fatalf("accepted %+v for %d seats", st, n)
		}
	})
}
