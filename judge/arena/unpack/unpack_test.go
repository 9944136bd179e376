package unpack

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// ent is an entry of an archive built by a test.
type ent struct {
	name string
	typ  byte // tar type flag; zip: '0' file, '5' folder, '2' link, '3' device, '6' FIFO
	body string
	link string
	mode int64
	size int64 // zeros to write after body, for large files
}

func file(name, body string) ent { return ent{name: name, typ: tar.TypeReg, body: body, mode: 0o644} }
func dir(name string) ent        { return ent{name: name, typ: tar.TypeDir, mode: 0o755} }

func zeros(name string, n int64) ent {
	return ent{name: name, typ: tar.TypeReg, mode: 0o644, size: n}
}

func writeZeros(t testing.TB, w interface{ Write([]byte) (int, error) }, n int64) {
	t.Helper()
	buf := make([]byte, 64<<10)
	for n > 0 {
		k := min(n, int64(len(buf)))
		if _, err := w.Write(buf[:k]); err != nil {
			t.Fatal(err)
		}
		n -= k
	}
}

func mkTar(t testing.TB, ents ...ent) []byte {
	t.Helper()
	var b bytes.Buffer
	tw := tar.NewWriter(&b)
	for _, e := range ents {
		h := &tar.Header{Name: e.name, Typeflag: e.typ, Linkname: e.link, Mode: e.mode, Format: tar.FormatPAX}
		if e.typ == tar.TypeReg {
			h.Size = int64(len(e.body)) + e.size
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write([]byte(e.body)); err != nil {
			t.Fatal(err)
		}
		writeZeros(t, tw, e.size)
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func gz(t testing.TB, data []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	z := gzip.NewWriter(&b)
	if _, err := z.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func mkZip(t testing.TB, ents ...ent) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for _, e := range ents {
		h := &zip.FileHeader{Name: e.name, Method: zip.Deflate}
		perm := fs.FileMode(e.mode)
		switch e.typ {
		case tar.TypeDir:
			h.SetMode(fs.ModeDir | perm)
		case tar.TypeSymlink:
			h.SetMode(fs.ModeSymlink | 0o777)
		case tar.TypeChar:
			h.SetMode(fs.ModeDevice | fs.ModeCharDevice | 0o666)
		case tar.TypeFifo:
			h.SetMode(fs.ModeNamedPipe | 0o644)
		default:
			h.SetMode(perm)
		}
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(e.body + e.link)); err != nil {
			t.Fatal(err)
		}
		writeZeros(t, w, e.size)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// lyingZip is a zip of one file, n zeros deflated, whose headers say it
// is only declared bytes long.
func lyingZip(t testing.TB, n int64, declared uint64) []byte {
	t.Helper()
	var raw bytes.Buffer
	fw, err := flate.NewWriter(&raw, flate.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	writeZeros(t, fw, n)
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	h := &zip.FileHeader{Name: "bomb.txt", Method: zip.Deflate,
		CompressedSize64: uint64(raw.Len()), UncompressedSize64: declared,
		CRC32: crc32.ChecksumIEEE(make([]byte, declared))}
	w, err := zw.CreateRaw(h)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(raw.Bytes()); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// retype changes the type flag of a tar's first header, which must be in
// the first block, fixing its checksum.
func retype(data []byte, typ byte) []byte {
	d := slices.Clone(data)
	d[156] = typ
	copy(d[148:156], "        ")
	sum := 0
	for _, c := range d[:512] {
		sum += int(c)
	}
	copy(d[148:156], fmt.Sprintf("%06o\x00 ", sum))
	return d
}

// longNames is a tar of n GNU long names of almost 1 MiB each, one after
// the other, before a small file: tar.Reader reads them all in one call of
// Next.
func longNames(t testing.TB, n int) []byte {
	t.Helper()
	var b bytes.Buffer
	for range n {
		var e bytes.Buffer
		tw := tar.NewWriter(&e)
		if err := tw.WriteHeader(&tar.Header{Name: "L", Typeflag: tar.TypeReg, Size: 1<<20 - 1, Format: tar.FormatUSTAR}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write(bytes.Repeat([]byte("n"), 1<<20-1)); err != nil {
			t.Fatal(err)
		}
		if err := tw.Flush(); err != nil {
			t.Fatal(err)
		}
		b.Write(retype(e.Bytes(), tar.TypeGNULongName))
	}
	b.Write(mkTar(t, file("main.py", "x")))
	return b.Bytes()
}

// testLimits are small, so that tests of the limits are quick.
var testLimits = Bounds{Files: 10, Bytes: 1 << 20, FileBytes: 256 << 10}

type unpackCase struct {
	name   string
	upload string
	data   []byte
	want   map[string]string // name: body, or "dir" for a folder, for success
	modes  map[string]fs.FileMode
	errHas string // a part of the error's text, for failure
}

// builtCases are the cases, built once for TestUnpack and FuzzUnpack.
var builtCases []unpackCase

func cases(t testing.TB) []unpackCase {
	if builtCases == nil {
		builtCases = buildCases(t)
	}
	return builtCases
}

func buildCases(t testing.TB) []unpackCase {
	bot := []ent{dir("bot/"), file("bot/main.py", "print(1)\n"), dir("bot/lib/"), file("bot/lib/util.py", "x = 1\n")}
	botWant := map[string]string{"main.py": "print(1)\n", "lib": "dir", "lib/util.py": "x = 1\n"}
	exe := ent{name: "run.sh", typ: tar.TypeReg, body: "#!/bin/sh\n", mode: 0o700}
	priv := ent{name: "secret/", typ: tar.TypeDir, mode: 0o700}
	many := []ent{}
	for i := range 11 {
		many = append(many, file(fmt.Sprintf("f%d.txt", i), "x"))
	}
	manyBig := []ent{}
	for i := range 5 {
		manyBig = append(manyBig, zeros(fmt.Sprintf("f%d.bin", i), 250<<10))
	}
	deep := strings.Repeat("d/", MaxDepth) + "f.txt"
	return []unpackCase{
		{name: "tar", upload: "bot.tar", data: mkTar(t, bot...), want: botWant},
		{name: "tgz", upload: "bot.tgz", data: gz(t, mkTar(t, bot...)), want: botWant},
		{name: "tar.gz upper case", upload: "BOT.TAR.GZ", data: gz(t, mkTar(t, bot...)), want: botWant},
		{name: "zip", upload: "bot.zip", data: mkZip(t, bot...), want: botWant},
		{name: "single file", upload: "main.py", data: []byte("print(1)\n"), want: map[string]string{"main.py": "print(1)\n"}},
		{name: "tar no top folder", upload: "bot.tar", data: mkTar(t, file("main.py", "a"), file("lib/u.py", "b")),
			want: map[string]string{"main.py": "a", "lib": "dir", "lib/u.py": "b"}},
		{name: "tar dot prefix", upload: "bot.tar", data: mkTar(t, dir("./"), file("./main.py", "a")),
			want: map[string]string{"main.py": "a"}},
		{name: "tar top folder without its entry", upload: "bot.tar", data: mkTar(t, file("./mybot/main.py", "a")),
			want: map[string]string{"main.py": "a"}},
		{name: "two top folders kept", upload: "bot.tar", data: mkTar(t, file("a/x", "1"), file("b/y", "2")),
			want: map[string]string{"a": "dir", "a/x": "1", "b": "dir", "b/y": "2"}},
		{name: "top folder and file kept", upload: "bot.zip", data: mkZip(t, file("a/x", "1"), file("y", "2")),
			want: map[string]string{"a": "dir", "a/x": "1", "y": "2"}},
		{name: "only one level stripped", upload: "bot.tar", data: mkTar(t, file("a/b/x", "1")),
			want: map[string]string{"b": "dir", "b/x": "1"}},
		{name: "zip from Finder", upload: "bot.zip",
			data: mkZip(t, dir("bot/"), file("bot/main.py", "a"), dir("__MACOSX/"), dir("__MACOSX/bot/"), file("__MACOSX/bot/._main.py", "fork")),
			want: map[string]string{"main.py": "a"}},
		{name: "git archive global header", upload: "bot.tar",
			data: mkTar(t, ent{name: "pax_global_header", typ: tar.TypeXGlobalHeader}, file("main.py", "a")),
			want: map[string]string{"main.py": "a"}},
		{name: "modes normalised", upload: "bot.tar", data: mkTar(t, exe, priv, ent{name: "secret/k", typ: tar.TypeReg, body: "k", mode: 0o600}),
			want:  map[string]string{"run.sh": "#!/bin/sh\n", "secret": "dir", "secret/k": "k"},
			modes: map[string]fs.FileMode{"run.sh": 0o755, "secret": fs.ModeDir | 0o755, "secret/k": 0o644}},
		{name: "zip modes normalised", upload: "bot.zip", data: mkZip(t, exe, priv, ent{name: "secret/k", typ: tar.TypeReg, body: "k", mode: 0o600}),
			want:  map[string]string{"run.sh": "#!/bin/sh\n", "secret": "dir", "secret/k": "k"},
			modes: map[string]fs.FileMode{"run.sh": 0o755, "secret": fs.ModeDir | 0o755, "secret/k": 0o644}},
		{name: "folder named again", upload: "bot.tar", data: mkTar(t, file("a/x", "1"), dir("a/"), dir("a/"), file("y", "2")),
			want: map[string]string{"a": "dir", "a/x": "1", "y": "2"}},
		{name: "files up to the limit", upload: "bot.tar", data: mkTar(t, many[:10]...), want: func() map[string]string {
			m := map[string]string{}
			for i := range 10 {
				m[fmt.Sprintf("f%d.txt", i)] = "x"
			}
			return m
		}()},

		{name: "tar slip", upload: "bot.tar", data: mkTar(t, file("../x", "evil")), errHas: "../x, which climbs out"},
		{name: "tar slip inside", upload: "bot.tar", data: mkTar(t, file("bot/main.py", "a"), file("bot/../../x", "evil")), errHas: "climbs out"},
		{name: "tar absolute", upload: "bot.tar", data: mkTar(t, file("/tmp/abs", "evil")), errHas: "absolute path"},
		{name: "zip slip", upload: "bot.zip", data: mkZip(t, file("../x", "evil")), errHas: "climbs out"},
		{name: "zip slip backslash", upload: "bot.zip", data: mkZip(t, file(`..\x`, "evil")), errHas: "climbs out"},
		{name: "zip absolute", upload: "bot.zip", data: mkZip(t, file("/abs", "evil")), errHas: "absolute path"},
		{name: "tar symlink", upload: "bot.tar", data: mkTar(t, file("bot/a", "a"), ent{name: "bot/x", typ: tar.TypeSymlink, link: "/etc/passwd"}),
			errHas: "the archive holds a link (bot/x -> /etc/passwd): links are not accepted"},
		{name: "tar symlink inside", upload: "bot.tar", data: mkTar(t, file("a", "a"), ent{name: "b", typ: tar.TypeSymlink, link: "a"}),
			errHas: "links are not accepted"},
		{name: "tar symlink to a strange target", upload: "bot.tar", data: mkTar(t, ent{name: "x", typ: tar.TypeSymlink, link: "a\x1b[31m\n" + strings.Repeat("b", 200)}),
			errHas: `link (x -> "a\x1b[31m\n` + strings.Repeat("b", 93) + `...")`},
		{name: "tar hardlink", upload: "bot.tar", data: mkTar(t, ent{name: "x", typ: tar.TypeLink, link: "/etc/shadow"}),
			errHas: "hard link (x -> /etc/shadow)"},
		{name: "zip symlink", upload: "bot.zip", data: mkZip(t, ent{name: "x", typ: tar.TypeSymlink, link: "/etc/passwd"}),
			errHas: "the archive holds a link (x)"},
		{name: "tar device", upload: "bot.tar", data: mkTar(t, ent{name: "null", typ: tar.TypeChar, mode: 0o666}), errHas: "device"},
		{name: "tar block device", upload: "bot.tar", data: mkTar(t, ent{name: "sda", typ: tar.TypeBlock, mode: 0o666}), errHas: "device"},
		{name: "tar fifo", upload: "bot.tar", data: mkTar(t, ent{name: "p", typ: tar.TypeFifo, mode: 0o644}), errHas: "FIFO"},
		{name: "zip device", upload: "bot.zip", data: mkZip(t, ent{name: "null", typ: tar.TypeChar}), errHas: "device"},
		{name: "zip fifo", upload: "bot.zip", data: mkZip(t, ent{name: "p", typ: tar.TypeFifo}), errHas: "FIFO"},
		{name: "too many files", upload: "bot.tar", data: mkTar(t, many...), errHas: "more than 10 files and folders"},
		{name: "too many files zip", upload: "bot.zip", data: mkZip(t, many...), errHas: "more than 10 files and folders"},
		{name: "too many folders", upload: "bot.tar", data: mkTar(t, file("a/b/c/d/e/f/g/h/i/j/k", "x")), errHas: "more than 10 files and folders"},
		{name: "file too large", upload: "bot.tar", data: mkTar(t, zeros("big.bin", 256<<10+1)), errHas: "big.bin is larger than 256 KiB"},
		{name: "single file too large", upload: "main.py", data: make([]byte, 256<<10+1), errHas: "main.py is larger than 256 KiB, the most a file may hold"},
		{name: "too many bytes", upload: "bot.tar", data: mkTar(t, manyBig...), errHas: "unpacks to more than 1 MiB"},
		{name: "too many bytes zip", upload: "bot.zip", data: mkZip(t, manyBig...), errHas: "unpacks to more than 1 MiB"},
		{name: "gzip bomb", upload: "bot.tgz", data: gz(t, mkTar(t, zeros("bomb", 2<<20))), errHas: "bomb is larger than 256 KiB"},
		{name: "gzip bomb in long names", upload: "bot.tgz", data: gz(t, longNames(t, 12)), errHas: "unpacks to more than 1 MiB"},
		{name: "zip bomb", upload: "bot.zip", data: mkZip(t, zeros("bomb", 2<<20)), errHas: "bomb is larger than 256 KiB"},
		{name: "zip bomb lying size", upload: "bot.zip", data: lyingZip(t, 2<<20, 100), errHas: "bomb.txt"},
		{name: "zip lying size under the limit", upload: "bot.zip", data: lyingZip(t, 200<<10, 100), errHas: "damaged"},
		{name: "tar duplicate", upload: "bot.tar", data: mkTar(t, file("a", "1"), file("a", "2")), errHas: "a twice"},
		{name: "tar duplicate after cleaning", upload: "bot.tar", data: mkTar(t, file("a/b", "1"), file("./a//b", "2")), errHas: "a/b twice"},
		{name: "zip duplicate", upload: "bot.zip", data: mkZip(t, file("a", "1"), file("a", "2")), errHas: "a twice"},
		{name: "file then folder", upload: "bot.tar", data: mkTar(t, file("a", "1"), file("a/b", "2")), errHas: "both as a file and as a folder"},
		{name: "folder then file", upload: "bot.zip", data: mkZip(t, file("a/b", "1"), file("a", "2")), errHas: "both as a file and as a folder"},
		{name: "too deep", upload: "bot.tar", data: mkTar(t, file(deep, "x")), errHas: "folders deep"},
		{name: "long name", upload: "bot.tar", data: mkTar(t, file(strings.Repeat("n", 256), "x")), errHas: "longer than 255 bytes"},
		{name: "control character", upload: "bot.tar", data: mkTar(t, file("a\nb", "x")), errHas: "control character"},
		{name: "invalid UTF-8", upload: "bot.zip", data: mkZip(t, file("a\xff", "x")), errHas: "not valid UTF-8"},
		{name: "empty tar", upload: "bot.tar", data: mkTar(t), errHas: "holds no files"},
		{name: "only folders", upload: "bot.zip", data: mkZip(t, dir("a/"), dir("a/b/")), errHas: "holds no files"},
		{name: "not a zip", upload: "bot.zip", data: []byte("hello"), errHas: "damaged"},
		{name: "not gzip", upload: "bot.tar.gz", data: mkTar(t, file("a", "1")), errHas: "not compressed with gzip"},
		{name: "cut short", upload: "bot.tgz", data: gz(t, mkTar(t, file("a", strings.Repeat("x", 5000)))[:1000]), errHas: "damaged"},
		{name: "other archive", upload: "bot.tar.xz", data: []byte("x"), errHas: "only .tar, .tar.gz, .tgz and .zip"},
		{name: "empty name", upload: "", data: []byte("x"), errHas: "no name"},
		{name: "name with slash", upload: "a/main.py", data: []byte("x"), errHas: "slash"},
		{name: "name dot dot", upload: "..", data: []byte("x"), errHas: "not a file name"},
		{name: "name with backslash", upload: `..\main.py`, data: []byte("x"), errHas: "slash"},
		{name: "name with control", upload: "main\x00.py", data: []byte("x"), errHas: "control character"},
	}
}

// listTree lists everything under root, as slash paths.
func listTree(t *testing.T, root string) []string {
	t.Helper()
	var names []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if path != root {
			rel, _ := filepath.Rel(root, path)
			names = append(names, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return names
}

func TestUnpack(t *testing.T) {
	for _, c := range cases(t) {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			dst := filepath.Join(root, "sub")
			err := Unpack(c.upload, c.data, dst, testLimits)
			if c.errHas != "" {
				if err == nil {
					t.Fatalf("Unpack succeeded; want an error holding %q; wrote %v", c.errHas, listTree(t, root))
				}
				if !errors.Is(err, ErrBad) {
					t.Errorf("error %q does not wrap ErrBad", err)
				}
				if !strings.Contains(err.Error(), c.errHas) {
					t.Errorf("error %q does not hold %q", err, c.errHas)
				}
				if left := listTree(t, root); len(left) > 0 {
					t.Errorf("after the error the folder holds %v", left)
				}
				return
			}
			if err != nil {
				t.Fatalf("Unpack: %v", err)
			}
			if left := listTree(t, root); !slices.Contains(left, "sub") || slices.ContainsFunc(left, func(n string) bool {
				return n != "sub" && !strings.HasPrefix(n, "sub/")
			}) {
				t.Errorf("beside dst: %v", left)
			}
			got := map[string]string{}
			for _, n := range listTree(t, dst) {
				p := filepath.Join(dst, n)
				fi, err := os.Lstat(p)
				if err != nil {
					t.Fatal(err)
				}
				want, ok := c.modes[n]
				switch {
				case fi.IsDir():
					got[n] = "dir"
					if !ok {
						want = fs.ModeDir | 0o755
					}
				case fi.Mode().IsRegular():
					b, err := os.ReadFile(p)
					if err != nil {
						t.Fatal(err)
					}
					got[n] = string(b)
					if !ok {
						want = 0o644
					}
				default:
					t.Errorf("%s is a %v", n, fi.Mode().Type())
				}
				if fi.Mode() != want {
					t.Errorf("%s has mode %v, want %v", n, fi.Mode(), want)
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(c.want) {
				t.Errorf("unpacked\n%v\nwant\n%v", got, c.want)
			}
			if fi, err := os.Stat(dst); err != nil || fi.Mode() != fs.ModeDir|0o755 {
				t.Errorf("dst: %v, %v", fi.Mode(), err)
			}
		})
	}
}

func TestUnpackDstExists(t *testing.T) {
	root := t.TempDir()
	dst := filepath.Join(root, "sub")
	if err := os.Mkdir(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	err := Unpack("bot.tar", mkTar(t, file("a", "1")), dst, Bounds{})
	if err == nil || errors.Is(err, ErrBad) {
		t.Fatalf("Unpack into an existing folder: %v; want an error not ErrBad", err)
	}
	if left := listTree(t, root); fmt.Sprint(left) != "[sub]" {
		t.Errorf("after the error: %v", left)
	}
}

func TestUnpackDefaults(t *testing.T) {
	root := t.TempDir()
	// Over the default 4 MiB a file may hold, under what testLimits allow.
	err := Unpack("bot.zip", mkZip(t, zeros("big", 4<<20+1)), filepath.Join(root, "a"), Bounds{})
	if !errors.Is(err, ErrBad) || !strings.Contains(err.Error(), "4 MiB") {
		t.Errorf("a file over 4 MiB with the default limits: %v", err)
	}
	if err := Unpack("bot.zip", mkZip(t, zeros("big", 4<<20)), filepath.Join(root, "b"), Bounds{}); err != nil {
		t.Errorf("a file of 4 MiB with the default limits: %v", err)
	}
}

func TestUnpackNoParent(t *testing.T) {
	root := t.TempDir()
	err := Unpack("main.py", []byte("x"), filepath.Join(root, "no", "sub"), Bounds{})
	if err == nil || errors.Is(err, ErrBad) {
		t.Fatalf("Unpack into a missing folder: %v; want an error not ErrBad", err)
	}
	if left := listTree(t, root); len(left) > 0 {
		t.Errorf("after the error: %v", left)
	}
}

// TestRenameNoReplace checks the last step does not replace a folder made
// meanwhile, as rename(2) would an empty one.
func TestRenameNoReplace(t *testing.T) {
	root := t.TempDir()
	from, to := filepath.Join(root, "from"), filepath.Join(root, "to")
	for _, d := range []string{from, to} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(from, "a"), []byte("1"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := renameNoReplace(from, to); err == nil {
		t.Fatal("renameNoReplace replaced an empty folder")
	}
	if left := listTree(t, root); fmt.Sprint(left) != "[from from/a to]" {
		t.Errorf("after the error: %v", left)
	}
	if err := os.Remove(to); err != nil {
		t.Fatal(err)
	}
	if err := renameNoReplace(from, to); err != nil {
		t.Fatal(err)
	}
	if left := listTree(t, root); fmt.Sprint(left) != "[to to/a]" {
		t.Errorf("after renaming: %v", left)
	}
}
