package judge_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"judge/games"
	"judge/games/catalog"
	"judge/judge"
	"judge/judge/goplayer"
)

// The turn logic, with players written in Go (package goplayer) in a
// synctest bubble: deadlines pass in virtual time, so every case takes
// microseconds. What only processes can show is in package procbot.

// goPlayer is an entrant whose player runs f in the judge.
type goPlayer struct {
	name   string
	f      goplayer.Func
	opt    goplayer.Options
	person bool
}

func (g goPlayer) Info() (judge.BotInfo, error) {
	return judge.BotInfo{Name: g.name, Command: []string{"go:" + g.name}}, nil
}

func (g goPlayer) Start(context.Context, judge.Seat) (judge.Player, error) {
	if g.person {
		return goplayer.StartPerson(g.f, g.opt), nil
	}
	return goplayer.Start(g.f, g.opt), nil
}

// firstEmpty plays tic-tac-toe on the first empty cell, in reading order,
// for ever.
func firstEmpty(ctx context.Context, c *goplayer.Conn) error {
	for {
		b, err := c.Ask("Board")
		if err != nil {
			return err
		}
		x, y := emptyCell(b)
		if err := c.Send(fmt.Sprintf("PlaceSymbol %d %d", x, y)); err != nil {
			return err
		}
		if err := c.End(); err != nil {
			return err
		}
	}
}

// emptyCell is the first empty cell of a Board answer.
func emptyCell(board string) (x, y int) {
	for y, row := range strings.Split(board, "\n") {
		for x, cell := range strings.Fields(row) {
			if cell == "-" {
				return x, y
			}
		}
	}
	return -1, -1
}

// idle waits for the end of the game, as a player that has nothing more
// to say.
func idle(ctx context.Context) error {
	<-ctx.Done()
	return goplayer.ErrStopped
}

// runMatch plays a match of the variant in a synctest bubble.
func runMatch(t *testing.T, variant string, params games.Params, lim judge.TurnLimits, players ...judge.Entrant) (res *judge.Result, err error) {
	t.Helper()
	v, err := catalog.Lookup(variant)
	if err != nil {
		t.Fatal(err)
	}
	p, err := v.Resolve(params)
	if err != nil {
		t.Fatal(err)
	}
	if lim == (judge.TurnLimits{}) {
		lim = judge.DefaultTurnLimits
	}
	synctest.Test(t, func(t *testing.T) {
		res, err = judge.Run(t.Context(), judge.Match{Game: v.Game, Name: v.Name, Params: p, Seed: 1,
			Limits: lim, Entrants: players, Trace: true})
	})
	return res, err
}

