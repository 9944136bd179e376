package splix

import (
	"bytes"
	"fmt"
	"testing"

	"judge/games"
	"judge/games/gametest"
)

func TestLaggedConformance(t *testing.T) {
	gametest.Check(t, Game{}, games.Params{"size": 16, "turns": 60, "players": 3, "lag": 1}, randomPlayer,
		gametest.Playouts(25), gametest.Queries(queries...), gametest.Illegal(illegal))
}

// TestLaggedTurns plays one turn by the contest controller's rules, boards
// drawn as in TestTurns: a head off its land stands on no trail of its own.
func TestLaggedTurns(t *testing.T) {
	for _, tc := range []turnCase{
		{
			name:    "leaving its land a player draws no trail yet",
			players: 2,
			before: `
				.  .   .   .   .
				.  .   .   .   .
				.  0   0A  0   .
				.  0   0   0   1
				.  .   .   .   1B`,
			after: `
				.  .   .   .   .
				.  .   .A  .   .
				.  0   0   0   .
				.  0   0   0   1B
				.  .   .   .   1`,
		},
		{
			name:    "the cell left becomes trail one step later",
			players: 2,
			before: `
				.  .   .   .   .
				.  .   .A  .   .
				.  0   0   0   .
				.  0   0   0   1B
				.  .   .   .   1`,
			moves: map[int]string{1: "S"},
			after: `
				.  .   .A  .   .
				.  .   .a  .   .
				.  0   0   0   .
				.  0   0   0   1
				.  .   .   .   1B`,
		},
		{
			name:    "coming home, the cell left and the trail become land and the loop fills",
			players: 2,
			before: `
				.  .a  .a  .a  .
				.  .a  .   .A  .
				.  0   0   0   .
				.  0   0   0   1
				.  .   .   .   1B`,
			moves: map[int]string{0: "S"},
			after: `
				.  0   0   0   .
				.  0   0   0   .
				.  0   0   0A  .
				.  0   0   0   1B
				.  .   .   .   1`,
		},
		{
			name:     "onto the cell a player is leaving: it dies though no trail is there",
			players:  2,
			headings: map[int]Dir{0: East, 1: South},
			before: `
				.  .   1B  1   .
				.  .a  .A  .   .
				.  .a  .   .   .
				0  0   .   .   .
				0  0   .   .   .`,
			after: `
				.  .   1   1   .
				.  .   .B  .   .
				.  .   .   .   .
				.  .   .   .   .
				.  .   .   .   .`,
			kills: []int{0, 1},
		},
		{
			name:     "leaving its land, killed by a player taking the cell it left",
			players:  2,
			headings: map[int]Dir{1: West},
			before: `
				.  .   .   .   .
				.  .   .   .   .
				.  .   .   .   .
				0  0A  1B  1   .
				0  0   .   .   .`,
			after: `
				.  .   .   .   .
				.  .   .   .   .
				.  .   .   .   .
				.  .B  1   1   .
				.  .   .   .   .`,
			kills: []int{0, 1},
		},
		{
			name:     "back onto the cell just left, off its land, is its own trail",
			players:  2,
			headings: map[int]Dir{1: South},
			before: `
				.  .   .   .   .
				.  .A  .   .   1B
				.  .a  .   .   1
				0  0   .   .   .
				0  0   .   .   .`,
			moves: map[int]string{0: "S"},
			after: `
				.  .   .   .   .
				.  .   .   .   1
				.  .   .   .   1B
				.  .   .   .   .
				.  .   .   .   .`,
		},
		{
			name:     "back onto its land one step out: the cell left becomes land",
			players:  2,
			headings: map[int]Dir{1: South},
			before: `
				.  .   .   .   .
				.  .   .   .   1B
				.  .A  .   .   1
				0  0   .   .   .
				0  0   .   .   .`,
			moves: map[int]string{0: "S"},
			after: `
				.  .   .   .   .
				.  .   .   .   1
				.  0   .   .   1B
				0  0A  .   .   .
				0  0   .   .   .`,
		},
		{
			name:     "two players cut one trail: only the last seat is credited",
			players:  3,
			headings: map[int]Dir{0: East, 1: South, 2: West},
			before: `
				.   .   .   .   .
				.   .B  .   .   .
				.a  .a  .A  .   .
				.a  .C  .   .   .
				0   0   .   .   .`,
			after: `
				.   .   .   .   .
				.   .b  .   .   .
				.   .B  .   .   .
				.C  .c  .   .   .
				.   .   .   .   .`,
			kills: []int{0, 0, 1},
		},
		{
			name:     "no fill while another player's trail lies on the land around the area",
			players:  2,
			headings: map[int]Dir{1: West},
			before: `
				.  .a  .a  .a  .
				.  .a  .   .A  .
				.  0B  0b  0   .
				.  0   0b  0b  1
				.  .   .   .   1`,
			moves: map[int]string{0: "S"},
			after: `
				.  0   0   0   .
				.  0   .   0   .
				.B 0b  0b  0A  .
				.  0   0b  0b  1
				.  .   .   .   1`,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := ParseLagged(tc.players, 100, tc.before)
			if err != nil {
				t.Fatalf("ParseLagged: %v\n%s", err, tc.before)
			}
			for seat, d := range tc.headings {
				s.SetHeading(seat, d)
			}
			play(t, s, tc.moves)
			want, err := ParseLagged(tc.players, 100, tc.after)
			if err != nil {
				t.Fatalf("ParseLagged: %v\n%s", err, tc.after)
			}
			if got, want := s.Draw(), want.Draw(); got != want {
				t.Errorf("after the turn:\n%s\nwant:\n%s", got, want)
			}
			if err := s.check(); err != nil {
				t.Errorf("inconsistent state: %v\n%s", err, s.Render())
			}
			for i := range s.p {
				k := 0
				if tc.kills != nil {
					k = tc.kills[i]
				}
				if s.p[i].kills != k {
					t.Errorf("seat %d has %d kills, want %d", i, s.p[i].kills, k)
				}
			}
		})
	}
}

