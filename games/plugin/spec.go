package plugin

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/BurntSushi/toml"
)

// Protocol is the version of the referee protocol this judge speaks.
const Protocol = 1

// Defaults and bounds of a referee's limits.
const (
	DefaultMemoryMiB = 64
	DefaultCallMS    = 1000
	MaxMemoryMiB     = 4096
	MaxCallMS        = 60000
)

// Spec is a game.toml: what the judge knows of a plugin game without
// asking its referee.
type Spec struct {
	Protocol     int                 `toml:"protocol"`
	Name         string              `toml:"name"`
	Description  string              `toml:"description"`
	Seats        []int               `toml:"seats"`
	Simultaneous bool                `toml:"simultaneous"`
	Referee      RefereeSpec         `toml:"referee"`
	Params       []ParamSpec         `toml:"params"`
	Queries      []VerbSpec          `toml:"queries"`
	Commands     []VerbSpec          `toml:"commands"`
	Play         PlaySpec            `toml:"play"`
	Draw         map[string]DrawSpec `toml:"draw"`
}

// RefereeSpec says how to run the referee: a WebAssembly module, or a
// command run from the game's folder.
type RefereeSpec struct {
	Wasm      string   `toml:"wasm"`
	Command   []string `toml:"command"`
	MemoryMiB int      `toml:"memory_mib"`
	CallMS    int      `toml:"call_ms"`
}

// ParamSpec is one integer parameter.
type ParamSpec struct {
	Name    string `toml:"name"`
	Default int    `toml:"default"`
	Min     int    `toml:"min"`
	Max     int    `toml:"max"`
	Doc     string `toml:"doc"`
}

// VerbSpec is one query or command of the game's protocol.
type VerbSpec struct {
	Name string   `toml:"name"`
	Args []string `toml:"args"`
	Doc  string   `toml:"doc"`
	// Lines is a query's: "one" (the default) or "many", an answer
	// that may span lines.
	Lines string `toml:"lines"`
	// Fixed is a query's: its answer to a seat never changes within a
	// match (the game's parameters, the seat's colour): the judge asks
	// the referee once a seat and line, and answers again itself.
	Fixed bool `toml:"fixed"`
}

// PlaySpec says how a person's input becomes a command.
type PlaySpec struct {
	Prompt string            `toml:"prompt"`
	Click  string            `toml:"click"`
	Keys   map[string]string `toml:"keys"`
}

// DrawSpec says how a cell's character is drawn.
type DrawSpec struct {
	Glyph  string `toml:"glyph"`
	Colour string `toml:"colour"`
}

var (
	nameRE   = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	verbRE   = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]*$`)
	paramRE  = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)
	colourRE = regexp.MustCompile(`^#[0-9a-fA-F]{6}$`)
)

// ParseSpec reads a game.toml's text strictly: a syntax error, a value of
// the wrong type, a key the format does not have, or a value that breaks
// its rules is an error naming the file (path, for messages) and the key.
func ParseSpec(path string, data []byte) (*Spec, error) {
	var s Spec
	md, err := toml.Decode(string(data), &s)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			key := ""
			if pe.LastKey != "" {
				key = " " + pe.LastKey + ":"
			}
			return nil, fmt.Errorf("%s:%d:%s %s", path, pe.Position.Line, key, pe.Message)
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		msgs := make([]string, len(und))
		for i, k := range und {
			msgs[i] = fmt.Sprintf("%s: unknown key %s", path, k)
		}
		return nil, errors.New(strings.Join(msgs, "\n"))
	}
	if !md.IsDefined("referee", "memory_mib") {
		s.Referee.MemoryMiB = DefaultMemoryMiB
	}
	if !md.IsDefined("referee", "call_ms") {
		s.Referee.CallMS = DefaultCallMS
	}
	if err := s.check(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &s, nil
}

