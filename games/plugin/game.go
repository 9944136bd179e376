// Package plugin runs games the judge was not built with: a folder holding
// a game.toml and a referee, a WebAssembly module run inside the judge
// (wazero) or a program run like a bot, which speaks the referee protocol
// (docs/games.md): one JSON object a line, a request in, a response out.
// A plugin game is a games.Game like any other; its states call the
// referee for everything but their turn, movers and outcome, which they
// keep from its last status.
//
// A referee that fails — crashes, hangs, runs out of memory, answers
// nonsense — gives its state a fault (games.Faulty) wrapping
// games.ErrReferee: the judge ends the match as a referee error, no
// player's fault.
package plugin

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"judge/games"
)

// SpecFile is the name of a game's description in its folder.
const SpecFile = "game.toml"

// Options are how a game's referees are run.
type Options struct {
	// Start starts a process referee; nil is ExecStarter (no sandbox).
	Start Starter
	// CacheDir, when not "", is a folder where WebAssembly referees are
	// kept compiled between runs of the judge (wazero's compilation
	// cache): a game's first match then spares their compilation. The
	// judge makes it, its own (mode 0700); a folder that another user
	// could write, or one above it, is not used, since its code would run
	// in the judge.
	CacheDir string
	// AskAhead asks the referee even the queries its status answered
	// ahead (FeatureAnswers), and faults it when the two answers differ:
	// judge game check's way to find a status that says other than the
	// query.
	AskAhead bool
}

// Game is a plugin game: its folder, its game.toml, and its referee,
// compiled once when it is a WebAssembly module.
type Game struct {
	dir  string
	spec *Spec
	hash string
	opts Options
	wasm []byte

	// queries and commands are game.toml's verbs, by name; fixed, the
	// queries whose answers never change within a match.
	queries, commands, fixed map[string]bool

	// spare is a process referee started ahead for the next match (an
	// interpreter's start is most of a short match's time); filling
	// says one is being started.
	spareMu sync.Mutex
	spare   transport
	filling bool

	// idle are referees whose matches ended, kept for the next ones
	// (FeatureReuse); at most maxIdle. reusable says one was kept: the
	// game's referees take new again, and none is started ahead.
	idleMu   sync.Mutex
	idle     []idleReferee
	reusable bool
	// started says a referee was started: the first is started alone,
	// since it may be kept (FeatureReuse) and need no other.
	started atomic.Bool

	once     sync.Once
	code     *wasmCode
	codeErr  error
	compiled time.Duration
}

// Load reads the game in folder dir: its game.toml, checked, and its
// referee's file. A WebAssembly referee is compiled at the first match.
func Load(dir string, opts Options) (*Game, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	path := filepath.Join(abs, SpecFile)
	data, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("%s is not a game's folder: it has no %s", dir, SpecFile)
		}
		return nil, err
	}
	spec, err := ParseSpec(path, data)
	if err != nil {
		return nil, err
	}
	h := sha256.New()
	h.Write(data)
	g := &Game{dir: abs, spec: spec, opts: opts, queries: map[string]bool{}, commands: map[string]bool{}, fixed: map[string]bool{}}
	for _, q := range spec.Queries {
		g.queries[q.Name] = true
		g.fixed[q.Name] = q.Fixed
	}
	for _, c := range spec.Commands {
		g.commands[c.Name] = true
	}
	if spec.Referee.Wasm != "" {
		wpath := filepath.Join(abs, spec.Referee.Wasm)
		if g.wasm, err = os.ReadFile(wpath); err != nil {
			if errors.Is(err, os.ErrNotExist) {
				return nil, fmt.Errorf("%s: referee.wasm = %q: no such file in %s (is it built? GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared -o %s)",
					path, spec.Referee.Wasm, dir, spec.Referee.Wasm)
			}
			return nil, err
		}
		h.Write(g.wasm)
	} else if err := hashCommand(h, abs, spec.Referee.Command); err != nil {
		return nil, fmt.Errorf("%s: referee.command: %w", path, err)
	}
	g.hash = hex.EncodeToString(h.Sum(nil))
	if g.opts.Start == nil {
		g.opts.Start = ExecStarter
	}
	return g, nil
}

// hashCommand adds to h the files of the game's folder that a referee
// command names: the program, when it is in the folder, and its
// arguments that are files there (a script).
func hashCommand(h interface{ Write([]byte) (int, error) }, dir string, argv []string) error {
	for _, a := range argv {
		p := a
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		if rel, err := filepath.Rel(dir, p); err != nil || rel == ".." || filepath.IsAbs(rel) || len(rel) > 2 && rel[:3] == "../" {
			continue
		}
		data, err := os.ReadFile(p)
		if err != nil {
			continue // not a file of the folder: a word, or a program on PATH
		}
		h.Write([]byte(a))
		h.Write(data)
	}
	return nil
}

// Name implements games.Game.
func (g *Game) Name() string { return g.spec.Name }

// Describe implements games.Game.
func (g *Game) Describe() string { return g.spec.Description }

// Dir is the game's folder, absolute.
func (g *Game) Dir() string { return g.dir }

// Spec is the game's game.toml. It must not be changed.
func (g *Game) Spec() *Spec { return g.spec }

// Hash is the SHA-256 of game.toml and of the referee's files, in hex:
// replays record it, and a replay of another version says so.
func (g *Game) Hash() string { return g.hash }

// Params implements games.Game.
func (g *Game) Params() []games.ParamSpec {
	out := make([]games.ParamSpec, len(g.spec.Params))
	for i, p := range g.spec.Params {
		out[i] = games.ParamSpec{Name: p.Name, Default: p.Default, Min: p.Min, Max: p.Max, Doc: p.Doc}
	}
	return out
}

