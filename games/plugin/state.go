package plugin

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"judge/games"
)

var (
	_ games.Mover      = (*State)(nil)
	_ games.MultiLine  = (*State)(nil)
	_ games.Verbs      = (*State)(nil)
	_ games.Faulty     = (*State)(nil)
	_ games.GridKinder = (*State)(nil)
)

// State is a plugin game in progress: a referee, and its last status.
// Its methods may be called from several goroutines (seats moving at
// once): calls to the referee are made one at a time.
type State struct {
	g     *Game
	mu    sync.Mutex
	t     transport
	seats int
	st    status
	err   error // the first fault
	// last is the last response line, for the fault of one of the
	// wrong shape.
	last []byte
	// noExplain: the referee answered explain with an unknown op.
	noExplain bool
	closed    bool
	// turnOrders: the referee said at hello that it starts every seat's
	// commands at the start of a turn (FeatureTurnOrders). started holds
	// the seats whose commands it has started this turn and that no
	// Orders has used yet: their Orders costs no call.
	turnOrders bool
	started    []bool
	// commandMoves: the referee said at hello that its answer to every
	// command it takes is the move that binds now (FeatureCommandMoves).
	// bound holds it, by seat, until the seat's commands start again.
	commandMoves bool
	bound        map[int]games.Move
	// answers: the referee said at hello that its statuses may answer
	// queries ahead (FeatureAnswers); turnAnswers are the last status's,
	// by line, for every seat until the next status.
	answers     bool
	turnAnswers map[string]string
	// reuse: the referee said at hello that it takes new again
	// (FeatureReuse); begun says new started its game, so that Close
	// may keep the referee for another match.
	reuse, begun bool
	// neared: the referee was put near the match (transport.near), at
	// its first call after new.
	neared bool
	// fixed holds the answers of the queries game.toml declares fixed,
	// by seat and line.
	fixed map[fixedKey]string
}

// maxFixed bounds the fixed answers a state keeps: a bot may ask a
// fixed query with any arguments.
const maxFixed = 256

type fixedKey struct {
	seat int
	line string
}

// FeatureTurnOrders is the feature a referee lists at hello when it
// starts every seat's commands at the start of each turn (after new,
// apply and forfeit), as an orders request would: the judge then sends
// orders only to start a seat's commands again within a turn.
const FeatureTurnOrders = "turn-orders"

// FeatureCommandMoves is the feature a referee lists at hello when its
// answer to every command it takes is {"move":[...]}, the move that binds
// if the seat's turn ends now ([] for none), and commit tells nothing
// more: the judge then sends commit only for a seat with no such move
// (to learn why).
const FeatureCommandMoves = "command-moves"

// FeatureReuse is the feature a referee lists at hello when it takes new
// again, at any point of a game: it then starts a new game and forgets
// all of the one before, as if just started. The judge may then keep a
// referee whose match ended for the game's next match, sparing a start:
// a WebAssembly instance's (its memory, its runtime's set-up), a
// program's (an interpreter's, tens of milliseconds).
const FeatureReuse = "reuse"

// FeatureAnswers is the feature a referee lists at hello when its
// statuses (those of new, apply and forfeit) may carry "answers": the
// answers of queries for the turn the status starts, by query line, the
// same for every seat. The judge answers those lines itself until the
// next status, sparing a call each: a query every bot asks every turn
// (Connect Four's Heights) then costs nothing.
const FeatureAnswers = "answers"

// newTurn marks every seat's commands started, when the referee starts
// them at a turn's start, and forgets the moves commands bound. s.mu is
// held.
func (s *State) newTurn() {
	clear(s.bound)
	if !s.turnOrders {
		return
	}
	if len(s.started) != s.seats {
		s.started = make([]bool, s.seats)
	}
	for i := range s.started {
		s.started[i] = true
	}
}

// status is the referee's STATUS.
type status struct {
	Turn   *int      `json:"turn"`
	Movers []int     `json:"movers"`
	Over   *bool     `json:"over"`
	Winner *int      `json:"winner"`
	Scores []float64 `json:"scores"`
	Reason string    `json:"reason"`
	Notes  []string  `json:"notes"`
	// Answers are queries answered ahead (FeatureAnswers).
	Answers map[string]string `json:"answers"`
}

// reply is every field a response may have, but those of view.
type reply struct {
	Error    *string     `json:"error"`
	Protocol *int        `json:"protocol"`
	Features []string    `json:"features"`
	Seats    *int        `json:"seats"`
	Status   *status     `json:"status"`
	Refused  *string     `json:"refused"`
	Answer   *string     `json:"answer"`
	NotQuery bool        `json:"not_query"`
	Unknown  *string     `json:"unknown"`
	Invalid  *string     `json:"invalid"`
	Move     []string    `json:"move"`
	Moves    *[][]string `json:"moves"`
	Text     *string     `json:"text"`
	Notes    *[]note     `json:"notes"`
}

