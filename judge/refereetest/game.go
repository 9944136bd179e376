package refereetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"judge/games"
)

// ProcessGame is a games.Game whose rules are a referee program: each New
// starts the program (in Dir) and each method of its state is one request.
// It is the least a test needs to run games.Game code, such as gamecheck,
// on a referee; what game.toml declares is given as fields. A referee's
// error, or a response of the wrong shape, is the error of a method that
// has one and a panic in one that has none.
type ProcessGame struct {
	GameName string
	Dir      string
	Argv     []string
	Specs    []games.ParamSpec
	Queries  []string // the declared queries, in order
	Commands []string
	Many     []string // the queries whose answers may span lines
}

func (g ProcessGame) Name() string              { return g.GameName }
func (g ProcessGame) Describe() string          { return g.GameName + ", played by " + g.Argv[0] }
func (g ProcessGame) Params() []games.ParamSpec { return g.Specs }

// New starts the referee and a game.
func (g ProcessGame) New(p games.Params, seed uint64) (games.State, error) {
	r, err := Start(context.Background(), g.Dir, g.Argv...)
	if err != nil {
		return nil, err
	}
	st := &processState{g: g, r: r}
	var v struct {
		Seats   int     `json:"seats"`
		Status  *status `json:"status"`
		Refused *string `json:"refused"`
	}
	if err := st.call(map[string]any{"op": "new", "params": p, "seed": seed}, &v); err != nil {
		r.Close()
		return nil, err
	}
	if v.Refused != nil {
		r.Close()
		return nil, errors.New(*v.Refused)
	}
	if v.Status == nil || v.Seats < 1 {
		r.Close()
		return nil, errors.New("new: no seats or no status")
	}
	st.seats, st.status = v.Seats, *v.Status
	return st, nil
}

// status is the protocol's STATUS.
type status struct {
	Turn   int       `json:"turn"`
	Movers []int     `json:"movers"`
	Over   bool      `json:"over"`
	Winner int       `json:"winner"`
	Scores []float64 `json:"scores"`
	Reason string    `json:"reason"`
	Notes  []string  `json:"notes"`
}

type processState struct {
	g      ProcessGame
	r      *Referee
	seats  int
	status status
}

// call sends req and decodes the response into v; {"error"} is an error.
func (s *processState) call(req map[string]any, v any) error {
	b, err := json.Marshal(req)
	if err != nil {
		return err
	}
	resp, err := s.r.Call(string(b))
	if err != nil {
		return err
	}
	var e struct {
		Error *string `json:"error"`
	}
	if err := json.Unmarshal([]byte(resp), &e); err != nil {
		return fmt.Errorf("%s: answered %q: %w", req["op"], resp, err)
	}
	if e.Error != nil {
		return fmt.Errorf("%s: referee error: %s", req["op"], *e.Error)
	}
	if err := json.Unmarshal([]byte(resp), v); err != nil {
		return fmt.Errorf("%s: answered %q: %w", req["op"], resp, err)
	}
	return nil
}

// must is call for methods that return no error.
func (s *processState) must(req map[string]any, v any) {
	if err := s.call(req, v); err != nil {
		panic(err)
	}
}

func (s *processState) Seats() int    { return s.seats }
func (s *processState) Turn() int     { return s.status.Turn }
func (s *processState) Movers() []int { return slices.Clone(s.status.Movers) }
func (s *processState) Outcome() games.Outcome {
	st := s.status
	return games.Outcome{Over: st.Over, Winner: st.Winner, Scores: st.Scores, Reason: st.Reason, Notes: st.Notes}
}

func (s *processState) Query(seat int, l games.Line) (string, error) {
	var v struct {
		Answer   *string `json:"answer"`
		NotQuery bool    `json:"not_query"`
	}
	if err := s.call(map[string]any{"op": "query", "seat": seat, "line": l.String()}, &v); err != nil {
		return "", err
	}
	if v.NotQuery {
		return "", games.ErrNotQuery
	}
	if v.Answer == nil {
		return "", errors.New("query: no answer")
	}
	return *v.Answer, nil
}

func (s *processState) Orders(seat int) games.Orders {
	s.must(map[string]any{"op": "orders", "seat": seat}, &struct{}{})
	return &processOrders{s: s, seat: seat}
}

type processOrders struct {
	s    *processState
	seat int
}

func (o *processOrders) Command(l games.Line) error {
	var v struct {
		Unknown *string `json:"unknown"`
		Invalid *string `json:"invalid"`
	}
	if err := o.s.call(map[string]any{"op": "command", "seat": o.seat, "line": l.String()}, &v); err != nil {
		return err
	}
	switch {
	case v.Unknown != nil:
		return fmt.Errorf("%s: %w", *v.Unknown, games.ErrUnknown)
	case v.Invalid != nil:
		return errors.New(*v.Invalid)
	}
	return nil
}

func (o *processOrders) Commit() (games.Move, error) {
	var v struct {
		Move    []string `json:"move"`
		Invalid *string  `json:"invalid"`
	}
	if err := o.s.call(map[string]any{"op": "commit", "seat": o.seat}, &v); err != nil {
		return nil, err
	}
	if v.Invalid != nil || v.Move == nil {
		return nil, fmt.Errorf("no move: %v", v.Invalid)
	}
	return v.Move, nil
}

func (s *processState) Apply(moves map[int]games.Move) error {
	type seatMove struct {
		Seat int      `json:"seat"`
		Move []string `json:"move"`
	}
	var list []seatMove
	for _, seat := range s.status.Movers {
		if m, ok := moves[seat]; ok {
			list = append(list, seatMove{seat, m})
		}
	}
	var v struct {
		Status *status `json:"status"`
	}
	if err := s.call(map[string]any{"op": "apply", "moves": list}, &v); err != nil {
		return err
	}
	if v.Status == nil {
		return errors.New("apply: no status")
	}
	s.status = *v.Status
	return nil
}

func (s *processState) Forfeit(seat int) {
	var v struct {
		Status *status `json:"status"`
	}
	s.must(map[string]any{"op": "forfeit", "seat": seat}, &v)
	if v.Status != nil {
		s.status = *v.Status
	}
}

func (s *processState) Render() string {
	var v struct {
		Text string `json:"text"`
	}
	s.must(map[string]any{"op": "render"}, &v)
	return v.Text
}

// Moves implements games.Mover with the moves request.
func (s *processState) Moves(seat int) []games.Move {
	var v struct {
		Moves [][]string `json:"moves"`
	}
	s.must(map[string]any{"op": "moves", "seat": seat}, &v)
	out := make([]games.Move, len(v.Moves))
	for i, m := range v.Moves {
		out[i] = m
	}
	return out
}

func (s *processState) Queries() []string  { return s.g.Queries }
func (s *processState) Commands() []string { return s.g.Commands }

// MultiLine implements games.MultiLine from the declarations.
func (s *processState) MultiLine(q string) bool { return slices.Contains(s.g.Many, q) }

// Close ends the referee.
func (s *processState) Close() error { return s.r.Close() }
