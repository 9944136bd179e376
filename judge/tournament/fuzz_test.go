package tournament

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// FuzzResultsLog: whatever results.log holds, opening it is an error or a
// store whose every record checks, opening it again repairs nothing more
// and finds the same records, and the standings computed from it count
// each recorded match once per player. With frame set, each input line
// is framed with a correct checksum, so that the records themselves are
// fuzzed rather than the checksums.
func FuzzResultsLog(f *testing.F) {
	dir := f.TempDir()
	fillStoreF(f, dir)
	good, err := os.ReadFile(filepath.Join(dir, LogName))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good, false)
	f.Add(good[:len(good)-7], false)
	var recs []byte
	for _, ln := range bytes.Split(good, []byte("\n")) {
		if i := bytes.Index(ln, []byte(`"rec":`)); i >= 0 {
			recs = append(append(recs, ln[i+6:len(ln)-1]...), '\n')
		}
	}
	f.Add(recs, true)
	f.Add([]byte(`{"kind":"tournament","header":{"version":1,"game":"splix","format":"groups","seed":3,"group_size":3}}
{"kind":"match","match":{"id":"g1","winner":-1,"players":[{"name":"a","score":2},{"name":"b","score":2},{"name":"c","score":1}]}}
`), true)
	f.Fuzz(func(t *testing.T, data []byte, frame bool) {
		if frame {
			var b []byte
			for _, ln := range bytes.SplitAfter(data, []byte("\n")) {
				rec, nl := bytes.CutSuffix(ln, []byte("\n"))
				b = fmt.Appendf(b, `{"crc":"%08x","rec":%s}`, crc32c(rec), rec)
				if nl {
					b = append(b, '\n')
				}
			}
			data = b
		}
		dir := t.TempDir()
		path := filepath.Join(dir, LogName)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		s, rep1, err := OpenStore(dir)
		if err != nil {
			var he *HeaderError
			if !errors.As(err, &he) {
				t.Fatalf("OpenStore: %v, want a damaged header", err)
			}
			if after, _ := os.ReadFile(path); !bytes.Equal(after, data) {
				t.Fatal("a refused log was changed")
			}
			return
		}
		h, matches, runs := s.Header(), s.Matches(), s.Runs()
		s.Close()
		s2, rep, err := OpenStore(dir)
		if err != nil {
			t.Fatalf("reopening a repaired log: %v", err)
		}
		// Duplicates stay in the log, ignored (and reported) at every opening.
		if rep.Lines != 0 || rep.Dups != rep1.Dups {
			t.Errorf("reopening a repaired log repaired again: %+v, after %+v", rep, rep1)
		}
		if !reflect.DeepEqual(s2.Matches(), matches) || !reflect.DeepEqual(s2.Header(), h) || !reflect.DeepEqual(s2.Runs(), runs) {
			t.Error("reopening a repaired log read other records")
		}
		s2.Close()
		if h == nil {
			if len(matches) > 0 || len(runs) > 0 {
				t.Fatalf("records without a header: %d matches, %d runs", len(matches), len(runs))
			}
			return
		}
		checkStandings(t, h, runs, matches)
	})
}

// checkStandings computes standings from the records and checks that
// they add up.
func checkStandings(t *testing.T, h *Header, runs []*RunInfo, matches []*MatchRecord) {
	t.Helper()
	var names []string
	known := map[string]bool{}
	for _, r := range runs {
		for _, e := range r.Entrants {
			if !known[e.Name] {
				known[e.Name] = true
				names = append(names, e.Name)
			}
		}
	}
	for _, m := range matches {
		for _, p := range m.Players {
			if !known[p.Name] {
				known[p.Name] = true
				names = append(names, p.Name)
			}
		}
	}
	if len(names) > 64 {
		return // the rating fit is cubic in the bots: not this test's subject
	}
	st := ComputeStandings(h, names, nil, matches, len(matches))
	if st.Matches != len(matches) {
		t.Errorf("%d matches counted, %d recorded", st.Matches, len(matches))
	}
	played, wins, winners := 0, 0, 0
	for _, m := range matches {
		played += len(m.Players)
		if m.Winner >= 0 {
			winners++
		}
	}
	sum := 0
	for _, row := range st.Standings {
		if row.Wins+row.Draws+row.Losses != row.Played {
			t.Errorf("%s: %d+%d+%d results in %d matches", row.Name, row.Wins, row.Draws, row.Losses, row.Played)
		}
		for _, x := range []float64{row.Score, row.Rating, row.RatingLow, row.RatingHigh, row.AvgScore} {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				t.Errorf("%s: %+v is not a number", row.Name, row)
			}
		}
		sum += row.Played
		wins += row.Wins
	}
	if sum != played {
		t.Errorf("%d results counted, %d recorded", sum, played)
	}
	if wins != winners {
		t.Errorf("%d wins counted, %d matches with a winner", wins, winners)
	}
}

func fillStoreF(f *testing.F, dir string) {
	s, _, err := OpenStore(dir)
	if err != nil {
		f.Fatal(err)
	}
	defer s.Close()
	for _, r := range []*Record{
		{Kind: KindHeader, Header: &Header{Version: LogVersion, Game: "tictactoe", Format: RoundRobin, Seed: 1}},
		{Kind: KindRun, Run: &RunInfo{Entrants: []EntrantInfo{{Name: "a", SHA256: "00"}, {Name: "b", SHA256: "11"}}, Rounds: 1}},
		matchRec("m0"), matchRec("m1"),
	} {
		if err := s.Append(r); err != nil {
			f.Fatal(err)
		}
	}
}
