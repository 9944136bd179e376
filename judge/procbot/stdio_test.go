package procbot

import (
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// unreached tells the programs that libstdbuf cannot be preloaded into,
// from their ELF headers: real programs, a script of each, and a copy of
// a dynamic program made out to be for another machine.
func TestUnreachedPrograms(t *testing.T) {
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
		if got := unreached(tt.path); got != tt.want {
			t.Errorf("unreached(%s) = %v, want %v", filepath.Base(tt.path), got, tt.want)
		}
	}
}