type note struct {
	Seat int    `json:"seat"`
	Kind string `json:"kind"`
	Text string `json:"text"`
}

// refereeError is a referee's fault: what went wrong, and the tail of
// its stderr.
type refereeError struct {
	op, why, stderr string
}

func (e *refereeError) Error() string {
	s := fmt.Sprintf("the referee failed at %s: %s", e.op, e.why)
	if t := strings.TrimSpace(e.stderr); t != "" {
		s += "; its stderr ends: " + strings.Join(strings.Fields(t), " ")
	}
	return s
}

func (e *refereeError) Unwrap() error { return games.ErrReferee }

// Err implements games.Faulty.
func (s *State) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// Close implements games.Closer: it ends the referee, or keeps it for
// the game's next match when it takes new again (FeatureReuse) and has
// not failed.
func (s *State) Close() error {
	s.mu.Lock()
	t := s.t
	keep := s.reuse && s.begun && s.err == nil && !s.closed
	if keep {
		s.t = closedTransport{}
	}
	s.closed = true
	s.mu.Unlock()
	if keep && s.g.keep(idleReferee{t: t, turnOrders: s.turnOrders, commandMoves: s.commandMoves, answers: s.answers}) {
		return nil
	}
	t.close()
	return nil
}

// fault records the referee's first fault and ends it; it returns the
// fault.
func (s *State) fault(op, why string) error {
	if s.err == nil {
		// Ended first: all the referee wrote on its stderr is then read.
		s.t.close()
		s.err = &refereeError{op: op, why: why, stderr: s.t.stderr()}
	}
	return s.err
}

// call sends one request, the JSON of req (a []byte is sent as it is),
// and decodes the response into out. Any failure is the referee's fault,
// recorded. s.mu is held.
func (s *State) call(op string, req any, out decoded) error {
	if s.err != nil {
		return s.err
	}
	if s.closed {
		return s.fault(op, "the game was closed")
	}
	b, ok := req.([]byte)
	if !ok {
		var err error
		if b, err = json.Marshal(req); err != nil {
			return s.fault(op, err.Error())
		}
	}
	if !s.neared && s.begun {
		// The match's first call, on its thread (New is called before
		// its turns are served).
		s.neared = true
		s.t.near()
	}
	line, err := s.t.call(b)
	if errors.Is(err, errEnded) {
		s.t.close() // reaped: how it ended is known
		if how := s.t.exit(); how != "" {
			return s.fault(op, fmt.Sprintf("%v: %s", err, how))
		}
	}
	if err != nil {
		return s.fault(op, err.Error())
	}
	s.last = line
	if len(line) == 0 || line[0] != '{' {
		return s.fault(op, fmt.Sprintf("it answered %q, not a JSON object", clip(line)))
	}
	if r, ok := out.(*reply); ok && decodeReply(line, r) {
		// The common replies, read by hand.
	} else if err := json.Unmarshal(line, out); err != nil {
		var e struct {
			Error *string `json:"error"`
		}
		if json.Unmarshal(line, &e) == nil && e.Error != nil {
			return s.fault(op, "it answered an error: "+*e.Error)
		}
		return s.fault(op, fmt.Sprintf("its answer %q: %v", clip(line), err))
	}
	if e := out.failure(); e != nil {
		return s.fault(op, "it answered an error: "+*e)
	}
	return nil
}

// decoded is a referee's response, decoded: its error, when it answered
// one.
type decoded interface{ failure() *string }

func (r *reply) failure() *string { return r.Error }

// bad records an answer of the wrong shape, the last.
func (s *State) bad(op, want string) error {
	return s.fault(op, fmt.Sprintf("want %s, got %s", want, clip(s.last)))
}

func (s *State) hello() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	var r reply
	if err := s.call("hello", struct {
		Op       string `json:"op"`
		Protocol int    `json:"protocol"`
	}{"hello", Protocol}, &r); err != nil {
		return err
	}
	switch {
	case r.Protocol == nil:
		return s.bad("hello", `{"protocol":1}`)
	case *r.Protocol != Protocol:
		return s.fault("hello", fmt.Sprintf("it speaks referee protocol %d; this judge speaks %d", *r.Protocol, Protocol))
	}
	s.turnOrders = slices.Contains(r.Features, FeatureTurnOrders)
	s.commandMoves = slices.Contains(r.Features, FeatureCommandMoves)
	s.answers = slices.Contains(r.Features, FeatureAnswers)
	s.reuse = slices.Contains(r.Features, FeatureReuse)
	return nil
}

