package arena

import (
	"regexp"
	"testing"
)

// The names' rules as regular expressions, which the checks replace.
var (
	nameRule   = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$`)
	replayRule = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}\.json$`)
)

func TestNames(t *testing.T) {
	for _, c := range []struct {
		s               string
		entrant, replay bool
	}{
		{"alice", true, false},
		{"a", true, false},
		{"", false, false},
		{"-alice", false, false},
		{"_alice", false, false},
		{"al-ice_2", true, false},
		{"al ice", false, false},
		{"élan", false, false},
		{"abcdefghijklmnopqrstuvwxyz012345", true, false},   // 32
		{"abcdefghijklmnopqrstuvwxyz0123456", false, false}, // 33
		{"m-1.json", false, true},
		{".json", false, false},
		{"a.json\n", false, false},
		{"../x.json", false, false},
		{"a.b.json", false, false},
		{"abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz01.json", false, true},   // 64
		{"abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz012.json", false, false}, // 65
	} {
		if got := validName(c.s); got != c.entrant {
			t.Errorf("validName(%q) = %v", c.s, got)
		}
		if got := replayName(c.s); got != c.replay {
			t.Errorf("replayName(%q) = %v", c.s, got)
		}
	}
}

func FuzzNames(f *testing.F) {
	for _, s := range []string{"alice", "-a", "a.json", "x_y-z.json", "\xff", "a\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := validName(s), nameRule.MatchString(s); got != want {
			t.Errorf("validName(%q) = %v, the rule says %v", s, got, want)
		}
		if got, want := replayName(s), replayRule.MatchString(s); got != want {
			t.Errorf("replayName(%q) = %v, the rule says %v", s, got, want)
		}
	})
}
