// Package web is the arena's web server: an HTTP API through which
// entrants submit their bots with their tokens and follow their builds,
// the standings and the matches, and a page that does the same in a
// browser, with a viewer for every match's replay.
//
// It serves no source and no build: an entrant sees their own
// submissions' status and build log, and everybody sees the standings,
// the matches and their replays. It answers only requests whose Host is
// a loopback name, or one of Options.AllowedHosts (or, when public, an
// IP address): a web page elsewhere cannot read it through a name it made
// resolve to this machine (DNS rebinding). Posts from another origin are
// refused.
package web

import (
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"judge/games/catalog"
	"judge/judge"
	"judge/judge/arena"
	"judge/judge/replayview"
)

//go:embed page
var page embed.FS

// Options says whom the server answers.
type Options struct {
	// Public accepts requests whose Host is any IP address, as well as
	// a loopback name: for a server that listens beyond the loopback
	// interface and is reached by its address. (A name is never
	// accepted unless it is in AllowedHosts: a name can be made to
	// resolve to this machine by someone else's DNS.)
	Public bool
	// AllowedHosts are the names (or name:port) the server also
	// answers to, such as the name a TLS proxy in front of it is
	// reached by. A name without a port matches any port.
	AllowedHosts []string
}

// formOverhead is what a multipart body may hold beyond the file: its
// boundaries, headers and a URL field.
const formOverhead = 64 << 10

// Shown is how many matches a list of matches holds at most.
const Shown = 200

type server struct {
	a         *arena.Arena
	o         Options
	maxUpload int64           // the arena's bound of an upload
	dirs      []string        // the arena's directory, absolute and as given
	hosts     map[string]bool // allowed host names, lower case, with or without a port
	mux       *http.ServeMux
}

// Handler serves the arena a.
func Handler(a *arena.Arena, o Options) http.Handler {
	s := &server{a: a, o: o, maxUpload: a.Config().MaxUploadBytes, hosts: map[string]bool{}, mux: http.NewServeMux()}
	if d := filepath.Clean(a.Dir()); d != "." {
		s.dirs = append(s.dirs, d)
		if abs, err := filepath.Abs(d); err == nil && abs != d {
			s.dirs = append([]string{abs}, s.dirs...)
		}
	}
	for _, h := range o.AllowedHosts {
		s.hosts[strings.ToLower(strings.TrimSpace(h))] = true
	}
	s.mux.HandleFunc("GET /{$}", s.static("index.html", "text/html; charset=utf-8"))
	s.mux.HandleFunc("GET /arena.js", s.static("arena.js", "text/javascript; charset=utf-8"))
	s.mux.HandleFunc("GET /arena.css", s.static("arena.css", "text/css; charset=utf-8"))
	s.mux.HandleFunc("GET /api/arena", s.arena)
	s.mux.HandleFunc("GET /rules", s.rules)
	s.mux.HandleFunc("GET /api/me", s.me)
	s.mux.HandleFunc("POST /api/submissions", s.submit)
	s.mux.HandleFunc("GET /api/submissions", s.submissions)
	s.mux.HandleFunc("GET /api/submissions/{id}", s.submission)
	s.mux.HandleFunc("GET /api/standings", s.standings)
	s.mux.HandleFunc("GET /api/matches", s.matches)
	s.mux.HandleFunc("GET /view/{name}", s.view)
	s.mux.HandleFunc("GET /replays/{name}", s.replay)
	return s
}

// hostAllowed reports whether a request's Host names this server.
func (s *server) hostAllowed(hostport string) bool {
	hostport = strings.ToLower(hostport)
	if hostport == "" {
		return false
	}
	if s.hosts[hostport] {
		return true
	}
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.Trim(host, "[]")
	if s.hosts[host] || host == "localhost" {
		return true
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return false
	}
	// An address literal is not a name that someone else's DNS could
	// point here.
	return ip.Unmap().IsLoopback() || s.o.Public
}

