package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func writeConfig(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "c.toml")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoad(t *testing.T) {
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
	c, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	switch {
	case c.Game != "gomoku", c.Params["n"] != 9:
		t.Errorf("game %s params %v", c.Game, c.Params)
	case time.Duration(c.Limits.Turn) != 250*time.Millisecond, time.Duration(c.Limits.FirstTurn) != 3*time.Second, c.Limits.OutputBytes != 4096:
		t.Errorf("limits %+v", c.Limits)
	case c.Limits.Grace != 0:
		t.Errorf("grace %v: an absent key must stay unset", c.Limits.Grace)
	case c.Bots.IO != "pipe", c.Bots.Env["LEVEL"] != "hard":
		t.Errorf("bots %+v", c.Bots)
	case c.Sandbox.Level != "basic", c.Sandbox.Memory != 128<<20, c.Sandbox.Procs != 16, c.Sandbox.Tmp != 1<<30:
		t.Errorf("sandbox %+v", c.Sandbox)
	}
	if !c.Defined("sandbox", "procs") || c.Defined("sandbox", "open_files") || c.Defined("limits", "overruns") {
		t.Errorf("Defined: sandbox.procs %v, sandbox.open_files %v, limits.overruns %v; want true, false, false",
			c.Defined("sandbox", "procs"), c.Defined("sandbox", "open_files"), c.Defined("limits", "overruns"))
	}
	if l := Line(p, "sandbox", "procs"); l != 14 {
		t.Errorf("Line(sandbox.procs) = %d, want 14", l)
	}
}

func TestConfigErrors(t *testing.T) {
	tests := []struct {
		text  string
		words string
	}{
		{"game = \"gomoku\"\n[limits]\nturns = \"1s\"\n", ":3: unknown key limits.turns"},
		{"game = \"gomoku\"\n[limit]\nturn = \"1s\"\n", "unknown key limit"},
		// A table of another command's file: its own line, never line 0.
		{"game = \"splix\"\n\n[tournament]\nformat = \"groups\"\n", ":3: unknown key tournament\n"},
		{"game = \"gomoku\"\n\n[sandbox]\nlevel = \"max\"\n", ":4: sandbox.level"},
		{"game = \"gomoku\"\n[sandbox]\nmemory = \"lots\"\n", `bad size "lots"`},
		{"game = \"gomoku\"\n[sandbox]\nmemory = \"0MiB\"\n", `bad size`},
		{"game = \"gomoku\"\n[sandbox]\nprocs = -1\n", ":3: sandbox.procs = -1: want 1 to 65536"},
		{"game = \"gomoku\"\n[sandbox]\nprocs = 0\n", ":3: sandbox.procs = 0: want 1 to 65536 (leave the key out for the default)"},
		{"game = \"gomoku\"\n[sandbox]\nopen_files = 0\n", ":3: sandbox.open_files = 0: want 1"},
		{"game = \"gomoku\"\n[sandbox]\nopen_files = 99999999999\n", ":3: sandbox.open_files = 99999999999: want 1 to 1048576"},
		{"game = \"gomoku\"\n[limits]\nstderr_bytes = 0\n", ":3: limits.stderr_bytes = 0: want 1"},
		{"game = \"gomoku\"\n[limits]\noverruns = -2\n", ":3: limits.overruns = -2: want 0 to"},
		{"game = \"gomoku\"\nlimits = { output_bytes = 0 }\n", "limits.output_bytes = 0"},
		{"game = \"gomoku\"\n[bots]\nio = \"socket\"\n", `:3: bots.io: "socket"`},
		{"[params]\nn = 3\n", "no game"},
		{"game = \"gomoku\"\n[limits]\nturn = 5\n", ":3:"},
		{"game = \"gomoku\"\n[limits]\nturn = \"0s\"\n", "must be positive"},
		{"game = \"gomoku\"\n[limits]\noutput_bytes = -1\n", ":3: limits.output_bytes = -1: want 1 to 1073741824"},
		{"game = \"gomoku\"\n[limits]\noutput_bytes = 0\n", ":3: limits.output_bytes = 0: want 1"},
		{"game = \"gomoku\"\n[limits]\noutput_bytes = 99999999999\n", ":3: limits.output_bytes = 99999999999: want 1 to"},
		{"game = \"gomoku\"\ngame = \"gomoku\"\n", ":2:"},
	}
	for _, tt := range tests {
		p := writeConfig(t, tt.text)
		_, err := Load(p)
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
