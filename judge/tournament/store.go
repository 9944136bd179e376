package tournament

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"judge/games"
	"judge/judge"
)

// LogName is the results log's file name in an output directory.
const LogName = "results.log"

// LogVersion is the version of the results log format.
const LogVersion = 1

// Record kinds.
const (
	KindHeader = "tournament" // first record: what the tournament is
	KindRun    = "run"        // one per run of the judge: the entrants it had
	KindMatch  = "match"      // one finished match
)

// Record is one line of the results log.
type Record struct {
	Kind string `json:"kind"`

	// KindHeader
	Header *Header `json:"header,omitempty"`
	// KindRun
	Run *RunInfo `json:"run,omitempty"`
	// KindMatch
	Match *MatchRecord `json:"match,omitempty"`
}

// Header is the identity of a tournament: a directory holds one.
type Header struct {
	Version   int          `json:"version"`
	Game      string       `json:"game"`
	Params    games.Params `json:"params"`
	Format    Format       `json:"format"`
	Seed      uint64       `json:"seed"`
	TestBot   string       `json:"test_bot,omitempty"`
	GroupSize int          `json:"group_size,omitempty"`
	// Sum is the header's own checksum: the CRC-32 (Castagnoli) of the
	// header's JSON with Sum empty, so that the identity of a directory
	// is checked by itself, whatever carries it. Empty in logs written
	// before it existed, which are read as before.
	Sum string `json:"sum,omitempty"`
}

// sum is the checksum h carries once written.
func (h *Header) sum() (string, error) {
	c := *h
	c.Sum = ""
	b, err := json.Marshal(&c)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%08x", crc32.Checksum(b, castagnoli())), nil
}

// check verifies the header's own checksum, when it has one.
func (h *Header) check() error {
	if h.Sum == "" {
		return nil
	}
	got, err := h.sum()
	if err != nil {
		return err
	}
	if got != h.Sum {
		return fmt.Errorf("header checksum %s, want %s", got, h.Sum)
	}
	return nil
}

// HeaderError is a results log whose first line is not a sound header:
// what tournament the directory holds cannot be known, so it is refused
// and left as it is.
type HeaderError struct {
	Path   string // the log
	Reason string // what is wrong with its first line
}

