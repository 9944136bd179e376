package splix

import (
	"testing"

	"judge/games"
)

// BenchmarkGame plays whole games at the contest's size: 200×200, 2000
// turns, 5 walkers. The walkers' own time is included.
func BenchmarkGame(b *testing.B) {
	b.Run("lag=0", func(b *testing.B) { benchGame(b, false) })
	b.Run("lag=1", func(b *testing.B) { benchGame(b, true) })
}

func benchGame(b *testing.B, lag bool) {
	turns := 0
	for i := 0; i < b.N; i++ {
		seed := uint64(i)
		s, err := New(200, 2000, 5, seed)
		if err != nil {
			b.Fatal(err)
		}
		s.lag = lag
		ws := newWalkers(seed, 5)
		for !s.Outcome().Over {
			s.step(s.walk(ws))
		}
		turns += s.turn - 1
	}
	b.ReportMetric(float64(turns)/float64(b.N), "turns/game")
}

// BenchmarkWalkers is the walkers' share of BenchmarkGame.
func BenchmarkWalkers(b *testing.B) {
	s, _ := New(200, 2000, 5, 1)
	ws := newWalkers(1, 5)
	for i := 0; i < b.N; i++ {
		s.walk(ws)
	}
}

// BenchmarkFill fills around a large land: a 150×150 ring of land with
// an empty inside, the worst case for one capture.
func BenchmarkFill(b *testing.B) {
	for _, slow := range []bool{false, true} {
		name := "fast"
		if slow {
			name = "slow"
		}
		b.Run(name, func(b *testing.B) {
			s := empty(200, 10, 2)
			for y := 20; y < 170; y++ {
				for x := 20; x < 170; x++ {
					if x == 20 || y == 20 || x == 169 || y == 169 {
						s.setOwner(y*200+x, 1)
					}
				}
			}
			s.p[0].alive, s.p[1].alive = true, true
			s.p[1].x, s.p[1].y = 100, 100 // inside: nothing is filled
			s.slow = slow
			for i := 0; i < b.N; i++ {
				s.fill(0)
			}
		})
	}
}

// BenchmarkQueries answers one turn's worth of the looper's queries on
// the contest's board: Board, Trails, View and Players.
func BenchmarkQueries(b *testing.B) {
	s, _ := New(200, 2000, 5, 1)
	lines := []games.Line{
		games.ParseLine("Board"), games.ParseLine("Trails"),
		games.ParseLine("View"), games.ParseLine("Players"),
	}
	for i := 0; i < b.N; i++ {
		for _, l := range lines {
			if _, err := s.Query(i%5, l); err != nil {
				b.Fatal(err)
			}
		}
	}
}
