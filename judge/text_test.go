package judge

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestPrintable(t *testing.T) {
	for _, c := range []struct {
		in, text, line string
	}{
		{"plain text, ünïcode ✂ ok", "plain text, ünïcode ✂ ok", "plain text, ünïcode ✂ ok"},
		{"two\nlines\tand a tab", "two\nlines\tand a tab", `two\nlines\tand a tab`},
		{"\x1b]0;pwned\x07title", `\x1b]0;pwned\x07title`, `\x1b]0;pwned\x07title`},
		{"\x1b]52;c;aGVsbG8=\x1b\\", `\x1b]52;c;aGVsbG8=\x1b\`, `\x1b]52;c;aGVsbG8=\x1b\`},
		{"\x1b[31mred\x1b[0m", `\x1b[31mred\x1b[0m`, `\x1b[31mred\x1b[0m`},
		{"over\rwrite", `over\rwrite`, `over\rwrite`},
		{"del\x7f nul\x00", `del\x7f nul\x00`, `del\x7f nul\x00`},
		{"c1 \u009b31m csi", `c1 \u009b31m csi`, `c1 \u009b31m csi`},
		{"bidi \u202eevil\u2066", `bidi \u202eevil\u2066`, `bidi \u202eevil\u2066`},
		{"bad \xff\xfe utf-8", `bad \xff\xfe utf-8`, `bad \xff\xfe utf-8`},
		{"", "", ""},
	} {
		if got := Printable(c.in); got != c.text {
			t.Errorf("Printable(%q) = %q, want %q", c.in, got, c.text)
		}
		if got := PrintableLine(c.in); got != c.line {
			t.Errorf("PrintableLine(%q) = %q, want %q", c.in, got, c.line)
		}
	}
}

// FuzzPrintable: whatever the input, the output is UTF-8 with no control
// character a terminal acts on, and text that needed nothing is kept.
func FuzzPrintable(f *testing.F) {
	for _, s := range []string{"", "a\nb", "\x1b]0;x\x07", "\u009b", "\xff", "\u202e", "\r\n\t"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, oneLine := range []bool{false, true} {
			out := printable(s, oneLine)
			if !utf8.ValidString(out) {
				t.Fatalf("printable(%q, %v) = %q: not UTF-8", s, oneLine, out)
			}
			for _, r := range out {
				if unprintable(r, utf8.RuneLen(r), oneLine) {
					t.Fatalf("printable(%q, %v) = %q: holds %U", s, oneLine, out, r)
				}
			}
			clean := true
			for i, r := range s {
				clean = clean && !unprintable(r, len(string(r)), oneLine) && !(r == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD"))
			}
			if clean && out != s {
				t.Fatalf("printable(%q, %v) = %q: changed clean text", s, oneLine, out)
			}
		}
	})
}

func TestClip(t *testing.T) {
	for _, tt := range []struct {
		s    string
		n    int
		want string
	}{
		{"", 3, ""},
		{"abc", 3, "abc"},
		{"abcd", 3, "abc…"},
		{strings.Repeat("x", ClipLine+1), ClipLine, strings.Repeat("x", ClipLine) + "…"},
	} {
		if got := Clip(tt.s, tt.n); got != tt.want {
			t.Errorf("Clip(%q, %d) = %q, want %q", tt.s, tt.n, got, tt.want)
		}
	}
}