func (e *HeaderError) Error() string {
	dir := filepath.Dir(e.Path)
	return fmt.Sprintf("%s: its header (line 1) is damaged (%s), so the tournament this directory holds cannot be known; it is left as it is. To start afresh: rm -r %s (or give another --out)",
		e.Path, e.Reason, shellQuote(dir))
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./+,=:@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// checkFirst says whether the first line of a non-empty log is a sound
// header. A first line without a newline that is the whole file is a
// header whose write was torn by a crash: it is not an error (the log is
// new and holds nothing else).
func checkFirst(path string, data []byte) error {
	end := bytes.IndexByte(data, '\n')
	if end < 0 {
		return nil
	}
	r, err := decodeLine(data[:end])
	switch {
	case err != nil:
		return &HeaderError{Path: path, Reason: err.Error()}
	case r.Kind != KindHeader:
		return &HeaderError{Path: path, Reason: fmt.Sprintf("the first record is a %s record, not the header", r.Kind)}
	}
	return nil
}

// RunInfo says what one run of the judge played with.
type RunInfo struct {
	Entrants []EntrantInfo `json:"entrants"`
	Excluded []Excluded    `json:"excluded,omitempty"`
	// Skipped are the files of a bots directory not taken as bots (Name
	// their path, Error why), for the standings to list.
	Skipped []Excluded `json:"skipped,omitempty"`
	Rounds  int        `json:"rounds"`
	Shard   Shard      `json:"shard"`
	// Sandbox is the level the bots ran at (full, namespaces, basic,
	// none): it changes what a bot may do, so shards at different levels
	// are not merged. Empty in logs written before it was recorded.
	Sandbox string `json:"sandbox,omitempty"`
	// Settings are the other settings that decide results: the time
	// limits, the io mode, the output limit, the bots' environment, the
	// sandbox's limits and the judge's build (see RunSettings). A directory
	// is played with one set of them, and shards are merged only when
	// theirs agree. Absent in logs written before they were recorded:
	// unknown.
	Settings map[string]string `json:"settings,omitempty"`
	// Command is the command line that played the run, and Dir the
	// directory it ran in: what a merge gives to resume an incomplete
	// shard. Absent when the run was not started from the command line.
	Command []string `json:"command,omitempty"`
	Dir     string   `json:"dir,omitempty"`
}

// EntrantInfo names a bot and the hash of what it runs.
type EntrantInfo struct {
	Name   string `json:"name"`
	SHA256 string `json:"sha256"`
	// Runtime is what the bot's language's version command said (the
	// compiler's, the interpreter's or the JVM's version): part of the
	// bot's identity. Empty for bots of no language (programs, command
	// lines, web bots) and in logs written before it was recorded.
	Runtime string `json:"runtime,omitempty"`
}

// Excluded is a bot left out of the tournament, and why.
type Excluded struct {
	Name  string `json:"name"`
	Error string `json:"error"`
}

// MatchRecord is one finished match.
type MatchRecord struct {
	ID      string               `json:"id"`
	Round   int                  `json:"round"`
	Group   int                  `json:"group,omitempty"`
	Index   int                  `json:"index"` // position in the schedule (Swiss: in its round)
	Seed    uint64               `json:"seed"`
	Winner  int                  `json:"winner"`
	Turns   int                  `json:"turns"`
	Reason  string               `json:"reason"`
	Players []judge.PlayerResult `json:"players"`
	Replay  string               `json:"replay"` // relative to the output directory
	WallMS  int64                `json:"wall_ms"`
	// SHA256 is the hash of each player's program, in the order of
	// Players: a match counts only while its players are those programs
	// (a changed bot's matches are played again). Absent in logs written
	// before it was recorded: the hashes of the run record before it.
	SHA256 []string `json:"sha256,omitempty"`
}

// playedBy reports whether the match was played by the programs of hash
// (a bot's name to its sha256): a record of a changed bot is not.
func (m *MatchRecord) playedBy(hash map[string]string) bool {
	if len(m.SHA256) != len(m.Players) {
		return false
	}
	for i, p := range m.Players {
		if h, ok := hash[p.Name]; !ok || h != m.SHA256[i] {
			return false
		}
	}
	return true
}

// sameMatch reports whether two records are of one match played by the
// same programs: the second is a duplicate.
func sameMatch(a, b *MatchRecord) bool {
	return a.ID == b.ID && slices.Equal(a.SHA256, b.SHA256)
}

// hashes maps the bots of a run to their sha256.
func (r *RunInfo) hashes() map[string]string {
	h := make(map[string]string, len(r.Entrants))
	for _, e := range r.Entrants {
		h[e.Name] = e.SHA256
	}
	return h
}

// filler gives the match records of a log without hashes those of the
// run record before them, as they are read in order.
type filler struct{ last map[string]string }

func (f *filler) fill(r *Record) {
	switch {
	case r.Kind == KindRun:
		f.last = r.Run.hashes()
	case r.Kind == KindMatch && len(r.Match.SHA256) == 0 && f.last != nil:
		for _, p := range r.Match.Players {
			r.Match.SHA256 = append(r.Match.SHA256, f.last[p.Name])
		}
	}
}

// line is how a record is framed in the log: the CRC-32 (Castagnoli) of
// the record's exact bytes, then the record. Each line is JSON by itself.
type line struct {
	CRC string          `json:"crc"`
	Rec json.RawMessage `json:"rec"`
}

// castagnoli is made at its first use, not when the program starts: the
// judge's binary is also every sandbox's init, started again and again.
var castagnoli = sync.OnceValue(func() *crc32.Table { return crc32.MakeTable(crc32.Castagnoli) })

func encodeLine(r *Record) ([]byte, error) {
	if r.Kind == KindHeader && r.Header != nil {
		h := *r.Header
		sum, err := h.sum()
		if err != nil {
			return nil, err
		}
		h.Sum = sum
		r = &Record{Kind: r.Kind, Header: &h}
	}
	rec, err := json.Marshal(r)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, `{"crc":"%08x","rec":`, crc32.Checksum(rec, castagnoli()))
	b.Write(rec)
	b.WriteString("}\n")
	return b.Bytes(), nil
}

// decodeLine checks one line (without its newline) and decodes it.
func decodeLine(b []byte) (*Record, error) {
	var l line
	if err := json.Unmarshal(b, &l); err != nil {
		return nil, fmt.Errorf("not a record: %v", err)
	}
	if got := fmt.Sprintf("%08x", crc32.Checksum(l.Rec, castagnoli())); got != l.CRC {
		return nil, fmt.Errorf("checksum %s, want %s", got, l.CRC)
	}
	var r Record
	if err := json.Unmarshal(l.Rec, &r); err != nil {
		return nil, fmt.Errorf("bad record: %v", err)
	}
	switch {
	case r.Kind == KindHeader && r.Header != nil,
		r.Kind == KindRun && r.Run != nil,
		r.Kind == KindMatch && r.Match != nil && r.Match.ID != "":
	default:
		return nil, fmt.Errorf("bad record of kind %q", r.Kind)
	}
	if r.Kind == KindHeader {
		if err := r.Header.check(); err != nil {
			return nil, err
		}
	}
	if r.Kind == KindMatch {
		if err := checkMatch(r.Match); err != nil {
			return nil, fmt.Errorf("match %q: %v", r.Match.ID, err)
		}
	}
	return &r, nil
}