func (s *State) newGame(p games.Params, seed uint64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	var r reply
	if err := s.call("new", newRequest(p, seed), &r); err != nil {
		return err
	}
	if r.Refused != nil {
		return errors.New(*r.Refused) // its callers name the game
	}
	if r.Seats == nil || r.Status == nil {
		return s.bad("new", `{"seats":N,"status":{...}}`)
	}
	if lo, hi := s.g.spec.Seats[0], s.g.spec.Seats[1]; *r.Seats < lo || *r.Seats > hi {
		return s.fault("new", fmt.Sprintf("it made a game of %d seats; game.toml says %d to %d", *r.Seats, lo, hi))
	}
	s.seats = *r.Seats
	if err := s.setStatus("new", r.Status); err != nil {
		return err
	}
	s.newTurn()
	s.begun = true
	return nil
}

// setStatus checks a status and keeps it.
func (s *State) setStatus(op string, st *status) error {
	if st == nil {
		return s.fault(op, `want {"status":{...}}`)
	}
	if why := checkStatus(st, s.seats, s.g.spec.Simultaneous); why != "" {
		return s.fault(op, "its status: "+why)
	}
	s.turnAnswers = nil
	if s.answers && len(st.Answers) > 0 {
		for line, a := range st.Answers {
			if s.checkAnswer(line, a) == "" {
				continue
			}
			// The first wrong one, in order, is the one named.
			for _, line := range slices.Sorted(maps.Keys(st.Answers)) {
				if why := s.checkAnswer(line, st.Answers[line]); why != "" {
					return s.fault(op, "its status: answers: "+why)
				}
			}
		}
		s.turnAnswers = st.Answers
	}
	st.Answers = nil
	s.st = *st
	return nil
}

// checkAnswer says what is wrong with a status's answer a to the query
// line: a line as the judge writes one (one space between words) of a
// query game.toml declares, and an answer as a query's.
func (s *State) checkAnswer(line, a string) string {
	l := games.ParseLine(line)
	switch {
	case l.String() != line || line == "":
		return fmt.Sprintf("%q is not a query line as the judge writes one (words with one space between)", clip([]byte(line)))
	case !s.g.queries[l.Verb]:
		return fmt.Sprintf("%q: %s is not a query of game.toml", clip([]byte(line)), l.Verb)
	case strings.HasSuffix(a, "\n"):
		return fmt.Sprintf("%q: answer %q ends with a newline", clip([]byte(line)), clip([]byte(a)))
	}
	if why := notText(a); why != "" {
		return fmt.Sprintf("%q: answer %q: %s", clip([]byte(line)), clip([]byte(a)), why)
	}
	return ""
}

// checkStatus says what is wrong with a status of a game of n seats.
func checkStatus(st *status, n int, simultaneous bool) string {
	switch {
	case st.Turn == nil || st.Over == nil || st.Winner == nil:
		return "turn, over and winner are needed"
	case *st.Turn < 1:
		return fmt.Sprintf("turn %d: turns count from 1", *st.Turn)
	case *st.Winner < -1 || *st.Winner >= n:
		return fmt.Sprintf("winner %d: want a seat or -1", *st.Winner)
	case len(st.Notes) != 0 && len(st.Notes) != n:
		return fmt.Sprintf("%d notes: want none or one per seat", len(st.Notes))
	}
	if *st.Over {
		switch {
		case len(st.Movers) != 0:
			return "movers once over: want none"
		case len(st.Scores) != n:
			return fmt.Sprintf("%d scores once over: want one per seat", len(st.Scores))
		}
		return ""
	}
	switch {
	case len(st.Movers) == 0:
		return "no movers while the game is not over"
	case !simultaneous && len(st.Movers) != 1:
		return fmt.Sprintf("movers %v: game.toml says the seats move in turn", st.Movers)
	}
	for i, m := range st.Movers {
		if m < 0 || m >= n || i > 0 && m <= st.Movers[i-1] {
			return fmt.Sprintf("movers %v: want seats in increasing order", st.Movers)
		}
	}
	return ""
}

// Seats implements games.State.
func (s *State) Seats() int { return s.seats }

// Turn implements games.State.
func (s *State) Turn() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return *s.st.Turn
}

// Movers implements games.State; none once the referee failed.
func (s *State) Movers() []int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return nil
	}
	return slices.Clone(s.st.Movers)
}

