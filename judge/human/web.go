package human

import (
	"context"
	_ "embed"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"judge/games"
)

//go:embed web/play.html
var playPage []byte

// Web is a Console in a browser: it serves a page (ServeHTTP) that shows
// what the game shows and sends the person's answers, typed or made of
// clicks on the board and of key presses. It is also a KeyAsker: the
// page sends an arrow key as soon as it is pressed; and a Drawer: with
// Viewer set, the page draws the boards on a canvas with the replay
// viewer's drawing, and a click on a cell or a column answers.
type Web struct {
	// Viewer is the replay viewer's script (replayview.Script), served to
	// the page to draw the boards; without it the page shows them as
	// text. Set it before serving.
	Viewer []byte

	game  string
	board *webBoard // the board drawn, nil before the first
	help  string    // how to answer, in the game's words

	mu      sync.Mutex
	texts   []string      // everything shown, in order
	prompt  string        // the question asked, "" when none
	key     bool          // the question takes one key press
	seq     int           // counts changes
	over    string        // the game's end, once set by End or Finish
	ending  *Ending       // the game's end in words, once set by Finish
	changed chan struct{} // closed and replaced at each change
	answers chan string
	seen    chan struct{} // closed once the page was sent the end
	seenOne sync.Once
}

// NewWeb makes a browser Console for a game (its name tells the page how
// clicks on the board make moves).
func NewWeb(game string) *Web {
	return &Web{game: game, changed: make(chan struct{}), answers: make(chan string), seen: make(chan struct{})}
}

// bump records a change; w.mu is held.
func (w *Web) bump() {
	w.seq++
	close(w.changed)
	w.changed = make(chan struct{})
}

// webBoard is a Board as the page reads it.
type webBoard struct {
	Grids  []webGrid    `json:"grids"`
	Marks  []games.Mark `json:"marks"`
	Click  string       `json:"click"`
	Grid   int          `json:"grid"`
	Status string       `json:"status,omitempty"`
	// Palette is Board.Palette, by cell value, as the viewer reads it.
	Palette map[int]webPaint `json:"palette,omitempty"`
}

type webPaint struct {
	Glyph  string `json:"glyph"`
	Colour string `json:"colour"`
}

type webGrid struct {
	Name  string `json:"name"`
	Kind  string `json:"kind"`
	W     int    `json:"w"`
	H     int    `json:"h"`
	Cells []byte `json:"cells"` // base64, as the viewer's layers
}

// Draws implements Drawer: the page draws when it has the viewer's
// script.
func (w *Web) Draws() bool { return w.Viewer != nil }

