package tournament

import (
	"bytes"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"judge/judge"
)

func matchRec(id string) *Record {
	return &Record{Kind: KindMatch, Match: &MatchRecord{
		ID: id, Round: 1, Winner: 0, Reason: "test",
		Players: []judge.PlayerResult{{Name: "a", Status: judge.OK, Score: 1}, {Name: "b", Status: judge.OK}},
	}}
}

func fillStore(t *testing.T, dir string, n int) {
	t.Helper()
	s, _, err := OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Append(&Record{Kind: KindHeader, Header: &Header{Version: LogVersion, Game: "tictactoe", Format: RoundRobin, Seed: 1}}); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		if err := s.Append(matchRec(fmt.Sprintf("m%d", i))); err != nil {
			t.Fatal(err)
		}
	}
}

func TestStoreRoundTripAndNoDuplicates(t *testing.T) {
	dir := t.TempDir()
	fillStore(t, dir, 3)
	s, rep, err := OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Lines != 0 || rep.Dups != 0 {
		t.Errorf("repair on a clean log: %+v", rep)
	}
	if got := len(s.Matches()); got != 3 {
		t.Fatalf("%d matches, want 3", got)
	}
	if s.Header() == nil || s.Header().Game != "tictactoe" {
		t.Errorf("header %+v", s.Header())
	}
	// Appending a recorded match again writes nothing.
	before, _ := os.ReadFile(filepath.Join(dir, LogName))
	if err := s.Append(matchRec("m1")); err != nil {
		t.Fatal(err)
	}
	after, _ := os.ReadFile(filepath.Join(dir, LogName))
	if !bytes.Equal(before, after) {
		t.Error("a duplicate record was written")
	}
	// A second opener is refused while the first holds the log.
	if _, _, err := OpenStore(dir); err == nil || !strings.Contains(err.Error(), "in use") {
		t.Errorf("second open: %v, want in use", err)
	}
	s.Close()
}

func TestStoreTruncatedTail(t *testing.T) {
	dir := t.TempDir()
	fillStore(t, dir, 3)
	path := filepath.Join(dir, LogName)
	data, _ := os.ReadFile(path)
	good := len(data)
	// A torn write: half a record, no newline.
	line, _ := encodeLine(matchRec("m3"))
	if err := os.WriteFile(path, append(data, line[:len(line)/2]...), 0o644); err != nil {
		t.Fatal(err)
	}
	s, rep, err := OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Lines != 1 || rep.Bytes != int64(len(line)/2) {
		t.Errorf("repair %+v, want 1 line of %d bytes", rep, len(line)/2)
	}
	if n := len(s.Matches()); n != 3 {
		t.Errorf("%d matches, want 3", n)
	}
	if st, _ := os.Stat(path); st.Size() != int64(good) {
		t.Errorf("log is %d bytes after repair, want %d", st.Size(), good)
	}
	if b, _ := os.ReadFile(rep.SavedTo); !bytes.Equal(b, line[:len(line)/2]) {
		t.Errorf("dropped bytes not kept in %s", rep.SavedTo)
	}
	// Appending after the repair gives a clean log.
	if err := s.Append(matchRec("m3")); err != nil {
		t.Fatal(err)
	}
	s.Close()
	recs, bad, err := ReadLog(path)
	if err != nil || bad != 0 || len(recs) != 5 {
		t.Errorf("after repair: %d records, %d bad, %v", len(recs), bad, err)
	}
}

func TestStoreCorruptLines(t *testing.T) {
	dir := t.TempDir()
	fillStore(t, dir, 4)
	path := filepath.Join(dir, LogName)
	data, _ := os.ReadFile(path)
	lines := bytes.SplitAfter(data, []byte("\n"))
	// Flip a byte inside the record of line 2 (match m1): its checksum
	// no longer matches. And a complete but corrupt last line.
	lines[2] = bytes.Replace(lines[2], []byte(`"m1"`), []byte(`"mX"`), 1)
	lines[len(lines)-2] = bytes.Replace(lines[len(lines)-2], []byte(`"test"`), []byte(`"tost"`), 1)
	if err := os.WriteFile(path, bytes.Join(lines, nil), 0o644); err != nil {
		t.Fatal(err)
	}
	s, rep, err := OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if rep.Lines != 2 {
		t.Errorf("dropped %d lines, want 2", rep.Lines)
	}
	var ids []string
	for _, m := range s.Matches() {
		ids = append(ids, m.ID)
	}
	if got := strings.Join(ids, ","); got != "m0,m2" {
		t.Errorf("matches %s, want m0,m2", got)
	}
	if _, bad, _ := ReadLog(path); bad != 0 {
		t.Errorf("%d bad lines left in the rewritten log", bad)
	}
	if err := s.Append(matchRec("m1")); err != nil {
		t.Fatal(err)
	}
	if s.Match("m1") == nil {
		t.Error("m1 not recorded again")
	}
}

func TestStoreIgnoresDuplicateRecords(t *testing.T) {
	dir := t.TempDir()
	fillStore(t, dir, 2)
	path := filepath.Join(dir, LogName)
	line, _ := encodeLine(matchRec("m0"))
	if err := appendFile(path, line); err != nil {
		t.Fatal(err)
	}
	s, rep, err := OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if rep.Dups != 1 || len(s.Matches()) != 2 {
		t.Errorf("dups %d, matches %d; want 1, 2", rep.Dups, len(s.Matches()))
	}
}