func ttt(t *testing.T, seat0 judge.Entrant) *judge.Result {
	t.Helper()
	res, err := runMatch(t, "tictactoe", nil, judge.TurnLimits{}, seat0, goPlayer{name: "first", f: firstEmpty})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestWholeGame(t *testing.T) {
	res := ttt(t, goPlayer{name: "a", f: firstEmpty})
	// X takes (0,0), O (1,0), X (2,0), O (0,1), X (1,1), O (2,1), X (0,2): X's diagonal 2,0 1,1 0,2.
	if res.Winner != 0 || res.Turns != 7 {
		t.Fatalf("winner %d after %d turns (%s), want seat 0 after 7", res.Winner, res.Turns, res.Reason)
	}
	for i, p := range res.Players {
		if p.Status != judge.OK {
			t.Errorf("seat %d: %s %s", i, p.Status, p.Reason)
		}
	}
	if got := res.Replay.Turns[0].Moves[0]; got.Queries != 1 || strings.Join(got.Move, ";") != "PlaceSymbol 0 0" {
		t.Errorf("turn 1: %+v", got)
	}
}

func TestStatuses(t *testing.T) {
	tests := []struct {
		name   string
		f      goplayer.Func
		status judge.Status
		words  []string
	}{
		{"never ends its turn", func(ctx context.Context, c *goplayer.Conn) error {
			_ = c.Send("PlaceSymbol 0 0")
			<-ctx.Done()
			return goplayer.ErrStopped
		}, judge.Timeout, []string{"no #END within 5s"}},
		{"returns an error", func(context.Context, *goplayer.Conn) error {
			return errors.New("out of ideas")
		}, judge.Crash, []string{"out of ideas"}},
		{"returns early", func(context.Context, *goplayer.Conn) error { return nil }, judge.Crash, []string{"ended before the game"}},
		{"panics", func(context.Context, *goplayer.Conn) error { panic("oops") }, judge.Crash, []string{"panic: oops"}},
		{"a fault of its own", func(context.Context, *goplayer.Conn) error {
			return judge.Faultf(judge.Memory, "too big")
		}, judge.Memory, []string{"too big"}},
		{"no move", func(ctx context.Context, c *goplayer.Conn) error {
			_ = c.End()
			return idle(ctx)
		}, judge.Illegal, []string{"turn 1: no PlaceSymbol before #END"}},
		{"only invalid moves", func(ctx context.Context, c *goplayer.Conn) error {
			_ = c.Send("PlaceSymbol 5 5")
			_ = c.End()
			return idle(ctx)
		}, judge.Illegal, []string{"(5,5) is off the 3×3 board"}},
		{"unknown verb", func(ctx context.Context, c *goplayer.Conn) error {
			_ = c.Send("Hello judge")
			return idle(ctx)
		}, judge.Protocol, []string{`unknown query or command "Hello judge"`, "the game's queries: ", "commands: PlaceSymbol"}},
		{"a runtime's failure", func(ctx context.Context, c *goplayer.Conn) error {
			for _, l := range []string{"#", "# There is insufficient memory for the Java Runtime Environment to continue.", "# Native memory allocation (mmap) failed"} {
				_ = c.Send(l)
			}
			return errors.New("exit code 1")
		}, judge.Crash, []string{"the Java runtime failed", "insufficient memory", "Native memory allocation"}},
		{"debug print on stdout", func(ctx context.Context, c *goplayer.Conn) error {
			_ = c.Send("thinking about the centre")
			return idle(ctx)
		}, judge.Protocol, []string{"debug output belongs on stderr"}},
		{"a command in the wrong case", func(ctx context.Context, c *goplayer.Conn) error {
			_ = c.Send("placesymbol 1 1")
			return idle(ctx)
		}, judge.Protocol, []string{"case-sensitive: write PlaceSymbol, not placesymbol"}},
		{"the judge's query in the wrong case", func(ctx context.Context, c *goplayer.Conn) error {
			_ = c.Send("TIMELEFT")
			return idle(ctx)
		}, judge.Protocol, []string{"case-sensitive: write TimeLeft, not TIMELEFT"}},
		{"not UTF-8", func(ctx context.Context, c *goplayer.Conn) error {
			_ = c.Send("Board\xff")
			return idle(ctx)
		}, judge.Protocol, []string{"not valid UTF-8"}},
		{"a control byte", func(ctx context.Context, c *goplayer.Conn) error {
			_ = c.Send("Bo\x01ard")
			return idle(ctx)
		}, judge.Protocol, []string{"control byte 0x01"}},
		{"a line too long", func(ctx context.Context, c *goplayer.Conn) error {
			_ = c.Send(strings.Repeat("a", judge.MaxLine+1))
			return idle(ctx)
		}, judge.Protocol, []string{"longer than 65536 bytes"}},
		{"never reads its answers", func(_ context.Context, c *goplayer.Conn) error {
			for {
				if err := c.Send("Board"); err != nil {
					return err
				}
			}
		}, judge.Timeout, []string{"did not read its answers within 5s"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := ttt(t, goPlayer{name: "bad", f: tt.f})
			p := res.Players[0]
			if p.Status != tt.status {
				t.Fatalf("status %s (%s), want %s", p.Status, p.Reason, tt.status)
			}
			for _, w := range tt.words {
				if !strings.Contains(p.Reason, w) {
					t.Errorf("reason %q does not say %q", p.Reason, w)
				}
			}
			// The match's reason says it in words.
			if want := matchReasons[tt.name]; res.Reason != want {
				t.Errorf("the match's reason %q, want %q", res.Reason, want)
			}
			if p.Turn != 1 || !strings.HasPrefix(res.Reason, p.Fault) {
				t.Errorf("the seat's fault at turn %d, in words %q; the match's reason %q", p.Turn, p.Fault, res.Reason)
			}
			if strings.Contains(p.Reason, "case-sensitive") && strings.Contains(p.Reason, "debug output") {
				t.Errorf("reason %q gives two hints", p.Reason)
			}
			if res.Winner != 1 || res.Players[1].Status != judge.OK || res.Players[1].Score != 1 {
				t.Errorf("the other seat: winner %d, %+v", res.Winner, res.Players[1])
			}
			if rec := res.Replay.Turns[len(res.Replay.Turns)-1].Moves[0]; rec.Status != tt.status || rec.Move != nil {
				t.Errorf("the turn's record: %+v", rec)
			}
		})
	}
}

// matchReasons are the match's reasons of TestStatuses: a seat's fault
// in words, in one line.
var matchReasons = map[string]string{
	"never ends its turn":                 "bad timed out at turn 1 after 5s",
	"returns an error":                    "bad crashed at turn 1: out of ideas",
	"returns early":                       "bad crashed at turn 1: it ended before the game did",
	"panics":                              "bad crashed at turn 1: panic: oops",
	"a fault of its own":                  "bad ran out of memory at turn 1",
	"no move":                             "bad made an illegal move at turn 1: no PlaceSymbol before #END",
	"only invalid moves":                  "bad made an illegal move at turn 1: no valid PlaceSymbol before #END (last one was PlaceSymbol 5 5: (5,5) is off the 3×3 board (cells 0..2))",
	"unknown verb":                        `bad broke the protocol at turn 1: unknown query or command "Hello judge"`,
	"a runtime's failure":                 "bad crashed at turn 1: the Java runtime failed; There is insufficient memory for the Java Runtime Environment to continue.; Native memory allocation (mmap) failed",
	"debug print on stdout":               `bad broke the protocol at turn 1: unknown query or command "thinking about the centre" (debug output belongs on stderr, not stdout: fprintf(stderr, ...), print(..., file=sys.stderr), System.err.println)`,
	"a command in the wrong case":         `bad broke the protocol at turn 1: unknown query or command "placesymbol 1 1" (queries and commands are case-sensitive: write PlaceSymbol, not placesymbol)`,
	"the judge's query in the wrong case": `bad broke the protocol at turn 1: unknown query or command "TIMELEFT" (queries and commands are case-sensitive: write TimeLeft, not TIMELEFT)`,
	"not UTF-8":                           `bad broke the protocol at turn 1: line "Board\xff": not valid UTF-8`,
	"a control byte":                      `bad broke the protocol at turn 1: line "Bo\x01ard": control byte 0x01`,
	"a line too long":                     `bad broke the protocol at turn 1: a line longer than 65536 bytes (starting "` + strings.Repeat("a", 80) + `…")`,
	"never reads its answers":             "bad timed out at turn 1 after 5s",
}

// A flood of queries is no fault (each is answered), but output is
// bounded: a bot writing without #END is stopped at the limit.
func TestOutputLimit(t *testing.T) {
	res, err := runMatch(t, "tictactoe", nil, judge.TurnLimits{Turn: time.Second, FirstTurn: time.Second, Output: 4096, Grace: time.Millisecond},
		goPlayer{name: "chatty", f: func(_ context.Context, c *goplayer.Conn) error {
			for {
				if _, err := c.Ask("CurrentTurn"); err != nil {
					return err
				}
			}
		}}, goPlayer{name: "first", f: firstEmpty})
	if err != nil {
		t.Fatal(err)
	}
	p := res.Players[0]
	if p.Status != judge.Output || !strings.Contains(p.Reason, "wrote more than 4096 bytes in turn 1") ||
		!strings.Contains(p.Reason, `no #END in its 342 lines (the last: "CurrentTurn")`) {
		t.Fatalf("got %s %q", p.Status, p.Reason)
	}
}

// The last valid PlaceSymbol binds; the refused ones are recorded.
func TestLastValidCommandBinds(t *testing.T) {
	res := ttt(t, goPlayer{name: "fickle", f: func(_ context.Context, c *goplayer.Conn) error {
		for {
			b, err := c.Ask("Board")
			if err != nil {
				return err
			}
			x, y := emptyCell(b)
			for _, l := range []string{"PlaceSymbol 2 2", "PlaceSymbol 7 7", fmt.Sprintf("PlaceSymbol %d %d", x, y), "PlaceSymbol -1 0", "#END"} {
				if err := c.Send(l); err != nil {
					return err
				}
			}
		}
	}})
	turn1 := res.Replay.Turns[0].Moves[0]
	if strings.Join(turn1.Move, ";") != "PlaceSymbol 0 0" || len(turn1.Invalid) != 2 {
		t.Errorf("turn 1: move %q, refused %q", turn1.Move, turn1.Invalid)
	}
	turn3 := res.Replay.Turns[2].Moves[0]
	// (2,2) is free but a later valid command overrides it.
	if strings.Join(turn3.Move, ";") != "PlaceSymbol 2 0" {
		t.Errorf("turn 3: move %q", turn3.Move)
	}
}

// Lines written after #END are answered only once the next turn starts:
// CurrentTurn, sent at once after #END, is answered with the next turn.
func TestLinesAfterEndWaitForNextTurn(t *testing.T) {
	var seen []string
	res := ttt(t, goPlayer{name: "eager", f: func(_ context.Context, c *goplayer.Conn) error {
		for {
			if err := c.Send("CurrentTurn"); err != nil {
				return err
			}
			turn, err := c.Answer()
			if err != nil {
				return err
			}
			seen = append(seen, turn)
			b, err := c.Ask("Board")
			if err != nil {
				return err
			}
			x, y := emptyCell(b)
			if err := c.Send(fmt.Sprintf("PlaceSymbol %d %d", x, y)); err != nil {
				return err
			}
			if err := c.End(); err != nil {
				return err
			}
		}
	}})
	if res.Players[0].Status != judge.OK {
		t.Fatalf("%s %s", res.Players[0].Status, res.Players[0].Reason)
	}
	if got := strings.Join(seen, " "); got != "1 3 5 7" {
		t.Errorf("CurrentTurn answered %s, want 1 3 5 7", got)
	}
}

// The first turn has its own limit; later turns the per-turn one.
func TestDeadlines(t *testing.T) {
	slow := func(d time.Duration) goplayer.Func {
		return func(ctx context.Context, c *goplayer.Conn) error {
			for {
				b, err := c.Ask("Board")
				if err != nil {
					return err
				}
				time.Sleep(d)
				x, y := emptyCell(b)
				_ = c.Send(fmt.Sprintf("PlaceSymbol %d %d", x, y))
				if err := c.End(); err != nil {
					return err
				}
			}
		}
	}
	lim := judge.TurnLimits{Turn: 100 * time.Millisecond, FirstTurn: time.Second, Output: 1 << 20, Grace: time.Millisecond}
	// 500 ms: in time for the first turn, not for the third.
	res, err := runMatch(t, "tictactoe", nil, lim, goPlayer{name: "slow", f: slow(500 * time.Millisecond)}, goPlayer{name: "first", f: firstEmpty})
	if err != nil {
		t.Fatal(err)
	}
	if p := res.Players[0]; p.Status != judge.Timeout || !strings.Contains(p.Reason, "no #END within 100ms") || res.Turns != 3 {
		t.Fatalf("got %s %q after %d turns", p.Status, p.Reason, res.Turns)
	}
	// 99 ms is in time every turn.
	res, err = runMatch(t, "tictactoe", nil, lim, goPlayer{name: "quick", f: slow(99 * time.Millisecond)}, goPlayer{name: "first", f: firstEmpty})
	if err != nil {
		t.Fatal(err)
	}
	if p := res.Players[0]; p.Status != judge.OK {
		t.Fatalf("got %s %q", p.Status, p.Reason)
	}
	// A patient player (a person) has no limit.
	res, err = runMatch(t, "tictactoe", nil, lim, goPlayer{name: "person", f: slow(time.Hour), opt: goplayer.Options{Patient: true}}, goPlayer{name: "first", f: firstEmpty})
	if err != nil {
		t.Fatal(err)
	}
	if p := res.Players[0]; p.Status != judge.OK {
		t.Fatalf("patient: got %s %q", p.Status, p.Reason)
	}
}

// In a simultaneous game, one player's fault ends only its own turn.
func TestSimultaneousTurns(t *testing.T) {
	mover := func(dir string) goplayer.Func {
		return func(_ context.Context, c *goplayer.Conn) error {
			for {
				if err := c.Send("Move " + dir); err != nil {
					return err
				}
				if err := c.End(); err != nil {
					return err
				}
			}
		}
	}
	stuck := func(ctx context.Context, c *goplayer.Conn) error {
		<-ctx.Done()
		return goplayer.ErrStopped
	}
	res, err := runMatch(t, "splix-small", games.Params{"players": 3, "turns": 20}, judge.TurnLimits{},
		goPlayer{name: "a", f: mover("N")}, goPlayer{name: "stuck", f: stuck}, goPlayer{name: "c", f: mover("S")})
	if err != nil {
		t.Fatal(err)
	}
	if p := res.Players[1]; p.Status != judge.Timeout {
		t.Errorf("seat 1: %s %s", p.Status, p.Reason)
	}
	turn1 := res.Replay.Turns[0]
	if len(turn1.Moves) != 3 {
		t.Fatalf("turn 1 has %d moves", len(turn1.Moves))
	}
	for _, i := range []int{0, 2} {
		if mv := turn1.Moves[i]; mv.Status != judge.OK || len(mv.Move) != 1 {
			t.Errorf("turn 1, seat %d: %+v", i, mv)
		}
	}
	// The game went on: its own reason first, then the fault in words.
	if game, fault, ok := strings.Cut(res.Reason, "; "); !ok || strings.Contains(game, "stuck") || fault != "stuck timed out at turn 1 after 5s" {
		t.Errorf("the match's reason %q", res.Reason)
	}
}

// Two seats with one name are told apart by their seats.
func TestFaultsOfTwins(t *testing.T) {
	fail := func(context.Context, *goplayer.Conn) error { return errors.New("no") }
	res, err := runMatch(t, "splix-small", games.Params{"players": 3, "turns": 20}, judge.TurnLimits{},
		goPlayer{name: "twin", f: fail}, goPlayer{name: "twin", f: fail}, goPlayer{name: "c", f: idle2})
	if err != nil {
		t.Fatal(err)
	}
	if want := "twin (seat 0) crashed at turn 1: no; twin (seat 1) crashed at turn 1: no"; !strings.HasSuffix(res.Reason, want) {
		t.Errorf("the match's reason %q, want it to end %q", res.Reason, want)
	}
}

// idle2 ends every turn with no move: it stays in a game of
// simultaneous moves whose turns it leaves to its default.
func idle2(_ context.Context, c *goplayer.Conn) error {
	for {
		if err := c.End(); err != nil {
			return err
		}
	}
}

// A person is told what was refused and keeps the turn.
func TestPersonGetsSecondChances(t *testing.T) {
	var told []string
	res := ttt(t, goPlayer{name: "person", person: true, f: func(_ context.Context, c *goplayer.Conn) error {
		for _, l := range []string{"Hello", "PlaceSymbol 9 9", "#END"} {
			if err := c.Send(l); err != nil {
				return err
			}
		}
		if _, err := c.Ask("CurrentTurn"); err != nil { // every refusal so far is told
			return err
		}
		told = c.Refusals()
		return firstEmpty(context.Background(), c)
	}})
	if p := res.Players[0]; p.Status != judge.OK {
		t.Fatalf("%s %s", p.Status, p.Reason)
	}
	if len(told) != 3 || !strings.Contains(told[0], `"Hello" is not a query or a command`) ||
		!strings.Contains(told[1], "off the 3×3 board") || !strings.Contains(told[2], "no valid PlaceSymbol") {
		t.Errorf("told %q", told)
	}
}

// Interrupting the match ends it at once with the context's error, and
// every player is stopped.
func TestInterrupted(t *testing.T) {
	v, _ := catalog.Lookup("tictactoe")
	p, _ := v.Resolve(nil)
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		stopped := make(chan struct{})
		blocker := goPlayer{name: "blocker", f: func(ctx context.Context, c *goplayer.Conn) error {
			<-ctx.Done()
			close(stopped)
			return goplayer.ErrStopped
		}}
		lim := judge.DefaultTurnLimits
		lim.FirstTurn = time.Hour
		time.AfterFunc(time.Second, cancel)
		start := time.Now()
		_, err := judge.Run(ctx, judge.Match{Game: v.Game, Name: v.Name, Params: p, Limits: lim,
			Entrants: []judge.Entrant{blocker, goPlayer{name: "first", f: firstEmpty}}})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("got %v, want context.Canceled", err)
		}
		if el := time.Since(start); el != time.Second {
			t.Errorf("ended after %v, want 1s", el)
		}
		select {
		case <-stopped:
		default:
			t.Error("the player was not stopped")
		}
	})
}

