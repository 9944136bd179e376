//go:build linux

package sandbox

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// The parsers as they were written first, with the standard library:
// what parseInt and parseKey must agree with (white space: ASCII's, as the
// kernel writes it).
func refParseInt(b []byte) (int64, error) {
	s := strings.TrimSpace(string(b))
	if s == "max" {
		return -1, nil
	}
	return strconv.ParseInt(s, 10, 64)
}

func refParseKey(b []byte, path, key string) (int64, error) {
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.FieldsFunc(line, func(r rune) bool { return r == ' ' || r == '\t' || r == '\v' || r == '\f' || r == '\r' })
		if len(f) == 2 && f[0] == key {
			return refParseInt([]byte(f[1]))
		}
	}
	return 0, fmt.Errorf("%s: no %s", path, key)
}

// TestParseCgroupFiles reads the files the judge reads every turn and
// every program, as the kernel writes them.
func TestParseCgroupFiles(t *testing.T) {
	t.Parallel()
	const cpuStat = `usage_usec 2718281
user_usec 1000000
system_usec 1718281
core_sched.force_idle_usec 0
nr_periods 0
nr_throttled 0
throttled_usec 0
nr_bursts 0
burst_usec 0
`
	ints := []struct {
		in   string
		want int64
		ok   bool
	}{
		{"123456789\n", 123456789, true},
		{"0\n", 0, true},
		{"max\n", -1, true},
		{"9223372036854775807\n", 9223372036854775807, true}, // too long to add up: the standard library's
		{"-5\n", -5, true},
		{"", 0, false},
		{"12a\n", 0, false},
		{"99999999999999999999\n", 0, false},
	}
	for _, c := range ints {
		got, err := parseInt([]byte(c.in))
		if (err == nil) != c.ok || c.ok && got != c.want {
			t.Errorf("parseInt(%q) = %d, %v; want %d (ok %v)", c.in, got, err, c.want, c.ok)
		}
	}
	keys := []struct {
		key  string
		want int64
		ok   bool
	}{
		{"usage_usec", 2718281, true},
		{"system_usec", 1718281, true},
		{"burst_usec", 0, true},
		{"usage", 0, false},
		{"oom_kill", 0, false},
	}
	for _, c := range keys {
		got, err := parseKey([]byte(cpuStat), "cpu.stat", c.key)
		if (err == nil) != c.ok || c.ok && got != c.want {
			t.Errorf("parseKey(cpu.stat, %s) = %d, %v; want %d (ok %v)", c.key, got, err, c.want, c.ok)
		}
	}
}

// FuzzParseCgroupFiles checks parseInt and parseKey against the
// standard library's parsing of the same bytes.
func FuzzParseCgroupFiles(f *testing.F) {
	f.Add([]byte("usage_usec 12\nuser_usec 3\n"), "usage_usec")
	f.Add([]byte("oom_kill_disable 0\nunder_oom 0\noom_kill 2\n"), "oom_kill")
	f.Add([]byte("max\n"), "max")
	f.Add([]byte(" 42 \n"), "")
	f.Add([]byte("k  7\nk\t8\n"), "k")
	f.Fuzz(func(t *testing.T, b []byte, key string) {
		got, err := parseInt(b)
		want, werr := refParseInt(b)
		if (err == nil) != (werr == nil) || err == nil && got != want {
			t.Errorf("parseInt(%q) = %d, %v; the standard library: %d, %v", b, got, err, want, werr)
		}
		got, err = parseKey(b, "f", key)
		want, werr = refParseKey(b, "f", key)
		if (err == nil) != (werr == nil) || err == nil && got != want {
			t.Errorf("parseKey(%q, %q) = %d, %v; the standard library: %d, %v", b, key, got, err, want, werr)
		}
	})
}
