package judge

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"judge/games"
)

// Rerun plays a recorded match again for one of its seats, to debug that
// seat's program: the game goes through the recorded moves, and the
// seat's turns are served afresh, line by line, from the game's state, as
// the match served them. A query is answered as the match answered it
// (the answers are functions of the state), so a program that asks the
// same queries reads the same input as in the match. Its moves are
// checked against the recorded ones, and the game goes on with the
// recorded ones. Only the judge's clock differs: TimeLeft answers
// RerunTimeLeft.
type Rerun struct {
	rp     *Replay
	seat   int
	st     games.State
	next   int // index in rp.Turns of the seat's turn being served; len(rp.Turns) when none is left
	orders games.Orders
	// offered are the command lines offered to orders in this turn: a
	// state whose orders live in its referee (games.Faulty) has them
	// offered again after Protocol's look, which started fresh ones.
	offered []games.Line
	opp     string
}

// RerunTimeLeft is a rerun's answer to TimeLeft: a second left in the
// turn, no bank, no overrun. A program under a debugger has all the time
// it needs.
const RerunTimeLeft = "1000 0 0"

// NewRerun starts the game of rp (whose rules are game's) and plays it
// to seat's first turn.
func NewRerun(game games.Game, rp *Replay, seat int) (*Rerun, error) {
	p, err := games.Resolve(game.Params(), rp.Params)
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	st, err := game.New(p, rp.Seed)
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	if seat < 0 || seat >= st.Seats() || seat >= len(rp.Bots) {
		return nil, fmt.Errorf("seat %d: the match has seats 0 to %d", seat, min(st.Seats(), len(rp.Bots))-1)
	}
	var opp []string
	for i, b := range rp.Bots {
		if i != seat {
			opp = append(opp, b.Name)
		}
	}
	r := &Rerun{rp: rp, seat: seat, st: st, opp: strings.Join(opp, " ")}
	if err := r.advance(); err != nil {
		return nil, err
	}
	return r, nil
}

// Turn is the turn the seat plays now, from 1; 0 once the match has no
// more turns of the seat.
func (r *Rerun) Turn() int {
	if r.next >= len(r.rp.Turns) {
		return 0
	}
	return r.rp.Turns[r.next].Turn
}

// State is the game as the seat's turn finds it. It must not be changed.
func (r *Rerun) State() games.State { return r.st }

// advance plays the recorded turns in which the seat does not move.
func (r *Rerun) advance() error {
	for ; r.next < len(r.rp.Turns); r.next++ {
		if r.move() != nil {
			r.orders, r.offered = r.st.Orders(r.seat), nil
			return nil
		}
		if err := applyTurn(r.st, r.rp.Turns[r.next]); err != nil {
			return err
		}
	}
	return nil
}

// move is the seat's recorded part of the turn being served, or nil.
func (r *Rerun) move() *TurnMove {
	if r.next >= len(r.rp.Turns) {
		return nil
	}
	t := &r.rp.Turns[r.next]
	for i := range t.Moves {
		if t.Moves[i].Seat == r.seat {
			return &t.Moves[i]
		}
	}
	return nil
}

// LineKind says what a line of the program was.
type LineKind int

// The kinds of a program's lines.
const (
	// LineOther is not the protocol: the program's or its debugger's own
	// output, for the person debugging it.
	LineOther   LineKind = iota
	LineQuery            // a query: Served.Answer is the judge's answer
	LineCommand          // a command, taken or refused (Served.Note)
	LineEnd              // #END: the turn is over, and the game at the seat's next one
)

// Served is what a rerun did with a line of the program.
type Served struct {
	Kind   LineKind
	Answer string // to a query, without its final newline
	// Note says where the program parts from the match: a command
	// refused, a move that is not the recorded one, a turn the seat
	// failed in the match.
	Note string
}

// Line serves one line the program wrote (without its newline) during
// the seat's turn. Once the seat has no turn left, every line is
// LineOther.
func (r *Rerun) Line(text string) (Served, error) {
	if r.Turn() == 0 {
		return Served{}, nil
	}
	text = strings.TrimSuffix(text, "\r")
	if text == "#END" {
		return r.end()
	}
	l := games.ParseLine(text)
	switch {
	case l.Verb == "":
		return Served{}, nil
	case l.Verb == "TimeLeft" && len(l.Args) == 0:
		return Served{Kind: LineQuery, Answer: RerunTimeLeft}, nil
	case l.Verb == "Opponent" && len(l.Args) == 0:
		return Served{Kind: LineQuery, Answer: r.opp}, nil
	}
	ans, err := r.st.Query(r.seat, l)
	switch {
	case err == nil:
		return Served{Kind: LineQuery, Answer: ans}, nil
	case !errors.Is(err, games.ErrNotQuery):
		return Served{Note: fmt.Sprintf("query %q: %v", l, err)}, nil
	}
	r.offered = append(r.offered, l)
	switch err := r.orders.Command(l); {
	case err == nil:
		return Served{Kind: LineCommand}, nil
	case errors.Is(err, games.ErrUnknown):
		return Served{}, nil
	default:
		return Served{Kind: LineCommand, Note: fmt.Sprintf("refused: %s: %v", l, err)}, nil
	}
}

