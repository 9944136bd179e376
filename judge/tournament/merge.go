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
	"strconv"
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
// directories, or that directories hold no tournament yet, and, shard by
// shard, how to play what is missing.
type IncompleteError struct {
	Missing   int        // scheduled matches in none of the directories
	Scheduled int        // matches in the schedule (0 when no directory could be read)
	First     string     // the first missing match
	Empty     []string   // directories that do not exist or hold no tournament
	Shards    []ShardGap // the shards with matches missing, in the order of the directories
}

// ShardGap is a shard with matches missing, and how to play them.
type ShardGap struct {
	Dir     string // its directory; "" when none of those given is for it
	Shard   Shard  // the zero Shard when it cannot be known (a directory with no tournament yet)
	Missing int    // its matches in none of the directories
	Empty   bool   // Dir does not exist or holds no tournament yet
	// Command is a shell command line that plays the missing matches:
	// the one the shard was played with (resuming plays only what is
	// missing), or for a shard not started, another shard's with its
	// --shard and --out. "" when no command was recorded.
	Command string
}

func (e *IncompleteError) Error() string {
	var parts []string
	if len(e.Empty) > 0 {
		parts = append(parts, fmt.Sprintf("no tournament recorded yet in %s", strings.Join(e.Empty, ", ")))
	}
	if e.Missing > 0 {
		parts = append(parts, fmt.Sprintf("%d of %d matches are in none of the directories (first: %s)", e.Missing, e.Scheduled, e.First))
	}
	return "incomplete: " + strings.Join(parts, "; ") + ": wait for the shards to finish, run the missing ones again, or merge with --partial" + gapLines(e.Shards)
}

// gapLines are the lines that say, shard by shard, what is missing and
// the command that plays it.
func gapLines(gaps []ShardGap) string {
	var b strings.Builder
	for _, g := range gaps {
		b.WriteString("\n  ")
		switch {
		case g.Dir == "":
			fmt.Fprintf(&b, "shard %s: %s in none of the directories given", g.Shard, matches(g.Missing))
		case g.Empty && g.Shard.Count == 0:
			fmt.Fprintf(&b, "%s: no tournament recorded yet, and which shard it is for is not known", g.Dir)
		case g.Empty:
			fmt.Fprintf(&b, "%s (shard %s): no tournament recorded yet, %s", g.Dir, g.Shard, matches(g.Missing))
		default:
			fmt.Fprintf(&b, "%s (shard %s): %s missing", g.Dir, g.Shard, matches(g.Missing))
		}
		switch {
		case g.Command == "":
		case g.Empty:
			fmt.Fprintf(&b, "; to play them:\n    %s", g.Command)
		default:
			fmt.Fprintf(&b, "; unless it is being played, resume it (only what is missing is played):\n    %s", g.Command)
		}
	}
	return b.String()
}

func matches(n int) string {
	if n == 1 {
		return "1 match"
	}
	return fmt.Sprintf("%d matches", n)
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
	// settings are what its runs recorded, each setting's value from the
	// runs that record it (they agree).
	settings map[string]string
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
	missIdx []int             // their positions in the schedule (-1: not known)
	dirs    []string          // the directories, as given
	read    []*shardData      // those that hold a tournament, in that order
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
	s := &shardData{dir: dir, bad: bad, settings: map[string]string{}}
	levels := map[string]bool{}
	values := map[string]map[string]bool{}
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
			for k, v := range r.Run.Settings {
				if values[k] == nil {
					values[k] = map[string]bool{}
				}
				values[k][v] = true
				s.settings[k] = v
			}
		case KindMatch:
			s.recs = append(s.recs, r.Match)
		}
	}
	if s.header == nil || s.run == nil {
		return nil, nil
	}
	s.recs = currentOnly(s.recs, s.run.hashes())
	if len(levels) > 1 {
		return nil, &MismatchError{Dir: dir, Shard: s.run.Shard.String(), Ref: dir,
			What: fmt.Sprintf("its runs were at different sandbox levels (%s)", strings.Join(slices.Sorted(maps.Keys(levels)), ", "))}
	}
	for _, k := range slices.Sorted(maps.Keys(values)) {
		if len(values[k]) > 1 {
			var vs []string
			for _, v := range slices.Sorted(maps.Keys(values[k])) {
				vs = append(vs, show(v, true))
			}
			return nil, &MismatchError{Dir: dir, Shard: s.run.Shard.String(), Ref: dir,
				What: fmt.Sprintf("its runs were played with different %s (%s)", k, strings.Join(vs, ", "))}
		}
	}
	return s, nil
}

