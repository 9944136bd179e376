package httpbot

import "time"

// SetInitLimit sets the wait for an init's answer until the test ends.
func SetInitLimit(t interface{ Cleanup(func()) }, d time.Duration) {
	old := initLimit
	initLimit = d
	t.Cleanup(func() { initLimit = old })
}
