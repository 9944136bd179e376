package tournament

import (
	"bufio"
	"errors"
	"io"
	"io/fs"
)

// Live is what a tournament's directory says about it, read while the
// tournament may still be running: the standings of the matches recorded
// so far, the matches, and how many are scheduled.
type Live struct {
	Header    *Header        `json:"header"`
	Standings *Standings     `json:"standings"`
	Matches   []*MatchRecord `json:"matches"`   // in the order they were recorded
	Scheduled int            `json:"scheduled"` // matches in the schedule of the runs recorded; 0 if unknown
	Damaged   int            `json:"damaged"`   // lines of the log that do not check (a torn last line while a match is written)
}

// ReadLive reads the results log of the tournament directory fsys (it
// takes nothing but LogName from it) without changing or locking it. A
// directory with no log yet gives a Live with no header.
func ReadLive(fsys fs.FS) (*Live, error) {
	f, err := fsys.Open(LogName)
	if errors.Is(err, fs.ErrNotExist) {
		return &Live{}, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	l := &Live{}
	var runs []*RunInfo
	seen := map[string]bool{}
	br := bufio.NewReader(f)
	for {
		ln, err := br.ReadBytes('\n')
		if len(ln) > 0 {
			if ln[len(ln)-1] != '\n' {
				l.Damaged++
			} else if r, derr := decodeLine(ln[:len(ln)-1]); derr != nil {
				l.Damaged++
			} else {
				switch r.Kind {
				case KindHeader:
					if l.Header == nil {
						l.Header = r.Header
					}
				case KindRun:
					runs = append(runs, r.Run)
				case KindMatch:
					if !seen[r.Match.ID] {
						seen[r.Match.ID] = true
						l.Matches = append(l.Matches, r.Match)
					}
				}
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	if l.Header == nil {
		return l, nil
	}
	// The entrants of every run, in the order they first appear.
	var names []string
	known := map[string]bool{}
	var excluded []Excluded
	for _, r := range runs {
		for _, e := range r.Entrants {
			if !known[e.Name] {
				known[e.Name] = true
				names = append(names, e.Name)
			}
		}
		excluded = r.Excluded
	}
	l.Scheduled = scheduled(l.Header, names, runs)
	l.Standings = ComputeStandings(l.Header, names, excluded, l.Matches, l.Scheduled)
	return l, nil
}

// scheduled counts the matches the recorded runs schedule, or 0 when the
// runs do not say.
func scheduled(h *Header, names []string, runs []*RunInfo) int {
	if len(runs) == 0 {
		return 0
	}
	last := runs[len(runs)-1]
	if h.Format == Swiss {
		return len(names) / 2 * 2 * last.Rounds
	}
	testBot := -1
	for i, n := range names {
		if n == h.TestBot {
			testBot = i
		}
	}
	plan := Plan{Format: h.Format, Names: names, Rounds: last.Rounds, Seed: h.Seed, TestBot: testBot, GroupSize: h.GroupSize}
	sched, err := plan.Schedule()
	if err != nil {
		return 0
	}
	n := 0
	for _, f := range sched {
		for _, r := range runs {
			if r.Shard.has(f.Index) {
				n++
				break
			}
		}
	}
	return n
}