// currentOnly keeps of recs the latest record of each match played by
// the programs of hash, in the order they were written: the records of a
// bot's program that has since changed are left out, never mixed with
// those of its new one.
func currentOnly(recs []*MatchRecord, hash map[string]string) []*MatchRecord {
	latest := map[string]*MatchRecord{}
	for _, r := range recs {
		if r.playedBy(hash) {
			latest[r.ID] = r
		}
	}
	var out []*MatchRecord
	for _, r := range recs {
		if latest[r.ID] == r {
			out = append(out, r)
		}
	}
	return out
}

// gather reads every directory, checks that they hold one tournament,
// and finds what is missing.
func gather(dirs []string) (*mergeSet, error) {
	m := &mergeSet{srcOf: map[string]string{}, ids: map[string]bool{}, dirs: dirs}
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
		m.read = append(m.read, s)
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
			} else if diff := runDiff(s.run, first.run, first.dir); diff != "" {
				what = diff
			} else if s.run.Sandbox != first.run.Sandbox {
				what = fmt.Sprintf("its bots ran at sandbox level %s, not %s (the level changes what a bot may do: run every shard at one level, with --sandbox)",
					levelName(s.run.Sandbox), levelName(first.run.Sandbox))
			} else if diff := settingsDiff(s.settings, first.settings, first.dir); diff != "" {
				what = diff
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
				m.missIdx = append(m.missIdx, f.Index)
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
			m.missIdx = append(m.missIdx, -1)
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
	e := &IncompleteError{Missing: len(m.missing), Scheduled: m.sched, Empty: m.empty, Shards: m.gaps()}
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
			msg := fmt.Sprintf("waiting: %d of %d matches missing, %d of %d directories without a tournament yet", inc.Missing, inc.Scheduled, len(inc.Empty), len(o.Dirs)) +
				gapLines(inc.Shards)
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
			msg := inc.Error()
			msg, _, _ = strings.Cut(msg, "\n") // not how to play them
			fmt.Fprintf(o.Log, "partial merge: %s\n", judge.Printable(strings.TrimPrefix(msg, "incomplete: ")))
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
	merged.Command, merged.Dir = nil, ""
	if err := store.Append(&Record{Kind: KindRun, Run: &merged}); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Join(out, "replays"), 0o755); err != nil {
		return nil, err
	}
	sortRecords(m.recs)
	hash := m.run.hashes()
	var kept []*MatchRecord
	for _, r := range m.recs {
		if !m.ids[r.ID] {
			continue
		}
		kept = append(kept, r)
		if store.Current(r.ID, hash) != nil {
			continue
		}
		src := m.srcOf[r.ID]
		if store.Match(r.ID) != nil && r.Replay != "" {
			// out holds the match played by a bot's earlier program:
			// its replay stays, and this one goes beside it.
			c := *r
			c.Replay = filepath.Join("replays", r.ID+"."+seatsHash(r.SHA256)+".json")
			if err := linkOrCopy(filepath.Join(src, r.Replay), filepath.Join(out, c.Replay)); err != nil {
				return nil, err
			}
			if err := store.Append(&Record{Kind: KindMatch, Match: &c}); err != nil {
				return nil, err
			}
			continue
		}
		if r.Replay != "" {
			if err := linkOrCopy(filepath.Join(src, r.Replay), filepath.Join(out, r.Replay)); err != nil {
				return nil, err
			}
		}
		if err := store.Append(&Record{Kind: KindMatch, Match: r}); err != nil {
			return nil, err
		}
	}
	st := ComputeStandings(m.h, m.names(), m.run.Excluded, kept, m.sched)
	st.Skipped = m.run.Skipped
	if err := st.Write(out); err != nil {
		return st, err
	}
	return st, nil
}

// runtimeName is a recorded runtime for people.
func runtimeName(r string) string {
	if r == "" {
		return "no recorded runtime"
	}
	return fmt.Sprintf("%q", r)
}

// levelName is a recorded sandbox level for people.
func levelName(l string) string {
	if l == "" {
		return "(not recorded)"
	}
	return l
}

