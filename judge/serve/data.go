package serve

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"path"
	"strings"
	"time"

	"judge/judge"
	"judge/judge/standings"
	"judge/judge/tournament"
)

const tournamentLog = tournament.LogName

// Kind is what a served directory holds.
type Kind string

const (
	// KindTournament: a tournament, its results log in the directory.
	KindTournament Kind = "tournament"
	// KindFolder: no results log, but tournaments in its folders.
	KindFolder Kind = "folder"
	// KindWaiting: nothing yet, or only what a tournament writes before
	// its log (cache/, replays/): the page waits for the log.
	KindWaiting Kind = "waiting"
	// KindNeither: other files, and no tournament in any folder.
	KindNeither Kind = "neither"
)

// Depth is how many folders deep tournaments are looked for under a
// directory that is not one (results/demo/tictactoe is 1 deep under
// results/demo).
const Depth = 3

// Shown is how many of the most recent matches, and of the most recent
// failures, the status lists.
const Shown = 300

// Kind says what the directory given to New holds now.
func (s *Server) Kind() Kind { return (&place{root: s.root, top: true}).kind() }

// Tournaments lists the tournaments under the directory given to New, at
// most Depth folders deep, as slash-separated paths.
func (s *Server) Tournaments() []string { return (&place{root: s.root, top: true}).tournaments() }

func (p *place) kind() Kind {
	if isTournament(p.root, ".") {
		return KindTournament
	}
	if len(p.tournaments()) > 0 {
		return KindFolder
	}
	ents, err := fs.ReadDir(p.root.FS(), ".")
	if err != nil {
		return KindNeither
	}
	for _, e := range ents {
		if !beforeLog(e.Name()) {
			return KindNeither
		}
	}
	return KindWaiting
}

// beforeLog reports whether a tournament's directory may hold name before
// its results log is written: its cache, its replays, standings files,
// hidden files.
func beforeLog(name string) bool {
	_, ok := Standings[name]
	return ok || name == "cache" || name == "replays" || strings.HasPrefix(name, ".")
}

// tournaments lists the directories under the place that hold a results
// log, at most Depth deep, neither inside another tournament nor reached
// through a link nor hidden.
func (p *place) tournaments() []string {
	var out []string
	fs.WalkDir(p.root.FS(), ".", func(name string, d fs.DirEntry, err error) error {
		switch {
		case name == ".":
			return err
		case err != nil || !d.IsDir():
			return nil
		case strings.HasPrefix(d.Name(), "."):
			return fs.SkipDir
		case isTournament(p.root, name):
			out = append(out, name)
			return fs.SkipDir
		case strings.Count(name, "/")+1 >= Depth:
			return fs.SkipDir
		}
		return nil
	})
	return out
}

// status is what the page shows.
type status struct {
	Kind Kind `json:"kind"`
	*tournament.Live
	Recorded     int         `json:"recorded"` // matches recorded; Matches holds the last Shown of them
	HeadToHead   *HeadToHead `json:"head_to_head,omitempty"`
	Failures     []Failure   `json:"failures,omitempty"` // the last Shown failures, in the order recorded
	FailureCount int         `json:"failure_count"`      // every failure recorded
	Tournaments  []Entry     `json:"tournaments,omitempty"`
}

// HeadToHead is every pair's record: Records[i][j] is how Names[i] fared
// against Names[j] in the matches both played, as wins, draws and
// losses. Names are in the order of the standings. In a match, a bot
// wins against another when it is the winner, or when neither is and it
// scored more; the same score is a draw.
type HeadToHead struct {
	Names   []string `json:"names"`
	Records [][]WDL  `json:"records"`
}

// WDL is a record: wins, draws, losses.
type WDL [3]int

// Failure is one seat of a match whose bot failed.
type Failure struct {
	Match  string       `json:"match"`
	Bot    string       `json:"bot"`
	Status judge.Status `json:"status"`
	Reason string       `json:"reason"`
	Replay string       `json:"replay"`
}

// Entry is a tournament of a folder.
type Entry struct {
	Path      string `json:"path"` // under the folder, slash-separated
	Href      string `json:"href"` // its page, relative to the folder's
	Game      string `json:"game,omitempty"`
	Format    string `json:"format,omitempty"`
	Recorded  int    `json:"recorded"`
	Scheduled int    `json:"scheduled"`
	Leader    string `json:"leader,omitempty"`
	Error     string `json:"error,omitempty"`
}

// against says how the bot of seat a fared against that of seat b in r:
// 0 won, 1 drew, 2 lost (an index of WDL).
func against(r *tournament.MatchRecord, a, b int) int {
	sa, sb := r.Players[a].Score, r.Players[b].Score
	switch {
	case r.Winner == a:
		return 0
	case r.Winner == b:
		return 2
	case sa > sb:
		return 0
	case sa < sb:
		return 2
	}
	return 1
}

