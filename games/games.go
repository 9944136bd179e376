// Package games is the vocabulary shared by every game the judge runs.
//
// A game is pure: it holds rules and state, answers queries from that state,
// validates commands and applies them at the end of a turn. It does no I/O,
// reads no clock and draws randomness only from the seed it is given. The
// judge (package judge) does processes, time and the line protocol.
//
// One turn of the protocol, seen from a game:
//
//	movers := st.Movers()              // seats that move now (several at once in simultaneous games)
//	for each seat in movers:
//	    o := st.Orders(seat)           // collects that seat's commands for this turn
//	    ... st.Query(seat, line) answers queries; o.Command(line) takes commands ...
//	    move, err := o.Commit()        // at #END: the binding move, or why there is none
//	st.Apply(moves)                    // all movers' moves at once
//
// Queries never change a state: answers stay the same for the whole turn.
package games

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// ErrUnknown is wrapped by Query and Command when the line's verb is not
// one the game knows (a protocol error, not an illegal move).
var ErrUnknown = errors.New("unknown verb")

// ErrNotQuery is returned by Query when the verb is not a query of the
// game; the judge then offers the line to Orders.Command.
var ErrNotQuery = errors.New("not a query")

// Game is one game the judge can run, with its parameters.
type Game interface {
	// Name is the game's name on the command line and in replays.
	Name() string
	// Describe is one line for `judge games`.
	Describe() string
	// Params lists the parameters the game takes, with their defaults.
	Params() []ParamSpec
	// New starts a game. Params have been checked against Params() and
	// filled with defaults by Resolve. The seed is the only randomness.
	New(p Params, seed uint64) (State, error)
}

// SeatRanger is a game that says how many seats its matches may have
// without starting one: a plugin game's New compiles and starts its
// referee, which its callers may prefer to do while they do other work.
type SeatRanger interface {
	// SeatRange is the fewest and the most seats a match may have.
	SeatRange() (lo, hi int)
}

// ParamSpec describes one integer parameter of a game.
type ParamSpec struct {
	Name     string
	Default  int
	Min, Max int
	Doc      string
}

// Params are a game's parameters by name.
type Params map[string]int

// State is one game in progress. Its methods other than Apply and Forfeit
// only read it (an answer drawn once a turn may be kept, guarded), so
// Query and Orders may be called from several goroutines at once (one per
// seat moving this turn).
type State interface {
	// Seats is the number of players.
	Seats() int
	// Turn is the number of the current turn, counted from 1.
	Turn() int
	// Movers lists the seats that move this turn, in increasing order;
	// it is empty once the game is over.
	Movers() []int
	// Query answers one query line of seat. The answer has no final
	// newline; it may span several lines. A line that is not a query
	// gives ErrNotQuery; an unknown verb is not decided here.
	Query(seat int, line Line) (string, error)
	// Orders starts collecting seat's commands for this turn.
	Orders(seat int) Orders
	// Apply ends the turn: moves holds one committed move per mover that
	// has not forfeited.
	Apply(moves map[int]Move) error
	// Forfeit takes seat out of the game (it crashed, timed out or broke
	// the rules). The game decides whether it is over.
	Forfeit(seat int)
	// Outcome tells whether the game is over and how it ended.
	Outcome() Outcome
	// Render draws the whole state for spectators (replays, the terminal).
	// It may show hidden information; it is never sent to a bot.
	Render() string
}

// Orders collects one seat's commands during one turn.
type Orders interface {
	// Command takes one command line. An error wrapping ErrUnknown means
	// the verb is not a command of the game; any other error means the
	// command is invalid now and is ignored (the reason is kept).
	Command(line Line) error
	// Commit is called at #END: it returns the binding move, or an error
	// saying why the seat has none (an illegal turn).
	Commit() (Move, error)
}

// Move is one seat's committed move for one turn, as the commands that
// make it up, in canonical form. Replays store them; feeding them back
// through Orders.Command gives the same move.
type Move []string

