package judge

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
)

// WriteFileAtomic writes data to the file path as os.WriteFile does (perm
// before the umask), but atomically: a reader sees the old file or the
// new one, never half a file. See WriteAtomic.
func WriteFileAtomic(path string, data []byte, perm os.FileMode) error {
	return WriteAtomic(path, perm, func(f *os.File) error {
		_, err := f.Write(data)
		return err
	})
}

// WriteAtomic writes the file path atomically: write fills a new
// temporary file beside it (named path.N.tmp, created with perm before the
// umask), which then replaces path. When write or the replacing fails, the
// temporary file is removed and path is left as it was. write may also
// sync the file, or set its mode whatever the umask.
func WriteAtomic(path string, perm os.FileMode, write func(f *os.File) error) error {
	f, err := createTemp(path, perm)
	if err != nil {
		return err
	}
	tmp := f.Name()
	err = write(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

// createTemp creates a new file path.N.tmp: its own name, so that
// processes writing the same path at once do not write into one file.
func createTemp(path string, perm os.FileMode) (*os.File, error) {
	for try := 0; ; try++ {
		name := path + "." + strconv.FormatUint(uint64(rand.Uint32()), 36) + ".tmp"
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
		if err == nil || !errors.Is(err, fs.ErrExist) || try == 100 {
			return f, err
		}
	}
}

// Durability says how much of a write WriteFileSync puts on disk before
// it returns.
type Durability int

const (
	// SyncFile: the new file is synced before it replaces the old; a
	// crash leaves the old file or the new one, never half of one.
	SyncFile Durability = iota
	// SyncRename: SyncFile, and the directory is synced after, so that
	// the replacing itself is on disk.
	SyncRename
)

// WriteFileSync writes data to path atomically, as durably as d says.
func WriteFileSync(path string, data []byte, d Durability) error {
	err := WriteAtomic(path, 0o644, func(f *os.File) error {
		if _, err := f.Write(data); err != nil {
			return err
		}
		return f.Sync()
	})
	if err != nil || d != SyncRename {
		return err
	}
	dir, err := os.Open(filepath.Dir(path))
	if err != nil {
		return err
	}
	defer dir.Close()
	if err := dir.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", filepath.Dir(path), err)
	}
	return nil
}
