//go:build unix

package procbot

import (
	"net"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestSplitCommand(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want []string
	}{
		{"python3 bot.py", []string{"python3", "bot.py"}},
		{"  java  -cp  dir   Main ", []string{"java", "-cp", "dir", "Main"}},
		{`python3 "my bot.py"`, []string{"python3", "my bot.py"}},
		{`python3 'my bot.py'`, []string{"python3", "my bot.py"}},
		{`python3 my\ bot.py`, []string{"python3", "my bot.py"}},
		{`echo "a \"b\" \\c"`, []string{"echo", `a "b" \c`}},
		{`a''b`, []string{"ab"}},
		{`''`, []string{""}},
		{"", nil},
	}
	for _, tt := range tests {
		got, err := SplitCommand(tt.in)
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("SplitCommand(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{`"open`, `'open`} {
		if _, err := SplitCommand(bad); err == nil {
			t.Errorf("SplitCommand(%q): no error", bad)
		}
	}
}

func FuzzSplitCommand(f *testing.F) {
	for _, s := range []string{"python3 bot.py", `a "b c" 'd e' f\ g`, `"`, `\`, "a\tb\nc"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		words, err := SplitCommand(s)
		if err != nil {
			return
		}
		// Quoting each word back and splitting again gives the same words.
		var b strings.Builder
		for i, w := range words {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString("'" + strings.ReplaceAll(w, "'", `'\''`) + "'")
		}
		again, err := SplitCommand(b.String())
		if err != nil || !reflect.DeepEqual(again, words) && !(len(again) == 0 && len(words) == 0) {
			t.Fatalf("%q → %q → %q → %q (%v)", s, words, b.String(), again, err)
		}
	})
}

func TestParseBot(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	exe := filepath.Join(dir, "my bot")
	if err := os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(dir, "bot.py")
	if err := os.WriteFile(script, []byte("print()\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		arg  string
		name string
		argv []string
	}{
		{exe, "my bot", []string{exe}},
		{"python3 " + script, "bot.py", []string{"python3", script}},
		{"sh", "sh", []string{"sh"}},
	}
	for _, tt := range tests {
		b, err := ParseBot(tt.arg)
		if err != nil {
			t.Errorf("ParseBot(%q): %v", tt.arg, err)
			continue
		}
		if b.Name != tt.name || !reflect.DeepEqual(b.Argv, tt.argv) {
			t.Errorf("ParseBot(%q) = %q %q, want %q %q", tt.arg, b.Name, b.Argv, tt.name, tt.argv)
		}
	}
	for _, bad := range []string{filepath.Join(dir, "none"), "no-such-program-anywhere", script, ""} {
		if _, err := ParseBot(bad); err == nil {
			t.Errorf("ParseBot(%q): no error", bad)
		}
	}
}

// An executable file that starts as a program of Linux, macOS or
// Windows is taken as a program, whichever the judge runs on; another is
// not, without a #! line.
func TestParseBotBinaries(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tt := range []struct {
		name, head string
		ok         bool
	}{
		{"elf", "\x7fELF\x02\x01", true},
		{"macho64", "\xcf\xfa\xed\xfe\x0c\x00", true},
		{"macho32", "\xce\xfa\xed\xfe\x07\x00", true},
		{"universal", "\xca\xfe\xba\xbe\x00\x00", true},
		{"pe", "MZ\x90\x00", true},
		{"text", "echo hi\n", false},
	} {
		p := filepath.Join(dir, tt.name)
		if err := os.WriteFile(p, []byte(tt.head), 0o755); err != nil {
			t.Fatal(err)
		}
		_, err := ParseBot(p)
		if tt.ok && err != nil {
			t.Errorf("ParseBot of a %s program: %v", tt.name, err)
		}
		if !tt.ok && (err == nil || !strings.Contains(err.Error(), "neither a program nor a script")) {
			t.Errorf("ParseBot of %s: %v; want neither a program nor a script", tt.name, err)
		}
	}
}

// A BOT argument that cannot run as it is gets a message that says what
// to do.
func TestParseBotHints(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, text string, mode os.FileMode) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), mode); err != nil {
			t.Fatal(err)
		}
		return p
	}
	src := write("bot.c", "int main(){}", 0o644)
	script := write("bot.py", "print()\n", 0o644)
	noShebang := write("exe.py", "print()\n", 0o755)
	java := write("Bot.java", "package demo;\n\nimport java.util.*;\n\nclass Helper {}\n\npublic class Bot {\n    public static void main(String[] args) {}\n}\n", 0o755)
	plain := write("Plain.java", "class Other {\n    static void main() {}\n}\n", 0o755)
	secret := write("secret.py", "print()\n", 0o600)
	tests := []struct{ arg, words string }{
		{src, "is a source file, not a program: build it first (gcc -O2 -o " + filepath.Join(dir, "bot") + " " + src + ")"},
		{script, `is not executable: give it as "python3 ` + script + `"`},
		{noShebang, "neither a program nor a script with a #! line (such as #!/usr/bin/env python3)"},
		{java, "build it first (javac -d " + dir + " " + java + `) and give "java -cp ` + dir + ` demo.Bot", or make it not executable (chmod -x`},
		{plain, `"java -cp ` + dir + ` Other"`},
	}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	tests = append(tests,
		struct{ arg, words string }{"python3 nosuch.py", `bot "python3 nosuch.py": the file nosuch.py does not exist (looked for as ` +
			filepath.Join(wd, "nosuch.py") + ", relative to " + wd + ", the directory the judge runs in)"},
		struct{ arg, words string }{"python3 -u " + dir + "/gone.py", "the file " + dir + "/gone.py does not exist (looked for as " + dir + "/gone.py)"},
		struct{ arg, words string }{"java -jar bot.jar", "the file bot.jar does not exist"})
	if os.Geteuid() == 0 {
		tests = append(tests, struct{ arg, words string }{"python3 " + secret, "runs bots as the user nobody; chmod o+r"})
	}
	for _, tt := range tests {
		_, err := ParseBot(tt.arg)
		if err == nil || !strings.Contains(err.Error(), tt.words) {
			t.Errorf("ParseBot(%q): %v, want an error saying %q", tt.arg, err, tt.words)
		}
	}
}

func TestTailBuffer(t *testing.T) {
	t.Parallel()
	b := newTailBuffer(8, nil)
	b.Write([]byte("hello "))
	b.Write([]byte("world"))
	got, total := b.Bytes()
	if string(got) != "lo world" || total != 11 {
		t.Errorf("kept %q of %d, want %q of 11", got, total, "lo world")
	}
	b.Write([]byte("0123456789"))
	if got, _ := b.Bytes(); string(got) != "23456789" {
		t.Errorf("kept %q after a long write", got)
	}
}

// The JVM's line is left out when the stream starts with it, written in
// pieces or not, and kept when the stream does not.
func TestTailBufferSkipsTheJVMLine(t *testing.T) {
	t.Parallel()
	line := "Picked up JAVA_TOOL_OPTIONS: -Xss4m\n"
	for _, tt := range []struct {
		writes []string
		want   string
	}{
		{[]string{line + "Exception in thread\n"}, "Exception in thread\n"},
		{[]string{line[:5], line[5:20], line[20:], "mine\n"}, "mine\n"},
		{[]string{line[:5], "xx\n"}, line[:5] + "xx\n"},
		{[]string{"mine first\n", line}, "mine first\n" + line},
	} {
		b := newTailBuffer(1<<10, []byte(line))
		raw := 0
		for _, w := range tt.writes {
			b.Write([]byte(w))
			raw += len(w)
		}
		got, total := b.Bytes()
		turn, _, _ := b.take()
		if string(got) != tt.want || string(turn) != tt.want || total != int64(len(tt.want)) || b.written() != int64(raw) {
			t.Errorf("%q: kept %q (turn %q) of %d, read %d; want %q", tt.writes, got, turn, total, b.written(), tt.want)
		}
	}
}

// A bot given as a FIFO, a socket or a device is refused at once with
// what it is: opening a FIFO to read it waits for a writer, for ever and
// deaf to signals. Nothing here may wait: each check has a few seconds.
func TestSpecialFilesAreRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fifo := filepath.Join(dir, "bot")
	if err := syscall.Mkfifo(fifo, 0o755); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(dir, "bot.py")
	if err := syscall.Mkfifo(script, 0o644); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	quick := func(name string, f func() error) error {
		t.Helper()
		done := make(chan error, 1)
		go func() { done <- f() }()
		select {
		case err := <-done:
			return err
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: still waiting after 5s", name)
			return nil
		}
	}
	for _, tt := range []struct{ arg, kind string }{
		{fifo, "is a FIFO (named pipe)"},
		{"python3 " + script, "is a FIFO (named pipe)"},
		{sock, "is a socket"},
		{"/dev/zero", "is a character device"},
		{"python3 /dev/zero", "is a character device"},
	} {
		err := quick("ParseBot "+tt.arg, func() error { _, err := ParseBot(tt.arg); return err })
		if err == nil || !strings.Contains(err.Error(), tt.kind) {
			t.Errorf("ParseBot(%q): %v, want an error saying it %s", tt.arg, err, tt.kind)
		}
	}
	for _, tt := range []struct{ path, kind string }{
		{fifo, "is a FIFO (named pipe)"},
		{sock, "no such device or address"}, // a socket cannot be opened
		{"/dev/zero", "is a character device"},
		{dir, "is a directory"},
	} {
		err := quick("ReadFile "+tt.path, func() error { _, err := ReadFile(tt.path); return err })
		if err == nil || !strings.Contains(err.Error(), tt.kind) {
			t.Errorf("ReadFile(%s): %v, want an error saying %q", tt.path, err, tt.kind)
		}
	}
	// The spec of a file that became a FIFO once checked.
	err = quick("Hash", func() error { _, err := (Spec{Argv: []string{fifo}}).Hash(); return err })
	if err == nil || !strings.Contains(err.Error(), "is a FIFO") {
		t.Errorf("Hash of a FIFO: %v, want an error saying it is a FIFO", err)
	}
	// A regular file still reads.
	if b, err := ReadFile(filepath.Join("testdata", "closein.c")); err != nil || len(b) == 0 {
		t.Errorf("ReadFile of a regular file: %d bytes, %v", len(b), err)
	}
}
