package procbot

import (
	"fmt"
	"os"
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