// Outcome implements games.State.
func (s *State) Outcome() games.Outcome {
	s.mu.Lock()
	defer s.mu.Unlock()
	o := games.Outcome{Over: *s.st.Over, Winner: *s.st.Winner, Reason: s.st.Reason}
	if o.Over {
		o.Scores = slices.Clone(s.st.Scores)
		o.Notes = slices.Clone(s.st.Notes)
	}
	return o
}

// Queries implements games.Verbs, from game.toml.
func (s *State) Queries() []string { return s.g.Queries() }

// Commands implements games.Verbs, from game.toml.
func (s *State) Commands() []string { return s.g.Commands() }

// notText says why an answer is not protocol text, or "". Answers may
// span lines.
func notText(s string) string {
	if !utf8.ValidString(s) {
		return "not valid UTF-8"
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 && c != '\t' && c != '\n' || c == 0x7f {
			return fmt.Sprintf("control byte 0x%02x", c)
		}
	}
	return ""
}

// Query implements games.State.
func (s *State) Query(seat int, l games.Line) (string, error) {
	if s.g.commandOnly(l.Verb) {
		// A command's line, as the bots write one a turn: the referee
		// is not asked whether it is a query.
		return "", games.ErrNotQuery
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	line := l.String()
	fixed := s.g.fixed[l.Verb]
	if a, ok := s.fixed[fixedKey{seat, line}]; ok && fixed && s.err == nil {
		return a, nil
	}
	if a, ok := s.turnAnswers[line]; ok && s.err == nil {
		if fixed && len(s.fixed) < maxFixed {
			// A fixed query answered ahead once, say in new's status.
			if s.fixed == nil {
				s.fixed = map[fixedKey]string{}
			}
			s.fixed[fixedKey{seat, line}] = a
		}
		if !s.g.opts.AskAhead {
			return a, nil
		}
		// Checked (judge game check): the query must answer the same.
		asked, err := s.ask(seat, line)
		if errors.Is(err, games.ErrNotQuery) {
			return "", s.fault("query", fmt.Sprintf("%q: its status answered %q ahead, the query answers that it is none", line, clip([]byte(a))))
		}
		if err != nil {
			return "", err
		}
		if asked != a {
			return "", s.fault("query", fmt.Sprintf("%q: its status answered %q ahead, the query answers %q", line, clip([]byte(a)), clip([]byte(asked))))
		}
		return a, nil
	}
	a, err := s.ask(seat, line)
	if err != nil {
		return "", err
	}
	if fixed && len(s.fixed) < maxFixed {
		if s.fixed == nil {
			s.fixed = map[fixedKey]string{}
		}
		s.fixed[fixedKey{seat, line}] = a
	}
	return a, nil
}

// ask asks the referee the query line of seat. s.mu is held.
func (s *State) ask(seat int, line string) (string, error) {
	var r reply
	if err := s.call("query", lineRequest("query", seat, line), &r); err != nil {
		return "", err
	}
	switch {
	case r.NotQuery:
		return "", games.ErrNotQuery
	case r.Answer == nil:
		return "", s.bad("query", `{"answer":"..."} or {"not_query":true}`)
	case strings.HasSuffix(*r.Answer, "\n"):
		return "", s.fault("query", fmt.Sprintf("answer %q ends with a newline", clip([]byte(*r.Answer))))
	}
	if why := notText(*r.Answer); why != "" {
		return "", s.fault("query", fmt.Sprintf("answer %q: %s", clip([]byte(*r.Answer)), why))
	}
	return *r.Answer, nil
}

// Orders implements games.State. A referee with FeatureTurnOrders has
// started the seat's commands at the turn's start: the first Orders of a
// seat in a turn then costs no call.
func (s *State) Orders(seat int) games.Orders {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.bound, seat)
	if seat >= 0 && seat < len(s.started) && s.started[seat] {
		s.started[seat] = false
		return &orders{s: s, seat: seat}
	}
	var r reply
	_ = s.call("orders", seatRequest("orders", seat), &r)
	return &orders{s: s, seat: seat}
}

type orders struct {
	s    *State
	seat int
}

// Command implements games.Orders.
func (o *orders) Command(l games.Line) error {
	s := o.s
	s.mu.Lock()
	defer s.mu.Unlock()
	var r reply
	if err := s.call("command", lineRequest("command", o.seat, l.String()), &r); err != nil {
		return err
	}
	switch {
	case r.Unknown != nil:
		return fmt.Errorf("%s: %w", *r.Unknown, games.ErrUnknown)
	case r.Invalid != nil:
		return errors.New(*r.Invalid)
	case s.commandMoves && len(r.Move) > 0:
		if s.bound == nil {
			s.bound = map[int]games.Move{}
		}
		s.bound[o.seat] = games.Move(r.Move)
	case s.commandMoves:
		delete(s.bound, o.seat)
	}
	return nil
}

