// Package goplayer runs players written in Go inside the judge: a function
// that speaks the line protocol through a Conn, in its own goroutine. Web
// bots (package httpbot) and people (package human) are such players:
// they ask the same queries and send the same commands as a bot program,
// so the rules and the deadlines stay in one place, the match loop.
//
// A Go player uses only channels and timers, so tests can run whole
// matches of them in a testing/synctest bubble, in virtual time.
package goplayer

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"judge/judge"
)

// ErrStopped is returned by a Conn's methods once the game is over (or
// the player was stopped after a fault): the function should return.
var ErrStopped = errors.New("the game is over")

// Func is a player's code: it sends lines and asks queries on c until the
// game is over (ErrStopped). Returning before that ends the seat as a
// crash, with the error as the reason; return a *judge.Fault for another
// status.
type Func func(ctx context.Context, c *Conn) error

// Options tune a Go player.
type Options struct {
	// Patient players have no time limit: the turn waits for them (a
	// person). Their turns still end when the match is interrupted.
	Patient bool
	// Person makes the player a judge.Person: refused commands and turns
	// are told to it (Conn.Refusals) instead of losing.
	Person bool
	// Busy, when set, says what the player was doing when its time ran
	// out ("waiting for http://…"), for the timeout's reason.
	Busy func() string
}

// Player is a Go player. It implements judge.Player.
type Player struct {
	opt  Options
	out  chan string   // lines from the function
	ans  chan string   // answers to it
	done chan struct{} // closed when the function has returned
	err  error         // what it returned; valid once done is closed

	ctx    context.Context
	cancel context.CancelFunc

	turn     atomic.Pointer[judge.Turn]
	mu       sync.Mutex
	log      []byte // its diagnostics: the tail of what Logf wrote
	logTotal int64
	refusals []string

	stopOnce sync.Once
	final    judge.Final
}

// logCap is the tail of a Go player's log kept with the match.
const logCap = 64 << 10

// Start runs f as a player.
func Start(f Func, o Options) *Player {
	ctx, cancel := context.WithCancel(context.Background())
	p := &Player{
		opt:    o,
		out:    make(chan string, 64),
		ans:    make(chan string, 1),
		done:   make(chan struct{}),
		ctx:    ctx,
		cancel: cancel,
	}
	c := &Conn{p: p}
	go func() {
		defer close(p.done)
		defer func() {
			if r := recover(); r != nil {
				p.err = fmt.Errorf("panic: %v\n%s", r, firstLines(string(debug.Stack()), 8))
			}
		}()
		p.err = f(ctx, c)
	}()
	return p
}

// BeginTurn implements judge.Player.
func (p *Player) BeginTurn(_ context.Context, t judge.Turn) error {
	p.turn.Store(&t)
	return nil
}

// timer returns a channel that fires at the turn's deadline (never for a
// patient player) and a function to stop it.
func (p *Player) timer() (<-chan time.Time, func() bool) {
	t := p.turn.Load()
	if p.opt.Patient || t == nil {
		return nil, func() bool { return false }
	}
	tm := time.NewTimer(time.Until(t.Deadline))
	return tm.C, tm.Stop
}

