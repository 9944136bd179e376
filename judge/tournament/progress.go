package tournament

import (
	"fmt"
	"io"
	"sync"
	"time"

	"judge/judge"
)

// Progress reports how far a tournament is: on a terminal one line
// rewritten in place, elsewhere a plain line every Interval.
type Progress struct {
	W        io.Writer
	Terminal bool
	Interval time.Duration // between plain lines; 10s when zero

	mu      sync.Mutex
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
		p.report(time.Now())
	}
}

func (p *Progress) begin(total, already int, average bool) {
	if p == nil || p.W == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.total, p.already, p.average = total, already, average
	p.start = time.Now()
	p.last = p.start
	p.points = map[string]float64{}
	p.played = map[string]int{}
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
	now := time.Now()
	every := p.Interval
	if every <= 0 {
		every = 10 * time.Second
	}
	if p.Terminal {
		every = 200 * time.Millisecond
	}
	if now.Sub(p.last) < every && p.already+p.done < p.total {
		return
	}
	p.last = now
	p.report(now)
}

func (p *Progress) report(now time.Time) {
	all := p.already + p.done
	el := now.Sub(p.start)
	rate := 0.0
	if el > 0 {
		rate = float64(p.done) / el.Seconds()
	}
	eta := "?"
	if rate > 0 {
		eta = fmtDuration(time.Duration(float64(p.total-all) / rate * float64(time.Second)))
	}
	pct := 100.0
	if p.total > 0 {
		pct = 100 * float64(all) / float64(p.total)
	}
	line := fmt.Sprintf("%d/%d matches (%.0f%%)  %.1f/s  ETA %s  leader: %s", all, p.total, pct, rate, eta, p.leader())
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

func (p *Progress) leader() string {
	best, bestV := "", 0.0
	for name, pts := range p.points {
		v := pts
		if p.average && p.played[name] > 0 {
			v /= float64(p.played[name])
		}
		if best == "" || v > bestV || v == bestV && name < best {
			best, bestV = name, v
		}
	}
	if best == "" {
		return "-"
	}
	best = judge.PrintableLine(best)
	if p.average {
		return fmt.Sprintf("%s (%.4g avg)", best, bestV)
	}
	return fmt.Sprintf("%s (%g pts)", best, bestV)
}

// end finishes the progress line.
func (p *Progress) end() {
	if p == nil || p.W == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.Terminal && p.shown {
		p.report(time.Now())
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
