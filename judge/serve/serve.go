// Package serve shows a tournament's directory in a web browser: the
// standings, the failures and the progress, updated while the tournament
// runs (server-sent events), and a viewer for every finished match's
// replay. It serves results, never submissions: the replays (under
// replays/), the standings files and the pages made of them, and nothing
// else of the directory (not its cache/ of built bots and their sources,
// not the results log). It answers only requests whose Host is the
// address it listens on, so that a web page elsewhere cannot read it
// through a name that resolves to this machine (DNS rebinding).
package serve

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/netip"
	"os"
	"path"
	"strconv"
	"strings"
	"time"

	"judge/games"
	"judge/judge"
	"judge/judge/replayview"
	"judge/judge/tournament"
)

//go:embed web/index.html
var index []byte

// Lookup finds the rules of a game by the name a replay gives.
type Lookup func(name string) (games.Game, error)

// Server serves one tournament directory.
type Server struct {
	root   *os.Root
	fsys   fs.FS
	lookup Lookup
	// Poll is how often the events stream looks for new results.
	Poll time.Duration
	mux  *http.ServeMux
	host func(string) bool // accepts a request's Host; nil until Listening
}

// New serves the tournament directory dir. Files are opened through an
// os.Root: no path, ".." or symbolic link leads out of dir.
func New(dir string, lookup Lookup) (*Server, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	s := &Server{root: root, fsys: root.FS(), lookup: lookup, Poll: 500 * time.Millisecond, mux: http.NewServeMux()}
	s.mux.HandleFunc("GET /{$}", s.page)
	s.mux.HandleFunc("GET /api/status", s.status)
	s.mux.HandleFunc("GET /api/events", s.events)
	s.mux.HandleFunc("GET /view/{file...}", s.view)
	s.mux.HandleFunc("GET /files/{file...}", s.files)
	return s, nil
}

// Standings are the standings files, the only files served besides the
// replays.
var Standings = map[string]string{
	"standings.md":   "text/plain; charset=utf-8",
	"standings.csv":  "text/plain; charset=utf-8",
	"standings.json": "application/json",
}

// isResult reports whether name is a file the server shows: a standings
// file, or a replay (replays/….json).
func isResult(name string) bool {
	if _, ok := Standings[name]; ok {
		return true
	}
	return fs.ValidPath(name) && strings.HasPrefix(name, "replays/") && path.Ext(name) == ".json"
}

// open opens a result file: a regular file reached through directories,
// no link on the way (a link could make a result of any file under the
// directory). The error is for the person asking.
func (s *Server) open(name string) (*os.File, int, error) {
	if !isResult(name) {
		return nil, http.StatusNotFound, errors.New("not a replay or a standings file: judge serve shows results, nothing else of the tournament's directory")
	}
	parts := strings.Split(name, "/")
	for i := range parts {
		fi, err := s.root.Lstat(path.Join(parts[:i+1]...))
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return nil, http.StatusNotFound, errors.New("no such file")
		case err != nil:
			return nil, http.StatusForbidden, errors.New("forbidden")
		case i < len(parts)-1 && !fi.IsDir(), i == len(parts)-1 && !fi.Mode().IsRegular():
			return nil, http.StatusForbidden, errors.New("forbidden: not a regular file in a directory of the tournament")
		}
	}
	f, err := s.root.Open(name)
	if err != nil {
		return nil, http.StatusForbidden, errors.New("forbidden")
	}
	return f, 0, nil
}

// files serves a standings file or a replay as it is written.
func (s *Server) files(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("file")
	f, code, err := s.open(name)
	if err != nil {
		http.Error(w, err.Error(), code)
		return
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		http.Error(w, "forbidden", http.StatusForbidden)
		return
	}
	ct, ok := Standings[name]
	if !ok {
		ct = "application/json"
	}
	w.Header().Set("Content-Type", ct)
	// What a file holds (a bot's name, its stderr) never runs as a page.
	w.Header().Set("Content-Security-Policy", "default-src 'none'; sandbox")
	http.ServeContent(w, r, "", fi.ModTime(), f)
}