// headToHead is the table of every pair of the standings' bots.
func headToHead(st *tournament.Standings, matches []*tournament.MatchRecord) *HeadToHead {
	h := &HeadToHead{}
	idx := map[string]int{}
	for i, row := range st.Standings {
		h.Names = append(h.Names, row.Name)
		idx[row.Name] = i
	}
	h.Records = make([][]WDL, len(h.Names))
	for i := range h.Records {
		h.Records[i] = make([]WDL, len(h.Names))
	}
	for _, r := range matches {
		for a := range r.Players {
			for b := range r.Players {
				i, oka := idx[r.Players[a].Name]
				j, okb := idx[r.Players[b].Name]
				if a == b || !oka || !okb || i == j {
					continue
				}
				h.Records[i][j][against(r, a, b)]++
			}
		}
	}
	return h
}

// failures lists every failed seat of the matches, in their order.
func failures(matches []*tournament.MatchRecord) []Failure {
	var out []Failure
	for _, r := range matches {
		for _, p := range r.Players {
			if p.Status != judge.OK {
				out = append(out, Failure{Match: r.ID, Bot: p.Name, Status: p.Status, Reason: p.Reason, Replay: r.Replay})
			}
		}
	}
	return out
}

// hrefTo is the link from the place's page to the page of the directory
// rel under it.
func (p *place) hrefTo(rel string) string {
	parts := strings.Split(rel, "/")
	for i := range parts {
		parts[i] = url.PathEscape(parts[i])
	}
	// Never a scheme: a folder named javascript:… stays a path.
	h := "./" + strings.Join(parts, "/") + "/"
	if p.top {
		h = "t/" + h[2:]
	}
	return h
}

// entries describes the tournaments under a folder.
func (p *place) entries() []Entry {
	var out []Entry
	for _, rel := range p.tournaments() {
		e := Entry{Path: rel, Href: p.hrefTo(rel)}
		sub, err := fs.Sub(p.root.FS(), rel)
		var l *tournament.Live
		if err == nil {
			l, err = tournament.ReadLive(sub)
		}
		switch {
		case err != nil:
			e.Error = err.Error()
		case l.Header != nil:
			e.Game, e.Format = l.Header.Game, string(l.Header.Format)
			e.Recorded, e.Scheduled = len(l.Matches), l.Scheduled
			if len(l.Matches) > 0 && len(l.Standings.Standings) > 0 {
				e.Leader = l.Standings.Standings[0].Name
			}
		}
		out = append(out, e)
	}
	return out
}

// snapshot is the status of the place as JSON.
func (p *place) snapshot() ([]byte, error) {
	st := status{Kind: p.kind()}
	switch st.Kind {
	case KindTournament:
		l, err := tournament.ReadLive(p.root.FS())
		if err != nil {
			return nil, err
		}
		st.Live, st.Recorded = l, len(l.Matches)
		if l.Standings != nil {
			st.HeadToHead = headToHead(l.Standings, l.Matches)
		}
		st.Failures = failures(l.Matches)
		st.FailureCount = len(st.Failures)
		if len(st.Failures) > Shown {
			st.Failures = st.Failures[len(st.Failures)-Shown:]
		}
		if len(l.Matches) > Shown {
			l.Matches = l.Matches[len(l.Matches)-Shown:]
		}
	case KindFolder:
		st.Tournaments = p.entries()
	case KindWaiting:
		st.Live = &tournament.Live{}
	}
	return json.Marshal(st)
}

// logStamp identifies a version of the results log of the directory dir:
// its size and time.
func (p *place) logStamp(dir string) string {
	fi, err := p.root.Stat(path.Join(dir, tournamentLog))
	if err != nil {
		return err.Error()
	}
	return fmt.Sprint(fi.Size(), fi.ModTime().UnixNano())
}

// stamp identifies what the place's status is made of: its log, or the
// logs of the tournaments under it, or its files.
func (p *place) stamp() string {
	if isTournament(p.root, ".") {
		return p.logStamp(".")
	}
	var b strings.Builder
	ts := p.tournaments()
	for _, t := range ts {
		fmt.Fprintf(&b, "%q %s\n", t, p.logStamp(t))
	}
	if len(ts) == 0 {
		ents, _ := fs.ReadDir(p.root.FS(), ".")
		for _, e := range ents {
			fmt.Fprintf(&b, "%q\n", e.Name())
		}
	}
	return b.String()
}

func (s *Server) page(html []byte) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		w.Write(html)
	}
}

func writeJSON(w http.ResponseWriter, b []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(b)
}

