package judge

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"judge/sandbox"
)

// TestShippedConfigs loads every match configuration in configs/ and
// checks that it names the same parameters as the catalog's preset.
func TestShippedConfigs(t *testing.T) {
	files, _ := filepath.Glob("../configs/*.toml")
	n := 0
	for _, f := range files {
		base := filepath.Base(f)
		if strings.HasPrefix(base, "tournament-") || base == "languages.toml" {
			continue
		}
		n++
		c, err := LoadConfig(f)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		m := Match{}
		if err := c.Apply(&m); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	if n < 5 {
		t.Errorf("only %d match configurations in configs/", n)
	}
}

func writeConfig(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "c.toml")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestConfigApply(t *testing.T) {
	p := writeConfig(t, `game = "gomoku"
[params]
n = 9
[limits]
turn = "250ms"
first_turn = "3s"
output_bytes = 4096
[bots]
io = "pipe"
env = { LEVEL = "hard" }
[sandbox]
level = "basic"
memory = "128MiB"
procs = 16
tmp = "1GiB"
`)
	c, err := LoadConfig(p)
	if err != nil {
		t.Fatal(err)
	}
	m := Match{Limits: DefaultLimits}
	if err := c.Apply(&m); err != nil {
		t.Fatal(err)
	}
	switch {
	case m.Variant.Game.Name() != "gomoku", m.Params["n"] != 9:
		t.Errorf("game %s params %v", m.Variant.Name, m.Params)
	case m.Limits.Turn != 250*time.Millisecond, m.Limits.FirstTurn != 3*time.Second, m.Limits.Output != 4096:
		t.Errorf("limits %+v", m.Limits)
	case m.Limits.Grace != DefaultLimits.Grace:
		t.Errorf("grace %v: an absent key must keep the default", m.Limits.Grace)
	case m.IO != Pipe, m.Env["LEVEL"] != "hard":
		t.Errorf("io %s env %v", m.IO, m.Env)
	case m.SandboxLevel != sandbox.Basic, m.Sandbox.Memory != 128<<20, m.Sandbox.Procs != 16, m.Sandbox.TmpSize != 1<<30:
		t.Errorf("sandbox %s %+v", m.SandboxLevel, m.Sandbox)
	case m.Sandbox.OpenFiles != sandbox.DefaultLimits.OpenFiles:
		t.Errorf("open files %d: an absent key must keep the default", m.Sandbox.OpenFiles)
	}
}

func TestConfigErrors(t *testing.T) {
	tests := []struct {
		text  string
		words string
	}{
		{"game = \"gomoku\"\n[limits]\nturns = \"1s\"\n", ":3: unknown key limits.turns"},
		{"game = \"gomoku\"\n[limit]\nturn = \"1s\"\n", "unknown key limit"},
		{"game = \"gomoku\"\n\n[sandbox]\nlevel = \"max\"\n", ":4: sandbox.level"},
		{"game = \"gomoku\"\n[sandbox]\nmemory = \"lots\"\n", `bad size "lots"`},
		{"game = \"gomoku\"\n[sandbox]\nmemory = \"0MiB\"\n", `bad size`},
		{"game = \"gomoku\"\n[sandbox]\nprocs = -1\n", "sandbox.procs: -1 is negative"},
		{"game = \"gomoku\"\n[bots]\nio = \"socket\"\n", `:3: bots.io: "socket"`},
		{"game = \"chess\"\n", `:1: game: unknown game "chess"`},
		{"[params]\nn = 3\n", "no game"},
		{"game = \"gomoku\"\n[params]\nn = 3\nk = 4\n", "larger than n"},
		{"game = \"gomoku\"\n[limits]\nturn = 5\n", ":3:"},
		{"game = \"gomoku\"\ngame = \"gomoku\"\n", ":2:"},
	}
	for _, tt := range tests {
		p := writeConfig(t, tt.text)
		_, err := LoadConfig(p)
		if err == nil || !strings.Contains(err.Error(), tt.words) {
			t.Errorf("%q: got %v, want an error saying %q", tt.text, err, tt.words)
			continue
		}
		if !strings.HasPrefix(err.Error(), p) {
			t.Errorf("%q: error %q does not name the file", tt.text, err)
		}
	}
}

func TestSize(t *testing.T) {
	for in, want := range map[string]Size{"1": 1, "64KiB": 64 << 10, "256MiB": 256 << 20, "2GiB": 2 << 30, "10B": 10, " 3 MiB ": 3 << 20} {
		var z Size
		if err := z.UnmarshalText([]byte(in)); err != nil || z != want {
			t.Errorf("%q: got %d, %v; want %d", in, z, err, want)
		}
	}
	for _, in := range []string{"", "MiB", "-1", "1.5GiB", "1TB", "99999999999GiB"} {
		var z Size
		if err := z.UnmarshalText([]byte(in)); err == nil {
			t.Errorf("%q: no error", in)
		}
	}
}
