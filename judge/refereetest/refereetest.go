// Package refereetest drives a referee program over the referee protocol,
// version 1 (docs/games.md), without the judge: it starts the program,
// plays seeded random legal games through its JSON-lines messages and
// keeps every request and response. Two referees of the same game must
// give the same transcripts for the same seeds, byte for byte.
package refereetest

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os/exec"
	"strings"
	"time"
)

// Referee is a referee program running, spoken to line by line.
type Referee struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
}

// Start runs argv in dir (the game's folder) and greets it.
func Start(ctx context.Context, dir string, argv ...string) (*Referee, error) {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.WaitDelay = time.Second
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start referee %s: %w", strings.Join(argv, " "), err)
	}
	r := &Referee{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<16)}
	if _, err := r.Call(`{"op":"hello","protocol":1}`); err != nil {
		r.Close()
		return nil, err
	}
	return r, nil
}

// Call sends one request line and returns the response line, without its
// newline.
func (r *Referee) Call(req string) (string, error) {
	if _, err := io.WriteString(r.in, req+"\n"); err != nil {
		return "", fmt.Errorf("referee: write %s: %w", req, err)
	}
	line, err := r.out.ReadString('\n')
	if err != nil {
		return "", fmt.Errorf("referee: answer to %s: %w", req, err)
	}
	return strings.TrimSuffix(line, "\n"), nil
}

// Close ends the referee: its input is closed and it must exit; one
// still running 5 s later is killed.
func (r *Referee) Close() error {
	r.in.Close()
	done := make(chan error, 1)
	go func() { done <- r.cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(5 * time.Second):
		r.cmd.Process.Kill()
		return <-done
	}
}

// Game says which game to play: its parameters and seed, the query lines
// to ask each mover each turn, command lines to try before its move (one
// of them a turn, drawn at random: valid or not, the move sent after it
// binds), and a cap on the turns.
type Game struct {
	Params   map[string]int
	Seed     uint64
	Queries  []string
	Probes   []string
	MaxTurns int // 0: 10,000
}

// response holds every field of a response that the play reads.
type response struct {
	Status *struct {
		Movers []int `json:"movers"`
		Over   bool  `json:"over"`
	} `json:"status"`
	Moves    [][]string `json:"moves"`
	Move     []string   `json:"move"`
	Error    *string    `json:"error"`
	Refused  *string    `json:"refused"`
	Unknown  *string    `json:"unknown"`
	NotQuery bool       `json:"not_query"`
}

// play keeps the transcript of one game.
type play struct {
	r     *Referee
	lines []string
}

func (p *play) call(req any) (response, error) {
	b, err := json.Marshal(req)
	if err != nil {
		return response{}, err
	}
	resp, err := p.r.Call(string(b))
	if err != nil {
		return response{}, err
	}
	p.lines = append(p.lines, "> "+string(b), "< "+resp)
	var v response
	if err := json.Unmarshal([]byte(resp), &v); err != nil {
		return v, fmt.Errorf("response %s to %s: %w", resp, b, err)
	}
	if v.Error != nil {
		return v, fmt.Errorf("referee error %q, to %s", *v.Error, b)
	}
	return v, nil
}

// Play plays one game of random legal moves, chosen with a generator
// seeded by g.Seed, and returns the transcript: every request ("> ") and
// response ("< "). On each turn the referee draws the game (render,
// view), every mover is asked g.Queries, a line that is no query, its
// moves, and plays one of them, sometimes after a command that is not one;
// now and then a seat forfeits. The transcript so far comes back with an
// error.
func Play(r *Referee, g Game) ([]string, error) {
	p := &play{r: r}
	rng := rand.New(rand.NewPCG(g.Seed, 0x6f7468656c6c6f))
	maxTurns := g.MaxTurns
	if maxTurns == 0 {
		maxTurns = 10000
	}
	params := g.Params
	if params == nil {
		params = map[string]int{}
	}
	v, err := p.call(map[string]any{"op": "new", "params": params, "seed": g.Seed})
	if err != nil {
		return p.lines, err
	}
	if v.Refused != nil {
		return p.lines, fmt.Errorf("new refused: %s", *v.Refused)
	}
	for turn := 1; ; turn++ {
		if v.Status == nil {
			return p.lines, errors.New("no status")
		}
		if v.Status.Over {
			return p.lines, nil
		}
		if turn > maxTurns {
			return p.lines, fmt.Errorf("not over after %d turns", maxTurns)
		}
		if v, err = p.turn(rng, v.Status.Movers, g); err != nil {
			return p.lines, err
		}
	}
}

// turn plays one turn of movers and returns apply's (or forfeit's)
// response.
func (p *play) turn(rng *rand.Rand, movers []int, g Game) (response, error) {
	queries := g.Queries
	for _, op := range []string{"render", "view"} {
		if _, err := p.call(map[string]any{"op": op}); err != nil {
			return response{}, err
		}
	}
	if len(movers) > 0 && rng.IntN(200) == 0 {
		return p.call(map[string]any{"op": "forfeit", "seat": movers[rng.IntN(len(movers))]})
	}
	type seatMove struct {
		Seat int      `json:"seat"`
		Move []string `json:"move"`
	}
	moves := []seatMove{}
	for _, seat := range movers {
		for _, q := range append(queries[:len(queries):len(queries)], "NoSuchQuery") {
			v, err := p.call(map[string]any{"op": "query", "seat": seat, "line": q})
			if err != nil {
				return v, err
			}
			if q == "NoSuchQuery" && !v.NotQuery {
				return v, fmt.Errorf("%s answered as a query", q)
			}
		}
		v, err := p.call(map[string]any{"op": "moves", "seat": seat})
		if err != nil {
			return v, err
		}
		if len(v.Moves) == 0 {
			return v, fmt.Errorf("seat %d moves and has no legal move", seat)
		}
		m := v.Moves[rng.IntN(len(v.Moves))]
		if _, err := p.call(map[string]any{"op": "orders", "seat": seat}); err != nil {
			return v, err
		}
		lines := m
		switch k := rng.IntN(4); {
		case k == 0:
			lines = append([]string{"NoSuchCommand 1"}, m...)
		case k == 1 && len(g.Probes) > 0:
			lines = append([]string{g.Probes[rng.IntN(len(g.Probes))]}, m...)
		}
		for _, l := range lines {
			if _, err := p.call(map[string]any{"op": "command", "seat": seat, "line": l}); err != nil {
				return v, err
			}
		}
		if v, err = p.call(map[string]any{"op": "commit", "seat": seat}); err != nil {
			return v, err
		}
		if v.Move == nil {
			return v, fmt.Errorf("seat %d: a move from moves, %q, did not commit", seat, m)
		}
		moves = append(moves, seatMove{Seat: seat, Move: v.Move})
	}
	return p.call(map[string]any{"op": "apply", "moves": moves})
}

// Diff compares two transcripts and describes the first difference, or
// is "" when they are the same.
func Diff(a, b []string) string {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			from := max(0, i-4)
			return fmt.Sprintf("line %d differs:\n  a: %s\n  b: %s\nbefore it:\n  %s", i+1, a[i], b[i],
				strings.Join(a[from:i], "\n  "))
		}
	}
	if len(a) != len(b) {
		return fmt.Sprintf("lengths differ: %d and %d lines", len(a), len(b))
	}
	return ""
}
