package unpack

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// entry is a name written so far.
type entry struct{ dir bool }

// writer writes the entries of one upload under root, within its limits.
type writer struct {
	root    *os.Root
	l       Bounds
	seen    map[string]entry // by cleaned name
	created int              // files and folders made
	files   int              // files made
	bytes   int64            // bytes of all files
	entries int              // entries read, skipped ones too
}

// maxEntries bounds the entries read from an archive, counting those
// skipped (a Finder zip holds about twice as many as it unpacks to).
func (w *writer) maxEntries() int { return 2*w.l.Files + 16 }

// next counts an entry read from the archive.
func (w *writer) next() error {
	w.entries++
	if w.entries > w.maxEntries() {
		return w.tooMany()
	}
	return nil
}

func (w *writer) tooMany() error {
	return bad("the archive holds more than %d files and folders", w.l.Files)
}

// skipped says whether an entry is left out: macOS's resource forks.
func skipped(name string) bool {
	return name == "__MACOSX" || strings.HasPrefix(name, "__MACOSX/")
}

// make records a new name, checking it is not there yet.
func (w *writer) make(name string, dir bool) error {
	if e, ok := w.seen[name]; ok {
		if e.dir != dir {
			return bad("the archive holds %s both as a file and as a folder", name)
		}
		return bad("the archive holds %s twice", name)
	}
	if w.created >= w.l.Files {
		return w.tooMany()
	}
	w.created++
	w.seen[name] = entry{dir: dir}
	return nil
}

// parents makes the folders above name that are not there yet.
func (w *writer) parents(name string) error {
	for i := range len(name) {
		if name[i] != '/' {
			continue
		}
		p := name[:i]
		if e, ok := w.seen[p]; ok {
			if !e.dir {
				return bad("the archive holds %s both as a file and as a folder", p)
			}
			continue
		}
		if err := w.mkdir(p); err != nil {
			return err
		}
	}
	return nil
}

func (w *writer) mkdir(name string) error {
	if err := w.make(name, true); err != nil {
		return err
	}
	if err := w.root.Mkdir(name, 0o755); err != nil {
		return fmt.Errorf("unpack: %w", err)
	}
	if err := w.root.Chmod(name, 0o755); err != nil {
		return fmt.Errorf("unpack: %w", err)
	}
	return nil
}

// dir makes the folder name (cleaned), which may have been made already as
// the parent of another entry.
func (w *writer) dir(name string) error {
	if err := w.parents(name); err != nil {
		return err
	}
	if e, ok := w.seen[name]; ok && e.dir {
		return nil
	}
	return w.mkdir(name)
}

// readErr remembers the error of the reader it wraps: errors reading are
// the archive's, errors writing are the disk's.
type readErr struct {
	r   io.Reader
	err error
}

func (r *readErr) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	if err != nil && err != io.EOF {
		r.err = err
	}
	return n, err
}

// file writes the file name (cleaned) from r, counting its bytes.
func (w *writer) file(name string, r io.Reader, exec bool) error {
	if err := w.parents(name); err != nil {
		return err
	}
	if err := w.make(name, false); err != nil {
		return err
	}
	mode := fs.FileMode(0o644)
	if exec {
		mode = 0o755
	}
	f, err := w.root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return fmt.Errorf("unpack: %w", err)
	}
	room := min(w.l.FileBytes, w.l.Bytes-w.bytes)
	src := &readErr{r: r}
	n, err := io.Copy(f, io.LimitReader(src, room+1))
	if err == nil {
		err = f.Chmod(mode)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	switch {
	case src.err != nil:
		return w.damaged(name, src.err)
	case err != nil:
		return fmt.Errorf("unpack: %w", err)
	case n > room && room == w.l.FileBytes:
		return tooLarge(name, w.l.FileBytes)
	case n > room:
		return w.tooBig()
	}
	w.bytes += n
	w.files++
	return nil
}

func (w *writer) tooBig() error {
	return bad("the archive unpacks to more than %s", size(w.l.Bytes))
}

// damaged says what was wrong reading the archive.
func (w *writer) damaged(name string, err error) error {
	if errors.Is(err, errStream) {
		return w.tooBig()
	}
	if name != "" {
		return bad("the archive is damaged (at %s): %v", name, err)
	}
	return bad("the archive is damaged: %v", err)
}

// top is the archive's single top-level folder, if it has one and nothing
// else at the top, or "".
func (w *writer) top() string {
	top := ""
	for name, e := range w.seen {
		if strings.Contains(name, "/") {
			continue
		}
		if !e.dir || top != "" {
			return ""
		}
		top = name
	}
	return top
}

// show makes text from an archive that was not checked fit for a message:
// short, and quoted when it holds what does not print.
func show(s string) string {
	if len(s) > 100 {
		s = strings.ToValidUTF8(s[:100], "") + "..."
	}
	if !utf8.ValidString(s) || strings.ContainsFunc(s, func(r rune) bool { return !unicode.IsPrint(r) }) {
		return strconv.Quote(s)
	}
	return s
}

