package tournament

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"judge/judge"
)

// Progress reports how far a tournament is, and before it how far the
// bots are built: on a terminal one line rewritten in place, elsewhere a
// plain line every Interval (whether or not matches finish in it).
type Progress struct {
	W        io.Writer
	Terminal bool
	Interval time.Duration // between plain lines; 10s when zero

	// now is the clock (time.Now when nil); with a clock of its own, no
	// ticker prints lines between matches.
	now func() time.Time

	mu      sync.Mutex
	stop    chan struct{} // ends the ticker of plain lines
	built   int           // building: bots ready
	bots    int           // building: bots to build; 0 when not building
	lastBot string        // building: the last bot ready
	busy    []building    // building: the bots started and not ready, oldest first
	lines   int           // lines reported in this phase
	total   int
	done    int // matches finished in this run
	already int // matches found recorded
	start   time.Time
	last    time.Time
	points  map[string]float64
	played  map[string]int
	average bool
	shown   bool
	held    string // why new matches are held back, or ""
}

// building is a bot being made ready: its argument and since when.
type building struct {
	arg   string
	since time.Time
}

// shortArg is a bot argument as the progress names it: a path by its
// file's name, which says enough; a command line as it is.
func shortArg(arg string) string {
	if !strings.ContainsAny(arg, " \t") {
		return filepath.Base(arg)
	}
	return arg
}

// holding says why new matches are held back ("" when they are not), in
// the progress line; on a terminal the line is shown again at once.
func (p *Progress) holding(why string) {
	if p == nil || p.W == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.held == why {
		return
	}
	p.held = why
	if p.Terminal && !p.start.IsZero() {
		p.report(p.clock())
	}
}

// clock is the time now.
func (p *Progress) clock() time.Time {
	if p.now != nil {
		return p.now()
	}
	return time.Now()
}

// every is the time between two lines.
func (p *Progress) every() time.Duration {
	switch {
	case p.Terminal:
		return 200 * time.Millisecond
	case p.Interval > 0:
		return p.Interval
	}
	return 10 * time.Second
}

// ticking starts, when the lines are plain, the ticker that prints one
// every Interval, and on a terminal while bots build, the one that keeps
// the time of the slowest build current; end stops it.
func (p *Progress) ticking() {
	if p.Terminal && p.bots == 0 || p.stop != nil || p.now != nil {
		return
	}
	p.stop = make(chan struct{})
	stop, every := p.stop, p.every()
	go func() {
		tk := time.NewTicker(every)
		defer tk.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tk.C:
				p.tick()
			}
		}
	}()
}

// tick prints a plain line when none was printed for an Interval.
func (p *Progress) tick() {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.clock()
	if p.stop == nil || now.Sub(p.last) < p.every() {
		return
	}
	p.last = now
	p.report(now)
}

// building says that n bots are being made ready; built counts each.
func (p *Progress) building(n int) {
	if p == nil || p.W == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.bots, p.built, p.lastBot, p.busy, p.lines = n, 0, "", nil, 0
	p.start = p.clock()
	p.last = p.start
	p.ticking()
}

// startOne says that the bot of arg (as given) is being made ready.
func (p *Progress) startOne(arg string) {
	if p == nil || p.W == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.busy = append(p.busy, building{arg, p.clock()})
}

// builtOne counts one bot ready (arg as given) and maybe reports.
func (p *Progress) builtOne(arg string) {
	if p == nil || p.W == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.built++
	p.lastBot = shortArg(arg)
	for i, b := range p.busy {
		if b.arg == arg {
			p.busy = append(p.busy[:i], p.busy[i+1:]...)
			break
		}
	}
	now := p.clock()
	// The last one is said only after others were: quick builds (from
	// the cache) print nothing.
	if now.Sub(p.last) < p.every() && p.built < p.bots || p.built >= p.bots && p.lines == 0 {
		return
	}
	p.last = now
	p.report(now)
}

func (p *Progress) begin(total, already int, average bool) {
	if p == nil || p.W == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.bots, p.lines = 0, 0
	p.total, p.already, p.done, p.average = total, already, 0, average
	p.start = p.clock()
	p.last = p.start
	p.points = map[string]float64{}
	p.played = map[string]int{}
	p.ticking()
}

