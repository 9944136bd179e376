//go:build !linux

package unpack

func renameNoReplace(from, to string) error { return renameChecked(from, to) }
