//go:build unix

package unpack

import (
	"archive/tar"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestUnpackUmask checks the modes do not depend on the umask of the
// process.
func TestUnpackUmask(t *testing.T) {
	old := syscall.Umask(0o077)
	defer syscall.Umask(old)
	dst := filepath.Join(t.TempDir(), "sub")
	data := mkTar(t, file("a.py", "1"), ent{name: "run", typ: tar.TypeReg, body: "2", mode: 0o777}, file("lib/b.py", "3"))
	if err := Unpack("bot.tar", data, dst, Bounds{}); err != nil {
		t.Fatal(err)
	}
	want := map[string]fs.FileMode{".": fs.ModeDir | 0o755, "a.py": 0o644, "run": 0o755, "lib": fs.ModeDir | 0o755, "lib/b.py": 0o644}
	for name, mode := range want {
		fi, err := os.Lstat(filepath.Join(dst, name))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode() != mode {
			t.Errorf("%s has mode %v, want %v", name, fi.Mode(), mode)
		}
	}
}
