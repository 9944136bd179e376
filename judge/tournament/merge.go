package tournament

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"judge/judge"
)

// MergeOptions say what to merge and how patient to be.
type MergeOptions struct {
	Dirs []string // the shards' output directories
	Out  string   // where the merged results go
	// Partial merges what there is when matches are missing; otherwise a
	// merge with missing matches writes nothing and fails with an
	// *IncompleteError.
	Partial bool
	// Wait looks again every Poll until every match is recorded (or the
	// context ends): directories that do not exist yet, or hold no
	// tournament yet, are shards that have not started.
	Wait bool
	Poll time.Duration // default 5s
	Log  io.Writer     // notes for people: damaged records, what is awaited
}

// IncompleteError says that matches of the schedule are in none of the
// directories, or that directories hold no tournament yet.
type IncompleteError struct {
	Missing   int      // scheduled matches in none of the directories
	Scheduled int      // matches in the schedule (0 when no directory could be read)
	First     string   // the first missing match
	Empty     []string // directories that do not exist or hold no tournament
}

func (e *IncompleteError) Error() string {
	var parts []string
	if len(e.Empty) > 0 {
		parts = append(parts, fmt.Sprintf("no tournament recorded yet in %s", strings.Join(e.Empty, ", ")))
	}
	if e.Missing > 0 {
		parts = append(parts, fmt.Sprintf("%d of %d matches are in none of the directories (first: %s)", e.Missing, e.Scheduled, e.First))
	}
	return "incomplete: " + strings.Join(parts, "; ") + ": wait for the shards to finish, run the missing ones again, or merge with --partial"
}

// MismatchError says that a directory holds another tournament than the
// first one: another game, parameters, seed or format, other bots (names
// or hashes), other rounds, or bots run at another sandbox level.
type MismatchError struct {
	Dir, Shard string // the directory that differs, and the shard it ran
	Ref        string // the directory it was compared with
	What       string // what differs
}

func (e *MismatchError) Error() string {
	if e.Ref == e.Dir {
		return fmt.Sprintf("%s (shard %s) cannot be merged: %s", e.Dir, e.Shard, e.What)
	}
	return fmt.Sprintf("%s (shard %s) cannot be merged with %s: %s", e.Dir, e.Shard, e.Ref, e.What)
}

// shardData is what one directory holds.
type shardData struct {
	dir    string
	header *Header
	run    *RunInfo // the last run record
	recs   []*MatchRecord
	bad    int
}

// mergeSet is what the directories hold together, checked for agreement.
type mergeSet struct {
	h       *Header
	run     *RunInfo
	recs    []*MatchRecord
	srcOf   map[string]string // match ID → directory holding its replay
	ids     map[string]bool   // the matches that belong to the tournament
	sched   int               // how many it has
	missing []string          // scheduled but in no directory
	empty   []string          // directories with no tournament yet
	bad     []string          // notes on damaged records
}

// note writes the notes on damaged records.
func (m *mergeSet) note(log io.Writer) {
	if log == nil {
		return
	}
	for _, b := range m.bad {
		fmt.Fprintln(log, judge.Printable(b))
	}
}

// readShard reads one directory; a missing directory or log, or a log
// with no header or run record yet, is reported as empty (nil, nil).
func readShard(dir string) (*shardData, error) {
	all, bad, err := ReadLog(filepath.Join(dir, LogName))
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, nil
		}
		return nil, err
	}
	s := &shardData{dir: dir, bad: bad}
	levels := map[string]bool{}
	for _, r := range all {
		switch r.Kind {
		case KindHeader:
			if s.header == nil {
				s.header = r.Header
			}
		case KindRun:
			s.run = r.Run
			if r.Run.Sandbox != "" { // logs written before levels were recorded
				levels[r.Run.Sandbox] = true
			}
		case KindMatch:
			s.recs = append(s.recs, r.Match)
		}
	}
	if s.header == nil || s.run == nil {
		return nil, nil
	}
	if len(levels) > 1 {
		return nil, &MismatchError{Dir: dir, Shard: s.run.Shard.String(), Ref: dir,
			What: fmt.Sprintf("its runs were at different sandbox levels (%s)", strings.Join(slices.Sorted(maps.Keys(levels)), ", "))}
	}
	return s, nil
}