// MaxSeats bounds the players of one match record: more than any game
// seats (and ties among many players make the rating fit's work grow as
// 2^players).
const MaxSeats = 16

// checkMatch refuses a match record the judge cannot have written, which
// would count wrongly in the standings: no players or too many, a
// winner that is not a seat, a player without a name or twice in the
// match, a score that is not a number.
func checkMatch(m *MatchRecord) error {
	n := len(m.Players)
	switch {
	case n == 0 || n > MaxSeats:
		return fmt.Errorf("%d players", n)
	case m.Winner < -1 || m.Winner >= n:
		return fmt.Errorf("winner %d of %d players", m.Winner, n)
	case m.Round < 0 || m.Index < 0 || m.Group < 0 || m.Turns < 0:
		return errors.New("a negative round, group, index or turn count")
	}
	seen := make(map[string]bool, n)
	for _, p := range m.Players {
		switch {
		case p.Name == "":
			return errors.New("a player without a name")
		case seen[p.Name]:
			return fmt.Errorf("player %q twice", p.Name)
		case math.IsNaN(p.Score) || math.IsInf(p.Score, 0):
			return fmt.Errorf("player %q: score %v", p.Name, p.Score)
		}
		seen[p.Name] = true
	}
	return nil
}

// Store is an open results log: an append-only file of records, each
// written with one write, then fsynced, before it counts. One process at
// a time holds it (an flock on the file).
type Store struct {
	mu      sync.Mutex
	f       *os.File
	path    string
	header  *Header
	runs    []*RunInfo
	matches []*MatchRecord
	byID    map[string][]*MatchRecord // every record of a match, oldest first
	fill    filler
}

// Repair says what opening a log had to drop.
type Repair struct {
	Lines   int    // bad lines dropped
	Bytes   int64  // their size
	SavedTo string // where the dropped bytes were kept
	Dups    int    // duplicate match records ignored
}

// OpenStore opens (or creates) the results log in dir, checks every line
// and drops what does not check: a torn or corrupt tail is cut off, a
// corrupt line inside is removed by rewriting the file. Dropped bytes are
// kept beside the log (results.log.bad) and reported. Duplicate match
// records (same ID, same programs) are ignored after the first. The first line must be a
// sound header: when it is not, the log is left untouched and a
// *HeaderError says how to start afresh.
func OpenStore(dir string) (*Store, Repair, error) {
	var rep Repair
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, rep, err
	}
	path := filepath.Join(dir, LogName)
	_, statErr := os.Stat(path)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, rep, err
	}
	if err := lockFile(f); err != nil {
		f.Close()
		if errors.Is(err, errLocked) {
			return nil, rep, fmt.Errorf("%s is in use by another judge", path)
		}
		return nil, rep, fmt.Errorf("lock %s: %w", path, err)
	}
	if statErr != nil {
		if err := syncDir(dir); err != nil {
			f.Close()
			return nil, rep, err
		}
	}
	s := &Store{f: f, path: path, byID: map[string][]*MatchRecord{}}
	data, err := io.ReadAll(f)
	if err != nil {
		f.Close()
		return nil, rep, err
	}
	if err := checkFirst(path, data); err != nil {
		f.Close()
		return nil, rep, err
	}
	var good, bad []byte
	goodEnd := 0 // end of the last good line when nothing bad came before it
	for off := 0; off < len(data); {
		end := bytes.IndexByte(data[off:], '\n')
		var ln []byte
		next := len(data)
		if end >= 0 {
			ln, next = data[off:off+end], off+end+1
		} else {
			ln = data[off:] // no newline: a torn write
		}
		var r *Record
		if end >= 0 {
			r, err = decodeLine(ln)
		} else {
			err = errors.New("torn")
		}
		if err != nil {
			rep.Lines++
			rep.Bytes += int64(next - off)
			bad = append(bad, data[off:next]...)
		} else {
			if len(bad) == 0 {
				goodEnd = next
			}
			good = append(good, data[off:next]...)
			s.add(r, &rep)
		}
		off = next
	}
	if rep.Lines > 0 {
		rep.SavedTo = path + ".bad"
		if err := appendFile(rep.SavedTo, bad); err != nil {
			f.Close()
			return nil, rep, err
		}
		if goodEnd == len(good) {
			// Only the tail is bad: cut it off.
			if err := f.Truncate(int64(goodEnd)); err != nil {
				f.Close()
				return nil, rep, err
			}
			if err := f.Sync(); err != nil {
				f.Close()
				return nil, rep, err
			}
		} else {
			if err := judge.WriteFileSync(path, good, judge.SyncRename); err != nil {
				f.Close()
				return nil, rep, err
			}
			// The old file is replaced: reopen and lock the new one.
			f.Close()
			if f, err = os.OpenFile(path, os.O_RDWR|os.O_APPEND, 0o644); err != nil {
				return nil, rep, err
			}
			if err := lockFile(f); err != nil {
				f.Close()
				return nil, rep, fmt.Errorf("lock %s: %w", path, err)
			}
			s.f = f
		}
	}
	return s, rep, nil
}