// count adds a match to the leader board (also for recorded ones).
func (p *Progress) count(r *MatchRecord) {
	if p == nil || p.W == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for i, pl := range r.Players {
		p.played[pl.Name]++
		if p.average {
			p.points[pl.Name] += pl.Score
		} else if r.Winner == i {
			p.points[pl.Name]++
		} else if r.Winner < 0 {
			p.points[pl.Name] += 0.5
		}
	}
}

// finished counts a match played in this run and maybe reports.
func (p *Progress) finished(r *MatchRecord) {
	if p == nil || p.W == nil {
		return
	}
	p.count(r)
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	now := p.clock()
	if now.Sub(p.last) < p.every() && p.already+p.done < p.total {
		return
	}
	p.last = now
	p.report(now)
}

// line is the progress line at now.
func (p *Progress) line(now time.Time) string {
	if p.bots > 0 {
		line := fmt.Sprintf("building %d bots: %d/%d", p.bots, p.built, p.bots)
		switch {
		case len(p.busy) > 0 && p.built < p.bots:
			// The slowest build is the one to wait for: named, with its time.
			b := p.busy[0]
			line += ", " + judge.PrintableLine(shortArg(b.arg))
			if n := len(p.busy) - 1; n > 0 {
				line += fmt.Sprintf(" (and %d more)", n)
			}
			line += fmt.Sprintf(" still building (%d s)", int(now.Sub(b.since).Seconds()))
		case p.lastBot != "":
			line += ", " + judge.PrintableLine(p.lastBot) + " ready"
		}
		return line
	}
	all := p.already + p.done
	el := now.Sub(p.start)
	rate := 0.0
	if el > 0 {
		rate = float64(p.done) / el.Seconds()
	}
	eta := "?"
	switch {
	case all >= p.total:
		eta = "0:00"
	case rate > 0:
		eta = fmtDuration(time.Duration(float64(p.total-all) / rate * float64(time.Second)))
	}
	pct := 100.0
	if p.total > 0 {
		pct = 100 * float64(all) / float64(p.total)
	}
	return fmt.Sprintf("%d/%d matches (%.0f%%)  %.1f/s  ETA %s  leader: %s", all, p.total, pct, rate, eta, p.leader())
}

func (p *Progress) report(now time.Time) {
	p.lines++
	line := p.line(now)
	if p.held != "" {
		line += "  (" + p.held + ")"
	}
	if p.Terminal {
		fmt.Fprintf(p.W, "\r%s\x1b[K", line)
		p.shown = true
	} else {
		fmt.Fprintln(p.W, line)
	}
}

// leader is the bot with the best rate so far: points per game (the
// average score in multiplayer games), ties to the more points.
func (p *Progress) leader() string {
	best, bestV, bestPts := "", 0.0, 0.0
	for name, pts := range p.points {
		if p.played[name] == 0 {
			continue
		}
		v := pts / float64(p.played[name])
		if best == "" || v > bestV || v == bestV && (pts > bestPts || pts == bestPts && name < best) {
			best, bestV, bestPts = name, v, pts
		}
	}
	if best == "" {
		return "-"
	}
	shown := judge.PrintableLine(best)
	if p.average {
		return fmt.Sprintf("%s (%.4g avg)", shown, bestV)
	}
	return fmt.Sprintf("%s (%g pts in %d)", shown, bestPts, p.played[best])
}

// end finishes the progress line.
func (p *Progress) end() {
	if p == nil || p.W == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stop != nil {
		close(p.stop)
		p.stop = nil
	}
	if p.Terminal && p.shown {
		p.report(p.clock())
		fmt.Fprintln(p.W)
		p.shown = false
	}
}

// say prints a message without breaking the progress line; what it
// quotes from bots is escaped (judge.Printable).
func (p *Progress) say(w io.Writer, format string, args ...any) {
	if w == nil {
		return
	}
	if p != nil && p.W != nil {
		p.mu.Lock()
		defer p.mu.Unlock()
		if p.Terminal && p.shown && p.W == w {
			fmt.Fprint(w, "\r\x1b[K")
			p.shown = false
		}
	}
	fmt.Fprint(w, judge.Printable(fmt.Sprintf(format, args...)))
}

func fmtDuration(d time.Duration) string {
	d = d.Round(time.Second)
	h := d / time.Hour
	m := (d % time.Hour) / time.Minute
	s := (d % time.Minute) / time.Second
	if h > 0 {
		return fmt.Sprintf("%d:%02d:%02d", h, m, s)
	}
	return fmt.Sprintf("%d:%02d", m, s)
}
