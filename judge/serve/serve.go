// Package serve shows a tournament's directory in a web browser: the
// standings, the failures and the progress, updated while the tournament
// runs (server-sent events), and a viewer for every finished match's
// replay. It serves only what is under the directory.
package serve

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path"
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
	s.mux.Handle("GET /files/", http.StripPrefix("/files/", http.FileServerFS(refusing{s.fsys})))
	return s, nil
}

// refusing says "forbidden" for what the root refuses (a link out of the
// directory), where a file server would say "internal error".
type refusing struct{ fs.FS }

func (r refusing) Open(name string) (fs.File, error) {
	f, err := r.FS.Open(name)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrPermission}
	}
	return f, err
}

// Close releases the directory.
func (s *Server) Close() error { return s.root.Close() }

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Referrer-Policy", "no-referrer")
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
	if !fs.ValidPath(name) || path.Ext(name) != ".json" {
		http.Error(w, "not a replay under the tournament's directory", http.StatusBadRequest)
		return
	}
	f, err := s.fsys.Open(name)
	if err != nil {
		code := http.StatusNotFound
		if !errors.Is(err, fs.ErrNotExist) {
			code = http.StatusForbidden
		}
		http.Error(w, "no such replay", code)
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