// Protocol reports whether text is a line of the protocol for the game
// as it stands: #END, a query, or a command (valid now or not). It
// changes nothing.
func (r *Rerun) Protocol(text string) bool {
	if r.Turn() == 0 {
		return false
	}
	text = strings.TrimSuffix(text, "\r")
	l := games.ParseLine(text)
	switch {
	case text == "#END":
		return true
	case l.Verb == "":
		return false
	case (l.Verb == "TimeLeft" || l.Verb == "Opponent") && len(l.Args) == 0:
		return true
	}
	if _, err := r.st.Query(r.seat, l); err == nil {
		return true
	} else if !errors.Is(err, games.ErrNotQuery) {
		return false
	}
	known := !errors.Is(r.st.Orders(r.seat).Command(l), games.ErrUnknown)
	if _, remote := r.st.(games.Faulty); remote {
		// The referee's orders of the seat started afresh: the turn's
		// commands are offered again.
		r.orders = r.st.Orders(r.seat)
		for _, c := range r.offered {
			_ = r.orders.Command(c)
		}
	}
	return known
}

// end ends the seat's turn: its move is compared with the recorded one,
// the recorded turn is played, and the game goes on to the seat's next
// turn.
func (r *Rerun) end() (Served, error) {
	rec := r.move()
	turn := r.Turn()
	mv, err := r.orders.Commit()
	s := Served{Kind: LineEnd}
	switch {
	case rec.Status != OK:
		s.Note = fmt.Sprintf("in the match the seat %s at turn %d: %s", rec.Status.verb(false), turn, firstLine(rec.Reason))
	case err != nil:
		s.Note = fmt.Sprintf("its turn %d is refused: %v; in the match it played %s", turn, err, strings.Join(rec.Move, "; "))
	case !slices.Equal(mv, rec.Move):
		s.Note = fmt.Sprintf("it plays %s at turn %d, where in the match it played %s: the game goes on with the match's move", strings.Join(mv, "; "), turn, strings.Join(rec.Move, "; "))
	}
	if err := applyTurn(r.st, r.rp.Turns[r.next]); err != nil {
		return s, err
	}
	r.next++
	return s, r.advance()
}

// ErrNoTrace is StdinOf's error for a replay recorded without --trace.
var ErrNoTrace = errors.New("the replay has no transcript of the seat: it was recorded without --trace (judge match --trace, judge tournament --trace keep it); judge debug needs none")

// StdinOf is what the match wrote on seat's standard input, up to the end
// of turn upTo (0: to the end), as the replay's transcript holds it: the
// answers to its queries, each with its newline, in order. The judge
// writes nothing else to a bot: a turn begins with the bot's first query.
// It needs a transcript (--trace); one the trace's caps cut is refused.
func StdinOf(rp *Replay, seat, upTo int) (string, error) {
	if seat < 0 || seat >= len(rp.Bots) {
		return "", fmt.Errorf("seat %d: the match has seats 0 to %d", seat, len(rp.Bots)-1)
	}
	trace := rp.Bots[seat].Trace
	if len(trace) == 0 {
		return "", ErrNoTrace
	}
	var turns []int // the seat's turns, in order
	for _, t := range rp.Turns {
		for _, m := range t.Moves {
			if m.Seat == seat {
				turns = append(turns, t.Turn)
				break
			}
		}
	}
	var b strings.Builder
	k := 0
	for _, l := range trace {
		turn := 0
		if len(turns) > 0 {
			turn = turns[min(k, len(turns)-1)]
		}
		if upTo > 0 && turn > upTo {
			break
		}
		switch l.Dir {
		case "in":
			b.WriteString(l.Line)
			b.WriteByte('\n')
		case "cut":
			return "", fmt.Errorf("the transcript of turn %d is not whole: %s", turn, l.Line)
		case "out":
			if l.Line == "#END" {
				k++
			}
		}
	}
	return b.String(), nil
}