// check says what is wrong with a decoded spec, naming the key.
func (s *Spec) check() error {
	switch {
	case s.Protocol != Protocol:
		return fmt.Errorf("protocol = %d: this judge speaks referee protocol %d", s.Protocol, Protocol)
	case !nameRE.MatchString(s.Name):
		return fmt.Errorf("name = %q: a name is lower-case letters, digits and single dashes ([a-z0-9-]+)", s.Name)
	case s.Description == "" || strings.ContainsAny(s.Description, "\n\r"):
		return errors.New("description: one line saying what the game is")
	case len(s.Seats) != 2 || s.Seats[0] < 1 || s.Seats[1] < s.Seats[0] || s.Seats[1] > 64:
		return fmt.Errorf("seats = %v: want [min, max], 1 <= min <= max <= 64", s.Seats)
	}
	if err := s.Referee.check(); err != nil {
		return err
	}
	seen := map[string]string{}
	for i, p := range s.Params {
		switch {
		case !paramRE.MatchString(p.Name):
			return fmt.Errorf("params[%d]: name = %q: lower-case letters, digits and _", i, p.Name)
		case seen[p.Name] != "":
			return fmt.Errorf("params[%d]: parameter %q given twice", i, p.Name)
		case p.Min > p.Max || p.Default < p.Min || p.Default > p.Max:
			return fmt.Errorf("params[%d] (%s): want min <= default <= max, got %d, %d, %d", i, p.Name, p.Min, p.Default, p.Max)
		}
		seen[p.Name] = "param"
	}
	if len(s.Commands) == 0 {
		return errors.New("commands: a game needs at least one command")
	}
	for _, k := range []struct {
		kind string
		list []VerbSpec
	}{{"queries", s.Queries}, {"commands", s.Commands}} {
		kind := k.kind
		for i, v := range k.list {
			switch {
			case !verbRE.MatchString(v.Name):
				return fmt.Errorf("%s[%d]: name = %q: a verb is a letter then letters, digits or _", kind, i, v.Name)
			case v.Name == "TimeLeft" || v.Name == "Opponent":
				return fmt.Errorf("%s[%d]: %s is the judge's own query", kind, i, v.Name)
			case seen["verb "+v.Name] != "":
				return fmt.Errorf("%s[%d]: %s is already a verb of the game", kind, i, v.Name)
			case kind == "commands" && v.Fixed:
				return fmt.Errorf("%s[%d] (%s): fixed is a query's", kind, i, v.Name)
			case kind == "commands" && v.Lines != "":
				return fmt.Errorf("%s[%d] (%s): lines is a query's: a command is one line", kind, i, v.Name)
			case v.Lines != "" && v.Lines != "one" && v.Lines != "many":
				return fmt.Errorf("%s[%d] (%s): lines = %q: want \"one\" or \"many\"", kind, i, v.Name, v.Lines)
			}
			seen["verb "+v.Name] = kind
		}
	}
	for c, d := range s.Draw {
		switch {
		case len(c) != 1 || c[0] < 0x21 || c[0] > 0x7e:
			return fmt.Errorf("draw: key %q: a cell is one printable ASCII character", c)
		case utf8.RuneCountInString(d.Glyph) != 1 || !utf8.ValidString(d.Glyph) || d.Glyph < " ":
			return fmt.Errorf("draw.%q: glyph = %q: one printable character", c, d.Glyph)
		case !colourRE.MatchString(d.Colour):
			return fmt.Errorf("draw.%q: colour = %q: want #rrggbb", c, d.Colour)
		}
	}
	return nil
}

func (r RefereeSpec) check() error {
	switch {
	case (r.Wasm == "") == (len(r.Command) == 0):
		return errors.New("referee: give wasm = \"FILE.wasm\" or command = [\"PROGRAM\", ARGS...], one of them")
	case r.Wasm != "" && (strings.Contains(r.Wasm, "..") || strings.HasPrefix(r.Wasm, "/")):
		return fmt.Errorf("referee.wasm = %q: a file in the game's folder", r.Wasm)
	case len(r.Command) > 0 && r.Command[0] == "":
		return errors.New("referee.command: the program's name is empty")
	case r.MemoryMiB < 1 || r.MemoryMiB > MaxMemoryMiB:
		return fmt.Errorf("referee.memory_mib = %d: want 1..%d", r.MemoryMiB, MaxMemoryMiB)
	case r.CallMS < 1 || r.CallMS > MaxCallMS:
		return fmt.Errorf("referee.call_ms = %d: want 1..%d", r.CallMS, MaxCallMS)
	}
	return nil
}
