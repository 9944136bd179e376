package judge

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestWriteAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "r.json")
	if err := WriteFileAtomic(path, []byte("one\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteFileAtomic(path, []byte("two\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err := WriteAtomic(path, 0o644, func(f *os.File) error {
		f.WriteString("half")
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("a failed write returned %v, want %v", err, boom)
	}
	if b, err := os.ReadFile(path); err != nil || string(b) != "two\n" {
		t.Fatalf("the file holds %q (%v), want the last whole write", b, err)
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(ents) != 1 {
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		t.Fatalf("the directory holds %q, want only r.json: a temporary file was left", names)
	}
	if err := WriteFileAtomic(filepath.Join(dir, "no", "r.json"), nil, 0o644); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a write into a missing directory returned %v", err)
	}
}
