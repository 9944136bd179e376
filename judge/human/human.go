// Package human seats a person in a match: a player that asks the game
// the same queries a bot would, draws what the person's seat may see (the
// boards from the game's own view of the seat, games.View.Of),
// reads the person's moves in the game's natural form ("1 2" in gomoku, a
// column in Connect Four) and sends them as commands. A refused move is
// explained and asked again: the match loop gives people the second
// chances it gives no bot.
//
// The person's side is a Console: a terminal (NewTerminal), or any other
// front end that can show text and read an answer. A Console that draws
// (a Drawer: the web page, NewWeb) is also given the boards as data, and
// what a click on them answers.
package human

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"judge/games"
	"judge/judge"
	"judge/judge/goplayer"
)

// Console is where the person sees the game and types moves.
type Console interface {
	// Show shows text (one or more lines) to the person.
	Show(text string)
	// Ask shows prompt and returns the person's answer, one line
	// without its line end. io.EOF means the person has left.
	Ask(ctx context.Context, prompt string) (string, error)
}

// Person seats a person. It implements judge.Entrant.
type Person struct {
	Name    string  // shown in results; "you" when empty
	Console Console // where the person plays
	// Game is the match's game: a person plays it as its games.Playable
	// lays out each turn.
	Game games.Game
	// Timed gives the person's turns the match's time limits; by default
	// the match waits for the person as long as it takes.
	Timed bool
}

// Info implements judge.Entrant.
func (e Person) Info() (judge.BotInfo, error) {
	return judge.BotInfo{Name: e.name(), Command: []string{"person"}}, nil
}

func (e Person) name() string {
	if e.Name == "" {
		return "you"
	}
	return e.Name
}

// Start implements judge.Entrant.
func (e Person) Start(_ context.Context, s judge.Seat) (judge.Player, error) {
	if e.Console == nil {
		return nil, errors.New("a person needs a console")
	}
	g, ok := e.Game.(games.Playable)
	if !ok {
		return nil, fmt.Errorf("a person cannot play %s: the game does not say how a person plays it", s.Game)
	}
	var pal games.Palette
	if p, ok := e.Game.(games.Painter); ok {
		pal = p.Palette()
	}
	return goplayer.StartPerson(play(g, pal, e.Console, s), goplayer.Options{Patient: !e.Timed}), nil
}

// Querier asks the game a query: *goplayer.Conn is one.
type Querier interface {
	Ask(query string) (string, error)
}

// leftReason is the reason of a person whose input ended.
const leftReason = "the person left (end of input)"

// play is the person's player for game g, whose cells are drawn by pal:
// each turn it draws the seat's view on con, asks for the move, sends it, and explains a refused move
// and asks again.
func play(g games.Playable, pal games.Palette, con Console, s judge.Seat) goplayer.Func {
	return func(ctx context.Context, c *goplayer.Conn) error {
		turn, err := c.Ask("CurrentTurn")
		if err != nil {
			return err
		}
		var notes []string
		retry := false
		for {
			p, err := g.Play(playSeat(c, s, c.Turn().View))
			if err != nil {
				return err
			}
			d, draws := con.(Drawer)
			draws = draws && d.Draws() && p.Board != nil
			var shown []string
			shown = append(shown, notes...)
			if !retry && p.News != "" {
				shown = append(shown, p.News)
			}
			if !draws {
				shown = append(shown, p.Text)
			}
			notes = nil
			if h, ok := con.(Helper); ok && p.Help != "" {
				h.Help(p.Help)
			}
			if text := strings.TrimRight(strings.Join(shown, "\n"), "\n"); text != "" {
				con.Show(text)
			}
			var cmds []string
			for _, st := range p.Steps {
				if st.Skip != nil && st.Skip() {
					continue
				}
				if draws {
					v := p.Board()
					d.Draw(Board{Grids: v.Grids, Marks: v.Marks, Click: st.Click, Grid: st.Grid, Status: p.Status, Palette: pal})
					st.After = nil
				}
				cs, err := ask(ctx, con, st)
				if err != nil {
					return err
				}
				cmds = append(cmds, cs...)
			}
			for _, l := range append(cmds, "#END") {
				if err := c.Send(l); err != nil {
					return err
				}
			}
			if c.Turn().Shared && !draws {
				con.Show("(waiting for the other players)")
			}
			// The turn goes on when the judge refused it: CurrentTurn is
			// then answered at once, with the same turn.
			next, err := c.Ask("CurrentTurn")
			if err != nil {
				return err
			}
			refused := plain(c.Refusals())
			if next == turn {
				if len(refused) == 0 {
					refused = []string{"the judge did not take the move"}
				}
				notes = append(notes, "Refused: "+strings.Join(refused, "; ")+". Try again.")
				retry = true
				continue
			}
			retry = false
			if len(refused) > 0 {
				notes = append(notes, "Note: refused "+strings.Join(refused, "; ")+".")
			}
			turn = next
		}
	}
}

