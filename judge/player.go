package judge

import (
	"context"
	"errors"
	"fmt"
	"time"

	"judge/games"
)

// Player is one seat of a match as the match loop sees it: during its
// turns it writes protocol lines (queries, commands, #END) and reads the
// answers. A bot program (package procbot), a web bot (package httpbot)
// and a person at a terminal (package human) are players; the match loop
// knows nothing else of them.
//
// A player's own faults — it ran out of time, crashed, closed a stream,
// wrote a line too long — come back from its methods as a *Fault. Any
// other error is the judge's failure and stops the match.
type Player interface {
	// BeginTurn starts the seat's turn. Lines the player wrote after its
	// last #END are read first.
	BeginTurn(ctx context.Context, t Turn) error
	// ReadLine returns the next line the player wrote, without its line
	// end. The slice is valid until the next call. It returns a *Fault
	// with status Timeout once t.Deadline has passed.
	ReadLine(ctx context.Context) ([]byte, error)
	// WriteAnswer sends the answer to a query: text without its final
	// newline, possibly several lines.
	WriteAnswer(ctx context.Context, text []byte) error
	// EndTurn ends the turn: the player computes nothing until its next
	// one. It reports what the turn used.
	EndTurn(ctx context.Context) (Usage, error)
	// Stop ends the player: after the game with grace to exit by itself,
	// at once (grace 0) after a fault or an interruption. It returns
	// within grace and a bounded time whatever the player does. Calls
	// after the first only return the same Final.
	Stop(grace time.Duration) Final
}

// Turn is what a player learns when one of its turns begins.
type Turn struct {
	Number   int           // the game's turn, from 1
	Limit    time.Duration // the time the turn may take
	Deadline time.Time     // when it ends at the latest
	First    bool          // the seat's first turn
	Shared   bool          // other seats move at the same time
	// View, for a person's turn in a game that is a games.Viewer, is the
	// game as the seat sees it (View.Of), to draw its boards; nil for
	// bots.
	View *games.View
}

// Usage is what one turn of a player used.
type Usage struct {
	CPU      time.Duration // CPU time of all the player's threads and processes
	CPUKnown bool          // false for players that are not local processes
	// Waited is the time the machine kept the player waiting: runnable
	// but not running, or waiting for the judge. Not counted against it.
	Waited time.Duration
}

// Final is what is left of a player once it has stopped.
type Final struct {
	Stderr      []byte // the kept tail of its diagnostics (a process's stderr)
	StderrBytes int64  // all it wrote there
}

// StderrByTurn is implemented by players that can say what they wrote on
// their stderr turn by turn. With a trace (Match.Trace), the match loop
// asks at the end of each turn.
type StderrByTurn interface {
	// TurnStderr returns what the player wrote on stderr since the last
	// call (or since it started): at most the first TraceTurnBytes of it,
	// and how many bytes it left out.
	TurnStderr() (text []byte, cut int64)
}

// Settler is implemented by players that compute from their start, as a
// program does while it loads. Once every player of a match has started,
// before the first turn, the match loop calls Settle on each in turn:
// Settle returns once the player waits for its input, or has stopped it
// until its turn, so that no player computes on another's turn. The
// players settle at once, the later ones while the judge waits for the
// first.
type Settler interface {
	Settle(ctx context.Context)
}

// Fault is a player's fault: a status other than OK and a reason a person
// can act on.
type Fault struct {
	Status Status
	Reason string
	// Detail is what only the player's author may see: what a web bot's
	// server answered, which may be another server's data. The reason
	// never quotes it; a result keeps it (PlayerResult.Detail), replays
	// and results files never do.
	Detail string
}

func (f *Fault) Error() string { return fmt.Sprintf("%s: %s", f.Status, f.Reason) }

// Faultf makes a *Fault.
func Faultf(st Status, format string, args ...any) *Fault {
	return &Fault{Status: st, Reason: fmt.Sprintf(format, args...)}
}

// AsFault returns the *Fault in err's chain, or nil.
func AsFault(err error) *Fault {
	var f *Fault
	if errors.As(err, &f) {
		return f
	}
	return nil
}

// Person is implemented by players that are people. The match loop tells
// a person at once why a command or a turn was refused, and a refused
// turn goes on instead of losing the game: people mistype. Bots get no
// such second chance.
type Person interface {
	Player
	Refused(reason string)
}

// Entrant is what plays a seat: it starts the seat's Player when a match
// begins.
type Entrant interface {
	// Info describes the entrant for results and replays.
	Info() (BotInfo, error)
	// Start starts the seat's player. An error means the judge could not
	// start it at all (a missing program); the match is then not played.
	Start(ctx context.Context, s Seat) (Player, error)
}

// Prewarmer is an entrant that can ready, ahead of its first match, what
// its player's start needs (a program's sandbox): a contest does it while
// it prepares the rest.
type Prewarmer interface {
	Prewarm(ctx context.Context) error
}

// BotInfo describes an entrant.
type BotInfo struct {
	Name    string   // shown in results
	Command []string // how it runs: a command line, a URL
	SHA256  string   // of the program, when there is one
	// Sandbox is the protection it runs under, when it is known before
	// it starts ("none: a web bot runs outside the sandbox"). Players that
	// learn it only once started say it with Protected.
	Sandbox string
}

// Protected is implemented by players that run under a protection they
// can name (a sandbox level and what it enforces).
type Protected interface {
	Protection() string
}

// Seat is what an entrant learns of the match it starts in.
type Seat struct {
	Index  int          // the seat, from 0
	Seats  int          // how many there are
	Game   string       // the game's name
	Params games.Params // its resolved parameters
	// Seed is the seat's own seed, derived from the match seed: a bot
	// that draws random numbers from it plays the same game again.
	Seed uint64
	// Opponents are the names of the other seats' entrants, in seat order.
	Opponents []string
}

// SeatSeed derives seat's seed from the match seed (splitmix64).
func SeatSeed(seed uint64, seat int) uint64 {
	z := seed + uint64(seat+1)*0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}