// SeatRange implements games.SeatRanger: game.toml's seats.
func (g *Game) SeatRange() (lo, hi int) { return g.spec.Seats[0], g.spec.Seats[1] }

// Queries and Commands name the game's verbs, as game.toml lists them.
func (g *Game) Queries() []string  { return verbNames(g.spec.Queries) }
func (g *Game) Commands() []string { return verbNames(g.spec.Commands) }

// commandOnly reports whether verb is one of game.toml's commands and not
// one of its queries.
func (g *Game) commandOnly(verb string) bool {
	return g.commands[verb] && !g.queries[verb]
}

// MultiLine reports whether game.toml declares query's answer may span
// lines (lines = "many").
func (g *Game) MultiLine(query string) bool {
	for _, q := range g.spec.Queries {
		if q.Name == query {
			return q.Lines == "many"
		}
	}
	return false
}

func verbNames(vs []VerbSpec) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = v.Name
	}
	return out
}

// start runs a new referee for one match.
func (g *Game) start() (transport, error) {
	timeout := time.Duration(g.spec.Referee.CallMS) * time.Millisecond
	if g.wasm != nil {
		g.once.Do(func() {
			t0 := time.Now()
			g.code, g.codeErr = compileWasm(context.Background(), g.wasm, g.spec.Referee.MemoryMiB, g.opts.CacheDir)
			g.compiled = time.Since(t0)
		})
		if g.codeErr != nil {
			return nil, fmt.Errorf("%s: %s: %w", g.spec.Name, g.spec.Referee.Wasm, g.codeErr)
		}
		return g.code.start(timeout, g.ahead()), nil
	}
	g.spareMu.Lock()
	t := g.spare
	g.spare = nil
	g.spareMu.Unlock()
	if g.ahead() {
		go g.refill(timeout)
	}
	if t != nil {
		return t, nil
	}
	t, err := g.startProcess(timeout)
	if err != nil {
		return nil, fmt.Errorf("%s: starting its referee: %w", g.spec.Name, err)
	}
	return t, nil
}

func (g *Game) startProcess(timeout time.Duration) (transport, error) {
	mem := int64(g.spec.Referee.MemoryMiB) << 20
	return startProcess(context.Background(), g.opts.Start, g.spec.Referee.Command, g.dir, mem, timeout)
}

// refill starts a process referee ahead, unless one is there or being
// started; one that fails to start is left to the next match to start
// (and to report).
func (g *Game) refill(timeout time.Duration) {
	g.spareMu.Lock()
	if g.spare != nil || g.filling {
		g.spareMu.Unlock()
		return
	}
	g.filling = true
	g.spareMu.Unlock()
	t, err := g.startProcess(timeout)
	g.spareMu.Lock()
	defer g.spareMu.Unlock()
	g.filling = false
	if err == nil {
		g.spare = t
	}
}

// idleReferee is a referee kept between matches, and the features it
// gave at hello.
type idleReferee struct {
	t                                 transport
	turnOrders, commandMoves, answers bool
}

// maxIdle bounds the referees a game keeps between matches: as many as a
// tournament's jobs may want at once.
const maxIdle = 8

// keep keeps a referee whose match ended for the next match; false when
// enough are kept.
func (g *Game) keep(r idleReferee) bool {
	g.idleMu.Lock()
	defer g.idleMu.Unlock()
	g.reusable = true
	if len(g.idle) >= maxIdle {
		return false
	}
	g.idle = append(g.idle, r)
	return true
}

// ahead says whether to start a referee ahead for the next match: not
// at the first start, nor once a referee was kept.
func (g *Game) ahead() bool {
	return g.started.Swap(true) && !g.kept()
}

// kept reports whether a referee of the game was kept after its match:
// the next matches will have it, and none is started ahead.
func (g *Game) kept() bool {
	g.idleMu.Lock()
	defer g.idleMu.Unlock()
	return g.reusable
}

// reused is a kept referee, if there is one that is quiet (a process
// may have ended since its match: it is closed).
func (g *Game) reused() (idleReferee, bool) {
	for {
		g.idleMu.Lock()
		n := len(g.idle)
		if n == 0 {
			g.idleMu.Unlock()
			return idleReferee{}, false
		}
		r := g.idle[n-1]
		g.idle = g.idle[:n-1]
		g.idleMu.Unlock()
		if r.t.quiet() {
			return r, true
		}
		r.t.close()
	}
}

// New implements games.Game: it starts a referee, greets it, and starts
// the game; or it starts the game on a referee a match ended with, when
// the referee takes new again (FeatureReuse). A referee that fails here
// gives an error wrapping games.ErrReferee; parameters the referee
// refuses, a plain error.
func (g *Game) New(p games.Params, seed uint64) (games.State, error) {
	p, err := games.Resolve(g.Params(), p)
	if err != nil {
		return nil, err
	}
	if r, ok := g.reused(); ok {
		s := &State{g: g, t: r.t, turnOrders: r.turnOrders, commandMoves: r.commandMoves, answers: r.answers, reuse: true}
		err := s.newGame(p, seed)
		if err == nil {
			return s, nil
		}
		s.Close()
		if !errors.Is(err, games.ErrReferee) {
			return nil, err
		}
		// It failed between matches (a program that ended while kept,
		// say): the match gets a new referee, whose failure would be
		// its own.
	}
	t, err := g.start()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", games.ErrReferee, err)
	}
	s := &State{g: g, t: t}
	if err := s.hello(); err != nil {
		s.Close()
		return nil, err
	}
	if err := s.newGame(p, seed); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}
