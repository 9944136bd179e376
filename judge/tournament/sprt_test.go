package tournament

import (
	"context"
	"io"
	"judge/judge/procbot"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"judge/games/catalog"
	"judge/judge"
	"judge/judge/judgetest"
	"judge/judge/sprt"
)

func sprtOptions(t *testing.T, out, a, b string) SPRTOptions {
	t.Helper()
	v, err := catalog.Lookup("tictactoe")
	if err != nil {
		t.Fatal(err)
	}
	o := SPRTOptions{
		Match: judge.Match{Game: v.Game, Name: v.Name, Params: v.Params, Limits: judge.DefaultTurnLimits},
		A:     a, B: b,
		Test: sprt.Test{Elo0: 0, Elo1: 200, Alpha: 0.05, Beta: 0.05},
		Seed: 3, Jobs: 2, Out: out,
		Log: io.Discard,
	}
	var to Options
	use(&to, testLanguages(t), procbot.Options{Host: judgetest.Host()})
	o.Prepare, o.Retry, o.Match.Serve = to.Prepare, to.Retry, to.Match.Serve
	return o
}

// TestSPRT plays the strong tic-tac-toe bot against the random one both
// ways round: each test stops early with the right verdict, and running
// it again plays nothing more.
func TestSPRT(t *testing.T) {
	if testing.Short() {
		t.Skip("plays real games")
	}
	random := strings.Join(judgetest.Bot(t, "examples/gomoku/random.c"), " ")
	strong := strings.Join(judgetest.Bot(t, "examples/gomoku/strong"), " ")
	for _, c := range []struct {
		name string
		a, b string
		want sprt.Verdict
	}{
		{"strong is stronger", random, strong, sprt.H1},
		{"random is not", strong, random, sprt.H0},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(tempDir(t), "sprt")
			o := sprtOptions(t, out, c.a, c.b)
			var lines int
			o.Live = func(st *SPRTState) { lines++ }
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			st, err := RunSPRT(ctx, o)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s vs %s: %d games, W/D/L %d/%d/%d, LLR %.2f, Elo %v", st.B, st.A, st.Games(), st.W, st.D, st.L, st.LLR, st.Elo)
			if st.Verdict != c.want {
				t.Fatalf("verdict %v after %d games (LLR %.2f, W/D/L %d/%d/%d), want %v", st.Verdict, st.Games(), st.LLR, st.W, st.D, st.L, c.want)
			}
			if st.Games() >= 100 || st.Limited {
				t.Errorf("%d games: the test did not stop early", st.Games())
			}
			if lines != st.Pairs {
				t.Errorf("%d live reports for %d pairs", lines, st.Pairs)
			}
			if st.W+st.D+st.L != st.Games() {
				t.Errorf("W/D/L %d/%d/%d for %d games", st.W, st.D, st.L, st.Games())
			}
			recs, _, err := ReadLog(filepath.Join(out, LogName))
			if err != nil {
				t.Fatal(err)
			}
			// Each pair: the same seed, the seats swapped.
			byID := map[string]*MatchRecord{}
			for _, r := range recs {
				if r.Match != nil {
					byID[r.Match.ID] = r.Match
				}
			}
			for k := 1; k <= st.Pairs; k++ {
				f := pairFixtures(k, []string{st.A, st.B})
				r0, r1 := byID[f[0].ID], byID[f[1].ID]
				if r0 == nil || r1 == nil {
					t.Fatalf("pair %d: not recorded", k)
				}
				if r0.Seed != r1.Seed {
					t.Errorf("pair %d: seeds %d and %d", k, r0.Seed, r1.Seed)
				}
				if r0.Players[0].Name != st.A || r1.Players[0].Name != st.B {
					t.Errorf("pair %d: seat 0 is %s, then %s", k, r0.Players[0].Name, r1.Players[0].Name)
				}
			}
			if k := pairFixtures(2, []string{st.A, st.B}); byID[k[0].ID].Seed == byID[pairFixtures(1, []string{st.A, st.B})[0].ID].Seed {
				t.Errorf("pairs 1 and 2 have the same seed")
			}

			// Again: everything is recorded, nothing is played.
			o.Live = nil
			again, err := RunSPRT(ctx, o)
			if err != nil {
				t.Fatal(err)
			}
			if again.Recorded != st.Pairs || again.Verdict != st.Verdict || again.LLR != st.LLR {
				t.Errorf("resumed: %d pairs recorded, verdict %v, LLR %v; want %d, %v, %v", again.Recorded, again.Verdict, again.LLR, st.Pairs, st.Verdict, st.LLR)
			}
			recs2, _, _ := ReadLog(filepath.Join(out, LogName))
			if n, n2 := countKind(recs, KindMatch), countKind(recs2, KindMatch); n2 != n {
				t.Errorf("resumed: %d games recorded, was %d", n2, n)
			}
		})
	}
}

func countKind(recs []*Record, kind string) int {
	n := 0
	for _, r := range recs {
		if r.Kind == kind {
			n++
		}
	}
	return n
}

// TestSPRTLimit stops undecided at the game limit, and a tournament
// directory is not taken for a test.
func TestSPRTLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("plays real games")
	}
	random := strings.Join(judgetest.Bot(t, "examples/gomoku/random.c"), " ")
	out := filepath.Join(tempDir(t), "sprt")
	o := sprtOptions(t, out, random, random+" ")
	o.Test = sprt.Default
	o.MaxGames = 6
	st, err := RunSPRT(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if st.Verdict != sprt.Continue || !st.Limited || st.Games() != 6 {
		t.Errorf("verdict %v, limited %v, %d games; want undecided after 6", st.Verdict, st.Limited, st.Games())
	}
	// A Tournament in the same directory is refused.
	to := options(t, out, "", []string{random, random + " "})
	if _, err := Run(context.Background(), to); err == nil || !strings.Contains(err.Error(), "another") {
		t.Errorf("tournament in a test's directory: %v", err)
	}
}