// TestLaggedTrailLength follows a player out of its land: after k steps
// out its trail has k-1 cells, the count a contest player adds one to.
func TestLaggedTrailLength(t *testing.T) {
	s, err := ParseLagged(2, 100, `
		.  .   .   .   .   .   .
		.  .   .   .   .   .   .
		.  .   .   .   .   .   .
		.  .   .   .   .   .   .
		0  0A  0   .   .   .   .
		0  0   0   .   .   .   1
		.  .   .   .   .   .   1B`)
	if err != nil {
		t.Fatal(err)
	}
	for k := 1; k <= 4; k++ {
		play(t, s, map[int]string{0: "N", 1: []string{"S", "N"}[k%2]})
		if got := len(s.p[0].trail); got != k-1 {
			t.Fatalf("after %d steps out: a trail of %d, want %d\n%s", k, got, k-1, s.Draw())
		}
		if x, y, _, _ := s.Head(0); s.TrailAt(x, y) != -1 {
			t.Fatalf("after %d steps out: trail under the head\n%s", k, s.Draw())
		}
	}
}

// TestLaggedGameParam: the lag parameter chooses the rules.
func TestLaggedGameParam(t *testing.T) {
	for _, lag := range []int{0, 1} {
		st, err := Game{}.New(games.Params{"size": 20, "turns": 10, "players": 2, "lag": lag}, 1)
		if err != nil {
			t.Fatal(err)
		}
		if got := st.(*State).lag; got != (lag == 1) {
			t.Errorf("lag=%d: state plays lagged %v", lag, got)
		}
	}
	if _, err := (Game{}).New(games.Params{"lag": 2}, 1); err == nil {
		t.Error("lag=2 accepted")
	}
}

// TestLaggedForfeitFills: a player that leaves the game by failing leaves
// its land and head to be filled around, as a death does.
func TestLaggedForfeitFills(t *testing.T) {
	s, err := ParseLagged(2, 100, `
		.  .   .   .   .
		.  0   0   0   .
		.  0   1B  0   .
		.  0   0   0A  .
		.  .   .   .   .`)
	if err != nil {
		t.Fatal(err)
	}
	s.Forfeit(1)
	if got := s.Owner(2, 2); got != 0 {
		t.Errorf("the cell the player left is seat %d's, want 0's\n%s", got, s.Draw())
	}
}

// FuzzLaggedGame plays a game by the controller's rules by walkers twice,
// filling with fillNear in one copy and its slow reference in the other.
func FuzzLaggedGame(f *testing.F) {
	for seed := uint64(1); seed <= 6; seed++ {
		f.Add(seed, uint8(seed*7), uint8(2+seed%4))
	}
	f.Fuzz(func(t *testing.T, seed uint64, size, players uint8) {
		n := 12 + int(size)%25
		k := 2 + int(players)%4
		fast, err := New(n, 400, k, seed)
		if err != nil {
			t.Skip(err)
		}
		fast.lag = true
		slow := fast.Clone()
		slow.slow = true
		ws := newWalkers(seed, k)
		for !fast.Outcome().Over {
			dirs := fast.walk(ws)
			fast.step(dirs)
			slow.step(dirs)
			if err := fast.check(); err != nil {
				t.Fatalf("turn %d: %v\n%s", fast.turn, err, fast.Render())
			}
			if !bytes.Equal(fast.owner, slow.owner) || !bytes.Equal(fast.trail, slow.trail) {
				t.Fatalf("turn %d: fillNear\n%s\nslow\n%s", fast.turn, fast.Draw(), slow.Draw())
			}
		}
		if a, b := fast.Outcome(), slow.Outcome(); fmt.Sprint(a) != fmt.Sprint(b) {
			t.Fatalf("outcomes %+v and %+v", a, b)
		}
	})
}
