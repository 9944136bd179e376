//go:build !linux

package procbot

import (
	"errors"
	"os"
)

// errCanceled is returned by a read woken by cancel.
var errCanceled = errors.New("read canceled")

// errInClosed is returned by a read that waited for a bot whose standard
// input has no reader left (see inClosed).
var errInClosed = errors.New("the bot's standard input is closed")

// fdReader reads a bot's output with a deadline: off Linux, a
// pumpReader.
type fdReader = pumpReader

// newFDReader reads f, which the judge keeps open (and closes) itself.
func newFDReader(f *os.File) (*fdReader, error) { return newPumpReader(f), nil }
