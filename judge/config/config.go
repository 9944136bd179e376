// Package config reads configuration files strictly: a typo, an unknown
// key or a value of the wrong type is an error naming the file, the line
// and the key. The command line resolves what a file says, with the
// defaults and the flags, into one match (cmd/judge).
package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
)

// File is a match configuration file (configs/*.toml):
//
//	game = "gomoku"          # a name from `judge games`
//	[params]                 # the game's parameters
//	n = 15
//	k = 5
//	[limits]
//	turn = "1s"              # per turn
//	first_turn = "5s"        # each bot's first turn
//	turn_cpu = "1s"          # CPU time per turn (none by default)
//	output_bytes = 1048576   # output per turn
//	stderr_bytes = 65536     # stderr tail kept in the replay
//	grace = "200ms"          # time to exit after the game
//	bank = "10s"             # a reserve a turn may run into (none by default)
//	increment = "100ms"      # added to the bank after every turn
//	overruns = 0             # turns that may run past limit and bank before it counts
//	[bots]
//	io = "auto"              # or "pty", "pipe"
//	env = { KEY = "value" }  # added to every bot's environment
//	[sandbox]
//	level = "auto"           # auto, full, namespaces, basic or none
//	memory = "256MiB"        # real memory of a bot, its children included
//	procs = 64               # processes and threads
//	file_size = "64MiB"      # largest file a bot may write
//	open_files = 256
//	tmp = "64MiB"            # size of the bot's private /tmp
type File struct {
	Game string `toml:"game"`
	// GamesPath are folders of plugin games (each a folder holding a
	// game.toml), relative to the file's folder; a games/ folder beside
	// the file is looked in too.
	GamesPath []string       `toml:"games_path"`
	Params    map[string]int `toml:"params"`
	Limits    TurnLimits     `toml:"limits"`
	Bots      Bots           `toml:"bots"`
	Sandbox   Sandbox        `toml:"sandbox"`

	meta toml.MetaData // which keys the file gives
}

// Defined reports whether the file gives the key (a table and a name,
// say "limits", "output_bytes"), whatever its value.
func (c *File) Defined(key ...string) bool { return c.meta.IsDefined(key...) }

func (c *File) setMeta(md toml.MetaData) { c.meta = md }

// Counts are the numbers of the file that count something, with their
// ranges. A 0 is an error where it would mean nothing (procs = 0), never
// "the default": leave the key out for that.
var Counts = []Count{
	{"limits", "output_bytes", 1, 1 << 30},
	{"limits", "stderr_bytes", 1, 16 << 20},
	{"limits", "overruns", 0, 1_000_000},
	{"sandbox", "procs", 1, 1 << 16},
	{"sandbox", "open_files", 1, 1 << 20},
}

// Count is a key whose value must lie in [Min, Max].
type Count struct {
	Table, Key string
	Min, Max   int64
}

// Check checks the value v the file at path gives the key, if it gives
// it: out of range is an error naming the file, the line and the key.
func (k Count) Check(c *File, path string, v int64) error {
	if !c.Defined(k.Table, k.Key) || v >= k.Min && v <= k.Max {
		return nil
	}
	want := fmt.Sprintf("want %d to %d", k.Min, k.Max)
	if v == 0 {
		want += " (leave the key out for the default)"
	}
	return fmt.Errorf("%s:%d: %s.%s = %d: %s", path, Line(path, k.Table, k.Key), k.Table, k.Key, v, want)
}

// TurnLimits is the [limits] table.
type TurnLimits struct {
	Turn        Duration `toml:"turn"`
	FirstTurn   Duration `toml:"first_turn"`
	TurnCPU     Duration `toml:"turn_cpu"`
	OutputBytes int64    `toml:"output_bytes"`
	StderrBytes int      `toml:"stderr_bytes"`
	Grace       Duration `toml:"grace"`
	Bank        Duration `toml:"bank"`
	Increment   Duration `toml:"increment"`
	Overruns    int      `toml:"overruns"`
}

// Bots is the [bots] table.
type Bots struct {
	IO  string            `toml:"io"`
	Env map[string]string `toml:"env"`
}