// runDiff names the first difference between two runs' bots (their
// names, hashes and runtimes) and rounds; b is ref's.
func runDiff(a, b *RunInfo, ref string) string {
	if a.Rounds != b.Rounds {
		return fmt.Sprintf("%d rounds, not %d", a.Rounds, b.Rounds)
	}
	if len(a.Entrants) != len(b.Entrants) {
		return fmt.Sprintf("%d bots, not %d", len(a.Entrants), len(b.Entrants))
	}
	for i := range a.Entrants {
		x, y := a.Entrants[i], b.Entrants[i]
		if x.Name != y.Name || x.SHA256 != y.SHA256 {
			return fmt.Sprintf("bot %d is %s (%.12s), not %s (%.12s)", i+1, x.Name, x.SHA256, y.Name, y.SHA256)
		}
	}
	for i := range a.Entrants {
		x, y := a.Entrants[i], b.Entrants[i]
		if x.Runtime != y.Runtime {
			return fmt.Sprintf("bot %d (%s) ran on %s, %s has %s", i+1, x.Name, runtimeName(x.Runtime), ref, runtimeName(y.Runtime))
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
	return judge.WriteFileSync(to, data, judge.SyncFile)
}

// gaps says, shard by shard, which directories lack matches, how many,
// and the command that plays them. A missing match belongs to the
// directory whose shard has it; when none has, to its shard of the first
// directory's shard count, and that shard to a directory with no
// tournament yet: the one whose name ends in the shard's number
// (results/shard-3), else the one at the shard's position among the
// directories when there are as many as shards.
func (m *mergeSet) gaps() []ShardGap {
	if len(m.read) == 0 {
		return nil
	}
	ref := m.read[0]
	n := ref.run.Shard.Count
	count := map[*shardData]int{}
	pending := map[int]int{} // shard index → its missing matches, in no directory's shard
	for _, x := range m.missIdx {
		var owner *shardData
		for _, s := range m.read {
			if x < 0 || s.run.Shard.has(x) {
				owner = s
				break
			}
		}
		switch {
		case owner != nil:
			count[owner]++
		case n > 1:
			pending[x%n]++
		}
	}
	// Which shard each directory without a tournament is for.
	emptyAt := map[string]int{}
	for _, d := range m.empty {
		emptyAt[d] = -1
	}
	claimed := map[int]bool{}
	for _, d := range m.empty {
		if k, ok := trailingNumber(d); ok && pending[k] > 0 && !claimed[k] {
			emptyAt[d], claimed[k] = k, true
		}
	}
	if n > 1 && len(m.dirs) == n {
		for k, d := range m.dirs {
			if at, ok := emptyAt[d]; ok && at < 0 && pending[k] > 0 && !claimed[k] {
				emptyAt[d], claimed[k] = k, true
			}
		}
	}
	var gaps []ShardGap
	for _, d := range m.dirs {
		if k, ok := emptyAt[d]; ok {
			g := ShardGap{Dir: d, Empty: true}
			if k >= 0 {
				g.Shard, g.Missing = Shard{Index: k, Count: n}, pending[k]
				out, err := filepath.Abs(d)
				if err != nil {
					out = d
				}
				g.Command = resumeCommand(ref.run, &g.Shard, out)
			}
			gaps = append(gaps, g)
			continue
		}
		for _, s := range m.read {
			if s.dir == d && count[s] > 0 {
				gaps = append(gaps, ShardGap{Dir: d, Shard: s.run.Shard, Missing: count[s], Command: resumeCommand(s.run, nil, "")})
				count[s] = 0 // a directory given twice is said once
			}
		}
	}
	for _, k := range slices.Sorted(maps.Keys(pending)) {
		if !claimed[k] {
			gaps = append(gaps, ShardGap{Shard: Shard{Index: k, Count: n}, Missing: pending[k]})
		}
	}
	return gaps
}

// trailingNumber is the number a directory's name ends in (3 for
// results/shard-3).
func trailingNumber(dir string) (int, bool) {
	base := filepath.Base(filepath.Clean(dir))
	i := len(base)
	for i > 0 && base[i-1] >= '0' && base[i-1] <= '9' {
		i--
	}
	if i == len(base) || len(base)-i > 9 {
		return 0, false
	}
	k, err := strconv.Atoi(base[i:])
	return k, err == nil
}

// resumeCommand is the shell command line that played run, in the
// directory it ran in, with its --shard and --out set to shard and out
// when they are given; "" when run recorded none.
func resumeCommand(run *RunInfo, shard *Shard, out string) string {
	if len(run.Command) == 0 {
		return ""
	}
	argv := append([]string(nil), run.Command...)
	if shard != nil {
		argv = setFlag(argv, "shard", shard.String())
	}
	if out != "" {
		argv = setFlag(argv, "out", out)
	}
	q := make([]string, len(argv))
	for i, a := range argv {
		q[i] = shellQuote(a)
	}
	cmd := strings.Join(q, " ")
	if run.Dir != "" {
		cmd = "cd " + shellQuote(run.Dir) + " && " + cmd
	}
	return cmd
}

// setFlag gives a command line's flag name the value v: in place, as
// -name V, --name V, -name=V or --name=V, else before its first "--" or
// at its end.
func setFlag(argv []string, name, v string) []string {
	end := len(argv)
	for i := 2; i < len(argv); i++ { // the program, then the command
		a := argv[i]
		switch {
		case a == "--":
			end = i
		case a == "-"+name || a == "--"+name:
			if i+1 < len(argv) {
				argv[i+1] = v
				return argv
			}
		case strings.HasPrefix(a, "-"+name+"=") || strings.HasPrefix(a, "--"+name+"="):
			argv[i] = "--" + name + "=" + v
			return argv
		}
		if end < len(argv) {
			break
		}
	}
	return slices.Insert(argv, end, "--"+name, v)
}