// Commit implements games.Orders.
func (o *orders) Commit() (games.Move, error) {
	s := o.s
	s.mu.Lock()
	defer s.mu.Unlock()
	if mv, ok := s.bound[o.seat]; ok && s.err == nil {
		// The move the seat's last command bound (FeatureCommandMoves).
		return s.checkMove("command", mv)
	}
	var r reply
	if err := s.call("commit", seatRequest("commit", o.seat), &r); err != nil {
		return nil, err
	}
	switch {
	case r.Invalid != nil:
		return nil, errors.New(*r.Invalid)
	case len(r.Move) == 0:
		return nil, s.bad("commit", `{"move":["..."]} or {"invalid":"why"}`)
	}
	return s.checkMove("commit", r.Move)
}

// checkMove checks the lines of a move the referee answered op with.
// s.mu is held.
func (s *State) checkMove(op string, mv []string) (games.Move, error) {
	for _, c := range mv {
		if c == "" || strings.Contains(c, "\n") || notText(c) != "" {
			return nil, s.fault(op, fmt.Sprintf("move %q: a command is one line of text", c))
		}
	}
	return slices.Clone(games.Move(mv)), nil
}

type seatMove struct {
	Seat int        `json:"seat"`
	Move games.Move `json:"move"`
}

// Apply implements games.State.
func (s *State) Apply(moves map[int]games.Move) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	list := make([]seatMove, 0, len(moves))
	for _, seat := range slices.Sorted(maps.Keys(moves)) {
		list = append(list, seatMove{seat, moves[seat]})
	}
	var r reply
	if err := s.call("apply", applyRequest(list), &r); err != nil {
		return err
	}
	if err := s.setStatus("apply", r.Status); err != nil {
		return err
	}
	s.newTurn()
	return nil
}

// Forfeit implements games.State.
func (s *State) Forfeit(seat int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var r reply
	if s.call("forfeit", seatRequest("forfeit", seat), &r) == nil && s.setStatus("forfeit", r.Status) == nil {
		s.newTurn()
	}
}

// Render implements games.State; "" once the referee failed.
func (s *State) Render() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var r reply
	if s.call("render", struct {
		Op string `json:"op"`
	}{"render"}, &r) != nil {
		return ""
	}
	if r.Text == nil {
		_ = s.bad("render", `{"text":"..."}`)
		return ""
	}
	return *r.Text
}

// Moves implements games.Mover: every legal move of seat now, as the
// referee lists them (a seat that must pass, its pass command). A referee
// that fails gives none, and its fault is Err's.
func (s *State) Moves(seat int) []games.Move {
	s.mu.Lock()
	defer s.mu.Unlock()
	var r reply
	if err := s.call("moves", seatRequest("moves", seat), &r); err != nil {
		return nil
	}
	if r.Moves == nil {
		_ = s.bad("moves", `{"moves":[[...],...]}`)
		return nil
	}
	out := make([]games.Move, len(*r.Moves))
	for i, m := range *r.Moves {
		out[i] = games.Move(m)
	}
	return out
}

// MultiLine implements games.MultiLine: the queries game.toml declares
// lines = "many".
func (s *State) MultiLine(query string) bool { return s.g.MultiLine(query) }

// Explain implements games.Explainer; a referee that does not know the
// optional explain op has no notes.
func (s *State) Explain() []games.Note {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.noExplain || s.err != nil {
		return nil
	}
	b, _ := json.Marshal(struct {
		Op string `json:"op"`
	}{"explain"})
	line, err := s.t.call(b)
	if err != nil {
		_ = s.fault("explain", err.Error())
		return nil
	}
	s.last = line
	var r reply
	if err := json.Unmarshal(line, &r); err != nil {
		_ = s.fault("explain", fmt.Sprintf("its answer %q: %v", clip(line), err))
		return nil
	}
	switch {
	case r.Error != nil && strings.HasPrefix(*r.Error, "unknown op"):
		s.noExplain = true
		return nil
	case r.Error != nil:
		_ = s.fault("explain", "it answered an error: "+*r.Error)
		return nil
	case r.Notes == nil:
		_ = s.bad("explain", `{"notes":[...]}`)
		return nil
	}
	out := make([]games.Note, len(*r.Notes))
	for i, n := range *r.Notes {
		out[i] = games.Note{Seat: n.Seat, Kind: n.Kind, Text: n.Text}
	}
	return out
}