// Draw implements Drawer.
func (w *Web) Draw(b Board) {
	wb := &webBoard{Marks: b.Marks, Click: b.Click, Grid: b.Grid, Status: b.Status}
	if wb.Marks == nil {
		wb.Marks = []games.Mark{}
	}
	if b.Palette != nil {
		wb.Palette = make(map[int]webPaint, len(b.Palette))
		for c, p := range b.Palette {
			wb.Palette[int(c)] = webPaint{Glyph: p.Glyph, Colour: p.Colour}
		}
	}
	for _, g := range b.Grids {
		wb.Grids = append(wb.Grids, webGrid{Name: g.Name, Kind: g.Kind, W: g.W, H: g.H, Cells: slices.Clone(g.Cells)})
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.board = wb
	w.bump()
}

// Help implements Helper.
func (w *Web) Help(text string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if text != w.help {
		w.help = text
		w.bump()
	}
}

// Show implements Console.
func (w *Web) Show(text string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.texts = append(w.texts, text)
	w.bump()
}

// Ask implements Console: it waits for the page to send an answer.
func (w *Web) Ask(ctx context.Context, prompt string) (string, error) {
	return w.ask(ctx, prompt, false)
}

// AskKey implements KeyAsker.
func (w *Web) AskKey(ctx context.Context, prompt string) (string, error) {
	return w.ask(ctx, prompt, true)
}

func (w *Web) ask(ctx context.Context, prompt string, key bool) (string, error) {
	w.mu.Lock()
	w.prompt, w.key = prompt, key
	w.bump()
	w.mu.Unlock()
	defer func() {
		w.mu.Lock()
		w.prompt, w.key = "", false
		w.bump()
		w.mu.Unlock()
	}()
	select {
	case a := <-w.answers:
		return a, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// End shows the end of the game (its result) and tells the page that no
// more questions come.
func (w *Web) End(text string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.over = text
	w.bump()
}

// Finish shows the end of the game over its board (drawn last, with
// Draw): the result in words, the winning line or the sunk fleet drawn,
// each seat's part; and tells the page that no more questions come.
func (w *Web) Finish(e Ending) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.over, w.ending = e.Headline, &e
	w.bump()
}

// Seen is closed once a page was sent the end of the game.
func (w *Web) Seen() <-chan struct{} { return w.seen }

// webState is what the page polls.
type webState struct {
	Game   string   `json:"game"`
	Seq    int      `json:"seq"`
	Texts  []string `json:"texts"` // shown since the page's last poll
	From   int      `json:"from"`  // the index of Texts[0] among all texts
	Prompt string   `json:"prompt"`
	Help   string   `json:"help,omitempty"` // how to answer
	Key    bool     `json:"key"`
	Over   string   `json:"over"`
	Ending *Ending  `json:"ending,omitempty"`
	// Board is the board drawn last (nil before the first, and without
	// a Viewer).
	Board *webBoard `json:"board"`
}

// ServeHTTP serves the page (GET /), the viewer's script (GET
// /viewer.js, when set), its state (GET /state?seq=N&from=M,
// which waits up to 25 s for a change after seq N and returns the texts
// from the M-th on) and its answers (POST /answer, the answer as the
// body).
// Answers come only from the page itself: a request that another site's
// page makes carries that site as its Origin, and is refused; so is one
// whose Host is not a loopback address (localhost, 127.0.0.1, [::1]),
// such as a site's name that its page made resolve to this machine.
func (w *Web) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	rw.Header().Set("X-Content-Type-Options", "nosniff")
	rw.Header().Set("Referrer-Policy", "no-referrer")
	if !loopbackHost(r.Host) {
		http.Error(rw, "the game is played on a loopback address only", http.StatusMisdirectedRequest)
		return
	}
	if o := r.Header.Get("Origin"); o != "" && o != "http://"+r.Host {
		http.Error(rw, "answers come from the game's own page", http.StatusForbidden)
		return
	}
	switch {
	case r.Method == http.MethodGet && r.URL.Path == "/":
		rw.Header().Set("Content-Type", "text/html; charset=utf-8")
		rw.Write(playPage)
	case r.Method == http.MethodGet && r.URL.Path == "/viewer.js" && w.Viewer != nil:
		rw.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		rw.Write(w.Viewer)
	case r.Method == http.MethodGet && r.URL.Path == "/state":
		w.state(rw, r)
	case r.Method == http.MethodPost && r.URL.Path == "/answer":
		w.answer(rw, r)
	default:
		http.NotFound(rw, r)
	}
}

// loopbackHost says whether a request's Host names a loopback address.
func loopbackHost(h string) bool {
	host, _, err := net.SplitHostPort(h)
	if err != nil {
		host = h
	}
	host = strings.Trim(host, "[]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
}

func (w *Web) state(rw http.ResponseWriter, r *http.Request) {
	seq, _ := strconv.Atoi(r.URL.Query().Get("seq"))
	from, _ := strconv.Atoi(r.URL.Query().Get("from"))
	w.mu.Lock()
	if w.seq == seq {
		ch := w.changed
		w.mu.Unlock()
		t := time.NewTimer(25 * time.Second)
		defer t.Stop()
		select {
		case <-ch:
		case <-t.C:
		case <-r.Context().Done():
			return
		}
		w.mu.Lock()
	}
	from = min(max(from, 0), len(w.texts))
	st := webState{Game: w.game, Seq: w.seq, Texts: append([]string{}, w.texts[from:]...), From: from,
		Prompt: w.prompt, Help: w.help, Key: w.key, Over: w.over, Ending: w.ending}
	if w.Viewer != nil {
		st.Board = w.board
	}
	w.mu.Unlock()
	rw.Header().Set("Content-Type", "application/json")
	rw.Header().Set("Cache-Control", "no-store")
	if err := json.NewEncoder(rw).Encode(st); err != nil {
		return
	}
	if st.Over != "" {
		// Seen only once the end has left for the page: the server may
		// stop as soon as it is.
		if f, ok := rw.(http.Flusher); ok {
			f.Flush()
		}
		w.seenOne.Do(func() { close(w.seen) })
	}
}

func (w *Web) answer(rw http.ResponseWriter, r *http.Request) {
	b, err := io.ReadAll(io.LimitReader(r.Body, 4096))
	if err != nil {
		http.Error(rw, err.Error(), http.StatusBadRequest)
		return
	}
	select {
	case w.answers <- string(b):
		rw.WriteHeader(http.StatusNoContent)
	case <-r.Context().Done():
	case <-time.After(2 * time.Second):
		http.Error(rw, "no question is waiting for an answer", http.StatusConflict)
	}
}
