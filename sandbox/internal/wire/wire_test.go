package wire

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

var runs = []Run{
	{Path: "/usr/bin/python3", Argv: []string{"python3", "bot.py", ""}, Dir: "/box", Env: []string{"PATH=/usr/bin", "HOME=/box", "EMPTY="}},
	{Path: "/bin/true", Argv: []string{"true"}, Dir: "/"},
	{Path: "a b", Argv: nil, Dir: "", Env: []string{""}},
	{Path: "/bin/sh", Argv: []string{"sh", "-c", "echo 'x\ny' \t ünï"}, Env: nil},
	{Path: "/bin/x", Argv: []string{""}},
}

// TestRunEncoding: a run request comes back as it was sent, and one that
// cannot be sent (a NUL in an argument) is refused.
func TestRunEncoding(t *testing.T) {
	for _, r := range runs {
		b, err := r.AppendBinary(nil)
		if err != nil {
			t.Fatal(err)
		}
		var got Run
		if err := got.UnmarshalBinary(b); err != nil {
			t.Fatalf("%+v: %v", r, err)
		}
		if !sameRun(got, r) {
			t.Errorf("sent %+v, read %+v", r, got)
		}
	}
	for _, bad := range []Run{{Path: "a\x00b"}, {Argv: []string{"x\x00"}}, {Env: []string{"A=\x00"}}, {Dir: "\x00"}} {
		if _, err := bad.AppendBinary(nil); err == nil {
			t.Errorf("%+v was encoded", bad)
		}
	}
	for _, bad := range []string{"", "run1", "run1\x00p", "run1\x00p\x00d", "run2\x00p\x00d\x000",
		"run1\x00p\x00d\x00x", "run1\x00p\x00d\x00-1", "run1\x00p\x00d\x003\x00a\x00b", `{"path":"/bin/true"}`} {
		var r Run
		if err := r.UnmarshalBinary([]byte(bad)); err == nil {
			t.Errorf("%q was read as %+v", bad, r)
		}
	}
}

// sameRun compares runs, a nil list and an empty one alike.
func sameRun(a, b Run) bool {
	return a.Path == b.Path && a.Dir == b.Dir &&
		slices.Equal(a.Argv, b.Argv) && slices.Equal(a.Env, b.Env)
}

// FuzzRunEncoding: any bytes are read without a panic, and a run read
// from them, encoded again, reads back the same.
func FuzzRunEncoding(f *testing.F) {
	for _, r := range runs {
		b, _ := r.AppendBinary(nil)
		f.Add(b)
	}
	f.Add([]byte("run1\x00p\x00d\x009999999999999999999"))
	f.Fuzz(func(t *testing.T, b []byte) {
		var r Run
		if r.UnmarshalBinary(b) != nil {
			return
		}
		for _, s := range append(append([]string{r.Path, r.Dir}, r.Argv...), r.Env...) {
			if strings.IndexByte(s, 0) >= 0 {
				t.Fatalf("read a NUL in %q", s)
			}
		}
		again, err := r.AppendBinary(nil)
		if err != nil {
			t.Fatal(err)
		}
		var back Run
		if err := back.UnmarshalBinary(again); err != nil || !sameRun(back, r) {
			t.Fatalf("%+v read back as %+v (%v)", r, back, err)
		}
	})
}

// BenchmarkRunDecoding: what the init spends reading a typical run
// request (a bot's environment of a dozen variables), encoded as it is
// (binary) and as JSON, which it was before (json).
func BenchmarkRunDecoding(b *testing.B) {
	r := Run{Path: "/box/bot", Argv: []string{"/box/bot"}, Dir: "/box", Env: []string{
		"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=/box", "LANG=C.UTF-8", "JUDGE_SEED=171470071439252100",
		"PYTHONUNBUFFERED=1", "GOMEMLIMIT=128MiB", "_STDBUF_O=L", "LD_PRELOAD=/usr/libexec/coreutils/libstdbuf.so",
		"RUBYOPT=-r/tmp/judge-stdio-0/sync.rb", "JAVA_TOOL_OPTIONS=-XX:MaxRAM=256m -XX:+UseSerialGC -Xss4m", "TMPDIR=/tmp"}}
	bin, _ := r.AppendBinary(nil)
	js, _ := json.Marshal(&r)
	b.Run("binary", func(b *testing.B) {
		for b.Loop() {
			var got Run
			if err := got.UnmarshalBinary(bin); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("json", func(b *testing.B) {
		for b.Loop() {
			var got Run
			if err := json.Unmarshal(js, &got); err != nil {
				b.Fatal(err)
			}
		}
	})
}
