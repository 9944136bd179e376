package procbot

import (
	"fmt"
	"os"
	"runtime"
	"sync"
	"time"

	"judge/sandbox"
)

// HardCap bounds a turn in wall-clock time, at this multiple of its
// limit, for a bot that sleeps or waits for what never comes: it uses no
// CPU, so its own time may look short (the judge's lateness is credited
// to it). What the bot provably could not use is not counted: its wait
// for a CPU (its own threads' schedstat) and the judge's time with its
// line in hand. A bot asleep earns neither; a bot the judge or the
// machine kept from running is not cut for it.
const HardCap = 3

// clock tells a bot's own time in a turn from the time the machine kept
// it waiting: runnable but kept from every CPU by other programs (from
// schedstat, see machineWait), or waiting for the judge to answer it.
type clock struct {
	start    time.Time
	cpu0     time.Duration // the sandbox's CPU time at the start
	cpuKnown bool
	// Each thread's times at the start, and a map to read them again.
	at0, at    map[int]sandbox.Times
	schedKnown bool
	// cpus is how many CPUs the bot's threads may use at once: 1 once
	// OneCPU pins the match, else the judge's.
	cpus    int
	threads []sandbox.Times // scratch for measure
	judge   time.Duration   // the judge's time with a line of the bot's in hand
	// Whether the judge holds one, and since when (since start: one
	// reading of the monotonic clock, where time.Now takes two).
	holding bool
	busy    time.Duration
	self0   time.Duration // the judge's own threads' run-queue time at the start
	self    *selfWaits    // the Host's measure of it
}

func (c *clock) begin(proc *sandbox.Process) {
	if c.at0 == nil {
		c.at0, c.at = map[int]sandbox.Times{}, map[int]sandbox.Times{}
	}
	if c.cpus == 0 {
		c.cpus = runtime.NumCPU()
	}
	c.judge = 0
	c.self0 = c.self.queued()
	_, err := proc.WaitedBy(c.at0)
	c.schedKnown = err == nil
	c.cpu0, err = proc.CPUTime()
	c.cpuKnown = err == nil
	c.start = time.Now()
	// Until the judge first reads, the bot waits for it: its first line
	// is written already, or it is frozen.
	c.holding, c.busy = true, 0
}

// judgeBusy: the judge has a line of the bot's to handle.
func (c *clock) judgeBusy() { c.holding, c.busy = true, time.Since(c.start) }

// judgeDone: the judge is ready for the bot's next line.
func (c *clock) judgeDone() {
	if c.holding {
		c.judge += time.Since(c.start) - c.busy
		c.holding = false
	}
}

// judgeLate counts d as the judge's time: it looked at the bot's output
// d after it meant to, and found a line there.
func (c *clock) judgeLate(d time.Duration) { c.judge += max(0, d) }

// late is the run-queue time of the judge's own threads so far in the
// turn: while the judge waits for a CPU, a bot waiting for its answer
// waits for the machine. (It counts every match of this judge: the bot
// gets the benefit of the doubt, within the bound of figures.)
func (c *clock) late() time.Duration { return max(0, c.self.queued()-c.self0) }

// judging is the judge's time with the bot's lines in hand, the line it
// holds now included.
func (c *clock) judging() time.Duration {
	if !c.holding {
		return c.judge
	}
	return c.judge + time.Since(c.start) - c.busy
}

// figures are a turn's times so far.
type figures struct {
	wall      time.Duration // since the start of the turn
	cpu       time.Duration // the bot's CPU time in the turn (all its threads and processes)
	cpuWait   time.Duration // the machine kept it waiting for a CPU
	judgeWait time.Duration // it waited for the judge
	held      time.Duration // the part of judgeWait the judge held its line (judging)
	cpuAt     time.Duration // the sandbox's CPU time now, and its error
	cpuErr    error
}

// own is the bot's own time: what counts against its limit.
func (f figures) own() time.Duration { return f.wall - f.cpuWait - f.judgeWait }

// measure reads the turn's figures so far.
func (c *clock) measure(proc *sandbox.Process) figures {
	var f figures
	f.cpuAt, f.cpuErr = proc.CPUTime()
	f.wall = time.Since(c.start)
	if f.cpuErr == nil && c.cpuKnown {
		f.cpu = max(0, f.cpuAt-c.cpu0)
	}
	d := c.threads[:0]
	if c.schedKnown {
		if _, err := proc.WaitedBy(c.at); err == nil {
			for tid, t := range c.at {
				t0 := c.at0[tid] // zero for a thread new since the start
				d = append(d, sandbox.Times{Ran: t.Ran - t0.Ran, Waited: t.Waited - t0.Waited})
			}
		}
	}
	c.threads = d
	if !proc.CountsAll() {
		// The CPU time read is the program's own: its children's
		// threads are counted from their schedstat.
		var ran time.Duration
		for _, t := range d {
			ran += max(0, t.Ran)
		}
		f.cpu = max(f.cpu, ran)
	}
	held := c.judging()
	f.cpuWait, f.judgeWait = credit(machineWait(d, f.cpu, f.wall), held+c.late(), f.wall, f.cpu, min(c.cpus, max(1, len(d))))
	f.held = min(held, f.judgeWait)
	return f
}

