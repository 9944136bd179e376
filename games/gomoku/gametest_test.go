package gomoku_test

import (
	"math/rand/v2"
	"strconv"
	"testing"

	"judge/games"
	"judge/games/gametest"
	"judge/games/gomoku"
)

func randomPlayer(st games.State, seat int, rng *rand.Rand) games.Move {
	s := st.(*gomoku.State)
	n, _ := s.Size()
	var free [][2]int
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			if s.At(x, y) == gomoku.Empty {
				free = append(free, [2]int{x, y})
			}
		}
	}
	c := free[rng.IntN(len(free))]
	return games.Move{"PlaceSymbol " + strconv.Itoa(c[0]) + " " + strconv.Itoa(c[1])}
}

func illegal(st games.State, seat int, rng *rand.Rand) []games.Move {
	s := st.(*gomoku.State)
	n, _ := s.Size()
	bad := []games.Move{{}, {"PlaceSymbol -1 0"}, {"PlaceSymbol 0 " + strconv.Itoa(n)}, {"PlaceSymbol 1"}, {"PlaceSymbol"}}
	for i := 0; i < 5; i++ {
		x, y := rng.IntN(n), rng.IntN(n)
		if s.At(x, y) != gomoku.Empty {
			bad = append(bad, games.Move{"PlaceSymbol " + strconv.Itoa(x) + " " + strconv.Itoa(y)})
		}
	}
	return bad
}

func TestConformance(t *testing.T) {
	queries := gametest.Queries("CurrentTurn", "LastMove", "Board", "Params", "MySymbol",
		"SymbolAt 0 0", "SymbolAt 1 2", "SymbolAt 99 0", "SymbolAt")
	gametest.Check(t, gomoku.Game{}, games.Params{"n": 3, "k": 3}, randomPlayer, queries, gametest.Illegal(illegal))
	gametest.Check(t, gomoku.Game{}, games.Params{"n": 7, "k": 4}, randomPlayer, queries, gametest.Illegal(illegal),
		gametest.Seed(100), gametest.Playouts(20))
}