func TestBadMatches(t *testing.T) {
	v, _ := catalog.Lookup("tictactoe")
	p, _ := v.Resolve(nil)
	one := []judge.Entrant{goPlayer{name: "a", f: firstEmpty}}
	for _, tt := range []struct {
		m    judge.Match
		want string
	}{
		{judge.Match{Params: p, Limits: judge.DefaultTurnLimits}, "no game"},
		{judge.Match{Game: v.Game, Params: p, Limits: judge.DefaultTurnLimits, Entrants: one}, "needs 2 players, got 1"},
		{judge.Match{Game: v.Game, Params: p, Entrants: one}, "the turn limit is 0s"},
		{judge.Match{Game: v.Game, Params: games.Params{"n": 3, "k": 4}, Limits: judge.DefaultTurnLimits, Entrants: one}, "k"},
	} {
		if _, err := judge.Run(context.Background(), tt.m); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("got %v, want an error saying %q", err, tt.want)
		}
	}
}

// sleeper plays the first empty cell after d, each turn; it asks TimeLeft
// first and keeps the answers.
func sleeper(d time.Duration, left *[]string) goplayer.Func {
	return func(ctx context.Context, c *goplayer.Conn) error {
		for {
			tl, err := c.Ask("TimeLeft")
			if err != nil {
				return err
			}
			if left != nil {
				*left = append(*left, tl)
			}
			b, err := c.Ask("Board")
			if err != nil {
				return err
			}
			time.Sleep(d)
			x, y := emptyCell(b)
			_ = c.Send(fmt.Sprintf("PlaceSymbol %d %d", x, y))
			if err := c.End(); err != nil {
				return err
			}
		}
	}
}