// plain drops the reasons that repeat another one, which they quote
// ("no valid PlaceSymbol before #END (last one was PlaceSymbol 9 9: …)"):
// the shorter says it.
func plain(reasons []string) []string {
	var out []string
	for i, r := range reasons {
		repeats := false
		for j, o := range reasons {
			if i != j && o != r && strings.Contains(r, o) {
				repeats = true
			}
		}
		if !repeats {
			out = append(out, r)
		}
	}
	return out
}

// ask asks one step until the answer is a move.
func ask(ctx context.Context, con Console, st games.Step) ([]string, error) {
	for {
		var in string
		var err error
		if ka, ok := con.(KeyAsker); ok && st.Key {
			in, err = ka.AskKey(ctx, st.Prompt)
		} else {
			in, err = con.Ask(ctx, st.Prompt)
		}
		if errors.Is(err, io.EOF) {
			return nil, judge.Faultf(judge.Crash, leftReason)
		}
		if err != nil {
			return nil, err
		}
		cmds, err := st.Parse(strings.TrimSpace(in))
		if err != nil {
			con.Show(err.Error())
			continue
		}
		if st.After != nil {
			con.Show(st.After())
		}
		return cmds, nil
	}
}

// Drawer is a Console that draws the boards (a page with a canvas): it is
// given the turn's board before each question, and is shown the turn's
// text without its text drawing.
type Drawer interface {
	// Draws says whether the console draws boards at all.
	Draws() bool
	Draw(b Board)
}

// What a click on a drawn board answers (Board.Click).
const (
	ClickCell   = games.ClickCell   // "x y"
	ClickColumn = games.ClickColumn // "x"
	ClickShip   = games.ClickShip   // two clicks, a ship's ends: "x1,y1-x2,y2"
)

// Board is what a Drawer draws: grids and marks as in a games.View (the
// seat's view of the game, or the fleet being placed), and what a click
// answers.
type Board struct {
	Grids []games.Grid
	Marks []games.Mark
	// Click is ClickCell, ClickColumn, ClickShip, or "" when a click
	// answers nothing (keys do, or nothing is asked); Grid is the grid
	// that takes the clicks.
	Click string
	Grid  int
	// Status is what is shown with the board: who the person is (with
	// the colour of their pieces) and the state of the game, said in
	// place of the turn before's.
	Status string
	// Palette is how the game draws a cell, by value (games.Painter):
	// grids of a kind the viewer has no drawing of its own for are drawn
	// by it. Nil for a game that gives none.
	Palette games.Palette
}

// Helper is a Console that shows, apart from the game's text, one line
// on how to answer (a page: what a click or a key does).
type Helper interface {
	Help(text string)
}

// KeyAsker is a Console that can read a single key press, without
// Enter: a terminal. Games whose moves are keys (Splix) use it when the
// console has it.
type KeyAsker interface {
	AskKey(ctx context.Context, prompt string) (string, error)
}

// Terminal is a Console over a reader (the keyboard) and a writer (the
// screen). When the reader is a terminal, it is also a KeyAsker.
type Terminal struct {
	w    io.Writer
	r    io.Reader
	tty  int // the reader's descriptor when it is a terminal, else -1
	in   chan chunk
	once sync.Once
	pend []byte // read and not yet taken
	err  error  // the input's end, once it is reached
}

