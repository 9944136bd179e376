package judge

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestStderrLine: the line of a crashed program's stderr that a match's
// reason quotes, for the runtimes a class uses.
func TestStderrLine(t *testing.T) {
	for _, c := range []struct{ name, stderr, want string }{
		{"python", "debug: turn 3\nTraceback (most recent call last):\n  File \"/x/bot.py\", line 13, in <module>\n    print(1 / 0)\n          ~~^~~\nZeroDivisionError: division by zero\n",
			"ZeroDivisionError: division by zero"},
		{"python, an exception of its own", "an error estimate: 5\nTraceback (most recent call last):\n  File \"bot.py\", line 3, in <module>\n    raise Boom('no')\nBoom: no\n", "Boom: no"},
		{"python, chained", "Traceback (most recent call last):\n  File \"a\", line 1\nKeyError: 'x'\n\nDuring handling of the above exception, another exception occurred:\n\nTraceback (most recent call last):\n  File \"a\", line 3\nValueError: bad\n", "ValueError: bad"},
		{"java", "thinking\nException in thread \"main\" java.lang.ArithmeticException: / by zero\n\tat Main.main(Main.java:5)\n",
			"Exception in thread \"main\" java.lang.ArithmeticException: / by zero"},
		{"go", "panic: runtime error: integer divide by zero\n\ngoroutine 1 [running]:\nmain.main()\n\t/src/main.go:5 +0x1d\n", "panic: runtime error: integer divide by zero"},
		{"rust", "thread 'main' panicked at src/main.rs:3:5:\nattempt to divide by zero\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n",
			"thread 'main' panicked at src/main.rs:3:5: attempt to divide by zero"},
		{"c++", "terminate called after throwing an instance of 'std::runtime_error'\n  what():  boom\n", "what():  boom"},
		{"c assert", "bot: bot.c:5: main: Assertion `x > 0' failed.\n", "bot: bot.c:5: main: Assertion `x > 0' failed."},
		{"a last word", "depth 3\n  eval 5\nbye\n\n", "bye"},
		{"only indented", "   \n  deep\n", "deep"},
		{"nothing", " \n\n", ""},
		{"a progress bar", "10%\r50%\rfatal: gave up\n", "fatal: gave up"},
		{"controls", "error: \x1b]0;title\x07 and \u202eevil\xff\n", "error:  ]0;title  and  evil\uFFFD"},
	} {
		if got := StderrLine([]byte(c.stderr)); got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
	long := StderrLine([]byte("error: " + strings.Repeat("é", 500)))
	if len(long) > StderrLineBytes+len("…") || !utf8.ValidString(long) || !strings.HasSuffix(long, "…") {
		t.Errorf("a long line: %q (%d bytes)", long, len(long))
	}
}

// FuzzStderrLine: whatever a bot writes, the line is one line of
// printable UTF-8, bounded.
func FuzzStderrLine(f *testing.F) {
	for _, s := range []string{"", "a\nb", "Traceback (most recent call last):\n", "x:\n\xff", "\r\r\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		l := StderrLine([]byte(s))
		if !utf8.ValidString(l) || len(l) > StderrLineBytes+len("…") || PrintableLine(l) != l {
			t.Errorf("StderrLine(%q) = %q", s, l)
		}
	})
}

// TestCrashWhy: how a program ended goes before its stderr's line, but a
// plain exit code, which says less.
func TestCrashWhy(t *testing.T) {
	for _, c := range []struct{ how, stderr, want string }{
		{"exit code 1", "ValueError: x\n", "ValueError: x"},
		{"killed by SIGSEGV (segmentation fault)", "depth 5\n", "killed by SIGSEGV (segmentation fault): depth 5"},
		{"killed by SIGSEGV (segmentation fault)", "", "killed by SIGSEGV (segmentation fault)"},
		{"exit code 3", "", "exit code 3"},
	} {
		if got := crashWhy(c.how, []byte(c.stderr)); got != c.want {
			t.Errorf("crashWhy(%q, %q) = %q, want %q", c.how, c.stderr, got, c.want)
		}
	}
}
