package tournament

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
)

// Merge combines the output directories of a tournament's shards (or of
// any runs of the same tournament) into out: one results log with every
// match once, the replays, and standings equal to those of a single run.
// It fails when the directories hold different tournaments or bots.
func Merge(dirs []string, out string, log io.Writer) (*Standings, error) {
	if len(dirs) == 0 {
		return nil, errors.New("no directories to merge")
	}
	absOut, _ := filepath.Abs(out)
	var (
		h     *Header
		run   *RunInfo
		from  string
		recs  []*MatchRecord
		srcOf = map[string]string{} // match ID → directory holding its replay
	)
	for _, d := range dirs {
		if a, _ := filepath.Abs(d); a == absOut {
			return nil, fmt.Errorf("%s is both an input and the output", d)
		}
		all, bad, err := ReadLog(filepath.Join(d, LogName))
		if err != nil {
			return nil, err
		}
		if bad > 0 && log != nil {
			fmt.Fprintf(log, "%s: %d damaged record(s) ignored\n", filepath.Join(d, LogName), bad)
		}
		var dh *Header
		var dr *RunInfo
		for _, r := range all {
			switch r.Kind {
			case KindHeader:
				if dh == nil {
					dh = r.Header
				}
			case KindRun:
				dr = r.Run
			case KindMatch:
				if _, dup := srcOf[r.Match.ID]; dup {
					continue
				}
				srcOf[r.Match.ID] = d
				recs = append(recs, r.Match)
			}
		}
		if dh == nil || dr == nil {
			return nil, fmt.Errorf("%s: no tournament recorded", d)
		}
		if h == nil {
			h, run, from = dh, dr, d
			continue
		}
		if diff := headerDiff(h, dh); diff != "" {
			return nil, fmt.Errorf("%s and %s hold different tournaments (%s)", from, d, diff)
		}
		if diff := runDiff(run, dr); diff != "" {
			return nil, fmt.Errorf("%s and %s were run with different bots or rounds (%s)", from, d, diff)
		}
	}

	names := make([]string, len(run.Entrants))
	for i, e := range run.Entrants {
		names[i] = e.Name
	}
	// The schedule says which matches belong and how many there are.
	ids := map[string]bool{}
	scheduled := 0
	if h.Format != Swiss {
		testBot := -1
		if h.TestBot != "" {
			testBot = slices.Index(names, h.TestBot)
		}
		plan := Plan{Format: h.Format, Names: names, Rounds: run.Rounds, Seed: h.Seed, TestBot: testBot, GroupSize: h.GroupSize}
		sched, err := plan.Schedule()
		if err != nil {
			return nil, err
		}
		var missing []string
		for _, f := range sched {
			ids[f.ID] = true
			if _, ok := srcOf[f.ID]; !ok {
				missing = append(missing, f.ID)
			}
		}
		scheduled = len(sched)
		if len(missing) > 0 && log != nil {
			fmt.Fprintf(log, "%d of %d matches are in none of the directories (first: %s)\n", len(missing), scheduled, missing[0])
		}
	} else {
		for id := range srcOf {
			ids[id] = true
		}
		scheduled = len(ids)
	}

	store, _, err := OpenStore(out)
	if err != nil {
		return nil, err
	}
	defer store.Close()
	if old := store.Header(); old != nil {
		if diff := headerDiff(old, h); diff != "" {
			return nil, fmt.Errorf("%s holds another tournament (%s)", out, diff)
		}
	} else if err := store.Append(&Record{Kind: KindHeader, Header: h}); err != nil {
		return nil, err
	}
	merged := *run
	merged.Shard = Shard{}
	if err := store.Append(&Record{Kind: KindRun, Run: &merged}); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Join(out, "replays"), 0o755); err != nil {
		return nil, err
	}
	sortRecords(recs)
	var kept []*MatchRecord
	for _, r := range recs {
		if !ids[r.ID] {
			continue
		}
		kept = append(kept, r)
		if store.Match(r.ID) != nil {
			continue
		}
		if r.Replay != "" {
			if err := linkOrCopy(filepath.Join(srcOf[r.ID], r.Replay), filepath.Join(out, r.Replay)); err != nil {
				return nil, err
			}
		}
		if err := store.Append(&Record{Kind: KindMatch, Match: r}); err != nil {
			return nil, err
		}
	}
	st := ComputeStandings(h, names, run.Excluded, kept, scheduled)
	if err := st.Write(out); err != nil {
		return st, err
	}
	return st, nil
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
