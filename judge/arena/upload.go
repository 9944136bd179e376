package arena

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
)

// unpackUpload writes an upload into dst: a single source file as
// dst/NAME (its base name).
func unpackUpload(name string, data []byte, dst string) error {
	base := filepath.Base(filepath.Clean("/" + name))
	if base == "/" || base == "." || strings.HasPrefix(base, ".") {
		return errors.New("no file name")
	}
	for _, ext := range []string{".tar", ".tar.gz", ".tgz", ".zip"} {
		if strings.HasSuffix(strings.ToLower(base), ext) {
			return errors.New("archives are not accepted here")
		}
	}
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dst, base), data, 0o644)
}
