// Package judge runs matches between players: it serves their turns with
// the line protocol under time limits, records replays, and says who won
// and why. What a player is — a bot program, a web bot, a person — is
// behind the Player interface.
package judge

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"golang.org/x/sync/errgroup"

	"judge/games"
)

// TurnLimits bound a player's turns.
type TurnLimits struct {
	Turn      time.Duration // per turn, from the judge starting the turn to #END
	FirstTurn time.Duration // the seat's first turn (start-up of JVMs and interpreters)
	// TurnCPU, when set, also bounds the CPU time of a turn (all the
	// bot's threads and processes), checked when the turn ends; the first
	// turn is not bounded, for start-up.
	TurnCPU time.Duration
	Output  int64         // bytes a player may write in one turn
	Stderr  int           // bytes of a bot's stderr kept with the match (the tail)
	Grace   time.Duration // after the game, time for a bot to exit before it is killed

	// Time controls besides the per-turn limit (none by default).
	//
	// Bank is a reserve of time, as in chess clocks and Kaggle's overage:
	// a turn may run past its limit into the bank, which keeps what is
	// left for later turns. Increment is added to the bank after every
	// turn of the seat.
	Bank, Increment time.Duration
	// Overruns is how many turns may run past the limit and the bank (up
	// to twice the limit) before running out of time counts: each such
	// turn is recorded as an overrun.
	Overruns int
}

// DefaultTurnLimits are the limits of a match with no configuration.
var DefaultTurnLimits = TurnLimits{
	Turn:      time.Second,
	FirstTurn: 5 * time.Second,
	Output:    1 << 20,
	Stderr:    64 << 10,
	Grace:     200 * time.Millisecond,
}

// Check says what is wrong with limits, or nil.
func (l TurnLimits) Check() error {
	for _, d := range []struct {
		name string
		v    time.Duration
	}{{"turn", l.Turn}, {"first turn", l.FirstTurn}} {
		if d.v <= 0 {
			return fmt.Errorf("the %s limit is %v: it must be positive", d.name, d.v)
		}
	}
	switch {
	case l.TurnCPU < 0:
		return fmt.Errorf("the CPU limit per turn is %v: it must be positive (or zero for none)", l.TurnCPU)
	case l.Grace < 0:
		return fmt.Errorf("the grace is %v: it must not be negative", l.Grace)
	case l.Output <= 0:
		return fmt.Errorf("the output limit is %d bytes: it must be positive", l.Output)
	case l.Stderr < 0:
		return fmt.Errorf("the stderr tail is %d bytes: it must not be negative", l.Stderr)
	case l.Bank < 0 || l.Increment < 0:
		return fmt.Errorf("the time bank (%v) and its increment (%v) must not be negative", l.Bank, l.Increment)
	case l.Overruns < 0:
		return fmt.Errorf("the overruns allowed (%d) must not be negative", l.Overruns)
	}
	return nil
}

// Match is one fully resolved match: everything it needs, nothing left to
// a default.
type Match struct {
	Game     games.Game
	Name     string       // the game's name for people and replays (a variant's: tictactoe)
	Params   games.Params // resolved parameters, every one given
	Seed     uint64
	Entrants []Entrant // one per seat
	Limits   TurnLimits
	Trace    bool // keep the full protocol transcript in the replay
	// Serve, when not nil, serves the turns: it is called on the
	// goroutine that plays the match once every player has started, and
	// must call play once. procbot.OneCPU uses it to keep a two-player
	// match's processes on one CPU.
	Serve func(players []Player, play func())
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
	// Named is Reason as people read it: the seats named as the viewer
	// names them ("alice took the last stone", see Namer). Never encoded:
	// the replay keeps the game's own words.
	Named string `json:"-"`
}