// Sandbox is the [sandbox] table.
type Sandbox struct {
	Level     string `toml:"level"`
	Memory    Size   `toml:"memory"`
	Procs     int    `toml:"procs"`
	FileSize  Size   `toml:"file_size"`
	OpenFiles int    `toml:"open_files"`
	Tmp       Size   `toml:"tmp"`
}

// IOModes are the values of [bots] io: how a bot's standard files are
// connected (the process player's modes; "" is "auto").
var IOModes = []string{"auto", "pty", "pipe"}

// Levels are the values of [sandbox] level: how strongly bots are
// isolated ("" is "auto", the strongest the machine allows).
var Levels = []string{"auto", "full", "namespaces", "basic", "none"}

// CheckIO checks a value of [bots] io.
func CheckIO(s string) error {
	if s == "" || slices.Contains(IOModes, s) {
		return nil
	}
	return fmt.Errorf("%q is not \"auto\", \"pty\" or \"pipe\"", s)
}

// CheckLevel checks a value of [sandbox] level.
func CheckLevel(s string) error {
	if s == "" || slices.Contains(Levels, s) {
		return nil
	}
	return fmt.Errorf("unknown sandbox level %q (want auto, full, namespaces, basic or none)", s)
}

// Size is a number of bytes written as "256MiB", "64KiB", "1GiB" or a
// plain number in TOML.
type Size int64

// UnmarshalText implements encoding.TextUnmarshaler.
func (z *Size) UnmarshalText(b []byte) error {
	s := strings.TrimSpace(string(b))
	mult := int64(1)
	for _, u := range []struct {
		suffix string
		mult   int64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"B", 1}} {
		if strings.HasSuffix(s, u.suffix) {
			s, mult = strings.TrimSpace(strings.TrimSuffix(s, u.suffix)), u.mult
			break
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 || n > (1<<62)/mult {
		return fmt.Errorf("bad size %q (write it like \"256MiB\", \"64KiB\" or \"1GiB\")", b)
	}
	*z = Size(n * mult)
	return nil
}

// Duration is a time.Duration written as "1s", "250ms" in TOML.
type Duration time.Duration

// UnmarshalText implements encoding.TextUnmarshaler.
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	if err != nil {
		return fmt.Errorf("bad duration %q (write it like \"1s\" or \"250ms\")", b)
	}
	if v <= 0 {
		return fmt.Errorf("duration %q must be positive", b)
	}
	*d = Duration(v)
	return nil
}

// MarshalText implements encoding.TextMarshaler.
func (d Duration) MarshalText() ([]byte, error) { return []byte(time.Duration(d).String()), nil }

// Load reads a match configuration file strictly: unknown keys and
// values of the wrong type are errors that name the file, line and key.
// The game and its parameters are checked where the catalog is known
// (cmd/judge).
func Load(path string) (*File, error) {
	c := &File{}
	if err := Decode(path, c); err != nil {
		return nil, err
	}
	if c.Game == "" {
		return nil, fmt.Errorf("%s: no game: add a line such as game = \"gomoku\"", path)
	}
	if err := c.Check(path); err != nil {
		return nil, err
	}
	return c, nil
}

// Check checks what decoding cannot: the io mode, the sandbox level and
// the counts (Counts). Errors name path and, where it can be found, the
// line.
func (c *File) Check(path string) error {
	if err := CheckIO(c.Bots.IO); err != nil {
		return fmt.Errorf("%s:%d: bots.io: %w", path, Line(path, "bots", "io"), err)
	}
	if err := CheckLevel(c.Sandbox.Level); err != nil {
		return fmt.Errorf("%s:%d: sandbox.level: %w", path, Line(path, "sandbox", "level"), err)
	}
	values := map[string]int64{
		"output_bytes": c.Limits.OutputBytes, "stderr_bytes": int64(c.Limits.StderrBytes), "overruns": int64(c.Limits.Overruns),
		"procs": int64(c.Sandbox.Procs), "open_files": int64(c.Sandbox.OpenFiles),
	}
	for _, k := range Counts {
		if err := k.Check(c, path, values[k.Key]); err != nil {
			return err
		}
	}
	return nil
}

