package replayview_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"judge/games"
	"judge/games/catalog"
	"judge/judge"
	"judge/judge/judgetest"
	"judge/judge/procbot"
	"judge/judge/replayview"
)

func TestMain(m *testing.M) { judgetest.Main(m) }

// A real match of each game between example bots, with transcripts.
type match struct {
	name    string
	variant string
	params  games.Params
	seed    uint64
	bots    []string
}

var matches = []match{
	{name: "tictactoe", variant: "tictactoe", seed: 1, bots: []string{"examples/gomoku/strong", "examples/gomoku/random.c"}},
	{name: "gomoku", variant: "gomoku", seed: 2, params: games.Params{"n": 9}, bots: []string{"examples/gomoku/strong", "examples/gomoku/random.c"}},
	{name: "connect4", variant: "connect4", seed: 3, bots: []string{"examples/connect4/random.c", "examples/connect4/random.c"}},
	{name: "battleship", variant: "battleship", seed: 4, bots: []string{"examples/battleship/hunter", "examples/battleship/random.c"}},
	// The Ruby contest's rules judge shots their own way.
	{name: "battleship-contest", variant: "battleship-contest", seed: 7, bots: []string{"examples/battleship/random.c", "examples/battleship/hunter"}},
	// A bot that crashes on its second turn: the viewer shows why.
	{name: "crash", variant: "tictactoe", seed: 6, bots: []string{"examples/gomoku/strong", "judge/procbot/testdata/crash.c"}},
	// A bot that writes to its stderr in every turn.
	{name: "stderr", variant: "tictactoe", seed: 1, bots: []string{"judge/procbot/testdata/stderr_turns.py", "examples/gomoku/random.c"}},
	{name: "splix", variant: "splix-small", seed: 5, params: games.Params{"size": 24, "turns": 120, "players": 3},
		bots: []string{"examples/splix/looper", "examples/splix/looper", "examples/splix/looper"}},
}

var (
	playedMu sync.Mutex
	played   = map[string]*judge.Replay{}
)

// replay plays mt once per test binary and returns its replay.
func replay(t testing.TB, mt match) *judge.Replay {
	t.Helper()
	playedMu.Lock()
	defer playedMu.Unlock()
	if rp := played[mt.name]; rp != nil {
		return rp
	}
	var specs []procbot.Spec
	for i, b := range mt.bots {
		specs = append(specs, judgetest.Spec(t, fmt.Sprintf("%s-%d", b[strings.Index(b, "/")+1:], i), b))
	}
	res := judgetest.Play(t, mt.variant, mt.seed, func(m *judgetest.Setup) {
		m.Params = mt.params
		m.Trace = true
	}, specs...)
	played[mt.name] = res.Replay
	return res.Replay
}

func gameOf(t testing.TB, rp *judge.Replay) games.Game {
	t.Helper()
	v, err := catalog.Lookup(rp.Game)
	if err != nil {
		t.Fatal(err)
	}
	return v.Game
}