func (s *Store) add(r *Record, rep *Repair) {
	s.fill.fill(r)
	switch r.Kind {
	case KindHeader:
		if s.header == nil {
			s.header = r.Header
		}
	case KindRun:
		s.runs = append(s.runs, r.Run)
	case KindMatch:
		if s.recorded(r.Match) {
			rep.Dups++
			return
		}
		s.byID[r.Match.ID] = append(s.byID[r.Match.ID], r.Match)
		s.matches = append(s.matches, r.Match)
	}
}

// recorded reports whether the log holds m already: the same match
// played by the same programs.
func (s *Store) recorded(m *MatchRecord) bool {
	for _, o := range s.byID[m.ID] {
		if sameMatch(o, m) {
			return true
		}
	}
	return false
}

// Append writes a record durably: it returns once the record is on disk.
// A match already recorded (played by the same programs) is not
// written again.
func (s *Store) Append(r *Record) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r.Kind == KindMatch {
		s.fill.fill(r) // without hashes: those of the last run record
		if s.recorded(r.Match) {
			return nil
		}
	}
	b, err := encodeLine(r)
	if err != nil {
		return err
	}
	if _, err := s.f.Write(b); err != nil {
		return fmt.Errorf("results log: %w", err)
	}
	if err := s.f.Sync(); err != nil {
		return fmt.Errorf("results log: %w", err)
	}
	var rep Repair
	s.add(r, &rep)
	return nil
}

// Header is the tournament's header record, or nil in a new log.
func (s *Store) Header() *Header {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.header
}

// Runs are the run records, oldest first.
func (s *Store) Runs() []*RunInfo {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*RunInfo(nil), s.runs...)
}

// Match returns the latest record of a match, or nil.
func (s *Store) Match(id string) *MatchRecord {
	s.mu.Lock()
	defer s.mu.Unlock()
	recs := s.byID[id]
	if len(recs) == 0 {
		return nil
	}
	return recs[len(recs)-1]
}

// Current returns the latest record of a match played by the programs
// of hash (a bot's name to its sha256), or nil.
func (s *Store) Current(id string, hash map[string]string) *MatchRecord {
	s.mu.Lock()
	defer s.mu.Unlock()
	recs := s.byID[id]
	for i := len(recs) - 1; i >= 0; i-- {
		if recs[i].playedBy(hash) {
			return recs[i]
		}
	}
	return nil
}

// Matches returns every match record in the order they were written,
// those of changed bots too (see MatchRecord.playedBy).
func (s *Store) Matches() []*MatchRecord {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*MatchRecord(nil), s.matches...)
}

// Close releases the log.
func (s *Store) Close() error { return s.f.Close() }

// ReadLog reads a results log without changing it, checking every line.
// It returns the records that check (match records without hashes given
// those of the run before them) and how many lines did not; a log
// whose first line is not a sound header is a *HeaderError.
func ReadLog(path string) (recs []*Record, bad int, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	br := bufio.NewReader(f)
	var fill filler
	for first := true; ; first = false {
		ln, err := br.ReadBytes('\n')
		if first && len(ln) > 0 && ln[len(ln)-1] == '\n' {
			if herr := checkFirst(path, ln); herr != nil {
				return nil, 0, herr
			}
		}
		if len(ln) > 0 {
			if ln[len(ln)-1] != '\n' {
				bad++
			} else if r, derr := decodeLine(ln[:len(ln)-1]); derr != nil {
				bad++
			} else {
				fill.fill(r)
				recs = append(recs, r)
			}
		}
		if err == io.EOF {
			return recs, bad, nil
		}
		if err != nil {
			return recs, bad, err
		}
	}
}

func appendFile(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	return nil
}

// RecordedHeader returns the header of the results log in dir, or nil
// when there is none.
func RecordedHeader(dir string) (*Header, error) {
	recs, _, err := ReadLog(filepath.Join(dir, LogName))
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, nil
		}
		return nil, err
	}
	for _, r := range recs {
		if r.Kind == KindHeader {
			return r.Header, nil
		}
	}
	return nil, nil
}
