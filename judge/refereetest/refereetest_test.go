package refereetest

import (
	"strings"
	"testing"
)

func TestDiff(t *testing.T) {
	a := []string{"> 1", "< 2", "> 3", "< 4"}
	for _, tc := range []struct {
		b    []string
		want string // in the difference; "" for none
	}{
		{[]string{"> 1", "< 2", "> 3", "< 4"}, ""},
		{[]string{"> 1", "< 2", "> 3", "< 5"}, "line 4 differs:\n  a: < 4\n  b: < 5\nbefore it:\n  > 1\n  < 2\n  > 3"},
		{[]string{"> 1", "< 2"}, "lengths differ: 4 and 2 lines"},
	} {
		if got := Diff(a, tc.b); got != tc.want {
			t.Errorf("Diff(a, %q) = %q, want %q", tc.b, got, tc.want)
		}
	}
	if !strings.Contains(Diff([]string{"x"}, []string{"y"}), "line 1 differs") {
		t.Error("a difference on the first line is not named")
	}
}
