// Package standings is a bot's line in a contest's table, as a
// tournament and an arena both keep it: its games won, drawn and lost,
// counted by one rule (ResultOf, Standing.Count), its failures by kind,
// its score and its rating. How the lines are ranked, and where the ratings come
// from (package ratings), is each contest's.
package standings

import (
	"fmt"
	"math"

	"judge/judge"
)

// Standing is one bot's line. A tournament's standings.json holds these
// values: a contract for other tools.
type Standing struct {
	Rank       int      `json:"rank"`
	Name       string   `json:"name"`
	Played     int      `json:"played"`
	Wins       int      `json:"wins"`
	Draws      int      `json:"draws"`
	Losses     int      `json:"losses"`
	Score      float64  `json:"score"`     // points (two-player games) or average score per game
	Points     float64  `json:"points"`    // one per win, a half per draw
	AvgScore   float64  `json:"avg_score"` // the game's score per game
	Rating     float64  `json:"rating"`
	RatingLow  float64  `json:"rating_low"` // the rating's 95% interval
	RatingHigh float64  `json:"rating_high"`
	Failures   Failures `json:"failures"`
}

// Result is how a game went for one of its seats.
type Result string

const (
	Win  Result = "win"
	Draw Result = "draw"
	Loss Result = "loss"
)

// ResultOf is how a game went for seat: a win when it is the winner's, a
// draw when no seat won (winner < 0) and its score is the top score
// (scores, one per seat), a loss otherwise (in a game of several seats
// that no one won, the seats behind the top score lost).
func ResultOf(seat, winner int, scores []float64) Result {
	top := math.Inf(-1)
	for _, x := range scores {
		top = math.Max(top, x)
	}
	switch {
	case winner == seat:
		return Win
	case winner < 0 && scores[seat] == top:
		return Draw
	}
	return Loss
}

// Count counts a game the bot played in seat, as ResultOf says it went:
// a win is worth a point, a draw half of one.
func (s *Standing) Count(seat, winner int, scores []float64) {
	s.Played++
	switch ResultOf(seat, winner, scores) {
	case Win:
		s.Wins++
		s.Points++
	case Draw:
		s.Draws++
		s.Points += 0.5
	default:
		s.Losses++
	}
}

// Failures count how a bot's games went wrong, by status.
type Failures struct {
	Total    int    `json:"total"`
	Timeout  int    `json:"timeout"`
	Crash    int    `json:"crash"`
	Illegal  int    `json:"illegal"`
	Protocol int    `json:"protocol"`
	Output   int    `json:"output"`
	Memory   int    `json:"memory"`
	Last     string `json:"last,omitempty"` // the most recent: "r003-a-vs-b: timeout: no #END within 1s"
}

// Count counts a game that ended for the bot with status st: nothing
// when it is OK.
func (f *Failures) Count(st judge.Status) {
	if st == judge.OK {
		return
	}
	f.Total++
	switch st {
	case judge.Timeout:
		f.Timeout++
	case judge.Crash:
		f.Crash++
	case judge.Illegal:
		f.Illegal++
	case judge.Protocol:
		f.Protocol++
	case judge.Output:
		f.Output++
	case judge.Memory:
		f.Memory++
	}
}

// Add counts a game as Count does, and keeps a failure as the last one:
// where it happened (a match's ID), the status and the reason.
func (f *Failures) Add(st judge.Status, where, reason string) {
	if st == judge.OK {
		return
	}
	f.Count(st)
	f.Last = fmt.Sprintf("%s: %s", where, st)
	if reason != "" {
		f.Last += ": " + reason
	}
}
