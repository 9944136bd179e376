// Package judge runs matches between bot programs: it starts them, speaks
// the line protocol with them under time limits, records replays, and says
// who won and why.
package judge

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"

	"golang.org/x/sync/errgroup"

	"judge/games"
	"judge/games/catalog"
	"judge/sandbox"
)

// Limits bound a bot's turns.
type Limits struct {
	Turn      time.Duration // per turn, from the judge starting the turn to #END
	FirstTurn time.Duration // the seat's first turn (start-up of JVMs and interpreters)
	// TurnCPU, when set, also bounds the CPU time of a turn (all the
	// bot's threads and processes), checked when the turn ends; the first
	// turn is not bounded, for start-up.
	TurnCPU time.Duration
	Output  int64         // bytes a bot may write in one turn
	Stderr  int           // bytes of a bot's stderr kept with the match (the tail)
	Grace   time.Duration // after the game, time for a bot to exit before it is killed
}

// DefaultLimits are the limits of a match with no configuration.
var DefaultLimits = Limits{
	Turn:      time.Second,
	FirstTurn: 5 * time.Second,
	Output:    1 << 20,
	Stderr:    64 << 10,
	Grace:     200 * time.Millisecond,
}

// Match is everything needed to play one match.
type Match struct {
	Variant catalog.Variant
	Params  games.Params // resolved parameters
	Seed    uint64
	Bots    []BotSpec // one per seat
	Limits  Limits
	IO      IO
	Env     map[string]string // added to every bot's environment
	Sandbox sandbox.Limits    // zero for sandbox.DefaultLimits
	// SandboxLevel caps the bots' isolation: "" (sandbox.Auto) for the
	// strongest the machine allows, sandbox.None for no sandbox at all.
	SandboxLevel sandbox.Level
	Trace        bool // keep the full protocol transcript in the replay
	// Spread lets a two-player match's bots run on any CPU. By default
	// they share one CPU with the judge's thread that serves them (see
	// acquireCPU).
	Spread bool
}

// Result is how a match ended.
type Result struct {
	Game    string         `json:"game"`
	Params  games.Params   `json:"params"`
	Seed    uint64         `json:"seed"`
	Winner  int            `json:"winner"` // seat, or -1 for a draw or no single winner
	Turns   int            `json:"turns"`  // turns played
	Reason  string         `json:"reason"` // how the game ended
	Players []PlayerResult `json:"players"`
	Replay  *Replay        `json:"-"`
}

// PlayerResult is one seat's part of a result.
type PlayerResult struct {
	Name   string  `json:"name"`
	Status Status  `json:"status"`
	Reason string  `json:"reason,omitempty"`
	Score  float64 `json:"score"`
}

// seat is one bot during a match.
type seat struct {
	index  int
	spec   BotSpec
	bot    *botProc
	status Status
	reason string
	turns  int  // turns this seat has started
	freeze bool // stop the bot between its turns
	trace  []TraceLine
	buf    []byte // reused for answers
}