func TestTimeControls(t *testing.T) {
	base := judge.TurnLimits{Turn: 100 * time.Millisecond, FirstTurn: 100 * time.Millisecond, Output: 1 << 20, Grace: time.Millisecond}
	with := func(f func(*judge.TurnLimits)) judge.TurnLimits {
		l := base
		f(&l)
		return l
	}
	for _, tt := range []struct {
		name     string
		lim      judge.TurnLimits
		sleep    time.Duration
		status   judge.Status
		turns    int      // the game's turns played
		left     []string // TimeLeft's answers, turn by turn
		bank     []int64  // the bank after each of seat 0's turns, µs
		overruns int
	}{
		{"no bank", base, 180 * time.Millisecond, judge.Timeout, 1, []string{"100 0 0"}, nil, 0},
		{"a bank runs out", with(func(l *judge.TurnLimits) { l.Bank = 150 * time.Millisecond }), 180 * time.Millisecond,
			judge.Timeout, 3, []string{"250 150 0", "170 70 0"}, []int64{70000, 0}, 0},
		{"an increment keeps it going", with(func(l *judge.TurnLimits) { l.Bank, l.Increment = 150*time.Millisecond, 100*time.Millisecond }), 180 * time.Millisecond,
			judge.OK, 7, []string{"250 150 0", "270 170 0", "290 190 0", "310 210 0"}, []int64{170000, 190000, 210000, 230000}, 0},
		{"one overrun allowed", with(func(l *judge.TurnLimits) { l.Overruns = 1 }), 150 * time.Millisecond,
			judge.Timeout, 3, []string{"200 0 1", "100 0 0"}, nil, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var left []string
			res, err := runMatch(t, "tictactoe", nil, tt.lim, goPlayer{name: "slow", f: sleeper(tt.sleep, &left)}, goPlayer{name: "first", f: firstEmpty})
			if err != nil {
				t.Fatal(err)
			}
			if p := res.Players[0]; p.Status != tt.status || res.Turns != tt.turns {
				t.Fatalf("%s %q after %d turns, want %s after %d", p.Status, p.Reason, res.Turns, tt.status, tt.turns)
			}
			if strings.Join(left, ",") != strings.Join(tt.left, ",") {
				t.Errorf("TimeLeft said %q, want %q", left, tt.left)
			}
			var bank []int64
			overruns := 0
			for _, turn := range res.Replay.Turns {
				for _, mv := range turn.Moves {
					if mv.Seat == 0 {
						if tt.bank != nil {
							bank = append(bank, mv.BankUS)
						}
						if mv.Overrun {
							overruns++
						}
					}
				}
			}
			if fmt.Sprint(bank) != fmt.Sprint(tt.bank) || overruns != tt.overruns {
				t.Errorf("bank %v, %d overruns; want %v, %d", bank, overruns, tt.bank, tt.overruns)
			}
		})
	}
}

