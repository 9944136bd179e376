// Package unpack writes an uploaded bot into a folder of its own, safely:
// the upload comes from a person the judge does not trust.
//
// An upload is either an archive of the bot's folder or a single source
// file, told apart by the end of its name (in any case):
//
//   - .tar, .tar.gz or .tgz, and .zip are archives of the bot's folder;
//   - any other name is a single source file, written as DST/NAME. The name
//     must be a plain file name: not empty, not "." or "..", with no slash,
//     backslash or control character, valid UTF-8, at most 255 bytes.
//     Names of other archive kinds (.tar.bz2, .tar.xz, .7z, .rar, .gz, ...)
//     are refused, as a student who sent one meant an archive.
//
// What an archive may hold:
//
//   - only regular files and folders: links (symbolic or hard), devices,
//     FIFOs and sockets are refused, wherever they point;
//   - relative names only: a name starting with a slash, or with a ".."
//     component, is refused; a backslash counts as a slash; "." and empty
//     components ("./a//b") are dropped; names with control characters or
//     that are not valid UTF-8 are refused;
//   - at most MaxDepth components of at most 255 bytes each, and at most
//     MaxPathBytes bytes in all, per name;
//   - each name once: a name given twice, or used both as a file and as a
//     folder, is refused (a folder named again is allowed);
//   - at most Bounds.Files files and folders in all (folders made for a
//     file's path count too), every file at most Bounds.FileBytes bytes and
//     all of them at most Bounds.Bytes bytes. Bytes are counted as they are
//     decompressed, not taken from the sizes the archive declares, so a zip
//     or gzip bomb stops at the limit. At most 2*Files+16 entries are read,
//     skipped ones too, and a tar's decompressed stream, headers and
//     skipped data too, may be at most Bounds.Bytes + 8 MiB;
//   - no encrypted zip entries, and only the stored and deflated zip methods;
//   - at least one file.
//
// A "__MACOSX" folder at the top (the resource forks macOS's Finder adds to
// a zip) and a tar's global header (which git archive adds) are skipped. Times, owners
// and permissions are not kept: files are written 0644, or 0755 when the
// archive marks them executable; folders are 0755.
//
// When everything in the archive lies under a single top-level folder (as
// `tar czf bot.tar.gz mybot/` makes), that folder is dropped: its contents
// become the contents of DST. Only one level is dropped.
//
// Unpack works in a temporary folder beside DST (named .NAME.unpack-*) and
// renames it to DST at the end: on any error nothing of the upload remains,
// and DST, which must not exist before, is not made. Only a crash of the
// process can leave a temporary folder behind.
package unpack

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// Bounds bound what an upload may unpack to. A field that is zero or less
// takes its default.
type Bounds struct {
	Files     int   // files and folders in all; default 200
	Bytes     int64 // bytes of all files; default 16 MiB
	FileBytes int64 // bytes of any one file; default 4 MiB
}

// Defaults of Bounds.
const (
	DefaultFiles     = 200
	DefaultBytes     = 16 << 20
	DefaultFileBytes = 4 << 20
)

// Bounds on a name in an archive.
const (
	MaxDepth     = 32   // components in a name
	MaxPathBytes = 1024 // bytes in a name
	maxNameBytes = 255  // bytes in a component
)

// ErrBad is wrapped by every error that comes from the upload itself: a bad,
// hostile or too large archive, or a bad file name. The error's text says
// what was wrong in words meant for the person who sent it.
var ErrBad = errors.New("bad upload")

// badError is an ErrBad whose text is only its message.
type badError struct{ msg string }

func (e *badError) Error() string        { return e.msg }
func (e *badError) Is(target error) bool { return target == ErrBad }

// bad makes a badError. Its string arguments, which may come from the
// archive, are shown as show does.
func bad(format string, args ...any) error {
	for i, a := range args {
		if s, ok := a.(string); ok {
			args[i] = show(s)
		}
	}
	return &badError{msg: fmt.Sprintf(format, args...)}
}

func (l Bounds) withDefaults() Bounds {
	if l.Files <= 0 {
		l.Files = DefaultFiles
	}
	if l.Bytes <= 0 {
		l.Bytes = DefaultBytes
	}
	if l.FileBytes <= 0 {
		l.FileBytes = DefaultFileBytes
	}
	return l
}

// kind is what an upload's name says it is.
type kind int

const (
	single kind = iota
	tarKind
	tgzKind
	zipKind
)

// otherArchives are the ends of names of archives that are not accepted.
var otherArchives = []string{".tar.bz2", ".tbz2", ".tbz", ".tar.xz", ".txz", ".tar.zst", ".tzst",
	".tar.lz", ".tar.lzma", ".tar.z", ".7z", ".rar", ".gz", ".bz2", ".xz", ".zst", ".lz", ".lzma", ".z"}

