package splix_test

import (
	"context"
	"testing"
	"time"

	"judge/games"
	"judge/games/catalog"
	"judge/games/splix"
	"judge/judge"
	"judge/judge/judgetest"
	"judge/judge/procbot"
)

func TestMain(m *testing.M) { judgetest.Main(m) }

const (
	looper = "examples/splix/looper"
	random = "examples/splix/random_bot.py"
)

// TestExamples plays the looper against two random bots on a small board,
// seats turning from game to game, and checks the results against the
// rules played again from the replay.
func TestExamples(t *testing.T) {
	v, err := catalog.Lookup("splix-small")
	if err != nil {
		t.Fatal(err)
	}
	params, err := v.Resolve(games.Params{"size": 24, "turns": 150, "players": 3})
	if err != nil {
		t.Fatal(err)
	}
	bots := map[string][]string{looper: judgetest.Bot(t, looper), random: judgetest.Bot(t, random)}
	total := map[string]float64{}
	games := map[string]int{}
	for seed := uint64(1); seed <= 3; seed++ {
		names := []string{random, random, random}
		names[seed%3] = looper
		m := judge.Match{Game: v.Game, Name: v.Name, Params: params, Seed: seed, Limits: judge.DefaultTurnLimits}
		for _, name := range names {
			m.Entrants = append(m.Entrants, procbot.Bot{Spec: procbot.Spec{Name: name, Argv: bots[name]}, Options: judgetest.Proc(procbot.Options{})})
		}
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		res, err := judge.Run(ctx, m)
		cancel()
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		for i, p := range res.Players {
			if p.Status != judge.OK {
				t.Errorf("seed %d: seat %d (%s): %s: %s", seed, i, p.Name, p.Status, p.Reason)
			}
		}
		if _, _, err := judge.Playback(v.Game, res.Replay); err != nil {
			t.Errorf("seed %d: the replay does not play back: %v", seed, err)
		}
		st := replay(t, res, params)
		checkScores(t, seed, res, st, params["size"])
		for i, p := range res.Players {
			total[names[i]] += p.Score
			games[names[i]]++
		}
		t.Logf("seed %d: %v: scores %v, %s", seed, names, scores(res), res.Reason)
	}
	avgLooper, avgRandom := total[looper]/float64(games[looper]), total[random]/float64(games[random])
	if avgLooper <= avgRandom {
		t.Errorf("the looper scores %.1f on average, the random bot %.1f: want the looper ahead", avgLooper, avgRandom)
	}
}

func scores(res *judge.Result) []float64 {
	var s []float64
	for _, p := range res.Players {
		s = append(s, p.Score)
	}
	return s
}

// replay plays the match's recorded moves again on a fresh state.
func replay(t *testing.T, res *judge.Result, params games.Params) *splix.State {
	t.Helper()
	st, err := splix.New(params["size"], params["turns"], params["players"], res.Seed)
	if err != nil {
		t.Fatal(err)
	}
	for _, turn := range res.Replay.Turns {
		moves := map[int]games.Move{}
		for _, m := range turn.Moves {
			if m.Status != judge.OK {
				st.Forfeit(m.Seat)
				continue
			}
			moves[m.Seat] = m.Move
		}
		if st.Outcome().Over {
			break
		}
		if err := st.Apply(moves); err != nil {
			t.Fatalf("turn %d: %v", turn.Turn, err)
		}
	}
	if !st.Outcome().Over {
		t.Fatalf("the replayed game is not over")
	}
	return st
}

// checkScores: a dead player scores 0, a living one 300 per kill plus its
// land; the land of all fits on the board; the winner is the one top
// scorer.
func checkScores(t *testing.T, seed uint64, res *judge.Result, st *splix.State, size int) {
	t.Helper()
	land, best, tops := 0, -1.0, 0
	for i, p := range res.Players {
		_, _, _, alive := st.Head(i)
		want := 0
		if alive {
			want = splix.KillScore*st.Kills(i) + st.Land(i)
			land += st.Land(i)
		}
		if p.Score != float64(want) {
			t.Errorf("seed %d: seat %d scored %v, the rules say %d (alive %v, kills %d, land %d)",
				seed, i, p.Score, want, alive, st.Kills(i), st.Land(i))
		}
		switch {
		case p.Score > best:
			best, tops = p.Score, 1
		case p.Score == best:
			tops++
		}
	}
	if land > size*size {
		t.Errorf("seed %d: %d cells of land on a %d×%d board", seed, land, size, size)
	}
	if tops == 1 && (res.Winner < 0 || res.Players[res.Winner].Score != best) || tops > 1 && res.Winner != -1 {
		t.Errorf("seed %d: winner %d with scores %v", seed, res.Winner, scores(res))
	}
}