// PlayerResult is one seat's part of a result.
type PlayerResult struct {
	Name   string  `json:"name"`
	Status Status  `json:"status"`
	Reason string  `json:"reason,omitempty"`
	Score  float64 `json:"score"`
	// Detail is its fault's Detail: for its author only, never encoded.
	Detail string `json:"-"`
	// Turn is the turn of its fault, and Fault the fault in words, as
	// the match's reason gives it ("alice crashed at turn 3: …"): the
	// same reason's part, never encoded.
	Turn  int    `json:"-"`
	Fault string `json:"-"`
}

// seat is one player during a match.
type seat struct {
	index  int
	info   BotInfo
	p      Player
	person Person // p, when it is a person
	status Status
	reason string
	// failTurn is the turn of its fault; failLimit the time that turn
	// had, when it ran out of it.
	failTurn  int
	failLimit time.Duration
	turns     int // turns this seat has started
	// The seat's clock: what is left of its bank and of its overruns.
	bank     time.Duration
	overruns int
	// What --trace has kept of the seat's lines, and cut.
	traceBytes int64
	traceCut   int64
	// What --trace has kept of the seat's stderr.
	stderrBytes int64
	stop        sync.Once
	final       Final
	detail      string // its fault's Detail
	trace       []TraceLine
	buf         []byte // reused for answers
	lone        string // the last line that was one word, reused for the same line
	opp         string // the other seats' names, for the Opponent query
}