// sameOrigin reports whether a request that changes something comes
// from the server's own page: its Origin, when the browser sends one,
// names the Host it was sent to.
func sameOrigin(r *http.Request) bool {
	if r.Header.Get("Sec-Fetch-Site") == "cross-site" {
		return false
	}
	o := r.Header.Get("Origin")
	if o == "" {
		return true // not a browser's cross-origin post: those carry an Origin
	}
	u, err := url.Parse(o)
	if err != nil || u.Host == "" {
		return false
	}
	return strings.EqualFold(u.Host, r.Host)
}

// ServeHTTP implements http.Handler.
func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "no-store")
	if !s.hostAllowed(r.Host) {
		http.Error(w, fmt.Sprintf("judge arena: Host %q is not a name this server answers to (a loopback name, or --host)", r.Host), http.StatusMisdirectedRequest)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead && !sameOrigin(r) {
		http.Error(w, "judge arena: a post from another origin", http.StatusForbidden)
		return
	}
	s.mux.ServeHTTP(w, r)
}

func (s *server) static(name, ctype string) http.HandlerFunc {
	b, err := page.ReadFile("page/" + name)
	if err != nil {
		panic(err) // embedded at build time
	}
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", ctype)
		w.Header().Set("Content-Security-Policy",
			"default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
		w.Write(b)
	}
}

// writeJSON answers v as JSON.
func writeJSON(w http.ResponseWriter, code int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	w.Write(append(b, '\n'))
}

// fail answers an error as JSON {"error": …} with its status code: the
// arena's errors by what they mean, anything else as the server's fault.
func fail(w http.ResponseWriter, err error) {
	code := http.StatusInternalServerError
	var mb *http.MaxBytesError
	switch {
	case errors.Is(err, arena.ErrUnauthorized):
		code = http.StatusUnauthorized
		w.Header().Set("WWW-Authenticate", `Bearer realm="judge arena"`)
	case errors.Is(err, arena.ErrNotFound):
		code = http.StatusNotFound
	case errors.Is(err, arena.ErrTooLarge), errors.As(err, &mb):
		code = http.StatusRequestEntityTooLarge
	case errors.Is(err, arena.ErrBadArchive), errors.Is(err, errBadRequest):
		code = http.StatusBadRequest
	case errors.Is(err, arena.ErrRateLimited):
		code = http.StatusTooManyRequests
		w.Header().Set("Retry-After", "600")
	case errors.Is(err, arena.ErrFrozen):
		code = http.StatusConflict
	case errors.Is(err, context.Canceled):
		code = http.StatusServiceUnavailable
	}
	writeJSON(w, code, map[string]string{"error": err.Error()})
}

var errBadRequest = errors.New("bad request")

// maxURL bounds a web bot's URL.
const maxURL = 4096

// entrant authenticates a request by its bearer token.
func (s *server) entrant(r *http.Request) (arena.Participant, error) {
	auth := r.Header.Get("Authorization")
	scheme, token, ok := strings.Cut(auth, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(token) == "" {
		return arena.Participant{}, fmt.Errorf("%w: send your token as Authorization: Bearer TOKEN", arena.ErrUnauthorized)
	}
	return s.a.Authenticate(r.Context(), strings.TrimSpace(token))
}

func (s *server) me(w http.ResponseWriter, r *http.Request) {
	e, err := s.entrant(r)
	if err != nil {
		fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"name": e.Name, "retired": e.Retired})
}

