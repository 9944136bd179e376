package arena

import (
	"errors"
	"fmt"

	"judge/judge/arena/unpack"
)

// unpackUpload writes an upload into dst, which must not exist: an
// archive unpacked, or a single source file as dst/NAME. A bad, hostile
// or too large upload is ErrBadArchive.
func unpackUpload(name string, data []byte, dst string) error {
	err := unpack.Unpack(name, data, dst, unpack.Bounds{})
	if errors.Is(err, unpack.ErrBad) {
		return fmt.Errorf("%w: %w", ErrBadArchive, err)
	}
	return err
}