// errStream is the error of a decompressed stream longer than it may be.
var errStream = errors.New("the archive unpacks to too many bytes")

// streamLimit bounds the decompressed bytes of a tar stream: its files'
// bytes and room for headers and padding.
type streamLimit struct {
	r    io.Reader
	left int64
}

func (s *streamLimit) Read(p []byte) (int, error) {
	if s.left <= 0 {
		return 0, errStream
	}
	if int64(len(p)) > s.left {
		p = p[:s.left]
	}
	n, err := s.r.Read(p)
	s.left -= int64(n)
	return n, err
}

func (w *writer) tgz(data []byte) error {
	if len(data) < 2 || data[0] != 0x1f || data[1] != 0x8b {
		return bad("the file is named .tar.gz or .tgz but is not compressed with gzip")
	}
	z, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return w.damaged("", err)
	}
	return w.tar(z)
}

func (w *writer) tar(r io.Reader) error {
	tr := tar.NewReader(&streamLimit{r: r, left: w.l.Bytes + 8<<20})
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil && !errors.Is(err, tar.ErrInsecurePath) {
			return w.damaged("", err)
		}
		if err := w.next(); err != nil {
			return err
		}
		if h.Typeflag == tar.TypeXGlobalHeader {
			continue
		}
		name, err := cleanName(h.Name)
		if err != nil {
			return err
		}
		if skipped(name) {
			continue
		}
		switch h.Typeflag {
		case tar.TypeReg:
			if name == "" {
				return bad("the archive holds a file with no name")
			}
			if err := w.file(name, tr, h.Mode&0o111 != 0); err != nil {
				return err
			}
		case tar.TypeDir:
			if name != "" {
				if err := w.dir(name); err != nil {
					return err
				}
			}
		case tar.TypeSymlink:
			return bad("the archive holds a link (%s -> %s): links are not accepted, put the file itself in the archive", h.Name, h.Linkname)
		case tar.TypeLink:
			return bad("the archive holds a hard link (%s -> %s): links are not accepted, put the file itself in the archive", h.Name, h.Linkname)
		case tar.TypeChar, tar.TypeBlock:
			return bad("the archive holds a device (%s): only files and folders are accepted", h.Name)
		case tar.TypeFifo:
			return bad("the archive holds a FIFO (%s): only files and folders are accepted", h.Name)
		case tar.TypeGNUSparse:
			return bad("the archive holds a sparse file (%s): sparse files are not accepted", h.Name)
		default:
			return bad("the archive holds %s, an entry of a kind (tar type %q) that is not accepted: only files and folders are", h.Name, h.Typeflag)
		}
	}
}

func (w *writer) zip(data []byte) error {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
		return w.damaged("", err)
	}
	if len(zr.File) > w.maxEntries() {
		return w.tooMany()
	}
	for _, f := range zr.File {
		if err := w.zipEntry(f); err != nil {
			return err
		}
	}
	return nil
}

func (w *writer) zipEntry(f *zip.File) error {
	if err := w.next(); err != nil {
		return err
	}
	name, err := cleanName(f.Name)
	if err != nil {
		return err
	}
	if skipped(name) {
		return nil
	}
	mode := f.Mode()
	switch {
	case mode&fs.ModeSymlink != 0:
		return bad("the archive holds a link (%s): links are not accepted, put the file itself in the archive", f.Name)
	case mode&fs.ModeDevice != 0:
		return bad("the archive holds a device (%s): only files and folders are accepted", f.Name)
	case mode&fs.ModeNamedPipe != 0:
		return bad("the archive holds a FIFO (%s): only files and folders are accepted", f.Name)
	case mode&fs.ModeSocket != 0:
		return bad("the archive holds a socket (%s): only files and folders are accepted", f.Name)
	case mode&fs.ModeIrregular != 0:
		return bad("the archive holds %s, which is not a file or a folder: only files and folders are accepted", f.Name)
	case mode.IsDir() || strings.HasSuffix(f.Name, "/"):
		if name == "" {
			return nil
		}
		return w.dir(name)
	}
	if name == "" {
		return bad("the archive holds a file with no name")
	}
	if f.Flags&1 != 0 {
		return bad("%s is encrypted: encrypted archives are not accepted", f.Name)
	}
	if f.Method != zip.Store && f.Method != zip.Deflate {
		return bad("%s is compressed with a method (%d) that is not accepted: use deflate, the usual one", f.Name, f.Method)
	}
	if f.UncompressedSize64 > uint64(w.l.FileBytes) {
		return tooLarge(name, w.l.FileBytes)
	}
	rc, err := f.Open()
	if err != nil {
		return w.damaged(name, err)
	}
	defer rc.Close()
	return w.file(name, rc, mode&0o111 != 0)
}
