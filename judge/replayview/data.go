package replayview

import (
	"errors"
	"fmt"

	"judge/games"
	"judge/judge"
)

// Data is a replay decoded for the viewer: the cells of every grid at the
// start, then per turn only the cells that changed, so that a long game on
// a big board stays small.
type Data struct {
	Game    string       `json:"game"`
	Params  games.Params `json:"params"`
	Seed    uint64       `json:"seed,string"` // a string: JavaScript's numbers hold 53 bits
	Sandbox string       `json:"sandbox,omitempty"`
	Bots    []Bot        `json:"bots"`
	// Grids are the spectators' grids. Layers are the cells drawn: the
	// spectators' grids, then, when the game hides things, each seat's
	// view of them (layer (1+seat)*len(Grids)+g).
	Grids  []GridInfo `json:"grids"`
	Layers int        `json:"layers"`
	// Start holds each layer's cells at the start.
	Start   [][]byte            `json:"start"`
	Frames  []Frame             `json:"frames"` // Frames[0] is the start
	Outcome judge.ReplayOutcome `json:"outcome"`
	// Points are where the match turned, as judge explain says them:
	// the result banner lists them, each linked to its turn.
	Points []judge.Point `json:"points,omitempty"`
	// Palette is how the game draws a cell, by value (games.Painter): the
	// viewer draws by it the grids of a kind it has no drawing of its own
	// for.
	Palette Palette `json:"palette,omitempty"`
}

// Palette is a games.Palette as the viewer reads it: by cell value (a
// number; JSON writes it as a string).
type Palette map[int]Paint

// Paint is a games.Paint as the viewer reads it.
type Paint struct {
	Glyph  string `json:"glyph"`
	Colour string `json:"colour"`
}

// PaletteOf is g's palette for the viewer, or nil for a game that gives
// none.
func PaletteOf(g games.Game) Palette {
	pt, ok := g.(games.Painter)
	if !ok {
		return nil
	}
	out := Palette{}
	for c, p := range pt.Palette() {
		out[int(c)] = Paint{Glyph: p.Glyph, Colour: p.Colour}
	}
	return out
}

// Bot is a seat's bot, without its transcript (which Frame holds turn by
// turn).
type Bot struct {
	Name        string   `json:"name"`
	Command     []string `json:"command"`
	Stderr      string   `json:"stderr,omitempty"`
	StderrBytes int64    `json:"stderr_bytes,omitempty"`
}

// GridInfo is the shape of a grid.
type GridInfo struct {
	Name string `json:"name"`
	Kind string `json:"kind"`
	W    int    `json:"w"`
	H    int    `json:"h"`
}

// Frame is one turn.
type Frame struct {
	Turn  int              `json:"turn"` // 0 at the start
	Moves []judge.TurnMove `json:"moves,omitempty"`
	// Diff holds the cells that changed, per layer: [layer, at, n, v, at,
	// n, v, ...] says that the n cells from index at take the value v.
	Diff  [][]int      `json:"diff,omitempty"`
	Marks []games.Mark `json:"marks"`
	Seats []string     `json:"seats"`
	// Numbers are the view's per-seat series (games.View.Numbers), for
	// charts.
	Numbers map[string][]float64 `json:"numbers,omitempty"`
	Trace   [][]judge.TraceLine  `json:"trace,omitempty"` // per seat, with --trace
	// Over is how the game ended, on the frame where it did.
	Over string `json:"over,omitempty"`
}

// ErrNoView is returned for games whose states cannot be drawn.
var ErrNoView = errors.New("the game's states cannot be drawn (no View)")

