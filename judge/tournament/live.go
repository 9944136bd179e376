package tournament

import (
	"bufio"
	"errors"
	"io"
	"io/fs"
	"math"
	"sort"

	"judge/judge/standings"
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
	var (
		runs []*RunInfo
		all  []*MatchRecord
		fill filler
	)
	br := bufio.NewReader(f)
	for {
		ln, err := br.ReadBytes('\n')
		if len(ln) > 0 {
			if ln[len(ln)-1] != '\n' {
				l.Damaged++
			} else if r, derr := decodeLine(ln[:len(ln)-1]); derr != nil {
				l.Damaged++
			} else {
				fill.fill(r)
				switch r.Kind {
				case KindHeader:
					if l.Header == nil {
						l.Header = r.Header
					}
				case KindRun:
					runs = append(runs, r.Run)
				case KindMatch:
					all = append(all, r.Match)
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
	// The entrants are the last run's: a bot since removed is not in the
	// table, and the matches that count are those played by the programs
	// it names (a changed bot's are played again), each once.
	var (
		names    []string
		excluded []Excluded
		skipped  []Excluded
		hash     = map[string]string{}
	)
	if len(runs) > 0 {
		last := runs[len(runs)-1]
		for _, e := range last.Entrants {
			names = append(names, e.Name)
		}
		hash, excluded, skipped = last.hashes(), last.Excluded, last.Skipped
	}
	latest := map[string]*MatchRecord{}
	for _, m := range all {
		if m.playedBy(hash) {
			latest[m.ID] = m
		}
	}
	for _, m := range all {
		if latest[m.ID] == m {
			l.Matches = append(l.Matches, m)
		}
	}
	l.Scheduled = scheduled(l.Header, names, runs)
	l.Standings = ComputeStandings(l.Header, names, excluded, l.Matches, l.Scheduled)
	l.Standings.Skipped = skipped
	if l.Standings.Matches < l.Scheduled {
		byRate(l.Standings.Standings, l.Standings.ScoreKind == "average")
	}
	return l, nil
}

// byRate ranks the rows of standings still being played by a rate, not
// by raw points, which favour the bots that happen to have played more:
// points per game (the average score of multiplayer games already is
// one), then rating, then name. Bots that have not played come last.
func byRate(rows []standings.Standing, average bool) {
	rate := func(r standings.Standing) float64 {
		if r.Played == 0 {
			return math.Inf(-1)
		}
		if average {
			return r.Score
		}
		return r.Points / float64(r.Played)
	}
	sort.SliceStable(rows, func(a, b int) bool {
		ra, rb := rate(rows[a]), rate(rows[b])
		if ra != rb {
			return ra > rb
		}
		if rows[a].Rating != rows[b].Rating {
			return rows[a].Rating > rows[b].Rating
		}
		return rows[a].Name < rows[b].Name
	})
	for i := range rows {
		rows[i].Rank = i + 1
	}
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