func kindOf(name string) (kind, error) {
	lower := strings.ToLower(name)
	switch {
	case strings.HasSuffix(lower, ".tar"):
		return tarKind, nil
	case strings.HasSuffix(lower, ".tar.gz"), strings.HasSuffix(lower, ".tgz"):
		return tgzKind, nil
	case strings.HasSuffix(lower, ".zip"):
		return zipKind, nil
	}
	for _, s := range otherArchives {
		if strings.HasSuffix(lower, s) {
			return single, bad("%s looks like a %s archive: only .tar, .tar.gz, .tgz and .zip archives are accepted", name, s)
		}
	}
	return single, nil
}

// Unpack writes the upload named name, whose bytes are data, into the
// folder dst, which must not exist (its parent must). An archive (.tar,
// .tar.gz, .tgz, .zip) is unpacked into dst; any other upload is a single
// source file written as dst/name. See the package documentation for the
// rules. Errors from the upload wrap ErrBad; others (dst exists, the disk is
// full) do not. On error nothing of the upload remains.
func Unpack(name string, data []byte, dst string, l Bounds) (err error) {
	l = l.withDefaults()
	k, err := kindOf(name)
	if err != nil {
		return err
	}
	if k == single {
		if err := checkFileName(name); err != nil {
			return err
		}
		if int64(len(data)) > l.FileBytes || int64(len(data)) > l.Bytes {
			return tooLarge(name, min(l.FileBytes, l.Bytes))
		}
	}
	if _, err := os.Lstat(dst); err == nil {
		return fmt.Errorf("unpack: %s already exists", dst)
	} else if !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("unpack: %w", err)
	}
	parent, base := filepath.Split(filepath.Clean(dst))
	if parent == "" {
		parent = "."
	}
	tmp, err := os.MkdirTemp(parent, "."+base+".unpack-")
	if err != nil {
		return fmt.Errorf("unpack: %w", err)
	}
	defer func() {
		if err != nil {
			os.RemoveAll(tmp)
		}
	}()
	if err := os.Chmod(tmp, 0o755); err != nil {
		return fmt.Errorf("unpack: %w", err)
	}
	root, err := os.OpenRoot(tmp)
	if err != nil {
		return fmt.Errorf("unpack: %w", err)
	}
	w := &writer{root: root, l: l, seen: map[string]entry{}}
	switch k {
	case single:
		err = w.file(name, bytes.NewReader(data), false)
	case tarKind:
		err = w.tar(bytes.NewReader(data))
	case tgzKind:
		err = w.tgz(data)
	case zipKind:
		err = w.zip(data)
	}
	if cerr := root.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("unpack: %w", cerr)
	}
	if err != nil {
		return err
	}
	if w.files == 0 {
		return bad("the archive holds no files")
	}
	from := tmp
	if top := w.top(); top != "" {
		from = filepath.Join(tmp, top)
	}
	if err := renameNoReplace(from, dst); err != nil {
		return fmt.Errorf("unpack: %w", err)
	}
	if from != tmp {
		if err := os.Remove(tmp); err != nil {
			os.RemoveAll(dst)
			return fmt.Errorf("unpack: %w", err)
		}
	}
	return nil
}

// checkFileName checks the name of a single uploaded file.
func checkFileName(name string) error {
	switch {
	case name == "":
		return bad("the file has no name")
	case name == "." || name == "..":
		return bad("%s is not a file name", name)
	case strings.ContainsAny(name, `/\`):
		return bad("the file name %s holds a slash: send the file's name alone", name)
	case len(name) > maxNameBytes:
		return bad("the file name is longer than %d bytes", maxNameBytes)
	}
	return checkChars(name)
}

// checkChars refuses names that are not valid UTF-8 or hold control
// characters.
func checkChars(name string) error {
	if !utf8.ValidString(name) {
		return bad("the name %s is not valid UTF-8", name)
	}
	for _, r := range name {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return bad("the name %s holds a control character", name)
		}
	}
	return nil
}

// cleanName turns a name from an archive into a relative slash-separated
// path of at least one component, or says why it cannot.
func cleanName(name string) (string, error) {
	if err := checkChars(name); err != nil {
		return "", err
	}
	n := strings.ReplaceAll(name, `\`, "/")
	if strings.HasPrefix(n, "/") {
		return "", bad("the archive holds %s, an absolute path: names must be relative to the bot's folder", name)
	}
	if len(n) > MaxPathBytes {
		return "", bad("the archive holds a name longer than %d bytes (%s)", MaxPathBytes, name)
	}
	var parts []string
	for p := range strings.SplitSeq(n, "/") {
		switch p {
		case "", ".":
			continue
		case "..":
			return "", bad("the archive holds %s, which climbs out of its folder with \"..\": names must stay inside the bot's folder", name)
		}
		if len(p) > maxNameBytes {
			return "", bad("the archive holds %s, with a part longer than %d bytes", name, maxNameBytes)
		}
		parts = append(parts, p)
	}
	if len(parts) == 0 {
		return "", nil
	}
	if len(parts) > MaxDepth {
		return "", bad("the archive holds %s, nested %d folders deep: at most %d are allowed", name, len(parts), MaxDepth)
	}
	return strings.Join(parts, "/"), nil
}

func tooLarge(name string, limit int64) error {
	return bad("%s is larger than %s, the most a file may hold", name, size(limit))
}

// size writes a number of bytes for people.
func size(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}