// What --trace keeps is capped, whatever a bot sends, and says what it cut.
func TestTraceIsBounded(t *testing.T) {
	res := ttt(t, goPlayer{name: "asker", f: func(ctx context.Context, c *goplayer.Conn) error {
		for i := 0; i < 20000; i++ {
			if _, err := c.Ask("Board"); err != nil {
				return err
			}
		}
		return firstEmpty(ctx, c)
	}})
	if p := res.Players[0]; p.Status != judge.OK {
		t.Fatalf("%s %s", p.Status, p.Reason)
	}
	kept, cut := 0, 0
	for _, l := range res.Replay.Bots[0].Trace {
		if l.Dir == "cut" {
			cut++
			if !strings.Contains(l.Line, "bytes of this turn's lines not kept") {
				t.Errorf("cut line %q", l.Line)
			}
			continue
		}
		kept += len(l.Line)
	}
	if cut != 1 || kept > judge.TraceTurnBytes+1000 || kept < judge.TraceTurnBytes/2 {
		t.Errorf("kept %d bytes, %d cut lines", kept, cut)
	}
}

// TestOpponentQuery checks the judge's own Opponent query: the other
// seat's name, whatever the game.
func TestOpponentQuery(t *testing.T) {
	var heard []string
	asker := func(ctx context.Context, c *goplayer.Conn) error {
		name, err := c.Ask("Opponent")
		if err != nil {
			return err
		}
		heard = append(heard, name)
		return firstEmpty(ctx, c)
	}
	res, err := runMatch(t, "tictactoe", nil, judge.DefaultTurnLimits, goPlayer{name: "asker", f: asker}, goPlayer{name: "first", f: firstEmpty})
	if err != nil {
		t.Fatal(err)
	}
	if p := res.Players[0]; p.Status != judge.OK {
		t.Fatalf("%s %q", p.Status, p.Reason)
	}
	if strings.Join(heard, ",") != "first" {
		t.Errorf("Opponent said %q, want first", heard)
	}
}

