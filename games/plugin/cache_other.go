//go:build !unix

package plugin

import "errors"

// privateDir: a folder's owner is not checked here, so none is used.
func privateDir(string) error {
	return errors.New("a compilation cache needs a folder the judge alone may write")
}
