package human

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"judge/games"
	"judge/games/catalog"
	"judge/judge"
	"judge/judge/goplayer"
	"judge/judge/judgetest"
	"judge/judge/procbot"
)

func TestMain(m *testing.M) { judgetest.Main(m) }

func TestHumanTranslation(t *testing.T) {
	tests := []struct {
		game  string
		parse func(string) ([]string, error)
		in    string
		want  string // the commands, joined by "; "; "" for none
		err   string // a word of the explanation, when it is no move
	}{
		{"gomoku", parser("gomoku"), "1 2", "PlaceSymbol 1 2", ""},
		{"gomoku", parser("gomoku"), "1,2", "PlaceSymbol 1 2", ""},
		{"gomoku", parser("gomoku"), " 10   0 ", "PlaceSymbol 10 0", ""},
		{"gomoku", parser("gomoku"), "1", "", "not a cell"},
		{"gomoku", parser("gomoku"), "a b", "", "whole numbers"},
		{"gomoku", parser("gomoku"), "", "", "two numbers"},
		{"connect4", parser("connect4"), "3", "DropDisc 3", ""},
		{"connect4", parser("connect4"), "three", "", "not a column"},
		{"connect4", parser("connect4"), "3 4", "", "not a column"},
		{"battleship", parser("battleship"), "4 5", "Shoot 4 5", ""},
		{"battleship", parser("battleship"), "4,5", "Shoot 4 5", ""},
		{"battleship", parser("battleship"), "45", "", "not a cell"},
		{"splix", parser("splix"), "n", "Move N", ""},
		{"splix", parser("splix"), "E", "Move E", ""},
		{"splix", parser("splix"), "south", "Move S", ""},
		{"splix", parser("splix"), "w", "Move W", ""},
		{"splix", parser("splix"), "", "", ""},
		{"splix", parser("splix"), "\x1b[A", "Move N", ""},
		{"splix", parser("splix"), "\x1b[B", "Move S", ""},
		{"splix", parser("splix"), "\x1bOC", "Move E", ""},
		{"splix", parser("splix"), "n\x1b[D", "Move W", ""},
		{"splix", parser("splix"), "\x1b[5~", "", "not a direction"},
		{"splix", parser("splix"), "x", "", "not a direction"},
	}
	for _, tt := range tests {
		t.Run(tt.game+"/"+fmt.Sprintf("%q", tt.in), func(t *testing.T) {
			got, err := tt.parse(tt.in)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("got %q, %v; want an error saying %q", got, err, tt.err)
				}
				return
			}
			if err != nil || strings.Join(got, "; ") != tt.want {
				t.Fatalf("got %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

// answers is a Querier with canned answers.
type answers map[string]string

func (a answers) Ask(q string) (string, error) {
	s, ok := a[q]
	if !ok {
		return "", fmt.Errorf("unexpected query %q", q)
	}
	return s, nil
}

// The view is drawn from the seat's view of the game (its boards) and the
// answers to queries only.
func TestHumanViews(t *testing.T) {
	for _, tt := range []struct {
		game   string
		q      answers
		view   *games.View
		want   []string
		prompt string
	}{
		{"tictactoe", answers{"MySymbol": "X", "LastMove": "1 0", "Params": "3 3"}, view(kindGrid(games.KindStones, "-O-", "-X-", "---")),
			[]string{"The opponent (O) played 1 0.", "   0 1 2", "0  - O -", "1  - X -", "You are X: make 3 in a row"}, "your move (x y)"},
		{"connect4", answers{"MySymbol": "X", "LastMove": "1"}, view(kindGrid(games.KindDiscs, "---", "---", "XO-")),
			[]string{"The opponent (O) dropped a disc in column 1.", "0 1 2\n- - -\n- - -\nX O -", "You are X."}, "your column"},
		// Seat 0: grid 0 is its waters, grid 1 the opponent's.
		{"battleship", answers{"Phase": "fire", "Params": "3 2 0 1 0 0 0 0",
			"LastShot": "2 0 miss", "OpponentShots": "1\n2 0 miss", "ShipsRemaining": "2"},
			view(kindGrid(games.KindSea, "SSo", "---"), kindGrid(games.KindSea, "x-o", "---")),
			[]string{"Your last shot, at 2 0: miss.", "The opponent fired at 2 0: miss.", "0  x - o", "0  S S o", "ships afloat: 2."}, "your shot (x y)"},
		{"battleship-botsarena", answers{"Phase": "place", "Params": "3 2 0 1 0 0 0 0", "Fleet": "2"}, nil,
			[]string{"Place your fleet on the 3×2 grid: ships of lengths 2", "0  - - -"}, "ship of length 2"},
		{"splix-small", answers{"MySeat": "1", "CurrentTurn": "4", "TurnsLeft": "297", "Position": "4 9 N",
			"Players": "0 alive -1 -1 25 0 25\n1 alive 4 9 25 0 25", "View": "#..\n#B1\n#11"}, nil,
			[]string{"You are seat 1: B your head, b your trail, 1 your land.", "You are at 4 9", "heading N",
				"seat 1 (you): alive, land 25", "  # . .\n  # B 1\n  # 1 1"}, "your move (n, e, s, w"},
	} {
		g, err := playableGame(tt.game)
		if err != nil {
			t.Fatalf("no game %s: %v", tt.game, err)
		}
		p, err := g.Play(playSeat(tt.q, judge.Seat{}, tt.view))
		if err != nil {
			t.Fatalf("%s: %v", tt.game, err)
		}
		for _, w := range tt.want {
			if !strings.Contains(p.News+"\n"+p.Text, w) {
				t.Errorf("%s: the news and the view do not show %q:\n%s\n%s", tt.game, w, p.News, p.Text)
			}
		}
		if len(p.Steps) != 1 || !strings.HasPrefix(p.Steps[0].Prompt, tt.prompt) {
			t.Errorf("%s: steps %+v", tt.game, p.Steps)
		}
	}
	if _, err := playableGame("chess"); err == nil {
		t.Error("chess is playable")
	}
	g, _ := playableGame("gomoku")
	if _, err := g.Play(playSeat(answers{"MySymbol": "X", "LastMove": "-1 -1", "Params": "3 3"}, judge.Seat{}, nil)); err == nil || !strings.Contains(err.Error(), "no view") {
		t.Errorf("gomoku without a view: %v", err)
	}
}

// playableGame finds the game named name in the catalog, when a person
// can play it.
func playableGame(name string) (games.Playable, error) {
	v, err := catalog.Lookup(name)
	if err != nil {
		return nil, err
	}
	g, ok := v.Game.(games.Playable)
	if !ok {
		return nil, fmt.Errorf("%s is not games.Playable", name)
	}
	return g, nil
}

// parser is how the answer to the first question of a turn of game
// becomes commands, as a person plays it.
func parser(game string) func(string) ([]string, error) {
	q := map[string]answers{
		"gomoku":   {"MySymbol": "X", "LastMove": "-1 -1", "Params": "3 3"},
		"connect4": {"MySymbol": "X", "LastMove": "-1"},
		"battleship": {"Phase": "fire", "Params": "3 2 0 1 0 0 0 0",
			"LastShot": "-1 -1 none", "OpponentShots": "0", "ShipsRemaining": "1"},
		"splix": {"MySeat": "0", "CurrentTurn": "1", "TurnsLeft": "9", "Position": "1 1 N", "Players": "", "View": "A"},
	}[game]
	v := view(kindGrid(games.KindStones, "---", "---", "---"), kindGrid(games.KindSea, "---", "---"))
	g, err := playableGame(game)
	if err != nil {
		return func(string) ([]string, error) { return nil, err }
	}
	p, err := g.Play(playSeat(q, judge.Seat{Index: 0}, v))
	if err != nil || len(p.Steps) == 0 {
		return func(string) ([]string, error) { return nil, fmt.Errorf("%s: no question: %v", game, err) }
	}
	return p.Steps[0].Parse
}

func view(grids ...games.Grid) *games.View { return &games.View{Grids: grids} }

// kindGrid is a grid of kind whose rows are the strings rows.
func kindGrid(kind string, rows ...string) games.Grid {
	return games.Grid{Kind: kind, W: len(rows[0]), H: len(rows), Cells: []byte(strings.Join(rows, ""))}
}

// script is a Console that answers with a function of the prompt, and
// leaves (io.EOF) after max answers.
type script struct {
	mu     sync.Mutex
	shown  strings.Builder
	n, max int
	answer func(prompt string, n int) string
}

func (s *script) Show(text string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.shown.WriteString(text + "\n")
}

func (s *script) Ask(_ context.Context, prompt string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.n >= s.max {
		return "", io.EOF
	}
	s.n++
	fmt.Fprintf(&s.shown, "%s> ", prompt)
	a := s.answer(prompt, s.n)
	s.shown.WriteString(a + "\n")
	return a, nil
}

func (s *script) text() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.shown.String()
}

// goPlayer is an entrant whose player runs f in the judge.
type goPlayer struct {
	name string
	f    goplayer.Func
}

func (g goPlayer) Info() (judge.BotInfo, error) { return judge.BotInfo{Name: g.name}, nil }
func (g goPlayer) Start(context.Context, judge.Seat) (judge.Player, error) {
	return goplayer.Start(g.f, goplayer.Options{}), nil
}

// lastEmpty plays tic-tac-toe on the last empty cell, in reading order.
func lastEmpty(_ context.Context, c *goplayer.Conn) error {
	for {
		b, err := c.Ask("Board")
		if err != nil {
			return err
		}
		x, y := -1, -1
		for j, row := range strings.Split(b, "\n") {
			for i, cell := range strings.Fields(row) {
				if cell == "-" {
					x, y = i, j
				}
			}
		}
		if err := c.Send(fmt.Sprintf("PlaceSymbol %d %d", x, y)); err != nil {
			return err
		}
		if err := c.End(); err != nil {
			return err
		}
	}
}

func playMatch(t *testing.T, variant string, params games.Params, seat int, person Person, others ...judge.Entrant) *judge.Result {
	t.Helper()
	v, err := catalog.Lookup(variant)
	if err != nil {
		t.Fatal(err)
	}
	p, err := v.Resolve(params)
	if err != nil {
		t.Fatal(err)
	}
	person.Game = v.Game
	ents := append([]judge.Entrant(nil), others[:seat]...)
	ents = append(ents, person)
	ents = append(ents, others[seat:]...)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := judge.Run(ctx, judge.Match{Game: v.Game, Name: v.Name, Params: p, Seed: 5, Limits: judge.DefaultTurnLimits, Entrants: ents})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// A person plays tic-tac-toe against a Go player: a cell off the board and
// a taken cell are explained and asked again, and the person wins.
func TestHumanPlaysTicTacToe(t *testing.T) {
	// The opponent takes the last empty cell: (2,2), then (1,2).
	moves := []string{"0 0", "9 9", "1 0", "hello", "2 2", "2 0"}
	con := &script{max: 20, answer: func(_ string, n int) string { return moves[n-1] }}
	res := playMatch(t, "tictactoe", nil, 0, Person{Console: con}, goPlayer{name: "last", f: lastEmpty})
	text := con.text()
	if res.Winner != 0 || res.Players[0].Status != judge.OK || res.Players[0].Name != "you" {
		t.Fatalf("winner %d, %+v\n%s", res.Winner, res.Players, text)
	}
	for _, w := range []string{
		"Refused: PlaceSymbol 9 9: (9,9) is off the 3×3 board (cells 0..2). Try again.",
		`"hello" is not a cell`,
		"Refused: PlaceSymbol 2 2: (2,2) is already taken by O. Try again.",
		"last (O) played 1 2.\n   0 1 2\n0  X X -\n1  - - -\n2  - O O",
	} {
		if !strings.Contains(text, w) {
			t.Errorf("the person was not shown %q:\n%s", w, text)
		}
	}
	if strings.Contains(text, "no valid PlaceSymbol before #END") {
		t.Errorf("a refusal shown twice:\n%s", text)
	}
	// The opponent's moves are announced once each, not again after a
	// refused move.
	for _, w := range []string{"last (O) played 2 2.", "last (O) played 1 2."} {
		if n := strings.Count(text, w); n != 1 {
			t.Errorf("%q shown %d times:\n%s", w, n, text)
		}
	}
	if got := res.Replay.Turns[0].Moves[0].Move; strings.Join(got, ";") != "PlaceSymbol 0 0" {
		t.Errorf("turn 1: %q", got)
	}
}

// A person whose input ends leaves the game: a crash, saying so.
func TestHumanLeaves(t *testing.T) {
	con := &script{max: 1, answer: func(string, int) string { return "0 0" }}
	res := playMatch(t, "tictactoe", nil, 1, Person{Name: "ann", Console: con}, goPlayer{name: "last", f: lastEmpty})
	if p := res.Players[1]; p.Status != judge.Crash || p.Reason != leftReason || p.Name != "ann" || res.Winner != 0 {
		t.Fatalf("winner %d, %+v", res.Winner, res.Players)
	}
}

// The person plays every game to its end against an example bot.
func TestHumanPlaysEveryGame(t *testing.T) {
	if testing.Short() {
		t.Skip("plays example bots")
	}
	bot := func(path string) judge.Entrant {
		return procbot.Bot{Spec: judgetest.Spec(t, "bot", path), Options: judgetest.Proc(procbot.Options{})}
	}
	t.Run("connect4", func(t *testing.T) {
		// Columns in turn; a full column is refused and the next one asked.
		con := &script{max: 500, answer: func(_ string, n int) string {
			if n == 1 {
				return "9"
			}
			return fmt.Sprint(n % 7)
		}}
		res := playMatch(t, "connect4", nil, 1, Person{Console: con}, bot("examples/connect4/random.c"))
		checkEnd(t, res, 1, con, "Refused: DropDisc 9: column 9 is off the board")
	})
	t.Run("battleship", func(t *testing.T) {
		fleet := map[string][]string{
			"ship of length 5": {"0,0-3,0", "0,0-4,0"},
			"ship of length 4": {"0 0 4 down", "0 2 across"},
			"ship of length 3": {"0,4-2,4", "0 6 3 a"},
		}
		var twos int
		shot := 0
		con := &script{max: 500, answer: func(prompt string, _ int) string {
			if f := fleet[prompt]; len(f) > 0 {
				fleet[prompt] = f[1:]
				return f[0]
			}
			if prompt == "ship of length 2" {
				twos++
				return fmt.Sprintf("9 %d down", twos*3)
			}
			shot++
			return fmt.Sprintf("%d %d", (shot-1)%10, (shot-1)/10)
		}}
		res := playMatch(t, "battleship", nil, 0, Person{Console: con}, bot("examples/battleship/random.c"))
		checkEnd(t, res, 0, con, `"0,0-3,0" is 4 long: this ship's length is 5`, "overlaps a ship you placed at 0,0",
			"The opponent's ships afloat")
	})
	t.Run("splix-small", func(t *testing.T) {
		// Round and round the 5×5 land it starts on: never out of it.
		ring := strings.Fields("e e s s s s w w w w n n n n e e")
		con := &script{max: 500, answer: func(_ string, n int) string {
			switch n {
			case 1:
				return "up"
			case 2, 3:
				return "n"
			}
			return ring[(n-4)%len(ring)]
		}}
		res := playMatch(t, "splix-small", games.Params{"players": 2, "turns": 40}, 0, Person{Console: con}, bot("examples/splix/looper"))
		checkEnd(t, res, 0, con, `"up" is not a direction`, "You are seat 0: A your head")
		if res.Turns != 40 {
			t.Errorf("%d turns, want 40", res.Turns)
		}
	})
}

func checkEnd(t *testing.T, res *judge.Result, seat int, con *script, shown ...string) {
	t.Helper()
	text := con.text()
	for i, p := range res.Players {
		if p.Status != judge.OK {
			t.Fatalf("seat %d: %s %s\n%s", i, p.Status, p.Reason, text)
		}
	}
	if res.Players[seat].Name != "you" {
		t.Errorf("seat %d is %q", seat, res.Players[seat].Name)
	}
	for _, w := range shown {
		if !strings.Contains(text, w) {
			t.Errorf("the person was not shown %q:\n%s", w, text)
		}
	}
	t.Logf("%s after %d turns: %s", res.Game, res.Turns, res.Reason)
}

// The terminal reads lines, \r\n or \n, the last one without its end, and
// then says the person left.
func TestHumanTerminal(t *testing.T) {
	var out strings.Builder
	term := NewTerminal(strings.NewReader("1 2\r\n\nn"), &out)
	term.Show("a board")
	for _, want := range []string{"1 2", "", "n"} {
		got, err := term.Ask(context.Background(), "your move")
		if err != nil || got != want {
			t.Fatalf("got %q, %v; want %q", got, err, want)
		}
	}
	for range 2 {
		if got, err := term.Ask(context.Background(), "again"); err != io.EOF {
			t.Fatalf("after the input: %q, %v", got, err)
		}
	}
	if got := out.String(); !strings.HasPrefix(got, "a board\nyour move> your move> your move> again> \n") {
		t.Errorf("the screen: %q", got)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	blocked := NewTerminal(blockingReader{}, io.Discard)
	if _, err := blocked.Ask(ctx, "move"); err != context.Canceled {
		t.Errorf("a canceled ask: %v", err)
	}
}

type blockingReader struct{}

func (blockingReader) Read([]byte) (int, error) { select {} }

// A timed person has the match's limits: one who does not answer loses on
// time. In virtual time.
func TestHumanTimed(t *testing.T) {
	v, _ := catalog.Lookup("tictactoe")
	p, _ := v.Resolve(nil)
	synctest.Test(t, func(t *testing.T) {
		silent := &silentConsole{}
		res, err := judge.Run(t.Context(), judge.Match{Game: v.Game, Name: v.Name, Params: p, Limits: judge.DefaultTurnLimits,
			Entrants: []judge.Entrant{Person{Console: silent, Game: v.Game, Timed: true}, goPlayer{name: "last", f: lastEmpty}}})
		if err != nil {
			t.Fatal(err)
		}
		if p := res.Players[0]; p.Status != judge.Timeout || !strings.Contains(p.Reason, "no #END within 5s") {
			t.Errorf("%+v", res.Players)
		}
	})
}

// silentConsole never answers.
type silentConsole struct{}

func (*silentConsole) Show(string) {}
func (*silentConsole) Ask(ctx context.Context, _ string) (string, error) {
	<-ctx.Done()
	return "", ctx.Err()
}

func TestHumanKeys(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want string
		n    int
	}{
		{"", "", 0}, {"n", "n", 1}, {"\r", "", 1}, {"\x1b[Cn", "\x1b[C", 3}, {"\x1b[", "", 0}, {"é", "é", 2},
	} {
		if k, n := key([]byte(tt.in)); k != tt.want || n != tt.n {
			t.Errorf("key(%q) = %q, %d; want %q, %d", tt.in, k, n, tt.want, tt.n)
		}
	}
}

// A console that draws is given each question's board, with what a click
// answers, and the turn's text without its text drawing.
func TestHumanBoards(t *testing.T) {
	stones := view(kindGrid(games.KindStones, "-O-", "-X-", "---"))
	stones.Marks = []games.Mark{{X: 1, Y: 0, Seat: 1, Kind: games.MarkLast}}
	seas := view(kindGrid(games.KindSea, "SSo", "---"), kindGrid(games.KindSea, "x-o", "---"))
	for _, tt := range []struct {
		game  string
		seat  int
		q     answers
		view  *games.View
		grids []string // each grid's name and cells
		click string
		grid  int
		say   string
	}{
		{"tictactoe", 0, answers{"MySymbol": "X", "LastMove": "1 0", "Params": "3 3"}, stones,
			[]string{": -O--X----"}, ClickCell, 0, "The opponent (O) played 1 0.\nYou are X (red), against the opponent (O, blue): make 3 in a row."},
		{"connect4", 0, answers{"MySymbol": "X", "LastMove": "1"}, view(kindGrid(games.KindDiscs, "---", "XO-")),
			[]string{": ---XO-"}, ClickColumn, 0, "The opponent (O) dropped a disc in column 1.\nYou are X (red), against the opponent (O, blue): four in a row wins."},
		{"battleship", 1, answers{"Phase": "fire", "Params": "3 2 0 1 0 0 0 0",
			"LastShot": "2 0 miss", "OpponentShots": "0", "ShipsRemaining": "2"}, seas,
			[]string{"The opponent's waters (your shots): SSo---", "Your waters: x-o---"}, ClickCell, 0, "Your last shot"},
		{"battleship", 0, answers{"Phase": "place", "Params": "3 2 0 1 0 0 0 0", "Fleet": "2 2"}, nil,
			[]string{"Your waters: ------", "The opponent's waters (your shots): ------"}, ClickShip, 0, "Click each ship's two ends"},
		{"splix-small", 1, answers{"MySeat": "1", "CurrentTurn": "4", "TurnsLeft": "297", "Position": "4 9 N",
			"Players": "", "View": "#.b\n#B1\n#10"}, nil,
			[]string{"around you: \x00\x00\x20\x00\x00\x02\x00\x02\x01"}, "", 0, "Steer with the arrow keys"},
	} {
		g, _ := playableGame(tt.game)
		p, err := g.Play(playSeat(tt.q, judge.Seat{Index: tt.seat}, tt.view))
		if err != nil {
			t.Fatalf("%s: %v", tt.game, err)
		}
		if p.Board == nil {
			t.Fatalf("%s: no board", tt.game)
		}
		b := p.Board()
		var got []string
		for _, gr := range b.Grids {
			got = append(got, gr.Name+": "+string(gr.Cells))
		}
		if strings.Join(got, " | ") != strings.Join(tt.grids, " | ") {
			t.Errorf("%s: grids %q, want %q", tt.game, got, tt.grids)
		}
		if st := p.Steps[0]; st.Click != tt.click || st.Grid != tt.grid {
			t.Errorf("%s: a click is %q on grid %d, want %q on %d", tt.game, st.Click, st.Grid, tt.click, tt.grid)
		}
		if say := p.News + "\n" + p.Status; !strings.Contains(say, tt.say) || strings.Contains(say, "0  ") {
			t.Errorf("%s: says %q, want %q and no text drawing", tt.game, say, tt.say)
		}
	}
	g, _ := playableGame("tictactoe")
	p, _ := g.Play(playSeat(answers{"MySymbol": "X", "LastMove": "1 0", "Params": "3 3"}, judge.Seat{}, stones))
	if m := p.Board().Marks; len(m) != 1 || m[0] != stones.Marks[0] {
		t.Errorf("tic-tac-toe's marks: %+v", m)
	}
}

// drawing is a script that draws: it keeps the boards it is given.
type drawing struct {
	script
	boards []Board
}

func (d *drawing) Draws() bool { return true }
func (d *drawing) Draw(b Board) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.boards = append(d.boards, b)
}

// A person who draws places the fleet at random after one ship and plays
// Battleship to the end: shown no text drawing, and given a board to click
// before each question.
func TestHumanDrawsBattleship(t *testing.T) {
	if testing.Short() {
		t.Skip("plays an example bot")
	}
	shot := 0
	con := &drawing{script: script{max: 500, answer: func(prompt string, _ int) string {
		switch prompt {
		case "ship of length 5":
			return "0,0-4,0"
		case "ship of length 4":
			return "random"
		}
		shot++
		return fmt.Sprintf("%d %d", (shot-1)%10, (shot-1)/10)
	}}}
	bot := procbot.Bot{Spec: judgetest.Spec(t, "bot", "examples/battleship/random.c"), Options: judgetest.Proc(procbot.Options{})}
	res := playMatch(t, "battleship", nil, 1, Person{Console: con}, bot)
	text := con.text()
	if strings.Contains(text, "0  ") || strings.Contains(text, "ship of length 3") {
		t.Errorf("a text drawing, or a ship asked after random:\n%s", text)
	}
	for i, p := range res.Players {
		if p.Status != judge.OK {
			t.Fatalf("seat %d: %s %s\n%s", i, p.Status, p.Reason, text)
		}
	}
	var ships []string
	for _, m := range res.Replay.Turns[0].Moves {
		if m.Seat == 1 {
			ships = m.Move
		}
	}
	if len(ships) != 5 || ships[0] != "PlaceShip 0,0-4,0" {
		t.Errorf("the fleet: %q", ships)
	}
	con.mu.Lock()
	defer con.mu.Unlock()
	if n := len(con.boards); n != con.n {
		t.Errorf("%d boards for %d questions", n, con.n)
	}
	if b := con.boards[1]; b.Click != ClickShip || b.Grid != 1 || !strings.Contains(string(b.Grids[1].Cells), "SSSSS") {
		t.Errorf("the board of the second ship: %+v", b)
	}
	if b := con.boards[len(con.boards)-1]; b.Click != ClickCell || b.Grid != 0 || b.Grids[1].Name != "Your waters" {
		t.Errorf("the last board: %+v", b)
	}
}
