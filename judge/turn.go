package judge

import (
	"context"
	"errors"
	"fmt"
	"time"

	"judge/games"
)

// turnPlan is how a turn is served, the same for every seat moving in it.
type turnPlan struct {
	lim        TurnLimits
	matchStart time.Time
	trace      bool // the turn's lines are recorded (Match.Trace)
	shared     bool // other seats move in the same turn, each in its own goroutine
}

// playTurn serves one turn of the seat: it answers queries and collects
// commands until #END, a fault, or the deadline. It returns the committed
// move (nil when the seat failed) and the turn's record. Only judge
// failures are errors.
//
// How the turn is served is pl's.
func (s *seat) playTurn(ctx context.Context, st games.State, pl turnPlan) (games.Move, TurnMove, error) {
	lim := pl.lim
	start := time.Now()
	limit, t := s.beginBudget(st, lim, start, pl.shared)
	t.View = s.personView(st)
	tn := &turn{s: s, st: st, lim: lim, t: t, rec: TurnMove{Seat: s.index},
		tr: &turnTrace{s: s, on: pl.trace, start: pl.matchStart}}
	if err := s.p.BeginTurn(ctx, t); err != nil {
		if err := s.failed(ctx, err); err != nil {
			return nil, tn.rec, err
		}
	}

	tn.orders = st.Orders(s.index)
	var move games.Move
	for move == nil && s.status == OK && games.Fault(st) == nil {
		mv, err := tn.step(ctx)
		if err != nil {
			return nil, tn.rec, err
		}
		move = mv
	}
	wall := time.Since(start)
	tn.rec.WallUS = us(wall)
	tn.tr.end()
	u, err := s.p.EndTurn(ctx)
	if err != nil {
		if err := s.failed(ctx, err); err != nil {
			return nil, tn.rec, err
		}
		move = nil
	}
	if pl.trace {
		s.turnStderr(&tn.rec)
	}
	if s.status == Timeout && s.failTurn == 0 {
		s.failLimit = t.Limit
	}
	s.clock(st, lim, limit, wall, u, &tn.rec)
	if s.status != OK && s.failTurn == 0 {
		s.failTurn = st.Turn()
	}
	if s.status != OK {
		move = nil
	}
	tn.rec.Move = move
	tn.rec.Status = s.status
	tn.rec.Reason = s.reason
	return move, tn.rec, nil
}

// turn is one turn of a seat being served.
type turn struct {
	s      *seat
	st     games.State
	lim    TurnLimits
	t      Turn
	tr     *turnTrace
	rec    TurnMove
	orders games.Orders
	// What the player has written in the turn.
	written int64
	lines   int
}

// beginBudget starts the seat's turn on its clock: the turn's own limit,
// and what the player is told of its time.
func (s *seat) beginBudget(st games.State, lim TurnLimits, start time.Time, shared bool) (time.Duration, Turn) {
	limit := lim.Turn
	if s.turns == 0 {
		limit = lim.FirstTurn
	}
	s.turns++
	// The turn may run into the bank, and past it when overruns are left.
	allowed := limit + s.bank
	if s.overruns > 0 {
		allowed += limit
	}
	return limit, Turn{Number: st.Turn(), Limit: allowed, Deadline: start.Add(allowed), First: s.turns == 1, Shared: shared}
}

// personView is the game as a person's seat sees it, to draw its boards;
// nil for a bot, and for a game that is not a games.Viewer.
func (s *seat) personView(st games.State) *games.View {
	v, ok := st.(games.Viewer)
	if !ok || s.person == nil {
		return nil
	}
	view := v.View().Of(s.index)
	return &view
}

