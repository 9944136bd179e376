package human

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"judge/games"
	"judge/judge"
)

// Ending is the end of a game as the page shows it over the board: the
// result in words for the person, and each seat's part.
type Ending struct {
	Headline string `json:"headline"` // "You win: you made 3 in a row."
	Outcome  string `json:"outcome"`  // the person's: win, loss or draw
	// Winner, Reason and Params are the game's, for the drawing of its
	// end (the winning line, the sunk fleet).
	Winner  int          `json:"winner"`
	Reason  string       `json:"reason"`
	Params  games.Params `json:"params"`
	Players []EndPlayer  `json:"players"`
}

// EndPlayer is a seat's part of an Ending.
type EndPlayer struct {
	Name   string  `json:"name"` // with its symbol and colour: "random (O, blue)"
	You    bool    `json:"you"`
	Status string  `json:"status"`
	Score  float64 `json:"score"`
	Reason string  `json:"reason,omitempty"`
}

var (
	seatWord   = regexp.MustCompile(`\bseat (\d+)\b`)
	symbolWord = regexp.MustCompile(`\b[XO]\b`)
)

// EndOf is the end of res for the person in seat you.
func EndOf(res *judge.Result, you int) Ending {
	// The seats of gomoku and Connect Four are X and O.
	base, _, _ := strings.Cut(res.Game, "-")
	symbols := len(res.Players) == 2 && (base == "gomoku" || base == "tictactoe" || base == "connect4")
	name := func(s int) string {
		if s == you {
			return "you"
		}
		return res.Players[s].Name
	}
	// The game's words with its seats named: "X made 3 in a row" is
	// "you made 3 in a row".
	named := func(t string) string {
		t = seatWord.ReplaceAllStringFunc(t, func(w string) string {
			if s, err := strconv.Atoi(w[5:]); err == nil && s >= 0 && s < len(res.Players) {
				return name(s)
			}
			return w
		})
		if symbols {
			t = symbolWord.ReplaceAllStringFunc(t, func(c string) string {
				return name(strings.Index("XO", c))
			})
		}
		return t
	}
	e := Ending{Winner: res.Winner, Reason: res.Reason, Params: res.Params}
	reason := strings.ReplaceAll(named(res.Reason), "the whole fleet of you", "your whole fleet")
	switch {
	case res.Winner == you:
		e.Outcome, e.Headline = "win", "You win: "+reason
	case res.Winner >= 0 && res.Winner < len(res.Players):
		e.Outcome, e.Headline = "loss", name(res.Winner)+" wins: "+reason
	default:
		e.Outcome, e.Headline = "draw", "No winner: "+reason
	}
	if !strings.HasSuffix(e.Headline, ".") {
		e.Headline += "."
	}
	for s, p := range res.Players {
		tag := colorOf(s)
		if symbols {
			tag = string("XO"[s]) + ", " + tag
		}
		n := fmt.Sprintf("%s (%s)", p.Name, tag)
		e.Players = append(e.Players, EndPlayer{Name: n, You: s == you, Status: string(p.Status), Score: p.Score, Reason: named(p.Reason)})
	}
	return e
}
