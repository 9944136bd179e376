package procbot

import (
	"testing"

	"judge/judge/config"
)

// The configuration file checks io and level against lists of its own:
// they must take exactly what the process player takes.
func TestConfigNamesAgree(t *testing.T) {
	t.Parallel()
	for _, s := range append(append([]string{"", "PTY", "pipes", "Full", "sandbox", " none"}, config.IOModes...), config.Levels...) {
		_, err := ParseIO(s)
		cerr := config.CheckIO(s)
		if (err == nil) != (cerr == nil) || err != nil && err.Error() != cerr.Error() {
			t.Errorf("io %q: the player says %v, the configuration %v", s, err, cerr)
		}
		_, err = ParseLevel(s)
		cerr = config.CheckLevel(s)
		if (err == nil) != (cerr == nil) || err != nil && err.Error() != cerr.Error() {
			t.Errorf("level %q: the player says %v, the configuration %v", s, err, cerr)
		}
	}
}