func (s *Server) status(w http.ResponseWriter, r *http.Request) {
	b, err := placeOf(r).snapshot()
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	writeJSON(w, b)
}

// events streams the status as server-sent events: at once, then each
// time what it is made of changes.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	p := placeOf(r)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	var (
		last  []byte
		stamp string
		quiet int
	)
	tick := time.NewTicker(s.Poll)
	defer tick.Stop()
	for {
		var (
			b   []byte
			err error
		)
		// The logs are read again only when they have changed.
		if now := p.stamp(); now != stamp || last == nil {
			stamp = now
			b, err = p.snapshot()
		} else {
			b = last
		}
		switch {
		case err != nil:
			stamp = "" // try again at the next tick
			fmt.Fprintf(w, "event: failure\ndata: %s\n\n", strings.ReplaceAll(err.Error(), "\n", " "))
		case !bytes.Equal(b, last):
			last = b
			quiet = 0
			fmt.Fprintf(w, "event: status\ndata: %s\n\n", b)
		default:
			if quiet++; quiet*int(s.Poll/time.Millisecond) >= 15000 {
				quiet = 0
				io.WriteString(w, ": still here\n\n")
			}
		}
		fl.Flush()
		select {
		case <-r.Context().Done():
			return
		case <-tick.C:
		}
	}
}

// BotPage is what a bot's page shows.
type BotPage struct {
	Name     string              `json:"name"`
	Game     string              `json:"game"`
	Standing *standings.Standing `json:"standing,omitempty"`
	Against  []Against           `json:"against"` // the bot's row of the head-to-head table
	Matches  []BotMatch          `json:"matches"` // every match it played, in the order recorded
}

// Against is a bot's record against one opponent.
type Against struct {
	Opponent string `json:"opponent"`
	Record   WDL    `json:"record"`
}

// BotMatch is a match as one of its bots played it.
type BotMatch struct {
	ID          string       `json:"id"`
	Round       int          `json:"round"`
	Opponents   []string     `json:"opponents"`
	Result      string       `json:"result"` // win, draw or loss, as the standings count it
	Score       float64      `json:"score"`
	Status      judge.Status `json:"status"`
	Reason      string       `json:"reason"`       // the bot's
	MatchReason string       `json:"match_reason"` // the match's
	Turns       int          `json:"turns"`
	Replay      string       `json:"replay"`
}

// result is how the standings count the match of r for seat
// (standings.ResultOf): "win", "draw" or "loss".
func result(r *tournament.MatchRecord, seat int) string {
	scores := make([]float64, len(r.Players))
	for i, p := range r.Players {
		scores[i] = p.Score
	}
	return string(standings.ResultOf(seat, r.Winner, scores))
}

// botPage gathers the page of the bot name from the tournament's log.
func botPage(l *tournament.Live, name string) *BotPage {
	bp := &BotPage{Name: name, Against: []Against{}, Matches: []BotMatch{}}
	if l.Header != nil {
		bp.Game = l.Header.Game
	}
	if l.Standings != nil {
		h := headToHead(l.Standings, l.Matches)
		for i, row := range l.Standings.Standings {
			if row.Name != name {
				continue
			}
			bp.Standing = &l.Standings.Standings[i]
			for j, o := range h.Names {
				if j != i && h.Records[i][j] != (WDL{}) {
					bp.Against = append(bp.Against, Against{Opponent: o, Record: h.Records[i][j]})
				}
			}
		}
	}
	for _, r := range l.Matches {
		for seat, p := range r.Players {
			if p.Name != name {
				continue
			}
			m := BotMatch{ID: r.ID, Round: r.Round, Opponents: []string{}, Result: result(r, seat), Score: p.Score, Status: p.Status,
				Reason: p.Reason, MatchReason: r.Reason, Turns: r.Turns, Replay: r.Replay}
			for o, q := range r.Players {
				if o != seat {
					m.Opponents = append(m.Opponents, q.Name)
				}
			}
			bp.Matches = append(bp.Matches, m)
		}
	}
	return bp
}

// bot answers api/bot?name=NAME: the bot's page as JSON.
func (s *Server) bot(w http.ResponseWriter, r *http.Request) {
	p := placeOf(r)
	name := r.URL.Query().Get("name")
	if !isTournament(p.root, ".") {
		http.Error(w, "no tournament here", http.StatusNotFound)
		return
	}
	l, err := tournament.ReadLive(p.root.FS())
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	bp := botPage(l, name)
	if bp.Standing == nil && len(bp.Matches) == 0 {
		http.Error(w, fmt.Sprintf("no bot %q in this tournament", name), http.StatusNotFound)
		return
	}
	b, err := json.Marshal(bp)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	writeJSON(w, b)
}