// upload reads a submission from the request's body: a multipart form
// with a file (field "file") or a URL (field "url"), or a urlencoded
// form with a URL. The body is bounded: past the bound, the read fails
// with an *http.MaxBytesError.
func (s *server) upload(w http.ResponseWriter, r *http.Request) (arena.Upload, error) {
	r.Body = http.MaxBytesReader(w, r.Body, s.maxUpload+formOverhead)
	ct, params, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	switch ct {
	case "application/x-www-form-urlencoded":
		if err := r.ParseForm(); err != nil {
			return arena.Upload{}, err
		}
		if u := r.PostForm.Get("url"); u != "" {
			return arena.Upload{URL: u}, nil
		}
		return arena.Upload{}, fmt.Errorf("%w: no url in the form", errBadRequest)
	case "multipart/form-data":
		if params["boundary"] == "" {
			return arena.Upload{}, fmt.Errorf("%w: a multipart form without a boundary", errBadRequest)
		}
	default:
		return arena.Upload{}, fmt.Errorf("%w: send a multipart form with a file (field \"file\") or a URL (field \"url\")", errBadRequest)
	}
	mr, err := r.MultipartReader()
	if err != nil {
		return arena.Upload{}, fmt.Errorf("%w: %v", errBadRequest, err)
	}
	var u arena.Upload
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			var mb *http.MaxBytesError
			if errors.As(err, &mb) {
				return u, err
			}
			return u, fmt.Errorf("%w: %v", errBadRequest, err)
		}
		switch p.FormName() {
		case "file":
			if p.FileName() == "" {
				continue
			}
			u.FileName = p.FileName()
			u.Data, err = io.ReadAll(io.LimitReader(p, s.maxUpload+1))
			if err != nil {
				return u, err
			}
			if int64(len(u.Data)) > s.maxUpload {
				return u, fmt.Errorf("%w: the upload is over %d bytes", arena.ErrTooLarge, s.maxUpload)
			}
		case "url":
			b, err := io.ReadAll(io.LimitReader(p, maxURL+1))
			if err != nil {
				return u, err
			}
			if len(b) > maxURL {
				return u, fmt.Errorf("%w: a URL of more than %d bytes", errBadRequest, maxURL)
			}
			u.URL = strings.TrimSpace(string(b))
		}
		p.Close()
	}
	switch {
	case u.FileName != "" && u.URL != "":
		return u, fmt.Errorf("%w: a file or a URL, not both", errBadRequest)
	case u.FileName == "" && u.URL == "":
		return u, fmt.Errorf("%w: no file (field \"file\") and no URL (field \"url\")", errBadRequest)
	case u.FileName != "" && len(u.Data) == 0:
		return u, fmt.Errorf("%w: %s is empty", errBadRequest, u.FileName)
	}
	return u, nil
}

func (s *server) submit(w http.ResponseWriter, r *http.Request) {
	// The token first: nobody else gets to send a body.
	e, err := s.entrant(r)
	if err != nil {
		fail(w, err)
		return
	}
	u, err := s.upload(w, r)
	if err != nil {
		fail(w, err)
		return
	}
	id, err := s.a.Submit(r.Context(), e, u)
	if err != nil {
		fail(w, err)
		return
	}
	writeJSON(w, http.StatusCreated, map[string]int64{"id": id})
}

// submissionJSON is a submission as the API shows it to its author.
type submissionJSON struct {
	ID      int64     `json:"id"`
	Entrant string    `json:"entrant"`
	Status  string    `json:"status"`
	Log     string    `json:"log"`
	Created time.Time `json:"created"`
	Replays []string  `json:"replays"`
	// Tests are its test matches, with their results.
	Tests []matchJSON `json:"tests"`
}

func (sv *server) toJSON(ctx context.Context, s arena.Submission) (submissionJSON, error) {
	r := s.Replays
	if r == nil {
		r = []string{}
	}
	ms, err := sv.a.TestMatches(ctx, s.ID)
	if err != nil {
		return submissionJSON{}, err
	}
	return submissionJSON{ID: s.ID, Entrant: s.Participant, Status: s.Status, Log: sv.relative(s.Log), Created: s.Created,
		Replays: r, Tests: toMatchesJSON(ms)}, nil
}

// relative writes the paths in a build log relative to the arena's
// directory: where it is on the server is not the entrant's business.
func (sv *server) relative(log string) string {
	for _, d := range sv.dirs {
		log = strings.ReplaceAll(log, d+string(filepath.Separator), "")
	}
	return log
}

