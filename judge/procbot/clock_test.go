package procbot

import (
	"errors"
	"os"
	"testing"
	"time"

	"judge/sandbox"
)

// What the clock credits as the machine's: the waits of a bot's threads
// behind each other are the bot's; the credits never pass the time in
// which the bot did not run.
func TestMachineWait(t *testing.T) {
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	th := func(ran, waited int) sandbox.Times { return sandbox.Times{Ran: ms(ran), Waited: ms(waited)} }
	tests := []struct {
		name    string
		threads []sandbox.Times
		cpu     int // the bot's CPU time in the turn
		wall    int
		want    int
	}{
		{"one thread alone", []sandbox.Times{th(1000, 0)}, 1000, 1000, 0},
		{"one thread sharing its CPU", []sandbox.Times{th(500, 500)}, 500, 1000, 500},
		{"one thread, waiting and then blocked", []sandbox.Times{th(200, 300)}, 200, 1000, 300},
		{"three threads spinning on one CPU", []sandbox.Times{th(333, 667), th(333, 667), th(334, 666)}, 1000, 1000, 0},
		{"three threads and a busy loop on one CPU", []sandbox.Times{th(250, 750), th(250, 750), th(250, 750)}, 750, 1000, 250},
		{"helpers that ended, their CPU time counted", []sandbox.Times{th(100, 900)}, 1000, 1000, 0},
		{"a thread listed late, with all it did before", []sandbox.Times{th(5000, 3000)}, 400, 1000, 600},
		{"two threads on two idle CPUs", []sandbox.Times{th(1000, 0), th(1000, 0)}, 2000, 1000, 0},
		{"no threads read", nil, 300, 1000, 0},
	}
	for _, tt := range tests {
		if got := machineWait(tt.threads, ms(tt.cpu), ms(tt.wall)); got != ms(tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, got, ms(tt.want))
		}
	}
}

func TestCredit(t *testing.T) {
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	tests := []struct {
		name                        string
		cpuWait, judgeWait          int
		wall, cpu                   int
		cpus                        int
		wantCPUWait, wantJudgeWaits int
	}{
		{"within bounds", 300, 100, 1000, 500, 1, 300, 100},
		{"the judge's lateness of all its threads", 0, 5000, 1000, 200, 1, 0, 800},
		{"a wait longer than the turn", 60000, 0, 15000, 0, 1, 15000, 0},
		{"both over: the CPU's first", 700, 700, 1000, 500, 1, 500, 0},
		{"threads on two CPUs", 0, 800, 1000, 1000, 2, 0, 500},
		{"a bot that computed all along", 400, 400, 1000, 1000, 1, 0, 0},
		{"negative readings", -5, -5, 1000, 0, 1, 0, 0},
	}
	for _, tt := range tests {
		c, j := credit(ms(tt.cpuWait), ms(tt.judgeWait), ms(tt.wall), ms(tt.cpu), tt.cpus)
		if c != ms(tt.wantCPUWait) || j != ms(tt.wantJudgeWaits) {
			t.Errorf("%s: %v and %v, want %v and %v", tt.name, c, j, ms(tt.wantCPUWait), ms(tt.wantJudgeWaits))
		}
		if c+j > ms(tt.wall) {
			t.Errorf("%s: credits %v and %v pass the wall time %v", tt.name, c, j, ms(tt.wall))
		}
	}
}

// Once the turn may not go on, the judge looks at the bot's output once
// more: a line the bot wrote while the judge was late to look is read,
// and the judge's lateness is counted as its own; with nothing written,
// the read times out.
func TestLastLook(t *testing.T) {
	for _, shared := range []bool{false, true} {
		for _, written := range []string{"", "Board\n"} {
			pr, pw, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			r, err := newFDReader(pr)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := pw.WriteString(written); err != nil {
				t.Fatal(err)
			}
			missed := time.Now().Add(-time.Second) // the deadline the judge was late for
			if err := r.setDeadline(missed, shared); err != nil {
				t.Fatal(err)
			}
			extended := 0
			r.extend = func() (time.Time, bool) { extended++; return time.Time{}, false }
			var late time.Duration
			r.late = func(d time.Duration) { late += d }
			buf := make([]byte, 64)
			n, err := r.Read(buf)
			switch {
			case written == "" && !errors.Is(err, os.ErrDeadlineExceeded):
				t.Errorf("shared %v, nothing written: %q, %v; want a timeout", shared, buf[:n], err)
			case written != "" && (err != nil || string(buf[:n]) != written):
				t.Errorf("shared %v: %q, %v; want %q", shared, buf[:n], err, written)
			case written != "" && late < time.Second:
				t.Errorf("shared %v: the judge's lateness counted %v, want at least 1s", shared, late)
			case written == "" && late != 0:
				t.Errorf("shared %v, nothing written: lateness %v counted", shared, late)
			case extended != 1:
				t.Errorf("shared %v: asked to extend %d times, want once", shared, extended)
			}
			r.close()
			pr.Close()
			pw.Close()
		}
	}
}