// Run plays one match. It returns an error only when the judge cannot run
// it (a bot that cannot be started, a bad game); whatever the bots do is
// in the result.
func Run(ctx context.Context, m Match) (*Result, error) {
	lim := m.Limits
	if lim == (Limits{}) {
		lim = DefaultLimits
	}
	if m.IO == "" {
		m.IO = PTY
	}
	if m.Variant.Game == nil {
		return nil, errors.New("no game")
	}
	params, err := m.Variant.Resolve(m.Params)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", m.Variant.Name, err)
	}
	m.Params = params
	st, err := m.Variant.Game.New(m.Params, m.Seed)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", m.Variant.Name, err)
	}
	if len(m.Bots) != st.Seats() {
		return nil, fmt.Errorf("%s needs %d bots, got %d", m.Variant.Name, st.Seats(), len(m.Bots))
	}
	rp := &Replay{
		Version: ReplayVersion,
		Game:    m.Variant.Name,
		Params:  m.Params,
		Seed:    m.Seed,
		IO:      string(m.IO),
	}
	seats := make([]*seat, len(m.Bots))
	defer func() {
		for _, s := range seats {
			if s != nil && s.bot != nil {
				s.bot.stop(0)
			}
		}
	}()
	sbLimits := m.Sandbox
	if sbLimits == (sandbox.Limits{}) {
		sbLimits = sandbox.DefaultLimits
	}
	rp.Bots = make([]ReplayBot, len(m.Bots))
	cpu := -1
	if len(m.Bots) == 2 && !m.Spread {
		cpu = acquireCPU()
		defer releaseCPU(cpu)
	}
	// The bots start at once: a sandbox takes milliseconds to set up.
	var g errgroup.Group
	for i, spec := range m.Bots {
		g.Go(func() error {
			sum, err := spec.Hash()
			if err != nil {
				return fmt.Errorf("bot %d (%s): %w", i, spec.Name, err)
			}
			rp.Bots[i] = ReplayBot{Name: spec.Name, Command: spec.Argv, SHA256: sum}
			env := botEnv(m.Env, botSeed(m.Seed, i))
			b, err := startBot(spec, m.IO, env, m.SandboxLevel, sbLimits, lim.Stderr)
			if err != nil {
				return fmt.Errorf("bot %d (%s): %w", i, spec.Name, err)
			}
			pinProcess(b.proc.Pid(), cpu)
			s := &seat{index: i, spec: spec, bot: b, status: OK}
			// Frozen until its turn: no bot computes on another's time. It
			// is part of the sandbox: without one (level none) nothing is
			// frozen, which saves about 70 µs of wake-ups a turn
			// (BenchmarkGame).
			s.freeze = b.proc.Level() != sandbox.None
			if s.freeze {
				_ = b.proc.Freeze()
			}
			seats[i] = s
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	rp.Sandbox = seats[0].bot.proc.Protection()
	defer pinThread(cpu)()

	start := time.Now()
	for !st.Outcome().Over {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		movers := st.Movers()
		moves, recs, err := playTurns(ctx, st, seats, movers, lim, start, m.Trace)
		if err != nil {
			return nil, err
		}
		rp.Turns = append(rp.Turns, ReplayTurn{Turn: st.Turn(), Moves: recs})
		for _, idx := range movers {
			if s := seats[idx]; s.status != OK {
				s.bot.stop(0)
				st.Forfeit(idx)
			}
		}
		if st.Outcome().Over {
			break
		}
		if err := st.Apply(moves); err != nil {
			return nil, fmt.Errorf("%s: turn %d: a checked move was refused: %w", m.Variant.Name, st.Turn(), err)
		}
	}

	// The game is over: every bot gets its grace to exit, all at once.
	var wg sync.WaitGroup
	for _, s := range seats {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.bot.stop(lim.Grace)
		}()
	}
	wg.Wait()

	out := st.Outcome()
	res := &Result{
		Game:   m.Variant.Name,
		Params: m.Params,
		Seed:   m.Seed,
		Winner: out.Winner,
		Turns:  len(rp.Turns),
		Reason: out.Reason,
		Replay: rp,
	}
	for i, s := range seats {
		pr := PlayerResult{Name: s.spec.Name, Status: s.status, Reason: s.reason}
		if i < len(out.Scores) {
			pr.Score = out.Scores[i]
		}
		res.Players = append(res.Players, pr)
		text, total := s.bot.stderr.Bytes()
		rp.Bots[i].Stderr = string(text)
		rp.Bots[i].StderrBytes = total
		rp.Bots[i].Trace = s.trace
	}
	rp.Outcome = ReplayOutcome{Winner: res.Winner, Reason: res.Reason, Players: res.Players}
	return res, nil
}

// playTurns serves the turn of every mover at once, each with its own
// deadline: one bot's fault never cancels another's turn; only a judge
// failure stops them all. It returns the committed moves and the records.
func playTurns(ctx context.Context, st games.State, seats []*seat, movers []int, lim Limits, start time.Time, trace bool) (map[int]games.Move, []TurnMove, error) {
	moves := make(map[int]games.Move, len(movers))
	recs := make([]TurnMove, len(movers))
	if len(movers) == 1 {
		// One mover, the common case: served right here, where waiting
		// in ppoll is cheapest (see fdReader).
		mv, rec, err := seats[movers[0]].playTurn(ctx, st, lim, start, trace, false)
		if err != nil {
			return nil, nil, err
		}
		recs[0] = rec
		if mv != nil {
			moves[movers[0]] = mv
		}
		return moves, recs, nil
	}
	var mu sync.Mutex
	g, gctx := errgroup.WithContext(ctx)
	for i, idx := range movers {
		s := seats[idx]
		g.Go(func() error {
			mv, rec, err := s.playTurn(gctx, st, lim, start, trace, true)
			if err != nil {
				return err
			}
			recs[i] = rec
			if mv != nil {
				mu.Lock()
				moves[idx] = mv
				mu.Unlock()
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, nil, err
	}
	return moves, recs, nil
}

// botEnv is the whole environment of a bot: PATH, HOME and LANG from the
// judge's, JUDGE_SEED, and what the configuration adds. Nothing else of the
// judge's environment reaches a bot.
func botEnv(extra map[string]string, seed uint64) []string {
	env := map[string]string{
		"PATH": "/usr/local/bin:/usr/bin:/bin",
		"HOME": "/tmp",
		"LANG": "C.UTF-8",
	}
	for _, k := range []string{"PATH", "HOME", "LANG"} {
		if v, ok := os.LookupEnv(k); ok {
			env[k] = v
		}
	}
	env["JUDGE_SEED"] = strconv.FormatUint(seed, 10)
	for k, v := range extra {
		env[k] = v
	}
	out := make([]string, 0, len(env))
	for k, v := range env {
		out = append(out, k+"="+v)
	}
	return out
}

// botSeed derives seat's seed from the match seed (splitmix64).
func botSeed(seed uint64, seat int) uint64 {
	z := seed + uint64(seat+1)*0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// fail ends the seat with a status other than OK.
func (s *seat) fail(st Status, reason string) {
	if s.status == OK {
		s.status, s.reason = st, reason
	}
}

// playTurn serves one turn of the seat: it answers queries and collects
// commands until #END, a fault, or the deadline. It returns the committed
// move (nil when the seat failed) and the turn's record. Only judge
// failures are errors.
//
// shared says that other seats move in the same turn, each in its own
// goroutine.
func (s *seat) playTurn(ctx context.Context, st games.State, lim Limits, matchStart time.Time, trace, shared bool) (games.Move, TurnMove, error) {
	limit := lim.Turn
	if s.turns == 0 {
		limit = lim.FirstTurn
	}
	s.turns++
	b := s.bot
	rec := TurnMove{Seat: s.index}
	start := time.Now()
	deadline := start.Add(limit)
	if err := b.outR.setDeadline(deadline, shared); err != nil {
		return nil, rec, fmt.Errorf("bot %d: %w", s.index, err)
	}
	if err := b.in.SetWriteDeadline(deadline); err != nil {
		return nil, rec, fmt.Errorf("bot %d: %w", s.index, err)
	}
	// Ctrl-C and the like wake a read that is waiting.
	stopWake := context.AfterFunc(ctx, b.outR.cancel)
	defer stopWake()
	if s.freeze {
		if err := b.proc.Thaw(); err != nil {
			return nil, rec, fmt.Errorf("bot %d: %w", s.index, err)
		}
	}
	cpu0, _ := b.proc.CPUTime()

	orders := st.Orders(s.index)
	var (
		written int64
		move    games.Move
	)
	for move == nil && s.status == OK {
		raw, err := b.readLine()
		if err != nil {
			if ctx.Err() != nil {
				return nil, rec, ctx.Err()
			}
			s.readFault(err, raw, limit, lim.Grace)
			break
		}
		written += int64(len(raw))
		if lim.Output > 0 && written > lim.Output {
			s.fail(Output, fmt.Sprintf("wrote more than %d bytes in turn %d", lim.Output, st.Turn()))
			break
		}
		text := raw[:len(raw)-1]
		if n := len(text); n > 0 && text[n-1] == '\r' {
			text = text[:n-1]
		}
		if trace {
			s.trace = append(s.trace, TraceLine{T: us(time.Since(matchStart)), Dir: "out", Line: string(text)})
		}
		if bad := badText(text); bad != "" {
			s.fail(Protocol, fmt.Sprintf("line %q: %s", clip(text), bad))
			break
		}
		if string(text) == "#END" {
			mv, err := orders.Commit()
			if err != nil {
				s.fail(Illegal, fmt.Sprintf("turn %d: %v", st.Turn(), err))
				break
			}
			move = mv
			break
		}
		l := games.ParseLine(string(text))
		if l.Verb == "" {
			continue // a blank line says nothing
		}
		ans, err := st.Query(s.index, l)
		if err == nil {
			rec.Queries++
			s.buf = append(append(s.buf[:0], ans...), '\n')
			if trace {
				s.trace = append(s.trace, TraceLine{T: us(time.Since(matchStart)), Dir: "in", Line: ans})
			}
			if err := b.write(s.buf); err != nil {
				if ctx.Err() != nil {
					return nil, rec, ctx.Err()
				}
				s.writeFault(err, limit, lim.Grace)
			}
			continue
		}
		if !errors.Is(err, games.ErrNotQuery) {
			return nil, rec, fmt.Errorf("bot %d: query %q: %w", s.index, l, err)
		}
		if err := orders.Command(l); err != nil {
			if errors.Is(err, games.ErrUnknown) {
				s.fail(Protocol, fmt.Sprintf("unknown query or command %q", clip(text)))
				break
			}
			rec.Invalid = append(rec.Invalid, fmt.Sprintf("%s: %v", l, err))
		}
	}
	rec.WallUS = us(time.Since(start))
	if cpu1, err := b.proc.CPUTime(); err == nil {
		used := cpu1 - cpu0
		rec.CPUUS = us(used)
		if lim.TurnCPU > 0 && used > lim.TurnCPU && s.status == OK && s.turns > 1 {
			s.fail(Timeout, fmt.Sprintf("used %v of CPU in turn %d, over the limit of %v", used.Round(time.Millisecond), st.Turn(), lim.TurnCPU))
			move = nil
		}
	}
	if s.status == OK && s.freeze {
		_ = b.proc.Freeze()
	}
	rec.Move = move
	rec.Status = s.status
	rec.Reason = s.reason
	return move, rec, nil
}

// readFault turns a failed read into the seat's status.
func (s *seat) readFault(err error, partial []byte, limit, grace time.Duration) {
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded):
		reason := fmt.Sprintf("no #END within %v", limit)
		if len(partial) > 0 {
			reason += fmt.Sprintf("; its last output %q has no newline", clip(partial))
		} else if s.bot.proc.Blocked() == "read stdin" {
			reason += "; it was waiting for an answer, so its last line probably never reached the judge: end every line with a newline and flush stdout (fflush(stdout), print(..., flush=True), System.out.flush())"
		}
		s.fail(Timeout, reason)
	case errors.Is(err, errLineTooLong):
		s.fail(Protocol, fmt.Sprintf("a line longer than %d bytes (starting %q)", MaxLine, clip(partial)))
	case errors.Is(err, io.EOF):
		s.fail(s.crashReason(grace, "closed its standard output"))
	default:
		s.fail(Crash, fmt.Sprintf("reading its output: %v", err))
	}
}

// writeFault turns a failed answer into the seat's status.
func (s *seat) writeFault(err error, limit, grace time.Duration) {
	if errors.Is(err, os.ErrDeadlineExceeded) {
		s.fail(Timeout, fmt.Sprintf("did not read its answers within %v", limit))
		return
	}
	s.fail(s.crashReason(grace, "closed its standard input"))
}

// crashReason waits a little for the process to end and says how it
// ended (Memory when the sandbox's memory limit stopped it, else Crash),
// with the tail of its stderr.
func (s *seat) crashReason(grace time.Duration, alive string) (Status, string) {
	t := time.NewTimer(grace + 100*time.Millisecond)
	defer t.Stop()
	status, reason := Crash, alive
	select {
	case <-s.bot.proc.Done():
		e := s.bot.proc.Exit()
		reason = e.String()
		if e.OOM {
			status = Memory
		}
	case <-t.C:
	}
	s.bot.errs.Wait()
	if text, _ := s.bot.stderr.Bytes(); len(text) > 0 {
		reason += "; stderr: " + LastLines(text, 5, 600)
	}
	return status, reason
}

// badText says why a line is not protocol text, or "".
func badText(b []byte) string {
	if !utf8.Valid(b) {
		return "not valid UTF-8"
	}
	for _, c := range b {
		if c < 0x20 && c != '\t' || c == 0x7f {
			return fmt.Sprintf("control byte 0x%02x", c)
		}
	}
	return ""
}

// clip shortens a line for a message.
func clip(b []byte) string {
	const max = 80
	if len(b) > max {
		return string(b[:max]) + "…"
	}
	return string(b)
}

func us(d time.Duration) int64 { return d.Microseconds() }