// Outcome is the end of a game.
type Outcome struct {
	Over bool
	// Winner is the winning seat, or -1 for a draw or a game with no
	// single winner (see Scores).
	Winner int
	// Scores holds each seat's score: for two-player games 1 for a win,
	// 0.5 for a draw, 0 for a loss.
	Scores []float64
	// Reason says in a few words how the game ended.
	Reason string
	// Notes says, per seat, what the game did to a player that its score
	// alone does not tell (a Splix player killed, who scores 0), or "".
	Notes []string
}

// Line is one protocol line split into a verb and its arguments.
type Line struct {
	Verb string
	Args []string
}

// ParseLine splits a protocol line into words separated by spaces or tabs.
// A final "\r\n" or "\n" is dropped.
func ParseLine(s string) Line {
	s = strings.TrimSuffix(s, "\n")
	s = strings.TrimSuffix(s, "\r")
	// A lone word (most queries) is the verb itself, with no slice made.
	if w := strings.TrimSpace(s); !strings.ContainsFunc(w, unicode.IsSpace) {
		return Line{Verb: w}
	}
	f := strings.Fields(s)
	if len(f) == 0 {
		return Line{}
	}
	return Line{Verb: f[0], Args: f[1:]}
}

// String gives the line back in canonical form.
func (l Line) String() string {
	if len(l.Args) == 0 {
		return l.Verb
	}
	return l.Verb + " " + strings.Join(l.Args, " ")
}

// Resolve checks p against specs and returns a full set of parameters,
// defaults filled in. Unknown names and values out of range are errors.
func Resolve(specs []ParamSpec, p Params) (Params, error) {
	out := make(Params, len(specs))
	known := make(map[string]bool, len(specs))
	for _, s := range specs {
		known[s.Name] = true
		out[s.Name] = s.Default
	}
	for name, v := range p {
		if !known[name] {
			return nil, fmt.Errorf("unknown parameter %q (known: %s)", name, specNames(specs))
		}
		out[name] = v
	}
	for _, s := range specs {
		if v := out[s.Name]; v < s.Min || v > s.Max {
			return nil, fmt.Errorf("parameter %s = %d is out of range %d..%d", s.Name, v, s.Min, s.Max)
		}
	}
	return out, nil
}

func specNames(specs []ParamSpec) string {
	names := make([]string, len(specs))
	for i, s := range specs {
		names[i] = s.Name
	}
	return strings.Join(names, ", ")
}

// TwoPlayerScores gives the scores of a two-player game with that winner
// (-1 for a draw).
func TwoPlayerScores(winner int) []float64 {
	switch winner {
	case 0:
		return []float64{1, 0}
	case 1:
		return []float64{0, 1}
	}
	return []float64{0.5, 0.5}
}

// Verbs is what a game's states can tell about the protocol: the names of
// the queries and of the commands they understand, in the order their
// guide lists them. The judge uses it to list them in an error message.
type Verbs interface {
	Queries() []string
	Commands() []string
}

// Known names a state's queries and commands for a message, such as
// "queries: CurrentTurn, Board; commands: PlaceSymbol", or is "" when the
// state does not list them (it does not implement Verbs).
func Known(st State) string {
	v, ok := st.(Verbs)
	if !ok {
		return ""
	}
	return "queries: " + strings.Join(v.Queries(), ", ") + "; commands: " + strings.Join(v.Commands(), ", ")
}

// ParseXY reads the coordinates of a cell given as query or command
// arguments, in either form every game accepts: two words "x y", or one
// word "x,y". Each must be a whole number; the caller checks the range.
func ParseXY(args []string) (x, y int, ok bool) {
	var a, b string
	switch len(args) {
	case 1:
		var found bool
		if a, b, found = strings.Cut(args[0], ","); !found {
			return 0, 0, false
		}
	case 2:
		a, b = args[0], args[1]
	default:
		return 0, 0, false
	}
	x, err1 := strconv.Atoi(a)
	y, err2 := strconv.Atoi(b)
	if err1 != nil || err2 != nil {
		return 0, 0, false
	}
	return x, y, true
}

// Plural is "1 ship" or "3 ships": n, then one or many.
func Plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
