package unpack

import (
	"fmt"
	"os"
)

// renameChecked renames from to to unless to exists, where the system
// cannot do both at once.
func renameChecked(from, to string) error {
	if _, err := os.Lstat(to); err == nil {
		return fmt.Errorf("%s already exists", to)
	}
	return os.Rename(from, to)
}