// Decode plays rp through g's rules and gives what the viewer draws.
func Decode(g games.Game, rp *judge.Replay) (*Data, error) {
	d := &Data{Game: rp.Game, Params: rp.Params, Seed: rp.Seed, Sandbox: rp.Sandbox, Outcome: rp.Outcome, Palette: PaletteOf(g)}
	for _, b := range rp.Bots {
		d.Bots = append(d.Bots, Bot{Name: b.Name, Command: b.Command, Stderr: b.Stderr, StderrBytes: b.StderrBytes})
	}
	traces := TurnTraces(rp)
	var enc Encoder
	err := Play(g, rp, func(s Step) error {
		vw, ok := s.State.(games.Viewer)
		if !ok {
			return ErrNoView
		}
		f, err := enc.Frame(vw.View())
		if err != nil {
			return fmt.Errorf("replay: turn %d: %w", s.State.Turn(), err)
		}
		if s.Turn != nil {
			f.Turn, f.Moves = s.Turn.Turn, s.Turn.Moves
			if traces != nil {
				f.Trace = traces[s.Index-1]
			}
		} else {
			d.Grids, d.Layers, d.Start = enc.Grids(), len(enc.prev), enc.Start()
		}
		if o := s.State.Outcome(); o.Over {
			f.Over = o.Reason
		}
		d.Frames = append(d.Frames, f)
		return nil
	})
	if err != nil {
		return nil, err
	}
	// What explain says is the banner's: a replay that plays (as this
	// one did) explains.
	if d.Points, err = judge.Explain(g, rp); err != nil {
		return nil, err
	}
	return d, nil
}

// Encoder turns successive views of one game into frames that hold only
// the cells that changed: for a replay, or for a game followed as it is
// played. The zero value is ready to use.
type Encoder struct {
	grids []GridInfo
	start [][]byte
	prev  [][]byte
}

// Frame gives the frame of the next view: its marks, lines and the cells
// that changed since the view before (none for the first view, whose
// cells Start gives).
func (e *Encoder) Frame(v games.View) (Frame, error) {
	layers := v.Grids
	for _, seen := range v.Seen {
		layers = append(layers, seen...)
	}
	f := Frame{Marks: v.Marks, Seats: v.Seats, Numbers: v.Numbers}
	if f.Marks == nil {
		f.Marks = []games.Mark{}
	}
	if e.prev == nil {
		for _, g := range v.Grids {
			e.grids = append(e.grids, GridInfo{Name: g.Name, Kind: g.Kind, W: g.W, H: g.H})
		}
		for _, l := range layers {
			e.start = append(e.start, append([]byte(nil), l.Cells...))
			e.prev = append(e.prev, append([]byte(nil), l.Cells...))
		}
		return f, nil
	}
	if len(layers) != len(e.prev) {
		return Frame{}, fmt.Errorf("the view has %d layers, it had %d", len(layers), len(e.prev))
	}
	for li, l := range layers {
		if len(l.Cells) != len(e.prev[li]) {
			return Frame{}, fmt.Errorf("layer %d has %d cells, it had %d", li, len(l.Cells), len(e.prev[li]))
		}
		if runs := diff(e.prev[li], l.Cells); len(runs) > 0 {
			f.Diff = append(f.Diff, append([]int{li}, runs...))
			copy(e.prev[li], l.Cells)
		}
	}
	return f, nil
}

// Grids are the shapes of the spectators' grids of the first view.
func (e *Encoder) Grids() []GridInfo { return e.grids }

// Start holds each layer's cells in the first view.
func (e *Encoder) Start() [][]byte { return e.start }

// diff gives the runs of cells of b that differ from a, as at, n, v
// triples: n cells from at that all take v.
func diff(a, b []byte) []int {
	var out []int
	for i := 0; i < len(b); i++ {
		if a[i] == b[i] {
			continue
		}
		j := i + 1
		for j < len(b) && a[j] != b[j] && b[j] == b[i] {
			j++
		}
		out = append(out, i, j-i, int(b[i]))
		i = j - 1
	}
	return out
}

// Cells gives every layer's cells at frame i, by applying the diffs of
// frames 1..i to the start, as the viewer does.
func (d *Data) Cells(i int) [][]byte {
	out := make([][]byte, len(d.Start))
	for l, c := range d.Start {
		out[l] = append([]byte(nil), c...)
	}
	for _, f := range d.Frames[1 : i+1] {
		for _, ld := range f.Diff {
			layer := out[ld[0]]
			for k := 1; k+2 < len(ld); k += 3 {
				at, n, v := ld[k], ld[k+1], byte(ld[k+2])
				for c := at; c < at+n; c++ {
					layer[c] = v
				}
			}
		}
	}
	return out
}
