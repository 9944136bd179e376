//go:build linux

package inside

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// snapshot is every entry of the tree at root, as a ready thread notes
// its /tmp.
func snapshot(t testing.TB, root string) []traceEntry {
	t.Helper()
	var out []traceEntry
	if !walkTree(root, func(e *traceEntry) bool {
		out = append(out, *e)
		return true
	}) {
		t.Fatalf("%s cannot be walked", root)
	}
	return out
}

func sameEntries(a, b []traceEntry) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !a[i].equal(&b[i]) {
			return false
		}
	}
	return true
}

// A tree such as a ready thread's /tmp (directories the init made to show
// one of the judge's, a file there) is seen changed by whatever a program
// leaves in it, at any depth: a file, a hidden directory, a mode, times,
// an extended attribute, a file replaced by another of the same name.
func TestTracesSeeEveryDepth(t *testing.T) {
	cases := []struct {
		name  string
		leave func(root string) error
	}{
		{"a file at the top", func(r string) error { return os.WriteFile(r+"/left", nil, 0o644) }},
		{"a file two levels down", func(r string) error { return os.WriteFile(r+"/judge/shown/left", nil, 0o644) }},
		{"a hidden file", func(r string) error { return os.WriteFile(r+"/judge/.left", nil, 0o644) }},
		{"a hidden directory deep down", func(r string) error {
			return os.MkdirAll(r+"/judge/shown/.a/b/c", 0o755)
		}},
		{"a file made and removed", func(r string) error {
			if err := os.WriteFile(r+"/judge/gone", nil, 0o644); err != nil {
				return err
			}
			return os.Remove(r + "/judge/gone")
		}},
		{"a mode", func(r string) error { return os.Chmod(r+"/judge/shown", 0o700) }},
		{"the times of a directory", func(r string) error {
			old := time.Unix(1e9, 0)
			return os.Chtimes(r+"/judge", old, old)
		}},
		{"a file's contents", func(r string) error { return os.WriteFile(r+"/judge/shown/file", []byte("x"), 0o644) }},
		{"a file replaced", func(r string) error {
			if err := os.WriteFile(r+"/judge/other", nil, 0o644); err != nil {
				return err
			}
			return os.Rename(r+"/judge/other", r+"/judge/shown/file")
		}},
		{"an extended attribute", func(r string) error { return unix.Lsetxattr(r+"/judge", "user.left", []byte("1"), 0) }},
		// The top is looked at through a descriptor kept open.
		{"an extended attribute of the top", func(r string) error { return unix.Lsetxattr(r, "user.left", []byte("1"), 0) }},
		{"the mode of the top", func(r string) error { return os.Chmod(r, 0o700) }},
		{"the times of the top", func(r string) error {
			old := time.Unix(1e9, 0)
			return os.Chtimes(r, old, old)
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			if err := os.MkdirAll(filepath.Join(root, "judge", "shown"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(root, "judge", "shown", "file"), nil, 0o644); err != nil {
				t.Fatal(err)
			}
			snapshot(t, root) // a first look sets the times of access, off a noatime mount
			before := snapshot(t, root)
			if again := snapshot(t, root); !sameEntries(before, again) {
				t.Fatal("a tree left alone is seen changed")
			}
			if err := c.leave(root); err != nil {
				if err == unix.ENOTSUP || err == unix.EOPNOTSUPP {
					t.Skipf("not on this file system: %v", err)
				}
				t.Fatal(err)
			}
			if sameEntries(before, snapshot(t, root)) {
				t.Errorf("%s is not seen", c.name)
			}
		})
	}
}

// BenchmarkTraces measures the look a ready thread takes at its trees
// between two programs that left nothing, on a tree such as a slot's
// /tmp with the Ruby bots' file shown: a directory holding one file.
func BenchmarkTraces(b *testing.B) {
	root := b.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "judge-stdio-0"), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "judge-stdio-0", "sync.rb"), nil, 0o644); err != nil {
		b.Fatal(err)
	}
	snapshot(b, root) // a first look sets the times of access, off a noatime mount
	tr := snapshot(b, root)
	fd, err := openDir(unix.AT_FDCWD, root)
	if err != nil {
		b.Fatal(err)
	}
	defer unix.Close(fd)
	buf := make([]byte, 4096)
	for b.Loop() {
		i := 0
		if !walkRoot(fd, root, buf, func(e *traceEntry) bool {
			ok := i < len(tr) && e.equal(&tr[i])
			i++
			return ok
		}) || i != len(tr) {
			b.Fatalf("the tree left alone is seen changed at entry %d of %d", i, len(tr))
		}
	}
}
