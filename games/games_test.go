package games

import (
	"strings"
	"testing"
)

func TestParseLine(t *testing.T) {
	tests := []struct {
		in   string
		verb string
		args []string
	}{
		{"CurrentTurn", "CurrentTurn", nil},
		{"CurrentTurn\n", "CurrentTurn", nil},
		{"CurrentTurn\r\n", "CurrentTurn", nil},
		{"SymbolAt 1 2", "SymbolAt", []string{"1", "2"}},
		{"  PlaceSymbol\t3   4 ", "PlaceSymbol", []string{"3", "4"}},
		{"", "", nil},
		{"   ", "", nil},
	}
	for _, tt := range tests {
		l := ParseLine(tt.in)
		if l.Verb != tt.verb || strings.Join(l.Args, ",") != strings.Join(tt.args, ",") {
			t.Errorf("ParseLine(%q) = %q %q, want %q %q", tt.in, l.Verb, l.Args, tt.verb, tt.args)
		}
	}
}

func FuzzParseLine(f *testing.F) {
	for _, s := range []string{"", "PlaceSymbol 1 2", "a\tb\r\n", " x  y ", "\xff\xfe 1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		l := ParseLine(s)
		want := strings.Fields(strings.TrimSuffix(strings.TrimSuffix(s, "\n"), "\r"))
		if got := append([]string{l.Verb}, l.Args...); len(want) == 0 && (l.Verb != "" || len(l.Args) > 0) ||
			len(want) > 0 && strings.Join(got, "\x00") != strings.Join(want, "\x00") {
			t.Fatalf("ParseLine(%q) = %q %q; its words are %q", s, l.Verb, l.Args, want)
		}
		if strings.ContainsAny(l.Verb, " \t\n") {
			t.Fatalf("verb %q has a separator", l.Verb)
		}
		for _, a := range l.Args {
			if a == "" || strings.ContainsAny(a, " \t\n") {
				t.Fatalf("bad argument %q", a)
			}
		}
		if l.Verb == "" && len(l.Args) > 0 {
			t.Fatal("arguments without a verb")
		}
		// Canonical form is a fixed point.
		if again := ParseLine(l.String()); again.String() != l.String() {
			t.Fatalf("%q → %q → %q", s, l.String(), again.String())
		}
	})
}

func TestResolve(t *testing.T) {
	specs := []ParamSpec{{Name: "n", Default: 3, Min: 1, Max: 9}}
	p, err := Resolve(specs, nil)
	if err != nil || p["n"] != 3 {
		t.Fatalf("defaults: %v %v", p, err)
	}
	if _, err := Resolve(specs, Params{"m": 1}); err == nil || !strings.Contains(err.Error(), `unknown parameter "m"`) {
		t.Errorf("unknown parameter: %v", err)
	}
	if _, err := Resolve(specs, Params{"n": 10}); err == nil || !strings.Contains(err.Error(), "out of range 1..9") {
		t.Errorf("out of range: %v", err)
	}
}

func TestParseXY(t *testing.T) {
	for _, c := range []struct {
		args []string
		x, y int
		ok   bool
	}{
		{[]string{"3", "4"}, 3, 4, true},
		{[]string{"3,4"}, 3, 4, true},
		{[]string{"-1", "0"}, -1, 0, true},
		{[]string{"3"}, 0, 0, false},
		{[]string{"3,"}, 0, 0, false},
		{[]string{"3,4,5"}, 0, 0, false},
		{[]string{"a", "4"}, 0, 0, false},
		{[]string{"1", "2", "3"}, 0, 0, false},
		{nil, 0, 0, false},
	} {
		x, y, ok := ParseXY(c.args)
		if ok != c.ok || ok && (x != c.x || y != c.y) {
			t.Errorf("ParseXY(%q) = %d, %d, %v; want %d, %d, %v", c.args, x, y, ok, c.x, c.y, c.ok)
		}
	}
}

func TestPlural(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{{0, "0 ship cells"}, {1, "1 ship cell"}, {2, "2 ship cells"}} {
		if got := Plural(c.n, "ship cell", "ship cells"); got != c.want {
			t.Errorf("Plural(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}
