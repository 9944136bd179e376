package procbot

import (
	"context"
	"encoding/binary"
	"judge/sandbox/sandboxtest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"judge/judge"
	"judge/sandbox"
)

// unreached tells the programs that libstdbuf cannot be preloaded into,
// from their ELF headers: real programs, a script of each, and a copy of
// a dynamic program made out to be for another machine.
func TestUnreachedPrograms(t *testing.T) {
	t.Parallel()
	h := newTestHost(t)
	if lineBuffering().err != nil {
		t.Skipf("no line buffering here: %v", lineBuffering().err)
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "m.c")
	if err := os.WriteFile(src, []byte("int main(void) { return 0; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	static := filepath.Join(dir, "static")
	if out, err := exec.Command("gcc", "-static", "-o", static, src).CombinedOutput(); err != nil {
		t.Skipf("gcc -static: %v\n%s", err, out)
	}
	dynamic := filepath.Join(dir, "dynamic")
	if out, err := exec.Command("gcc", "-o", dynamic, src).CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s", err, out)
	}
	b, err := os.ReadFile(dynamic)
	if err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "other")
	bo := binary.ByteOrder(binary.LittleEndian)
	if b[5] == 2 { // EI_DATA: ELFDATA2MSB
		bo = binary.BigEndian
	}
	machine := uint16(183) // EM_AARCH64
	if bo.Uint16(b[18:]) == machine {
		machine = 62 // EM_X86_64
	}
	bo.PutUint16(b[18:], machine) // e_machine
	if err := os.WriteFile(other, b, 0o755); err != nil {
		t.Fatal(err)
	}
	script := func(name, interp string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("#!"+interp+" -e\necho hi\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	goProgram, err := os.Executable() // this test, a Go program
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		path string
		want bool
	}{
		{static, true},
		{dynamic, false},
		{other, true},
		{goProgram, false},
		{script("static.sh", static), true},
		{script("dynamic.sh", dynamic), false},
		{"/bin/sh", false},
		{filepath.Join(dir, "missing"), false},
		{src, false},
	} {
		if got := h.unreached(tt.path); got != tt.want {
			t.Errorf("unreached(%s) = %v, want %v", filepath.Base(tt.path), got, tt.want)
		}
	}
}

// A bot that writes next to the line-buffering file of Ruby bots, which
// the sandbox shows in a directory of the bot's /tmp, leaves nothing
// there for the bots that run after it in the same reused sandboxes: a
// counter kept there stays at 0, match after match.
func TestNothingLeftNextToTheRubyFile(t *testing.T) {
	t.Parallel()
	h := newTestHost(t)
	if lineBuffering().err != nil {
		t.Skipf("no line buffering here: %v", lineBuffering().err)
	}
	const script = `d=$(dirname "${RUBYOPT#-r}")
		n=$(cat "$d/counter" 2>/dev/null || echo 0)
		echo $((n+1)) 2>/dev/null >"$d/counter" && echo "count $n, wrote $d/counter" || echo "count $n"
		echo '#END'`
	for _, l := range []sandbox.Level{sandbox.Full, sandbox.Namespaces} {
		t.Run(string(l), func(t *testing.T) {
			if best := h.RunLevel(sandbox.Auto); best != sandbox.Full && (l == sandbox.Full || best != sandbox.Namespaces) {
				sandboxtest.SkipLevel(t, "level %s is not available here", l)
			}
			wrote := false
			for run := range 8 {
				p, err := h.Start(t.Context(), Spec{Name: "counter", Argv: []string{"sh", "-c", script}}, Options{Level: l}, 1)
				if err != nil {
					t.Fatal(err)
				}
				ctx := context.Background()
				limit := 20 * time.Second
				if err := p.BeginTurn(ctx, judge.Turn{Number: 1, Limit: limit, Deadline: time.Now().Add(limit), First: true}); err != nil {
					t.Fatal(err)
				}
				line, err := p.ReadLine(ctx)
				p.Stop(time.Second)
				if err != nil || p.IO() != Pipe {
					t.Fatalf("run %d: %v, on a %s", run, err, p.IO())
				}
				wrote = wrote || strings.Contains(string(line), "wrote")
				if !strings.HasPrefix(string(line), "count 0") {
					t.Errorf("run %d finds a counter an earlier one left: %s", run, line)
				}
			}
			if !wrote {
				t.Error("no run could write next to the Ruby file: nothing proven")
			}
		})
	}
}