// failed makes a player's fault data: the seat fails and the error is
// nil. Anything else stops the match.
func (s *seat) failed(ctx context.Context, err error) error {
	if f := AsFault(err); f != nil {
		if s.status == OK {
			s.detail = f.Detail
		}
		s.fail(f.Status, f.Reason)
		return nil
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return fmt.Errorf("player %d: %w", s.index, err)
}

// step reads and serves one line of the player. It returns the committed
// move after #END; the seat's status says whether it failed.
func (tn *turn) step(ctx context.Context) (games.Move, error) {
	text, ok, err := tn.readLine(ctx)
	if !ok {
		return nil, err
	}
	if string(text) == "#END" {
		return tn.commit(), nil
	}
	var l games.Line
	if s := tn.s; len(text) > 0 && string(text) == s.lone {
		// The same query again (a round of them): no new string.
		l.Verb = s.lone
	} else if l = games.ParseLine(string(text)); len(l.Args) == 0 && l.Verb != "" {
		s.lone = l.Verb
	}
	if l.Verb == "" {
		return nil, nil // a blank line says nothing
	}
	answered, err := tn.query(ctx, l)
	if answered || err != nil {
		return nil, err
	}
	tn.command(ctx, text, l)
	return nil, nil
}

// readLine reads the player's next line and checks it: the turn's output
// limit, the line's length, and that it is text. It is not ok when the
// seat failed or the judge did (err).
func (tn *turn) readLine(ctx context.Context) ([]byte, bool, error) {
	s, lim, st := tn.s, tn.lim, tn.st
	text, err := s.p.ReadLine(ctx)
	if err != nil {
		return nil, false, s.failed(ctx, err)
	}
	tn.lines++
	tn.written += int64(len(text)) + 1
	if lim.Output > 0 && tn.written > lim.Output {
		s.fail(Output, fmt.Sprintf("wrote more than %d bytes in turn %d", lim.Output, st.Turn())+noEndHint(tn.lines, string(Clip(string(text), ClipLine))))
		return nil, false, nil
	}
	if n := len(text); n > 0 && text[n-1] == '\r' {
		text = text[:n-1]
	}
	if tn.tr.on {
		tn.tr.add("out", string(text))
	}
	if len(text) > MaxLine {
		s.fail(Protocol, fmt.Sprintf("a line longer than %d bytes (starting %q)", MaxLine, Clip(string(text), ClipLine)))
		return nil, false, nil
	}
	if bad := NotText(text); bad != "" {
		s.fail(Protocol, fmt.Sprintf("line %q: %s", Clip(string(text), ClipLine), bad))
		return nil, false, nil
	}
	return text, true, nil
}

// commit ends the player's commands at #END: it returns the move, or nil
// when it is refused (a person may then try again).
func (tn *turn) commit() games.Move {
	s := tn.s
	mv, err := tn.orders.Commit()
	if errors.Is(err, games.ErrReferee) {
		return nil // the match ends: no one's fault
	}
	if err != nil {
		if s.person != nil {
			s.person.Refused(err.Error())
			tn.orders = tn.st.Orders(s.index)
			return nil
		}
		s.fail(Illegal, fmt.Sprintf("turn %d: %v", tn.st.Turn(), err))
		return nil
	}
	return mv
}

// query answers l when it is a query, the judge's own or the game's; it
// says whether it was one.
func (tn *turn) query(ctx context.Context, l games.Line) (bool, error) {
	s := tn.s
	var (
		ans string
		err error
	)
	if l.Verb == "TimeLeft" && len(l.Args) == 0 {
		// The judge's own query: the clock, not the game.
		ans, err = fmt.Sprintf("%d %d %d", max(0, time.Until(tn.t.Deadline).Milliseconds()), s.bank.Milliseconds(), s.overruns), nil
	} else if l.Verb == "Opponent" && len(l.Args) == 0 {
		ans, err = s.opp, nil // the judge's too: a game does not know names
	} else {
		ans, err = tn.st.Query(s.index, l)
	}
	if err == nil {
		tn.rec.Queries++
		s.buf = append(s.buf[:0], ans...)
		tn.tr.add("in", ans)
		if err := s.p.WriteAnswer(ctx, s.buf); err != nil {
			return true, s.failed(ctx, err)
		}
		return true, nil
	}
	if errors.Is(err, games.ErrReferee) {
		return true, nil // the match ends: no one's fault
	}
	if !errors.Is(err, games.ErrNotQuery) {
		return false, fmt.Errorf("player %d: query %q: %w", s.index, l, err)
	}
	return false, nil
}

// command gives the line l (text as written) to the seat's orders. A line
// that is neither a query nor a command fails the seat (a person is told
// instead); an invalid command is recorded.
func (tn *turn) command(ctx context.Context, text []byte, l games.Line) {
	s := tn.s
	err := tn.orders.Command(l)
	if err == nil || errors.Is(err, games.ErrReferee) {
		return // a referee's failure ends the match: no one's fault
	}
	if errors.Is(err, games.ErrUnknown) {
		if s.person != nil {
			s.person.Refused(fmt.Sprintf("%q is not a query or a command of this game", Clip(string(text), ClipLine)))
			return
		}
		if why, ok := RuntimeFailure(string(text)); ok {
			s.fail(Crash, why+s.moreLines(ctx))
			return
		}
		s.fail(Protocol, unknownReason(text, tn.st))
		return
	}
	tn.rec.Invalid = append(tn.rec.Invalid, fmt.Sprintf("%s: %v", l, err))
	if s.person != nil {
		s.person.Refused(fmt.Sprintf("%s: %v", l, err))
	}
}

// clock charges the turn to the seat's clock: the time past its limit
// comes out of the bank, then out of the overruns; the increment is added;
// and the turn's CPU is checked against its limit.
func (s *seat) clock(st games.State, lim TurnLimits, limit, wall time.Duration, u Usage, rec *TurnMove) {
	rec.WaitUS = us(u.Waited)
	// The clock counts the player's own time: what the machine kept it
	// waiting is not its.
	if over := wall - u.Waited - limit; over > 0 {
		from := min(over, s.bank)
		s.bank -= from
		if over > from && s.overruns > 0 && s.status == OK {
			s.overruns--
			rec.Overrun = true
		}
	}
	if lim.Bank > 0 || lim.Increment > 0 {
		s.bank += lim.Increment
		rec.BankUS = us(s.bank)
	}
	if u.CPUKnown {
		rec.CPUUS = us(u.CPU)
		if lim.TurnCPU > 0 && u.CPU > lim.TurnCPU && s.status == OK && s.turns > 1 {
			s.fail(Timeout, fmt.Sprintf("used %v of CPU in turn %d, over the limit of %v", u.CPU.Round(time.Millisecond), st.Turn(), lim.TurnCPU))
		}
	}
}
