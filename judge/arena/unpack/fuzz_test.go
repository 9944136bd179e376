package unpack

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// fuzzNames are the names an upload takes in FuzzUnpack, by its first
// argument; past them, the upload takes the name FuzzUnpack is given.
var fuzzNames = []string{"bot.tar", "bot.tgz", "bot.zip", "main.py"}

// fuzzLimits are small, so that the seeds that test them are small: the
// fuzzer's work grows with the size of its inputs.
var fuzzLimits = Bounds{Files: 10, Bytes: 64 << 10, FileBytes: 16 << 10}

// FuzzUnpack checks, for any upload, that nothing is written but dst, that
// an error wraps ErrBad and leaves nothing, and that a success leaves only
// regular files and folders with the modes and within the limits.
func FuzzUnpack(f *testing.F) {
	for _, c := range cases(f) {
		k := -1
		for i, n := range fuzzNames {
			if strings.HasSuffix(strings.ToLower(c.upload), n[strings.Index(n, "."):]) {
				k = i
			}
		}
		if len(c.data) > 16<<10 {
			continue
		}
		if k >= 0 {
			f.Add(uint8(k), "", c.data)
		}
		f.Add(uint8(len(fuzzNames)), c.upload, c.data)
	}
	// Small seeds over fuzzLimits, as TestUnpack's are over testLimits.
	f.Add(uint8(1), "", gz(f, mkTar(f, zeros("bomb", 1<<20))))
	f.Add(uint8(2), "", mkZip(f, zeros("bomb", 1<<20)))
	f.Add(uint8(2), "", lyingZip(f, 1<<20, 100))
	f.Add(uint8(1), "", gz(f, mkTar(f, zeros("a", 15<<10), zeros("b", 15<<10), zeros("c", 15<<10), zeros("d", 15<<10), zeros("e", 15<<10))))
	f.Add(uint8(2), "", mkZip(f, zeros("a", 15<<10), zeros("b", 15<<10), zeros("c", 15<<10), zeros("d", 15<<10), zeros("e", 15<<10)))
	f.Add(uint8(1), "", gz(f, longNames(f, 2)))
	f.Fuzz(func(t *testing.T, k uint8, name string, data []byte) {
		if i := int(k) % (len(fuzzNames) + 1); i < len(fuzzNames) {
			name = fuzzNames[i]
		}
		root := t.TempDir()
		dst := filepath.Join(root, "dst")
		err := Unpack(name, data, dst, fuzzLimits)
		// t.TempDir makes root in a folder of its own.
		if above, err := os.ReadDir(filepath.Dir(root)); err != nil || len(above) != 1 {
			t.Fatalf("beside %s: %v, %v", root, above, err)
		}
		left, lerr := os.ReadDir(root)
		if lerr != nil {
			t.Fatal(lerr)
		}
		if err != nil {
			if !errors.Is(err, ErrBad) {
				t.Fatalf("error %q does not wrap ErrBad", err)
			}
			if msg := err.Error(); !utf8.ValidString(msg) || strings.ContainsFunc(msg, func(r rune) bool { return !unicode.IsPrint(r) }) || len(msg) > 2<<10 {
				t.Fatalf("error %q is not fit to show", msg)
			}
			if len(left) > 0 {
				t.Fatalf("after the error %q, %s holds %s", err, root, left[0].Name())
			}
			return
		}
		if len(left) != 1 || left[0].Name() != "dst" {
			t.Fatalf("beside dst: %v", left)
		}
		var entries, files int
		var total int64
		werr := filepath.WalkDir(dst, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			fi, err := os.Lstat(path)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(dst, path)
			switch {
			case fi.IsDir():
				if fi.Mode() != fs.ModeDir|0o755 {
					t.Errorf("folder %s has mode %v", rel, fi.Mode())
				}
			case fi.Mode().IsRegular():
				files++
				total += fi.Size()
				if fi.Mode() != 0o644 && fi.Mode() != 0o755 {
					t.Errorf("file %s has mode %v", rel, fi.Mode())
				}
				if fi.Size() > fuzzLimits.FileBytes {
					t.Errorf("file %s has %d bytes", rel, fi.Size())
				}
			default:
				t.Errorf("%s is a %v", rel, fi.Mode().Type())
			}
			if path != dst {
				entries++
				if len(rel) > MaxPathBytes || strings.Count(rel, "/") >= MaxDepth {
					t.Errorf("name %q is too long or too deep", rel)
				}
			}
			return nil
		})
		if werr != nil {
			t.Fatal(werr)
		}
		if files == 0 || entries > fuzzLimits.Files || total > fuzzLimits.Bytes {
			t.Errorf("%d files, %d entries, %d bytes", files, entries, total)
		}
	})
}