// Run plays one match. It returns an error only when the judge cannot run
// it (a player that cannot be started, a bad game, an interruption);
// whatever the players do is in the result.
func Run(ctx context.Context, m Match) (*Result, error) {
	if m.Game == nil {
		return nil, errors.New("no game")
	}
	if m.Name == "" {
		m.Name = m.Game.Name()
	}
	if err := m.Limits.Check(); err != nil {
		return nil, err
	}
	st, err := m.Game.New(m.Params, m.Seed)
	if errors.Is(err, games.ErrReferee) {
		return refereeFailed(m, err)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", m.Name, err)
	}
	defer games.Close(st)
	if len(m.Entrants) != st.Seats() {
		return nil, fmt.Errorf("%s needs %d players, got %d", m.Name, st.Seats(), len(m.Entrants))
	}
	rp := &Replay{Version: ReplayVersion, Game: m.Name, GameHash: GameHash(m.Game), Params: m.Params, Seed: m.Seed}
	seats := make([]*seat, len(m.Entrants))
	for i, e := range m.Entrants {
		info, err := e.Info()
		if err != nil {
			return nil, fmt.Errorf("player %d: %w", i, err)
		}
		seats[i] = &seat{index: i, info: info, status: OK, bank: m.Limits.Bank, overruns: m.Limits.Overruns}
	}
	defer func() {
		for _, s := range seats {
			s.halt(0)
		}
	}()

	// The players start at once: a sandbox takes milliseconds to set up.
	g, gctx := errgroup.WithContext(ctx)
	for i, e := range m.Entrants {
		g.Go(func() error {
			var opp []string
			for j, o := range seats {
				if j != i {
					opp = append(opp, o.info.Name)
				}
			}
			seats[i].opp = strings.Join(opp, " ")
			p, err := e.Start(gctx, Seat{Index: i, Seats: len(seats), Game: m.Name, Params: m.Params,
				Seed: SeatSeed(m.Seed, i), Opponents: opp})
			if err != nil {
				return fmt.Errorf("player %d (%s): %w", i, seats[i].info.Name, err)
			}
			seats[i].p = p
			seats[i].person, _ = p.(Person)
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	// Programs load from their start, all at once: each is waited for
	// until it waits for its input, or stopped until its turn.
	for _, s := range seats {
		if st, ok := s.p.(Settler); ok {
			st.Settle(ctx)
		}
	}
	players := make([]Player, len(seats))
	for i, s := range seats {
		players[i] = s.p
		b := ReplayBot{Name: s.info.Name, Command: s.info.Command, SHA256: s.info.SHA256, Sandbox: s.info.Sandbox}
		if pr, ok := s.p.(Protected); ok {
			b.Sandbox = pr.Protection()
		}
		if rp.Sandbox == "" {
			rp.Sandbox = b.Sandbox
		}
		rp.Bots = append(rp.Bots, b)
	}

	serve := m.Serve
	if serve == nil {
		serve = func(_ []Player, play func()) { play() }
	}
	var playErr error
	var forfeitEnded bool
	serve(players, func() { forfeitEnded, playErr = playGame(ctx, st, seats, m, rp) })
	if playErr != nil && !errors.Is(playErr, games.ErrReferee) {
		return nil, playErr
	}

	// The game is over: every player gets its grace to exit, all at once.
	var wg sync.WaitGroup
	for _, s := range seats {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.halt(m.Limits.Grace)
		}()
	}
	wg.Wait()

	if playErr != nil {
		return refereeResult(m, seats, rp, playErr), nil
	}
	res := result(m, st.Outcome(), seats, rp, forfeitEnded)
	res.Named = Namer(st, rp)(res.Reason)
	return res, nil
}

// GameHash is the hash of g's files when g is a plugin game (it has a
// method Hash), or "": a replay records it.
func GameHash(g games.Game) string {
	if h, ok := g.(interface{ Hash() string }); ok {
		return h.Hash()
	}
	return ""
}

// refereeFailed is the result of a match whose referee failed before the
// game began: no player started, none is at fault.
func refereeFailed(m Match, err error) (*Result, error) {
	rp := &Replay{Version: ReplayVersion, Game: m.Name, GameHash: GameHash(m.Game), Params: m.Params, Seed: m.Seed}
	seats := make([]*seat, len(m.Entrants))
	for i, e := range m.Entrants {
		info, ierr := e.Info()
		if ierr != nil {
			return nil, fmt.Errorf("player %d: %w", i, ierr)
		}
		seats[i] = &seat{index: i, info: info, status: OK}
		rp.Bots = append(rp.Bots, ReplayBot{Name: info.Name, Command: info.Command, SHA256: info.SHA256, Sandbox: info.Sandbox})
	}
	return refereeResult(m, seats, rp, err), nil
}

// refereeResult is the result of a match its referee ended by failing:
// no winner, no score; every seat that had not failed by itself ends
// with RefereeError and the referee's fault as its reason.
func refereeResult(m Match, seats []*seat, rp *Replay, refErr error) *Result {
	why := strings.TrimPrefix(refErr.Error(), games.ErrReferee.Error()+": ")
	for _, s := range seats {
		if s.status == OK {
			s.status, s.reason = RefereeError, why
		}
	}
	res := result(m, games.Outcome{Over: true, Winner: -1}, seats, rp, false)
	res.Reason = "referee error: " + why
	res.Named = res.Reason
	rp.Outcome.Reason = res.Reason
	return res
}

// result is the match's result once its game is over with outcome out,
// and the end of its replay: each seat's status, reason and score, the
// stderr it kept, the reason in words.
func result(m Match, out games.Outcome, seats []*seat, rp *Replay, forfeitEnded bool) *Result {
	res := &Result{
		Game:   m.Name,
		Params: m.Params,
		Seed:   m.Seed,
		Winner: out.Winner,
		Turns:  len(rp.Turns),
		Replay: rp,
	}
	for i, s := range seats {
		pr := PlayerResult{Name: s.info.Name, Status: s.status, Reason: s.reason, Detail: s.detail}
		if s.status != OK {
			pr.Turn, pr.Fault = s.failTurn, s.faultWords(s.info.Name)
		}
		if i < len(out.Scores) {
			pr.Score = out.Scores[i]
		}
		if s.status == OK && i < len(out.Notes) {
			pr.Reason = out.Notes[i] // why a player that played by the rules scored as it did
		}
		res.Players = append(res.Players, pr)
		rp.Bots[i].Stderr = string(s.final.Stderr)
		rp.Bots[i].StderrBytes = s.final.StderrBytes
		rp.Bots[i].Trace = s.trace
	}
	res.Reason = faultReason(seats, out.Reason, forfeitEnded)
	rp.Outcome = ReplayOutcome{Winner: res.Winner, Reason: res.Reason, Players: res.Players}
	return res
}

// playGame plays the turns until the game is over. It says whether
// the seats' faults ended it (a forfeit ends a two-seat game). A referee
// that failed ends it with its fault, an error wrapping games.ErrReferee.
func playGame(ctx context.Context, st games.State, seats []*seat, m Match, rp *Replay) (forfeitEnded bool, err error) {
	start := time.Now()
	for !st.Outcome().Over {
		if err := ctx.Err(); err != nil {
			return false, err
		}
		if err := games.Fault(st); err != nil {
			return false, err
		}
		movers := st.Movers()
		moves, recs, err := playTurns(ctx, st, seats, movers, turnPlan{lim: m.Limits, matchStart: start, trace: m.Trace})
		if err != nil {
			return false, err
		}
		rp.Turns = append(rp.Turns, ReplayTurn{Turn: st.Turn(), Moves: recs})
		if err := games.Fault(st); err != nil {
			return false, err
		}
		for _, idx := range movers {
			if s := seats[idx]; s.status != OK {
				s.halt(0)
				st.Forfeit(idx)
			}
		}
		if err := games.Fault(st); err != nil {
			return false, err
		}
		if st.Outcome().Over {
			return true, nil
		}
		if err := st.Apply(moves); err != nil {
			if ferr := games.Fault(st); ferr != nil {
				return false, ferr
			}
			return false, fmt.Errorf("%s: turn %d: a checked move was refused: %w", m.Name, st.Turn(), err)
		}
	}
	return false, nil
}

// playTurns serves the turn of every mover at once, each with its own
// deadline: one player's fault never cancels another's turn; only a judge
// failure stops them all. It returns the committed moves and the records.
func playTurns(ctx context.Context, st games.State, seats []*seat, movers []int, pl turnPlan) (map[int]games.Move, []TurnMove, error) {
	moves := make(map[int]games.Move, len(movers))
	recs := make([]TurnMove, len(movers))
	if len(movers) == 1 {
		// One mover, the common case: served right here.
		mv, rec, err := seats[movers[0]].playTurn(ctx, st, pl)
		if err != nil {
			return nil, nil, err
		}
		recs[0] = rec
		if mv != nil {
			moves[movers[0]] = mv
		}
		return moves, recs, nil
	}
	pl.shared = true
	var mu sync.Mutex
	g, gctx := errgroup.WithContext(ctx)
	for i, idx := range movers {
		s := seats[idx]
		g.Go(func() error {
			mv, rec, err := s.playTurn(gctx, st, pl)
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

// fail ends the seat with a status other than OK.
func (s *seat) fail(st Status, reason string) {
	if s.status == OK {
		s.status, s.reason = st, reason
	}
}

// halt stops the seat's player, once.
func (s *seat) halt(grace time.Duration) {
	if s.p == nil {
		return
	}
	s.stop.Do(func() { s.final = s.p.Stop(grace) })
}

// Caps on what --trace keeps of a seat's lines: per turn and per match.
// A bot that floods queries must not fill the judge's memory.
const (
	TraceTurnBytes  = 256 << 10
	TraceMatchBytes = 8 << 20
)

// turnTrace keeps one turn's lines of a seat, within the caps.
type turnTrace struct {
	s     *seat
	on    bool
	start time.Time
	bytes int64 // kept in this turn
	cut   int64 // not kept in this turn
}

func (t *turnTrace) add(dir, line string) {
	if !t.on {
		return
	}
	n := int64(len(line))
	if t.bytes+n > TraceTurnBytes || t.s.traceBytes+n > TraceMatchBytes {
		t.cut += n
		return
	}
	t.bytes += n
	t.s.traceBytes += n
	t.s.trace = append(t.s.trace, TraceLine{T: us(time.Since(t.start)), Dir: dir, Line: line})
}

// end notes what the turn's trace left out.
func (t *turnTrace) end() {
	if t.cut > 0 {
		t.s.traceCut += t.cut
		t.s.trace = append(t.s.trace, TraceLine{T: us(time.Since(t.start)), Dir: "cut",
			Line: fmt.Sprintf("%d bytes of this turn's lines not kept (the trace keeps %d KiB a turn, %d MiB a match)", t.cut, TraceTurnBytes>>10, TraceMatchBytes>>20)})
	}
}

// turnStderr records in rec what the seat wrote on its stderr during the
// turn, within the trace's caps: TraceTurnBytes a turn (the player keeps
// no more) and TraceMatchBytes a match.
func (s *seat) turnStderr(rec *TurnMove) {
	p, ok := s.p.(StderrByTurn)
	if !ok {
		return
	}
	text, cut := p.TurnStderr()
	if len(text) > TraceTurnBytes {
		cut += int64(len(text) - TraceTurnBytes)
		text = text[:TraceTurnBytes]
	}
	if room := max(0, TraceMatchBytes-s.stderrBytes); int64(len(text)) > room {
		cut += int64(len(text)) - room
		text = text[:room]
	}
	s.stderrBytes += int64(len(text))
	rec.Stderr, rec.StderrCut = string(text), cut
}

// noEndHint explains an output limit reached without #END.
func noEndHint(lines int, last string) string {
	return fmt.Sprintf("; no #END in its %d lines (the last: %q): end every turn with the line #END", lines, last)
}

// unknownReason explains a line that is neither a query nor a command of
// the game st: a word that is one but for its letters' case says so, as
// a line that looks like prose is taken for debug output.
func unknownReason(text []byte, st games.State) string {
	r := fmt.Sprintf("unknown query or command %q", Clip(string(text), ClipLine))
	f := strings.Fields(string(text))
	var verbs []string
	if v, ok := st.(games.Verbs); ok {
		verbs = append(append(append(verbs, v.Queries()...), v.Commands()...), "TimeLeft", "Opponent")
	}
	right := ""
	if len(f) > 0 {
		for _, v := range verbs {
			if strings.EqualFold(v, f[0]) {
				right = v
				break
			}
		}
	}
	switch {
	case right != "":
		r += fmt.Sprintf(" (queries and commands are case-sensitive: write %s, not %s)", right, f[0])
	case len(f) > 2 || len(f) > 0 && strings.ToLower(f[0]) == f[0] && len(f[0]) > 1:
		r += " (debug output belongs on stderr, not stdout: fprintf(stderr, ...), print(..., file=sys.stderr), System.err.println)"
	}
	if known := games.Known(st); known != "" {
		r += "; the game's " + known
	}
	return r
}

// moreLines reads what a failing runtime still writes (its report), up to
// ten lines or the first fault, for the reason.
func (s *seat) moreLines(ctx context.Context) string {
	var b strings.Builder
	for i := 0; i < 10 && b.Len() < 1000; i++ {
		l, err := s.p.ReadLine(ctx)
		if err != nil {
			break
		}
		if t := strings.TrimSpace(strings.TrimPrefix(string(l), "#")); t != "" {
			b.WriteString("; " + Clip(t, ClipLine))
		}
	}
	return b.String()
}

// MaxLine is the longest line a player may write, newline included.
const MaxLine = 64 << 10

// NotText says why a line is not protocol text (not UTF-8, or a control
// byte), or "".
func NotText(b []byte) string {
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

func us(d time.Duration) int64 { return d.Microseconds() }

// NamedReason is how the match ended in people's words: Named, or
// Reason for a result made elsewhere.
func (r *Result) NamedReason() string {
	if r.Named != "" {
		return r.Named
	}
	return r.Reason
}