type chunk struct {
	b   []byte
	err error
}

// NewTerminal makes a Console that shows text on w and reads from r.
func NewTerminal(r io.Reader, w io.Writer) *Terminal {
	t := &Terminal{w: w, r: r, tty: -1, in: make(chan chunk)}
	if f, ok := r.(*os.File); ok {
		if IsTerminal(f) {
			t.tty = int(f.Fd())
		}
	}
	return t
}

// Show implements Console.
func (t *Terminal) Show(text string) {
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	io.WriteString(t.w, text)
}

// read reads the input, for ever: a read cannot be interrupted, so it
// runs on its own.
func (t *Terminal) read() {
	for {
		buf := make([]byte, 256)
		n, err := t.r.Read(buf)
		if n > 0 {
			t.in <- chunk{b: buf[:n]}
		}
		if err != nil {
			t.in <- chunk{err: err}
			return
		}
	}
}

// more waits for more input.
func (t *Terminal) more(ctx context.Context) error {
	if t.err != nil {
		return t.err
	}
	t.once.Do(func() { go t.read() })
	select {
	case c := <-t.in:
		if c.err != nil {
			t.err = c.err
			return c.err
		}
		t.pend = append(t.pend, c.b...)
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Ask implements Console: it reads a line.
func (t *Terminal) Ask(ctx context.Context, prompt string) (string, error) {
	fmt.Fprintf(t.w, "%s> ", prompt)
	for {
		if i := bytes.IndexByte(t.pend, '\n'); i >= 0 {
			l := strings.TrimRight(string(t.pend[:i]), "\r")
			t.pend = t.pend[i+1:]
			return l, nil
		}
		if err := t.more(ctx); err != nil {
			if errors.Is(err, io.EOF) && len(t.pend) > 0 {
				l := string(t.pend)
				t.pend = nil
				return l, nil
			}
			if errors.Is(err, io.EOF) {
				io.WriteString(t.w, "\n")
			}
			return "", err
		}
	}
}

// AskKey implements KeyAsker: on a terminal it reads one key press (an
// arrow key's escape sequence, or one character; Enter is ""), without
// waiting for Enter; elsewhere a line.
func (t *Terminal) AskKey(ctx context.Context, prompt string) (string, error) {
	if t.tty < 0 {
		return t.Ask(ctx, prompt)
	}
	restore, err := keyMode(t.tty)
	if err != nil {
		return t.Ask(ctx, prompt)
	}
	defer restore()
	fmt.Fprintf(t.w, "%s> ", prompt)
	for {
		if k, n := key(t.pend); n > 0 {
			t.pend = t.pend[n:]
			// Ctrl-D; typed before the key was asked, the terminal keeps
			// it as a NUL.
			if k == "\x04" || k == "\x00" {
				io.WriteString(t.w, "\n")
				return "", io.EOF
			}
			fmt.Fprintln(t.w, keyName(k))
			return k, nil
		}
		if err := t.more(ctx); err != nil {
			if errors.Is(err, io.EOF) {
				io.WriteString(t.w, "\n")
			}
			return "", err
		}
	}
}

// key takes one key press from b: its text ("" for Enter) and how many
// bytes it took; 0 when b does not hold a whole key yet.
func key(b []byte) (string, int) {
	switch {
	case len(b) == 0:
		return "", 0
	case b[0] == '\r' || b[0] == '\n':
		return "", 1
	case b[0] != 0x1b:
		_, n := utf8.DecodeRune(b)
		return string(b[:n]), n
	case len(b) < 3:
		return "", 0 // the rest of an escape sequence is on its way
	}
	return string(b[:3]), 3
}

// keyName is how a key press is echoed.
func keyName(k string) string {
	if n, ok := map[string]string{"": "(Enter)", "\x1b[A": "up", "\x1b[B": "down", "\x1b[C": "right", "\x1b[D": "left",
		"\x1bOA": "up", "\x1bOB": "down", "\x1bOC": "right", "\x1bOD": "left"}[k]; ok {
		return n
	}
	q := strconv.Quote(k)
	return q[1 : len(q)-1]
}