// gather reads every directory, checks that they hold one tournament,
// and finds what is missing.
func gather(dirs []string) (*mergeSet, error) {
	m := &mergeSet{srcOf: map[string]string{}, ids: map[string]bool{}}
	var first *shardData
	for _, d := range dirs {
		s, err := readShard(d)
		if err != nil {
			return nil, err
		}
		if s == nil {
			m.empty = append(m.empty, d)
			continue
		}
		if s.bad > 0 {
			m.bad = append(m.bad, fmt.Sprintf("%s: %d damaged record(s) ignored", filepath.Join(d, LogName), s.bad))
		}
		if first == nil {
			first = s
			m.h, m.run = s.header, s.run
		} else {
			what := ""
			if diff := headerDiff(s.header, first.header); diff != "" {
				what = "another tournament: " + diff
			} else if diff := runDiff(s.run, first.run); diff != "" {
				what = diff
			} else if s.run.Sandbox != first.run.Sandbox {
				what = fmt.Sprintf("its bots ran at sandbox level %s, not %s (the level changes what a bot may do: run every shard at one level, with --sandbox)",
					levelName(s.run.Sandbox), levelName(first.run.Sandbox))
			}
			if what != "" {
				return nil, &MismatchError{Dir: d, Shard: s.run.Shard.String(), Ref: first.dir, What: what}
			}
		}
		for _, r := range s.recs {
			if _, dup := m.srcOf[r.ID]; dup {
				continue
			}
			m.srcOf[r.ID] = d
			m.recs = append(m.recs, r)
		}
	}
	if first == nil {
		return m, nil
	}

	names := m.names()
	// The schedule says which matches belong and how many there are.
	if m.h.Format != Swiss {
		testBot := -1
		if m.h.TestBot != "" {
			testBot = slices.Index(names, m.h.TestBot)
		}
		plan := Plan{Format: m.h.Format, Names: names, Rounds: m.run.Rounds, Seed: m.h.Seed, TestBot: testBot, GroupSize: m.h.GroupSize}
		sched, err := plan.Schedule()
		if err != nil {
			return nil, err
		}
		for _, f := range sched {
			m.ids[f.ID] = true
			if _, ok := m.srcOf[f.ID]; !ok {
				m.missing = append(m.missing, f.ID)
			}
		}
		m.sched = len(sched)
	} else {
		// Each round's pairings depend on the results before: which
		// matches are missing cannot be named, only counted.
		for id := range m.srcOf {
			m.ids[id] = true
		}
		m.sched = len(names) / 2 * 2 * m.run.Rounds
		for i := len(m.ids); i < m.sched; i++ {
			m.missing = append(m.missing, "a match of a later round")
		}
	}
	return m, nil
}

func (m *mergeSet) names() []string {
	names := make([]string, len(m.run.Entrants))
	for i, e := range m.run.Entrants {
		names[i] = e.Name
	}
	return names
}

func (m *mergeSet) incomplete() *IncompleteError {
	if len(m.missing) == 0 && len(m.empty) == 0 {
		return nil
	}
	e := &IncompleteError{Missing: len(m.missing), Scheduled: m.sched, Empty: m.empty}
	if len(m.missing) > 0 {
		e.First = m.missing[0]
	}
	return e
}

