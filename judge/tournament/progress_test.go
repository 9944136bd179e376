package tournament

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"judge/judge"
)

// In a log, the progress line comes once every Interval however many
// matches finish in it, and once more when the last one does; the ticker
// prints one when no match finished for an Interval.
func TestProgressLogCadence(t *testing.T) {
	var buf bytes.Buffer
	clock := time.Unix(1000, 0)
	p := &Progress{W: &buf, Interval: 10 * time.Second, now: func() time.Time { return clock }}
	p.begin(100, 0, false)
	rec := &MatchRecord{ID: "x", Winner: 0, Players: []judge.PlayerResult{{Name: "a", Score: 1}, {Name: "b"}}}
	for i := 0; i < 99; i++ {
		clock = clock.Add(300 * time.Millisecond) // 30 s in all
		p.finished(rec)
	}
	if got := strings.Count(buf.String(), "\n"); got != 2 {
		t.Errorf("%d lines for 99 matches in 30 s, want 2 (one each 10 s):\n%s", got, buf.String())
	}
	p.mu.Lock()
	p.stop = make(chan struct{}) // as the ticker runs
	p.mu.Unlock()
	// The last line was at 20.4 s, the last match at 29.7 s.
	clock = clock.Add(500 * time.Millisecond)
	p.tick()
	if got := strings.Count(buf.String(), "\n"); got != 2 {
		t.Errorf("a tick 9.8 s after the last line printed one:\n%s", buf.String())
	}
	clock = clock.Add(500 * time.Millisecond)
	p.tick()
	if got := strings.Count(buf.String(), "\n"); got != 3 {
		t.Errorf("no line after 10 s without a match:\n%s", buf.String())
	}
	clock = clock.Add(time.Second)
	p.finished(rec)
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	last := lines[len(lines)-1]
	if len(lines) != 4 || !strings.HasPrefix(last, "100/100 matches (100%)") || !strings.Contains(last, "ETA 0:00") {
		t.Errorf("the last match: lines\n%s", buf.String())
	}
	// The leader is the best rate, not the most points: a has won 100 of
	// 100; c, 1 of 1, would lead by rate too, but b, who lost all, never.
	if !strings.Contains(last, "leader: a (100 pts in 100)") {
		t.Errorf("leader in %q", last)
	}
	p.end()
}

var progressLine = regexp.MustCompile(`(\d+)/(\d+) matches \((\d+)%\)  [0-9.]+/s  ETA (\S+)`)

// A Swiss tournament's progress counts each match once: never more than
// the total, never a negative ETA, the last line all of them; resumed,
// the matches recorded before count once too. The builds are shown.
func TestProgressSwissCounts(t *testing.T) {
	_, args := fieldDir(t, "beta", "gamma", "delta", "epsilon")
	out := filepath.Join(tempDir(t), "out")
	cache := tempDir(t)
	for run := 0; run < 2; run++ {
		var buf bytes.Buffer
		o := options(t, out, cache, args)
		o.Format, o.Rounds = Swiss, 3
		o.Progress = &Progress{W: &buf, Interval: time.Nanosecond, now: time.Now}
		ctx, cancel := context.WithCancel(context.Background())
		if run == 0 {
			// Interrupted after 5 matches, so that the second run resumes.
			o.Progress.W = &cancelAfter{n: 5, cancel: cancel}
			o.Log = &buf
		}
		_, err := Run(ctx, o)
		cancel()
		if run == 0 {
			if err == nil {
				t.Fatal("the first run was not interrupted")
			}
			continue
		}
		if err != nil {
			t.Fatalf("Run: %v\n%s", err, buf.String())
		}
		// 5 bots: 2 pairings a round, both seat orders: 12 matches.
		ms := progressLine.FindAllStringSubmatch(buf.String(), -1)
		if len(ms) == 0 {
			t.Fatalf("no progress lines:\n%s", buf.String())
		}
		for _, m := range ms {
			done, _ := strconv.Atoi(m[1])
			total, _ := strconv.Atoi(m[2])
			if total != 12 || done > total || strings.Contains(m[4], "-") {
				t.Errorf("progress line %q", m[0])
			}
		}
		if last := ms[len(ms)-1]; last[1] != "12" {
			t.Errorf("last progress line %q, want 12/12", last[0])
		}
		if !regexp.MustCompile(fmt.Sprintf(`building %d bots: %d/%d, [a-z.]+ ready\n`, len(args), len(args), len(args))).MatchString(buf.String()) {
			t.Errorf("no build progress:\n%s", buf.String())
		}
	}
}

// While bots build, the line names the build still going, the oldest
// first, and for how long: a slow one is seen, not a count that stands
// still.
func TestProgressNamesSlowBuild(t *testing.T) {
	var buf bytes.Buffer
	clock := time.Unix(1000, 0)
	p := &Progress{W: &buf, Interval: 10 * time.Second, now: func() time.Time { return clock }}
	args := []string{"bots/go-strong", "bots/a.c", "bots/b.py", "python3 bots/c.py"}
	p.building(len(args))
	for _, a := range args {
		p.startOne(a)
	}
	p.mu.Lock()
	p.stop = make(chan struct{}) // as the ticker runs
	p.mu.Unlock()
	clock = clock.Add(2 * time.Second)
	p.builtOne(args[1])
	clock = clock.Add(9 * time.Second)
	p.tick()
	clock = clock.Add(time.Second)
	p.builtOne(args[2])
	p.builtOne(args[3])
	clock = clock.Add(46 * time.Second)
	p.tick()
	want := []string{
		"building 4 bots: 1/4, go-strong (and 2 more) still building (11 s)",
		"building 4 bots: 3/4, go-strong still building (58 s)",
	}
	if got := strings.Split(strings.TrimSpace(buf.String()), "\n"); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("lines:\n%s\nwant:\n%s", buf.String(), strings.Join(want, "\n"))
	}
	buf.Reset()
	clock = clock.Add(17 * time.Second)
	p.builtOne(args[0])
	if got, want := buf.String(), "building 4 bots: 4/4, go-strong ready\n"; got != want {
		t.Errorf("the last one ready: %q, want %q", got, want)
	}
	p.end()
}
