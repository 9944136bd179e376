package procbot

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// OpenFile opens a bot's file, or a source file, for reading: what is
// not a regular file is refused with what it is.
func OpenFile(path string) (*os.File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		kind := "a directory"
		if !st.IsDir() {
			kind = special(st.Mode())
		}
		return nil, fmt.Errorf("%s is %s, not a regular file", path, kind)
	}
	return f, nil
}

// IsExecutable reports whether the file st describes may be run as a
// program: on Windows, its extension says so.
func IsExecutable(st os.FileInfo) bool {
	switch strings.ToLower(filepath.Ext(st.Name())) {
	case ".exe", ".com", ".bat", ".cmd":
		return st.Mode().IsRegular()
	}
	return false
}
