// Package serve shows a tournament's directory in a web browser: the
// standings (sortable), the head-to-head table, every failure with its
// replay, the progress, updated while the tournament runs (server-sent
// events), a page per bot with its matches, and a viewer for every
// finished match's replay. A directory that holds tournaments in its
// folders (results/demo/tictactoe, results/demo/connect4) is shown as a
// list of them, each served under t/ and its path. It serves results,
// never submissions: the replays (under replays/), the standings files
// and the pages made of them, and nothing else of the directory (not its
// cache/ of built bots and their sources, not the results log). It
// answers only requests whose Host is the address it listens on, so that
// a web page elsewhere cannot read it through a name that resolves to
// this machine (DNS rebinding).
package serve

import (
	"bytes"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"path"
	"strconv"
	"strings"
	"time"

	"judge/games"
	"judge/judge"
	"judge/judge/replayview"
)

var (
	//go:embed web/index.html
	index []byte
	//go:embed web/bot.html
	botHTML []byte
)

// Lookup finds the rules of a game by the name a replay gives.
type Lookup func(name string) (games.Game, error)

// Server serves one directory: a tournament, or a folder of them.
type Server struct {
	root   *os.Root
	lookup Lookup
	// Poll is how often the events stream looks for new results.
	Poll  time.Duration
	mux   *http.ServeMux    // the requests to the directory given
	inner *http.ServeMux    // the requests to one place, a tournament or a folder
	host  func(string) bool // accepts a request's Host; nil until Listening
}

// New serves the directory dir. Files are opened through an os.Root: no
// path, ".." or symbolic link leads out of dir.
func New(dir string, lookup Lookup) (*Server, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	s := &Server{root: root, lookup: lookup, Poll: 500 * time.Millisecond, mux: http.NewServeMux(), inner: http.NewServeMux()}
	s.inner.HandleFunc("GET /{$}", s.page(index))
	s.inner.HandleFunc("GET /bot", s.page(botHTML))
	s.inner.HandleFunc("GET /api/status", s.status)
	s.inner.HandleFunc("GET /api/events", s.events)
	s.inner.HandleFunc("GET /api/bot", s.bot)
	s.inner.HandleFunc("GET /view/{file...}", s.view)
	s.inner.HandleFunc("GET /files/{file...}", s.files)
	s.mux.HandleFunc("GET /t/{rest...}", s.sub)
	s.mux.Handle("/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.inner.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), placeKey{}, &place{root: s.root, top: true})))
	}))
	return s, nil
}

// place is the directory a request is about: the one given to the server
// (top), or one under it reached through t/.
type place struct {
	root *os.Root
	top  bool
}

type placeKey struct{}

func placeOf(r *http.Request) *place { return r.Context().Value(placeKey{}).(*place) }

// sub serves t/PATH/...: PATH is a tournament under the directory (the
// first directory on the way that holds a results log), or a folder of
// them when no directory on the way holds one. Every step is a directory
// itself, not a link.
func (s *Server) sub(w http.ResponseWriter, r *http.Request) {
	parts := strings.Split(r.PathValue("rest"), "/")
	n := 0 // the parts that name the place
	for n < len(parts) {
		p := parts[n]
		if p == "" || p == "." || p == ".." || strings.ContainsRune(p, '\\') {
			break
		}
		fi, err := s.root.Lstat(path.Join(parts[:n+1]...))
		if err != nil || !fi.IsDir() {
			break
		}
		n++
		if isTournament(s.root, path.Join(parts[:n]...)) {
			break
		}
	}
	rest := parts[n:]
	switch {
	case n == 0 || isTournament(s.root, "."):
		http.Error(w, "no tournament or folder of tournaments here", http.StatusNotFound)
		return
	case len(rest) == 0:
		// Relative links need the trailing slash.
		http.Redirect(w, r, url.PathEscape(path.Base(r.URL.Path))+"/", http.StatusMovedPermanently)
		return
	}
	sub, err := s.root.OpenRoot(path.Join(parts[:n]...))
	if err != nil {
		http.Error(w, "forbidden", http.StatusForbidden)
		return
	}
	defer sub.Close()
	r2 := r.Clone(context.WithValue(r.Context(), placeKey{}, &place{root: sub}))
	r2.URL.Path, r2.URL.RawPath = "/"+strings.Join(rest, "/"), ""
	s.inner.ServeHTTP(w, r2)
}

// isTournament reports whether the directory dir of root holds a
// tournament: a results log, a regular file.
func isTournament(root *os.Root, dir string) bool {
	fi, err := root.Lstat(path.Join(dir, tournamentLog))
	return err == nil && fi.Mode().IsRegular()
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

// open opens a result file of a tournament: a regular file reached
// through directories, no link on the way (a link could make a result of
// any file under the directory). The error is for the person asking.
func (p *place) open(name string) (*os.File, int, error) {
	if !isResult(name) {
		return nil, http.StatusNotFound, errors.New("not a replay or a standings file: judge serve shows results, nothing else of the tournament's directory")
	}
	if !isTournament(p.root, ".") {
		return nil, http.StatusNotFound, errors.New("no tournament here: no results log")
	}
	parts := strings.Split(name, "/")
	for i := range parts {
		fi, err := p.root.Lstat(path.Join(parts[:i+1]...))
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return nil, http.StatusNotFound, errors.New("no such file")
		case err != nil:
			return nil, http.StatusForbidden, errors.New("forbidden")
		case i < len(parts)-1 && !fi.IsDir(), i == len(parts)-1 && !fi.Mode().IsRegular():
			return nil, http.StatusForbidden, errors.New("forbidden: not a regular file in a directory of the tournament")
		}
	}
	f, err := p.root.Open(name)
	if err != nil {
		return nil, http.StatusForbidden, errors.New("forbidden")
	}
	return f, 0, nil
}

// files serves a standings file or a replay as it is written.
func (s *Server) files(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("file")
	f, code, err := placeOf(r).open(name)
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

// view writes the viewer of a replay file under the directory.
func (s *Server) view(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("file")
	if _, ok := Standings[name]; ok || !isResult(name) {
		http.Error(w, "not a replay of the tournament (replays/….json)", http.StatusNotFound)
		return
	}
	f, code, err := placeOf(r).open(name)
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