// capped is the wall time that counts against HardCap: the turn's less
// what the bot provably could not use.
func (f figures) capped() time.Duration { return f.wall - f.cpuWait - f.held }

// machineWait is how long, at least, the machine kept the bot waiting
// for a CPU in a turn of wall time wall: how long at least one of its
// threads was runnable while none of them ran. threads are what each of
// its threads did in the turn (time on a CPU, time waiting for one), cpu
// its CPU time in the turn, threads that ended included.
//
// The kernel counts a thread's wait for a CPU whatever it waits behind:
// another program, or another thread of the same bot. Summed over the
// threads it passes the wall time: three threads spinning on one CPU
// each wait two thirds of the turn, and a bot would buy itself time by
// starting threads. So the sum is not used. Instead: the time in which
// at least one thread of the bot was runnable is at least the longest
// Ran+Waited of a single thread, and the time in which at least one ran
// is at most its CPU time; the difference is a lower bound of the time
// in which the bot wanted a CPU and had none. For a bot of one thread it
// is exactly its wait. A bot whose threads keep each other waiting gets
// nothing for it, however many it starts; what its threads compute is
// its own time. On a machine that is late, a bot of several threads is
// credited less than it waited while some of its threads ran and others
// waited: the judge errs on the side of the bots that play fair.
func machineWait(threads []sandbox.Times, cpu, wall time.Duration) time.Duration {
	var longest time.Duration
	for _, t := range threads {
		// A thread listed only now counts with all it did before: at
		// most the turn.
		longest = max(longest, min(t.Ran+t.Waited, wall))
	}
	return max(0, longest-cpu)
}

// credit is the time the bot is not charged for, as waiting for a CPU
// (cpuWait, from machineWait) and for the judge (judgeWait, the judge's
// time with its lines in hand and the judge's own wait for a CPU, which
// it measures over all its threads). Together they are at most the time
// in which none of the bot's threads ran: wall less its CPU time spread
// over the cpus it could use at once. So a reason's figures add up, and
// a bot's own time is never less than its CPU time is long.
func credit(cpuWait, judgeWait, wall, cpu time.Duration, cpus int) (time.Duration, time.Duration) {
	room := max(0, wall-cpu/time.Duration(max(1, cpus)))
	cpuWait = min(max(0, cpuWait), room)
	judgeWait = min(max(0, judgeWait), room-cpuWait)
	return cpuWait, judgeWait
}

// selfWaits measures the run-queue time of every thread of the judge:
// its schedstat files kept open (the Go runtime starts threads seldom,
// they are listed again after a while, Relist), and the last reading.
type selfWaits struct {
	w sandbox.Waits

	mu   sync.Mutex
	at   time.Time
	last time.Duration
}

// queued is the run-queue time of every thread of the judge so far
// (schedstat's second field), or 0 where it cannot be read.
func (s *selfWaits) queued() time.Duration {
	// Five bots moving at once ask for it ten times a turn within a
	// moment: a reading serves for selfFresh.
	s.mu.Lock()
	defer s.mu.Unlock()
	if now := time.Now(); now.Sub(s.at) > selfFresh {
		s.last, _ = s.w.Of(os.Getpid())
		s.at = now
	}
	return s.last
}

// close closes the files kept open.
func (s *selfWaits) close() { s.w.Close() }

// selfFresh is how long a reading of the judge's own run-queue time is
// used again: what a turn's clock may miss of the judge's lateness.
const selfFresh = 200 * time.Microsecond

// selfRelist is how often the judge's own threads are listed again.
const selfRelist = 100 * time.Millisecond

// extend gives the turn a later deadline when the bot has not used its
// limit of its own time, within the hard cap.
func (p *Player) extend() (time.Time, bool) {
	f := p.clock.measure(p.proc)
	now := p.clock.start.Add(f.wall)
	hard := now.Add(HardCap*p.turn.Limit - f.capped())
	if !now.Before(hard) {
		return time.Time{}, false
	}
	own := f.own()
	if own >= p.turn.Limit {
		return time.Time{}, false
	}
	d := now.Add(p.turn.Limit - own)
	if d.After(hard) {
		d = hard
	}
	return d, true
}

// timeoutReason says what the bot did not do in time, with the figures:
// the waits are parts of the wall time, and the bot's own time is what
// is left.
func (p *Player) timeoutReason(what string) string {
	f := p.clock.measure(p.proc)
	r := fmt.Sprintf("%s within %v of its own time", what, p.turn.Limit)
	if f.capped() >= HardCap*p.turn.Limit {
		r = fmt.Sprintf("%s within %v, %d× its limit, of wall-clock time not spent waiting for a CPU or the judge", what, HardCap*p.turn.Limit, HardCap)
	}
	ms := func(d time.Duration) time.Duration { return d.Round(time.Millisecond) }
	r += fmt.Sprintf(" (%v in all, of which %v waiting for a CPU and %v for the judge", ms(f.wall), ms(f.cpuWait), ms(f.judgeWait))
	if f.cpuErr == nil && p.clock.cpuKnown {
		r += fmt.Sprintf("; it used %v of CPU", ms(f.cpu))
	}
	return r + ")"
}