// Merge combines the output directories of a tournament's shards (or of
// any runs of the same tournament) into o.Out: one results log with every
// match once, the replays, and standings equal to those of a single run.
// It fails with a *MismatchError when the directories hold different
// tournaments, bots or sandbox levels, and with an *IncompleteError when
// matches are missing (unless o.Partial), writing nothing in either case.
func Merge(ctx context.Context, o MergeOptions) (*Standings, error) {
	if len(o.Dirs) == 0 {
		return nil, errors.New("no directories to merge")
	}
	absOut, _ := filepath.Abs(o.Out)
	for _, d := range o.Dirs {
		if a, _ := filepath.Abs(d); a == absOut {
			return nil, fmt.Errorf("%s is both an input and the output", d)
		}
	}
	poll := o.Poll
	if poll <= 0 {
		poll = 5 * time.Second
	}
	said := ""
	for {
		m, err := gather(o.Dirs)
		if err != nil {
			return nil, err
		}
		inc := m.incomplete()
		if inc == nil {
			m.note(o.Log)
			return m.write(o.Out)
		}
		if o.Wait && ctx.Err() == nil {
			msg := fmt.Sprintf("waiting: %d of %d matches missing, %d of %d directories without a tournament yet", inc.Missing, inc.Scheduled, len(inc.Empty), len(o.Dirs))
			if msg != said && o.Log != nil {
				fmt.Fprintln(o.Log, msg)
				said = msg
			}
			select {
			case <-ctx.Done():
			case <-time.After(poll):
			}
			continue
		}
		m.note(o.Log)
		if !o.Partial || m.h == nil {
			return nil, inc
		}
		if o.Log != nil {
			fmt.Fprintf(o.Log, "partial merge: %s\n", judge.Printable(strings.TrimPrefix(inc.Error(), "incomplete: ")))
		}
		return m.write(o.Out)
	}
}

// write writes the merged log, replays and standings into out.
func (m *mergeSet) write(out string) (*Standings, error) {
	store, _, err := OpenStore(out)
	if err != nil {
		return nil, err
	}
	defer store.Close()
	if old := store.Header(); old != nil {
		if diff := headerDiff(old, m.h); diff != "" {
			return nil, fmt.Errorf("%s holds another tournament (%s)", out, diff)
		}
	} else if err := store.Append(&Record{Kind: KindHeader, Header: m.h}); err != nil {
		return nil, err
	}
	merged := *m.run
	merged.Shard = Shard{}
	if err := store.Append(&Record{Kind: KindRun, Run: &merged}); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Join(out, "replays"), 0o755); err != nil {
		return nil, err
	}
	sortRecords(m.recs)
	var kept []*MatchRecord
	for _, r := range m.recs {
		if !m.ids[r.ID] {
			continue
		}
		kept = append(kept, r)
		if store.Match(r.ID) != nil {
			continue
		}
		if r.Replay != "" {
			if err := linkOrCopy(filepath.Join(m.srcOf[r.ID], r.Replay), filepath.Join(out, r.Replay)); err != nil {
				return nil, err
			}
		}
		if err := store.Append(&Record{Kind: KindMatch, Match: r}); err != nil {
			return nil, err
		}
	}
	st := ComputeStandings(m.h, m.names(), m.run.Excluded, kept, m.sched)
	if err := st.Write(out); err != nil {
		return st, err
	}
	return st, nil
}

// levelName is a recorded sandbox level for people.
func levelName(l string) string {
	if l == "" {
		return "(not recorded)"
	}
	return l
}

// runDiff names the first difference between two runs' bots and rounds.
func runDiff(a, b *RunInfo) string {
	if a.Rounds != b.Rounds {
		return fmt.Sprintf("%d rounds, not %d", a.Rounds, b.Rounds)
	}
	if len(a.Entrants) != len(b.Entrants) {
		return fmt.Sprintf("%d bots, not %d", len(a.Entrants), len(b.Entrants))
	}
	for i := range a.Entrants {
		if a.Entrants[i] != b.Entrants[i] {
			return fmt.Sprintf("bot %d is %s (%.12s), not %s (%.12s)", i+1, a.Entrants[i].Name, a.Entrants[i].SHA256, b.Entrants[i].Name, b.Entrants[i].SHA256)
		}
	}
	return ""
}

// linkOrCopy puts a copy of from at to: a hard link when it can.
func linkOrCopy(from, to string) error {
	if _, err := os.Stat(to); err == nil {
		return nil
	}
	if err := os.Link(from, to); err == nil {
		return nil
	}
	data, err := os.ReadFile(from)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil // a replay lost with its disk: the record still counts
		}
		return err
	}
	return writeFileNoDirSync(to, data)
}