func (s *server) submission(w http.ResponseWriter, r *http.Request) {
	e, err := s.entrant(r)
	if err != nil {
		fail(w, err)
		return
	}
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil {
		fail(w, fmt.Errorf("%w: no submission %q", arena.ErrNotFound, r.PathValue("id")))
		return
	}
	sub, err := s.a.Submission(r.Context(), e, id)
	if err != nil {
		fail(w, err)
		return
	}
	out, err := s.toJSON(r.Context(), sub)
	if err != nil {
		fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *server) submissions(w http.ResponseWriter, r *http.Request) {
	e, err := s.entrant(r)
	if err != nil {
		fail(w, err)
		return
	}
	subs, err := s.a.Submissions(r.Context(), e)
	if err != nil {
		fail(w, err)
		return
	}
	out := make([]submissionJSON, 0, len(subs))
	for _, sub := range subs {
		j, err := s.toJSON(r.Context(), sub)
		if err != nil {
			fail(w, err)
			return
		}
		out = append(out, j)
	}
	writeJSON(w, http.StatusOK, map[string]any{"name": e.Name, "submissions": out})
}

type standingJSON struct {
	Rank   int    `json:"rank"`
	Name   string `json:"name"`
	Played int    `json:"played"`
	Wins   int    `json:"wins"`
	Draws  int    `json:"draws"`
	Losses int    `json:"losses"`
	// Failures are the losses by its own fault: crashes, timeouts,
	// illegal moves, protocol faults.
	Failures int     `json:"failures"`
	Rating   float64 `json:"rating"`
	Low      float64 `json:"low"`
	High     float64 `json:"high"`
}

func (s *server) standings(w http.ResponseWriter, r *http.Request) {
	n, st, err := s.a.LiveStandings(r.Context())
	if err != nil {
		fail(w, err)
		return
	}
	out := make([]standingJSON, 0, len(st))
	for _, x := range st {
		out = append(out, standingJSON{x.Rank, x.Name, x.Played, x.Wins, x.Draws, x.Losses, x.Failures.Total, x.Rating, x.RatingLow, x.RatingHigh})
	}
	writeJSON(w, http.StatusOK, map[string]any{"matches": n, "standings": out})
}

type matchJSON struct {
	ID int64 `json:"id"`
	// Seed is a string: JavaScript's numbers hold 53 bits, a seed 64.
	Seed  uint64   `json:"seed,string"`
	Seats []string `json:"seats"`
	// Winner is the winner's seat, -1 for a draw.
	Winner int    `json:"winner"`
	Result string `json:"result"`
	Reason string `json:"reason"`
	Replay string `json:"replay"`
	// Dropped says the replay was dropped to keep the arena's replays
	// within their disk budget.
	Dropped  bool      `json:"replay_dropped,omitempty"`
	Test     bool      `json:"test"`
	Finished time.Time `json:"finished"`
}

func toMatchesJSON(ms []arena.Match) []matchJSON {
	out := make([]matchJSON, 0, len(ms))
	for _, m := range ms {
		out = append(out, matchJSON{m.ID, m.Seed, m.Seats, m.Winner, m.Result, m.Reason, m.Replay, m.ReplayDropped, m.Test, m.Finished})
	}
	return out
}

// matches answers a page of the matches, newest first: ?entrant=NAME
// for one entrant's, ?before=ID for those older than match ID (the
// "before" of the page before), ?limit=N for at most N (and Shown).
func (s *server) matches(w http.ResponseWriter, r *http.Request) {
	q := arena.MatchQuery{Entrant: r.URL.Query().Get("entrant"), Limit: Shown}
	if l, err := strconv.Atoi(r.URL.Query().Get("limit")); err == nil && l > 0 && l < Shown {
		q.Limit = l
	}
	if b := r.URL.Query().Get("before"); b != "" {
		var err error
		if q.Before, err = strconv.ParseInt(b, 10, 64); err != nil || q.Before <= 0 {
			fail(w, fmt.Errorf("%w: before=%q is not a match's id", errBadRequest, b))
			return
		}
	}
	limit := q.Limit
	q.Limit++ // one more says whether there are more
	ms, err := s.a.MatchList(r.Context(), q)
	if err != nil {
		fail(w, err)
		return
	}
	out := map[string]any{}
	if len(ms) > limit {
		ms = ms[:limit]
		out["before"] = ms[limit-1].ID
	}
	out["matches"] = toMatchesJSON(ms)
	writeJSON(w, http.StatusOK, out)
}

// arenaJSON is what the page says of the arena before anything else.
type arenaJSON struct {
	// Game is the game's name in the arena (tictactoe), Rules its
	// rules' name (gomoku), Describe the game's line.
	Game     string         `json:"game"`
	Rules    string         `json:"rules"`
	Describe string         `json:"describe"`
	Params   map[string]int `json:"params"`
	// Guide is where the page links the game's guide; "" for none.
	Guide       string `json:"guide"`
	Frozen      bool   `json:"frozen"`
	TestMatches int    `json:"test_matches"`
	References  int    `json:"references"`
	LadderGames int    `json:"ladder_games"`
	WebBots     bool   `json:"web_bots"`
	MaxUpload   int64  `json:"max_upload"`
}

func (s *server) arena(w http.ResponseWriter, r *http.Request) {
	c := s.a.Config()
	frozen, err := s.a.Frozen(r.Context())
	if err != nil {
		fail(w, err)
		return
	}
	out := arenaJSON{Game: c.Game, Rules: c.Game, Params: map[string]int{}, Frozen: frozen, TestMatches: c.TestMatches,
		References: len(c.References), LadderGames: c.LadderGames, WebBots: len(c.WebBots) > 0, MaxUpload: c.MaxUploadBytes}
	if v, err := catalog.Lookup(c.Game); err == nil {
		out.Rules, out.Describe = v.Game.Name(), v.Game.Describe()
		if v.Dir != "" {
			out.Game = v.Name // not the folder it is kept by
		}
		if p, err := v.Resolve(c.Params); err == nil {
			out.Params = p
		}
		if _, ok := v.Guide(); ok {
			out.Guide = "/rules"
		}
	}
	writeJSON(w, http.StatusOK, out)
}

// rules serves the guide of the arena's game, as Markdown text.
func (s *server) rules(w http.ResponseWriter, r *http.Request) {
	v, err := catalog.Lookup(s.a.Config().Game)
	if err != nil {
		fail(w, fmt.Errorf("%w: %v", arena.ErrNotFound, err))
		return
	}
	b, ok := v.Guide()
	if !ok {
		fail(w, fmt.Errorf("%w: no guide to %s", arena.ErrNotFound, v.Game.Name()))
		return
	}
	if v.Dir != "" {
		// The page is public: the guide made from game.toml names the
		// game's folder on this machine, which is no entrant's business.
		b = bytes.ReplaceAll(b, []byte(v.Dir), []byte(v.Name))
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Content-Security-Policy", "default-src 'none'; sandbox")
	w.Write(b)
}

// openReplay opens a replay of the arena by its name.
func (s *server) openReplay(name string) (*os.File, error) {
	p, err := s.a.ReplayPath(name)
	if err != nil {
		return nil, fmt.Errorf("%w: no replay %q", arena.ErrNotFound, name)
	}
	f, err := os.Open(p)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%w: no replay %q", arena.ErrNotFound, name)
	}
	return f, err
}

// replay serves a replay's file as it is.
func (s *server) replay(w http.ResponseWriter, r *http.Request) {
	f, err := s.openReplay(r.PathValue("name"))
	if err != nil {
		fail(w, err)
		return
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		fail(w, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	// What a replay holds (bots' names, their stderr) never runs as a page.
	w.Header().Set("Content-Security-Policy", "default-src 'none'; sandbox")
	http.ServeContent(w, r, "", fi.ModTime(), f)
}

// view writes the viewer of a replay.
func (s *server) view(w http.ResponseWriter, r *http.Request) {
	f, err := s.openReplay(r.PathValue("name"))
	if err != nil {
		fail(w, err)
		return
	}
	defer f.Close()
	rp, err := judge.ReadReplay(f)
	if err != nil {
		http.Error(w, err.Error(), http.StatusUnprocessableEntity)
		return
	}
	v, err := catalog.Lookup(rp.Game)
	if err != nil {
		http.Error(w, err.Error(), http.StatusUnprocessableEntity)
		return
	}
	var buf bytes.Buffer
	if err := replayview.WriteHTML(&buf, v.Game, rp); err != nil {
		http.Error(w, err.Error(), http.StatusUnprocessableEntity)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", "frame-ancestors 'none'")
	w.Write(buf.Bytes())
}