// TestDecode: the cells the viewer rebuilds from the start and the
// changes, frame by frame, are the game's views after each turn played
// again; each frame has the turn's moves and the view's marks and lines.
func TestDecode(t *testing.T) {
	for _, mt := range matches {
		t.Run(mt.name, func(t *testing.T) {
			rp := replay(t, mt)
			g := gameOf(t, rp)
			d, err := replayview.Decode(g, rp)
			if err != nil {
				t.Fatal(err)
			}
			if len(d.Frames) != len(rp.Turns)+1 {
				t.Fatalf("%d frames for %d turns", len(d.Frames), len(rp.Turns))
			}
			var want []games.View
			err = replayview.Play(g, rp, func(s replayview.Step) error {
				want = append(want, s.State.(games.Viewer).View())
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			for i, v := range want {
				layers := v.Grids
				for _, seen := range v.Seen {
					layers = append(layers, seen...)
				}
				got := d.Cells(i)
				for l := range layers {
					if !bytes.Equal(got[l], layers[l].Cells) {
						t.Fatalf("frame %d, layer %d: cells\n%v\nwant\n%v", i, l, got[l], layers[l].Cells)
					}
				}
				f := d.Frames[i]
				if i > 0 && (f.Turn != rp.Turns[i-1].Turn || !reflect.DeepEqual(f.Moves, rp.Turns[i-1].Moves)) {
					t.Fatalf("frame %d: turn %d, moves %v; want turn %d", i, f.Turn, f.Moves, rp.Turns[i-1].Turn)
				}
				if len(v.Marks) > 0 && !reflect.DeepEqual(f.Marks, v.Marks) || !reflect.DeepEqual(f.Seats, v.Seats) {
					t.Fatalf("frame %d: marks %v, lines %q; want %v, %q", i, f.Marks, f.Seats, v.Marks, v.Seats)
				}
			}
			if last := d.Frames[len(d.Frames)-1]; last.Over == "" {
				t.Errorf("the last frame does not say how the game ended")
			}
			if d.Outcome.Winner != rp.Outcome.Winner {
				t.Errorf("outcome %+v, want %+v", d.Outcome, rp.Outcome)
			}
		})
	}
}

// TestTurnTraces: each seat's transcript, cut into turns, is whole and in
// order, and every turn the seat played ends with its #END.
func TestTurnTraces(t *testing.T) {
	for _, mt := range matches {
		t.Run(mt.name, func(t *testing.T) {
			rp := replay(t, mt)
			tt := replayview.TurnTraces(rp)
			if len(tt) != len(rp.Turns) {
				t.Fatalf("%d turns of transcript for %d turns", len(tt), len(rp.Turns))
			}
			for seat, b := range rp.Bots {
				if len(b.Trace) == 0 {
					t.Fatalf("seat %d has no transcript", seat)
				}
				var all []judge.TraceLine
				for i, turn := range rp.Turns {
					part := tt[i][seat]
					all = append(all, part...)
					for _, m := range turn.Moves {
						if m.Seat != seat || m.Status != judge.OK {
							continue
						}
						if len(part) == 0 || part[len(part)-1].Line != "#END" {
							t.Fatalf("turn %d, seat %d: the transcript does not end with #END: %v", turn.Turn, seat, part)
						}
					}
				}
				if !reflect.DeepEqual(all, b.Trace) {
					t.Fatalf("seat %d: the turns' transcripts put together are not the transcript", seat)
				}
			}
		})
	}
}

// TestPlayRefuses: a replay whose moves the rules refuse, or whose
// winner they contradict, does not decode.
func TestPlayRefuses(t *testing.T) {
	rp := replay(t, matches[0])
	g := gameOf(t, rp)
	bad := *rp
	bad.Outcome.Winner = 1 - rp.Outcome.Winner
	if _, err := replayview.Decode(g, &bad); err == nil {
		t.Error("a replay with the wrong winner decoded")
	}
	bad = *rp
	bad.Turns = append([]judge.ReplayTurn(nil), rp.Turns...)
	bad.Turns[1].Moves = []judge.TurnMove{{Seat: 1, Move: games.Move{"PlaceSymbol 9 9"}, Status: judge.OK}}
	if _, err := replayview.Decode(g, &bad); err == nil {
		t.Error("a replay with a move off the board decoded")
	}
	for _, moves := range [][]judge.TurnMove{
		{{Seat: 2, Status: judge.Crash}},
		{{Seat: -1, Status: judge.Crash}},
		{{Seat: 0, Status: judge.Crash}, {Seat: 0, Status: judge.Crash}},
		{{Seat: rp.Turns[1].Moves[0].Seat ^ 1, Move: games.Move{"PlaceSymbol 0 0"}, Status: judge.OK}},
	} {
		bad = *rp
		bad.Turns = append([]judge.ReplayTurn(nil), rp.Turns...)
		bad.Turns[1].Moves = moves
		if err := replayview.Play(g, &bad, func(replayview.Step) error { return nil }); err == nil {
			t.Errorf("a replay with the moves %+v played", moves)
		}
	}
}

// TestDiff: applying the runs of changed cells to the old cells gives the
// new ones, on random cells with few values (long runs) and many.
func TestDiff(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, values := range []int{2, 3, 256} {
		for range 200 {
			n := rng.IntN(300)
			a, b := make([]byte, n), make([]byte, n)
			for i := range a {
				a[i] = byte(rng.IntN(values))
				b[i] = a[i]
				if rng.IntN(4) == 0 {
					b[i] = byte(rng.IntN(values))
				}
			}
			got := append([]byte(nil), a...)
			runs := replayview.Diff(a, b)
			for k := 0; k+2 < len(runs); k += 3 {
				if runs[k+1] < 1 {
					t.Fatalf("empty run in %v", runs)
				}
				for c := runs[k]; c < runs[k]+runs[k+1]; c++ {
					got[c] = byte(runs[k+2])
				}
			}
			if !bytes.Equal(got, b) {
				t.Fatalf("diff(%v, %v) = %v", a, b, runs)
			}
		}
	}
}

// TestOldReplayLoads: a replay without per-turn stderr or transcripts
// (the golden replay of package procbot) decodes and makes a page.
func TestOldReplayLoads(t *testing.T) {
	f, err := os.Open(filepath.Join("..", "procbot", "testdata", "golden", "tictactoe-strong-override.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rp, err := judge.ReadReplay(f)
	if err != nil {
		t.Fatal(err)
	}
	var page bytes.Buffer
	if err := replayview.WriteHTML(&page, gameOf(t, rp), rp); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(page.String(), `"moves":[{"seat":0,`) || strings.Contains(page.String(), `"stderr_cut"`) {
		t.Errorf("the page's data is not the replay's: %.300s", page.String())
	}
}

// TestFrameNumbers: a view's per-seat numbers go into its frame, for the
// viewer's charts.
func TestFrameNumbers(t *testing.T) {
	var enc replayview.Encoder
	v := games.View{Grids: []games.Grid{{W: 1, H: 1, Cells: []byte{'.'}}}, Numbers: map[string][]float64{"discs": {2, 3}}}
	for range 2 {
		f, err := enc.Frame(v)
		if err != nil || !reflect.DeepEqual(f.Numbers, v.Numbers) {
			t.Fatalf("frame %+v, %v; want numbers %v", f, err, v.Numbers)
		}
		b, _ := json.Marshal(f)
		if !strings.Contains(string(b), `"numbers":{"discs":[2,3]}`) {
			t.Errorf("%s", b)
		}
	}
}