// Decode decodes a TOML file into v strictly: a syntax error, a value
// of the wrong type or a key v does not have is an error naming the file,
// the line and the key.
func Decode(path string, v any) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	md, err := toml.Decode(string(data), v)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			key := ""
			if pe.LastKey != "" {
				key = " " + pe.LastKey + ":"
			}
			return fmt.Errorf("%s:%d:%s %s", path, pe.Position.Line, key, pe.Message)
		}
		return fmt.Errorf("%s: %w", path, err)
	}
	if m, ok := v.(interface{ setMeta(toml.MetaData) }); ok {
		m.setMeta(md)
	}
	if und := md.Undecoded(); len(und) > 0 {
		var msgs []string
		for _, k := range und {
			if n := lineOfKey(string(data), k); n > 0 {
				msgs = append(msgs, fmt.Sprintf("%s:%d: unknown key %s", path, n, k))
			} else {
				msgs = append(msgs, fmt.Sprintf("%s: unknown key %s", path, k))
			}
		}
		return errors.New(strings.Join(msgs, "\n"))
	}
	return nil
}

// lineOfKey finds the line that defines key (a dotted path) in a TOML
// text: the line of its last part inside the table of its first parts.
// It returns 0 when it cannot tell.
func lineOfKey(text string, key toml.Key) int {
	if len(key) == 0 {
		return 0
	}
	table := strings.Join(key[:len(key)-1], ".")
	last := regexp.QuoteMeta(key[len(key)-1])
	keyRe := regexp.MustCompile(`^\s*"?` + last + `"?\s*=`)
	tableRe := regexp.MustCompile(`^\s*\[+\s*([^\]]*?)\s*\]+`)
	cur := ""
	for i, l := range strings.Split(text, "\n") {
		if m := tableRe.FindStringSubmatch(l); m != nil {
			cur = m[1]
			if cur == strings.Join(key, ".") {
				return i + 1 // an unknown table
			}
			continue
		}
		if cur == table && keyRe.MatchString(l) {
			return i + 1
		}
	}
	return 0
}

// Line is the line of path that defines the key (a table and a name,
// say "limits", "turn"), or 0 when it cannot be told.
func Line(path string, key ...string) int {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	return lineOfKey(string(b), toml.Key(key))
}

// Path is p, a path the configuration file at file gives, resolved from
// the file's folder, not from the working directory: in configs/t.toml,
// "../results/t" is results/t. An absolute path and "" are unchanged.
func Path(file, p string) string {
	if p == "" || filepath.IsAbs(p) {
		return p
	}
	r := filepath.Join(filepath.Dir(file), p)
	if !strings.Contains(r, "/") {
		r = "./" + r // a program in the folder, not one on PATH
	}
	return r
}

// BotPath is a bot the configuration file at file gives, with its paths
// resolved from the file's folder (Path): a path (a source file, a
// directory, a program: a word with a slash, or one that names a file
// there), the path after a prefix such as splix-java: or ruby-contest:,
// and in a command line such as "python3 ../bots/x.py" each word that is
// such a path (a word that starts with "-" is an option). A URL, a
// program looked up on PATH (python3) and a command line with quotes or
// backslashes are unchanged.
func BotPath(file, bot string) string {
	switch {
	case bot == "" || strings.Contains(bot, "://") || strings.ContainsAny(bot, `'"\`):
		return bot
	}
	if kind, rest, ok := strings.Cut(bot, ":"); ok && kind != "" && !strings.ContainsAny(kind, "/ \t") {
		return kind + ":" + BotPath(file, rest)
	}
	words := strings.Fields(bot)
	if len(words) > 1 || bot != strings.TrimSpace(bot) {
		changed := false
		for i, w := range words {
			if r := botWord(file, w); r != w {
				words[i], changed = r, true
			}
		}
		if !changed {
			return bot
		}
		return strings.Join(words, " ")
	}
	return botWord(file, bot)
}

// botWord is one word of a bot resolved from file's folder when it is a
// path: it has a slash, or it names a file or directory there.
func botWord(file, w string) string {
	if strings.HasPrefix(w, "-") || filepath.IsAbs(w) {
		return w
	}
	if !strings.Contains(w, "/") {
		if _, err := os.Stat(filepath.Join(filepath.Dir(file), w)); err != nil {
			return w
		}
	}
	return Path(file, w)
}