// A person's turn carries the game as the seat sees it, its boards drawn
// from the game's view; a bot's carries none.
func TestPersonView(t *testing.T) {
	var views []*games.View
	var mu sync.Mutex
	watch := func(ctx context.Context, c *goplayer.Conn) error {
		for {
			b, err := c.Ask("Board")
			if err != nil {
				return err
			}
			mu.Lock()
			views = append(views, c.Turn().View)
			mu.Unlock()
			x, y := emptyCell(b)
			if err := c.Send(fmt.Sprintf("PlaceSymbol %d %d", x, y)); err != nil {
				return err
			}
			if err := c.End(); err != nil {
				return err
			}
		}
	}
	ttt(t, goPlayer{name: "bot", f: watch})
	mu.Lock()
	bot := views
	views = nil
	mu.Unlock()
	if len(bot) == 0 || slices.ContainsFunc(bot, func(v *games.View) bool { return v != nil }) {
		t.Errorf("a bot was given views: %v", bot)
	}
	ttt(t, goPlayer{name: "person", f: watch, person: true})
	// The person is X and moves first: its second turn's board holds X's
	// first move and O's.
	if len(views) < 2 || views[1] == nil || len(views[1].Grids) != 1 || string(views[1].Grids[0].Cells) != "XO-------" {
		t.Fatalf("the person's views: %+v", views)
	}
}
