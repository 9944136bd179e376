package arena_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"judge/judge/arena"
)

// BenchmarkStandings is the cost of reading the ladder and fitting its
// ratings, which every ladder match's pairing pays, as the ladder grows:
// 30 submissions, 1000 to 30000 matches. Cold: the arena just opened,
// every match read; warm: the ladder read before, nothing new since.
func BenchmarkStandings(b *testing.B) {
	for _, n := range []int{1000, 10000, 30000} {
		ctx := context.Background()
		dir := filepath.Join(b.TempDir(), "arena")
		if err := arena.Init(dir, arena.Config{Game: "tictactoe"}); err != nil {
			b.Fatal(err)
		}
		a, err := arena.Open(ctx, dir)
		if err != nil {
			b.Fatal(err)
		}
		if err := arena.Fill(ctx, a, 30, n); err != nil {
			b.Fatal(err)
		}
		a.Close()
		standings := func(b *testing.B, a *arena.Arena) {
			m, st, err := a.Standings(ctx)
			if err != nil || m != n || len(st) != 30 {
				b.Fatalf("%d matches, %d standings, %v", m, len(st), err)
			}
		}
		b.Run(fmt.Sprintf("cold/matches=%d", n), func(b *testing.B) {
			for range b.N {
				a, err := arena.Open(ctx, dir)
				if err != nil {
					b.Fatal(err)
				}
				standings(b, a)
				a.Close()
			}
		})
		b.Run(fmt.Sprintf("warm/matches=%d", n), func(b *testing.B) {
			a, err := arena.Open(ctx, dir)
			if err != nil {
				b.Fatal(err)
			}
			defer a.Close()
			standings(b, a)
			b.ResetTimer()
			for range b.N {
				standings(b, a)
			}
		})
	}
}