// ReadLine implements judge.Player.
func (p *Player) ReadLine(ctx context.Context) ([]byte, error) {
	select {
	case l := <-p.out:
		return []byte(l), nil
	default:
	}
	expired, stop := p.timer()
	defer stop()
	select {
	case l := <-p.out:
		return []byte(l), nil
	case <-p.done:
		select {
		case l := <-p.out:
			return []byte(l), nil
		default:
		}
		return nil, p.ended()
	case <-expired:
		reason := fmt.Sprintf("no #END within %v", p.turn.Load().Limit)
		if p.opt.Busy != nil {
			if b := p.opt.Busy(); b != "" {
				reason += "; it was " + b
			}
		}
		return nil, &judge.Fault{Status: judge.Timeout, Reason: reason}
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// WriteAnswer implements judge.Player.
func (p *Player) WriteAnswer(ctx context.Context, text []byte) error {
	a := string(text)
	select {
	case p.ans <- a:
		return nil
	default:
	}
	expired, stop := p.timer()
	defer stop()
	select {
	case p.ans <- a:
		return nil
	case <-p.done:
		return p.ended()
	case <-expired:
		return judge.Faultf(judge.Timeout, "did not read its answers within %v", p.turn.Load().Limit)
	case <-ctx.Done():
		return ctx.Err()
	}
}

// ended is the fault of a function that has returned.
func (p *Player) ended() *judge.Fault {
	if f := judge.AsFault(p.err); f != nil {
		return f
	}
	if p.err == nil || errors.Is(p.err, ErrStopped) {
		return judge.Faultf(judge.Crash, "it ended before the game did")
	}
	return judge.Faultf(judge.Crash, "%v", p.err)
}

// EndTurn implements judge.Player. A Go player's CPU time is not its
// own: it is not measured.
func (p *Player) EndTurn(context.Context) (judge.Usage, error) { return judge.Usage{}, nil }

// stopWait bounds the wait for a stopped function to return.
const stopWait = time.Second

// Stop implements judge.Player: the function's context is canceled and
// every Conn call fails with ErrStopped; it has grace, and at most a
// second more, to return.
func (p *Player) Stop(grace time.Duration) judge.Final {
	p.stopOnce.Do(func() {
		p.cancel()
		t := time.NewTimer(grace + stopWait)
		select {
		case <-p.done:
		case <-t.C:
			p.Logf("it did not return within %v of the end", grace+stopWait)
		}
		t.Stop()
		p.mu.Lock()
		p.final = judge.Final{Stderr: append([]byte(nil), p.log...), StderrBytes: p.logTotal}
		p.mu.Unlock()
	})
	return p.final
}

// Logf adds a line to the player's log: its "stderr" in the replay.
func (p *Player) Logf(format string, args ...any) {
	line := fmt.Sprintf(format, args...)
	if !strings.HasSuffix(line, "\n") {
		line += "\n"
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.logTotal += int64(len(line))
	p.log = append(p.log, line...)
	if over := len(p.log) - logCap; over > 0 {
		p.log = append(p.log[:0], p.log[over:]...)
	}
}

// refused keeps a reason for Conn.Refusals.
func (p *Player) refused(reason string) {
	p.mu.Lock()
	p.refusals = append(p.refusals, reason)
	p.mu.Unlock()
}

// Person is a Go player that is a person: the match loop tells it what
// it refuses. Start it with StartPerson.
type Person struct{ *Player }

// Refused implements judge.Person.
func (p Person) Refused(reason string) { p.refused(reason) }

// StartPerson runs f as a person's player (Options.Person is implied).
func StartPerson(f Func, o Options) Person {
	o.Person = true
	return Person{Start(f, o)}
}

// Conn is a Go player's end of the protocol.
type Conn struct{ p *Player }

// Send writes one line: a query (whose answer must then be read with
// Answer), a command, or #END. Lines sent after #END are read at the
// player's next turn, as for a bot program.
func (c *Conn) Send(line string) error {
	if strings.ContainsAny(line, "\n") {
		return fmt.Errorf("a line with a newline: %q", line)
	}
	select {
	case c.p.out <- line:
		return nil
	case <-c.p.ctx.Done():
		return ErrStopped
	}
}

// Answer waits for the answer to a query sent earlier: its lines, joined
// by newlines. It waits for the player's turn when the query was sent
// between turns.
func (c *Conn) Answer() (string, error) {
	select {
	case a := <-c.p.ans:
		return a, nil
	case <-c.p.ctx.Done():
		return "", ErrStopped
	}
}

// Ask sends a query and returns its answer.
func (c *Conn) Ask(query string) (string, error) {
	if err := c.Send(query); err != nil {
		return "", err
	}
	return c.Answer()
}

// End ends the turn.
func (c *Conn) End() error { return c.Send("#END") }

// Turn is the player's current turn: known once an answer of the turn
// has come; zero before the first.
func (c *Conn) Turn() judge.Turn {
	if t := c.p.turn.Load(); t != nil {
		return *t
	}
	return judge.Turn{}
}

// Refusals returns, and forgets, the reasons the judge gave for refusing
// commands and turns since the last call (for persons only: bots are not
// told). Every reason for the lines sent before the last answer is in.
func (c *Conn) Refusals() []string {
	c.p.mu.Lock()
	defer c.p.mu.Unlock()
	r := c.p.refusals
	c.p.refusals = nil
	return r
}

// Logf writes to the player's log, kept in the replay like a bot's stderr.
func (c *Conn) Logf(format string, args ...any) { c.p.Logf(format, args...) }

func firstLines(s string, n int) string {
	l := strings.SplitN(s, "\n", n+1)
	if len(l) > n {
		l = l[:n]
	}
	return strings.Join(l, "\n")
}

var (
	_ judge.Player = (*Player)(nil)
	_ judge.Person = Person{}
)