func TestStoreDamagedHeaderRefused(t *testing.T) {
	oldHeader := func() []byte { // as written before headers carried a checksum
		rec := []byte(`{"kind":"tournament","header":{"version":1,"game":"tictactoe","params":{"k":3,"n":3},"format":"roundrobin","seed":1}}`)
		return []byte(fmt.Sprintf("{\"crc\":\"%08x\",\"rec\":%s}\n", crc32c(rec), rec))
	}
	badSum := func() []byte { // a sound line whose header does not match its own checksum
		rec := []byte(`{"kind":"tournament","header":{"version":1,"game":"gomoku","format":"roundrobin","seed":1,"sum":"00000000"}}`)
		return []byte(fmt.Sprintf("{\"crc\":\"%08x\",\"rec\":%s}\n", crc32c(rec), rec))
	}
	for _, tc := range []struct {
		name    string
		damage  func(log []byte) []byte
		refused bool
	}{
		{"byte 60 flipped", func(b []byte) []byte { b[60] ^= 1; return b }, true},
		{"header line cut", func(b []byte) []byte { i := bytes.IndexByte(b, '\n'); return b[i+1:] }, true},
		{"header's own checksum wrong", func(b []byte) []byte { i := bytes.IndexByte(b, '\n'); return append(badSum(), b[i+1:]...) }, true},
		{"header without a checksum", func(b []byte) []byte { i := bytes.IndexByte(b, '\n'); return append(oldHeader(), b[i+1:]...) }, false},
		{"a match line damaged", func(b []byte) []byte { b[len(b)-10] ^= 1; return b }, false},
		{"only a torn header", func(b []byte) []byte { i := bytes.IndexByte(b, '\n'); return b[:i/2] }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			fillStore(t, dir, 3)
			path := filepath.Join(dir, LogName)
			data, _ := os.ReadFile(path)
			damaged := tc.damage(bytes.Clone(data))
			if err := os.WriteFile(path, damaged, 0o644); err != nil {
				t.Fatal(err)
			}
			s, _, err := OpenStore(dir)
			_, _, rerr := ReadLog(path)
			if !tc.refused {
				if err != nil || rerr != nil {
					t.Fatalf("OpenStore: %v; ReadLog: %v; want no error", err, rerr)
				}
				s.Close()
				return
			}
			var he *HeaderError
			if !errors.As(err, &he) || !strings.Contains(err.Error(), "rm -r "+dir) {
				t.Fatalf("OpenStore: %v, want a damaged header saying how to start afresh", err)
			}
			if !errors.As(rerr, &he) {
				t.Errorf("ReadLog: %v, want a damaged header", rerr)
			}
			if _, err := RecordedHeader(dir); err == nil {
				t.Error("RecordedHeader: no error")
			}
			after, _ := os.ReadFile(path)
			if !bytes.Equal(after, damaged) {
				t.Error("the refused log was changed")
			}
			if _, err := os.Stat(path + ".bad"); err == nil {
				t.Error("the refused log was repaired")
			}
		})
	}
}

func TestHeaderCarriesItsChecksum(t *testing.T) {
	dir := t.TempDir()
	fillStore(t, dir, 0)
	recs, _, err := ReadLog(filepath.Join(dir, LogName))
	if err != nil || len(recs) != 1 {
		t.Fatalf("%d records, %v", len(recs), err)
	}
	h := recs[0].Header
	if h.Sum == "" {
		t.Fatal("no checksum written")
	}
	h.Seed++
	if h.check() == nil {
		t.Error("a changed header still checks")
	}
}

func crc32c(b []byte) uint32 { return crc32.Checksum(b, castagnoli()) }

// A match record of an older judge, without its players' hashes, takes
// those of the run record before it: the same match appended again
// without them, or with them, is a duplicate; by another program of a
// bot, it is recorded beside the first, and both are kept in order.
func TestStoreMatchPrograms(t *testing.T) {
	dir := t.TempDir()
	s, _, err := OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	run := func(hashB string) *Record {
		return &Record{Kind: KindRun, Run: &RunInfo{Entrants: []EntrantInfo{{Name: "a", SHA256: "aaaa"}, {Name: "b", SHA256: hashB}}}}
	}
	match := func(sums ...string) *Record {
		return &Record{Kind: KindMatch, Match: &MatchRecord{ID: "r001-a-vs-b", Winner: -1, SHA256: sums,
			Players: []judge.PlayerResult{{Name: "a", Score: 0.5}, {Name: "b", Score: 0.5}}}}
	}
	for _, r := range []*Record{{Kind: KindHeader, Header: &Header{Version: LogVersion, Game: "tictactoe"}}, run("bbbb"), match()} {
		if err := s.Append(r); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	s, _, err = OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, r := range []*Record{match(), match("aaaa", "bbbb"), run("b2b2"), match("aaaa", "b2b2"), match()} {
		if err := s.Append(r); err != nil {
			t.Fatal(err)
		}
	}
	ms := s.Matches()
	if len(ms) != 2 || !slices.Equal(ms[0].SHA256, []string{"aaaa", "bbbb"}) || !slices.Equal(ms[1].SHA256, []string{"aaaa", "b2b2"}) {
		t.Fatalf("records %+v %+v", ms[0], ms[len(ms)-1])
	}
	if r := s.Current("r001-a-vs-b", map[string]string{"a": "aaaa", "b": "bbbb"}); r != ms[0] {
		t.Errorf("current record of b's first program: %+v", r)
	}
	if r := s.Current("r001-a-vs-b", map[string]string{"a": "aaaa", "b": "b3b3"}); r != nil {
		t.Errorf("a record of a program never played: %+v", r)
	}
	if r := s.Match("r001-a-vs-b"); r != ms[1] {
		t.Errorf("latest record %+v", r)
	}
}