// Listening tells the server where it listens: given is the address as
// the person gave it (--addr), bound the one the listener got. From then
// on it answers only requests whose Host names that address (with its
// port): localhost, 127.0.0.1 or [::1] when bound to a loopback address;
// the bound address, or the name given for it, otherwise; any IP address
// of the machine when bound to all of them (0.0.0.0, [::]). A request
// with another Host, such as a name a web page made resolve to this
// machine, is refused (421 Misdirected Request). Until Listening is
// called, every request is refused.
func (s *Server) Listening(given string, bound net.Addr) error {
	ap, err := netip.ParseAddrPort(bound.String())
	if err != nil {
		return fmt.Errorf("judge serve: the listener's address %s: %w", bound, err)
	}
	ip, port := ap.Addr().Unmap(), strconv.Itoa(int(ap.Port()))
	givenHost, _, _ := net.SplitHostPort(given)
	names := map[string]bool{}
	add := func(host string) { names[strings.ToLower(net.JoinHostPort(host, port))] = true }
	switch {
	case ip.IsLoopback():
		add("localhost")
		add("127.0.0.1")
		add("::1")
		add(ip.String())
	case ip.IsUnspecified():
		add("localhost")
	default:
		add(ip.String())
		if givenHost != "" {
			add(givenHost)
		}
	}
	anyIP := ip.IsUnspecified()
	s.host = func(h string) bool {
		h = strings.ToLower(h)
		if _, _, err := net.SplitHostPort(h); err != nil && port == "80" {
			h = net.JoinHostPort(strings.Trim(h, "[]"), port)
		}
		if names[h] {
			return true
		}
		if !anyIP {
			return false
		}
		// Bound to every address: an address literal is this machine, a
		// name may be anyone's.
		hp, err := netip.ParseAddrPort(h)
		return err == nil && strconv.Itoa(int(hp.Port())) == port
	}
	return nil
}

// Close releases the directory.
func (s *Server) Close() error { return s.root.Close() }

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Referrer-Policy", "no-referrer")
	if s.host == nil || !s.host(r.Host) {
		http.Error(w, fmt.Sprintf("judge serve: Host %q is not the address it listens on", r.Host), http.StatusMisdirectedRequest)
		return
	}
	s.mux.ServeHTTP(w, r)
}

func (s *Server) page(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(index)
}

// Shown is how many of the most recent matches the status lists.
const Shown = 300

// status is what the page shows.
type status struct {
	*tournament.Live
	Recorded int `json:"recorded"` // matches recorded; Matches holds the last Shown of them
}

// snapshot is the status as JSON.
func (s *Server) snapshot() ([]byte, error) {
	l, err := tournament.ReadLive(s.fsys)
	if err != nil {
		return nil, err
	}
	st := status{Live: l, Recorded: len(l.Matches)}
	if len(l.Matches) > Shown {
		l.Matches = l.Matches[len(l.Matches)-Shown:]
	}
	return json.Marshal(st)
}

// logStamp identifies a version of the results log: its size and time.
func (s *Server) logStamp() string {
	fi, err := fs.Stat(s.fsys, tournament.LogName)
	if err != nil {
		return err.Error()
	}
	return fmt.Sprint(fi.Size(), fi.ModTime().UnixNano())
}

func (s *Server) status(w http.ResponseWriter, r *http.Request) {
	b, err := s.snapshot()
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(b)
}

// events streams the status as server-sent events: at once, then each
// time the results log changes.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
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
		// The log is read again only when it has changed.
		if now := s.logStamp(); now != stamp || last == nil {
			stamp = now
			b, err = s.snapshot()
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

// view writes the viewer of a replay file under the directory.
func (s *Server) view(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("file")
	if _, ok := Standings[name]; ok || !isResult(name) {
		http.Error(w, "not a replay of the tournament (replays/….json)", http.StatusNotFound)
		return
	}
	f, code, err := s.open(name)
	if err != nil {
		http.Error(w, err.Error(), code)
		return
	}
	defer f.Close()
	rp, err := judge.ReadReplay(f)
	if err != nil {
		http.Error(w, err.Error(), http.StatusUnprocessableEntity)
		return
	}
	g, err := s.lookup(rp.Game)
	if err != nil {
		http.Error(w, err.Error(), http.StatusUnprocessableEntity)
		return
	}
	var buf bytes.Buffer
	if err := replayview.WriteHTML(&buf, g, rp); err != nil {
		http.Error(w, err.Error(), http.StatusUnprocessableEntity)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write(buf.Bytes())
}
