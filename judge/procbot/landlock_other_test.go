//go:build unix && !linux

package procbot_test

// landlockABI is 0: Landlock is Linux's.
func landlockABI() int { return 0 }
