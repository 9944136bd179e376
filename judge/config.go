package judge

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

	"judge/games"
	"judge/games/catalog"
	"judge/sandbox"
)

// Config is a match configuration file (configs/*.toml):
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
//	[bots]
//	io = "pty"               # or "pipe"
//	env = { KEY = "value" }  # added to every bot's environment
//	[sandbox]
//	level = "auto"           # auto, full, namespaces, basic or none
//	memory = "256MiB"        # real memory of a bot, its children included
//	procs = 64               # processes and threads
//	file_size = "64MiB"      # largest file a bot may write
//	open_files = 256
//	tmp = "64MiB"            # size of the bot's private /tmp
type Config struct {
	Game    string         `toml:"game"`
	Params  map[string]int `toml:"params"`
	Limits  ConfigLimits   `toml:"limits"`
	Bots    ConfigBots     `toml:"bots"`
	Sandbox ConfigSandbox  `toml:"sandbox"`
}

// ConfigLimits is the [limits] table.
type ConfigLimits struct {
	Turn        Duration `toml:"turn"`
	FirstTurn   Duration `toml:"first_turn"`
	TurnCPU     Duration `toml:"turn_cpu"`
	OutputBytes int64    `toml:"output_bytes"`
	StderrBytes int      `toml:"stderr_bytes"`
	Grace       Duration `toml:"grace"`
}

// ConfigBots is the [bots] table.
type ConfigBots struct {
	IO  string            `toml:"io"`
	Env map[string]string `toml:"env"`
}

// ConfigSandbox is the [sandbox] table.
type ConfigSandbox struct {
	Level     string `toml:"level"`
	Memory    Size   `toml:"memory"`
	Procs     int    `toml:"procs"`
	FileSize  Size   `toml:"file_size"`
	OpenFiles int    `toml:"open_files"`
	Tmp       Size   `toml:"tmp"`
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

// LoadConfig reads a match configuration file strictly: unknown keys and
// values of the wrong type are errors that name the file, line and key.
func LoadConfig(path string) (*Config, error) {
	c := &Config{}
	if err := DecodeFile(path, c); err != nil {
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

// Check checks what decoding cannot: the game and its parameters (when
// the file names a game), the io mode and the sandbox level. Errors name
// path and, where it can be found, the line.
func (c *Config) Check(path string) error {
	if c.Game != "" {
		v, err := catalog.Lookup(c.Game)
		if err != nil {
			return fmt.Errorf("%s:%d: game: %w", path, lineOf(path, toml.Key{"game"}), err)
		}
		p, err := v.Resolve(c.Params)
		if err == nil {
			_, err = v.Game.New(p, 0) // parameters that do not fit together
		}
		if err != nil {
			return fmt.Errorf("%s: [params]: %w", path, err)
		}
	}
	switch IO(c.Bots.IO) {
	case "", PTY, Pipe:
	default:
		return fmt.Errorf("%s:%d: bots.io: %q is not \"pty\" or \"pipe\"", path, lineOf(path, toml.Key{"bots", "io"}), c.Bots.IO)
	}
	if _, err := sandbox.ParseLevel(c.Sandbox.Level); err != nil {
		return fmt.Errorf("%s:%d: sandbox.level: %w", path, lineOf(path, toml.Key{"sandbox", "level"}), err)
	}
	for _, x := range []struct {
		key string
		v   int
	}{{"procs", c.Sandbox.Procs}, {"open_files", c.Sandbox.OpenFiles}} {
		if x.v < 0 {
			return fmt.Errorf("%s:%d: sandbox.%s: %d is negative", path, lineOf(path, toml.Key{"sandbox", x.key}), x.key, x.v)
		}
	}
	return nil
}

// DecodeFile decodes a TOML file into v strictly: a syntax error, a value
// of the wrong type or a key v does not have is an error naming the file,
// the line and the key.
func DecodeFile(path string, v any) error {
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
	if und := md.Undecoded(); len(und) > 0 {
		var msgs []string
		for _, k := range und {
			msgs = append(msgs, fmt.Sprintf("%s:%d: unknown key %s", path, lineOfKey(string(data), k), k))
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
			if len(key) >= 2 && cur == strings.Join(key, ".") {
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

func lineOf(path string, key toml.Key) int {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	return lineOfKey(string(b), key)
}

// Apply puts the configuration into m: the game, parameters (overridden
// by params), limits and bot settings. Fields the file leaves out keep
// their value in m.
func (c *Config) Apply(m *Match) error {
	v, err := catalog.Lookup(c.Game)
	if err != nil {
		return err
	}
	m.Variant = v
	p := games.Params{}
	for k, x := range c.Params {
		p[k] = x
	}
	m.Params = p
	if c.Limits.Turn > 0 {
		m.Limits.Turn = time.Duration(c.Limits.Turn)
	}
	if c.Limits.FirstTurn > 0 {
		m.Limits.FirstTurn = time.Duration(c.Limits.FirstTurn)
	}
	if c.Limits.TurnCPU > 0 {
		m.Limits.TurnCPU = time.Duration(c.Limits.TurnCPU)
	}
	if c.Limits.OutputBytes > 0 {
		m.Limits.Output = c.Limits.OutputBytes
	}
	if c.Limits.StderrBytes > 0 {
		m.Limits.Stderr = c.Limits.StderrBytes
	}
	if c.Limits.Grace > 0 {
		m.Limits.Grace = time.Duration(c.Limits.Grace)
	}
	if c.Bots.IO != "" {
		m.IO = IO(c.Bots.IO)
	}
	if c.Sandbox.Level != "" {
		l, err := sandbox.ParseLevel(c.Sandbox.Level)
		if err != nil {
			return err
		}
		m.SandboxLevel = l
	}
	sb := &m.Sandbox
	if *sb == (sandbox.Limits{}) {
		*sb = sandbox.DefaultLimits
	}
	if c.Sandbox.Memory > 0 {
		sb.Memory = int64(c.Sandbox.Memory)
	}
	if c.Sandbox.Procs > 0 {
		sb.Procs = c.Sandbox.Procs
	}
	if c.Sandbox.FileSize > 0 {
		sb.FileSize = int64(c.Sandbox.FileSize)
	}
	if c.Sandbox.OpenFiles > 0 {
		sb.OpenFiles = c.Sandbox.OpenFiles
	}
	if c.Sandbox.Tmp > 0 {
		sb.TmpSize = int64(c.Sandbox.Tmp)
	}
	if len(c.Bots.Env) > 0 {
		if m.Env == nil {
			m.Env = map[string]string{}
		}
		for k, v := range c.Bots.Env {
			m.Env[k] = v
		}
	}
	return nil
}
