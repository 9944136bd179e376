package judge

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"judge/games"
)

// Point is one moment that decided a match, for people: the turn, the
// seat it is about, and what happened, in words with the bots' names.
type Point struct {
	Turn int `json:"turn"` // the turn it happened in, from 1
	Seat int `json:"seat"` // the seat it is about; -1 for none (a draw)
	// Kind is PointFault, PointEnd, or the kind of the game's note
	// (games.NoteThreat, games.NoteSunk, games.NoteDeath).
	Kind string `json:"kind"`
	Text string `json:"text"`
}

// Point kinds of the judge's own.
const (
	PointFault = "fault" // a seat failed: crashed, timed out, broke the rules
	PointEnd   = "end"   // how the game ended
)

// Explain says why the match of rp ended as it did and where it turned,
// replaying it through game's rules (the game rp.Game names): each seat's
// fault (which turn, what happened, what the protocol expected), the
// turns the game names as decisive (games.Explainer: the last threat each
// seat left open, every ship sunk, every player killed), then the end.
// Points are in turn order, the end last. It fails as Playback does.
func Explain(game games.Game, rp *Replay) ([]Point, error) {
	var (
		points []Point
		name   func(string) string
	)
	err := walk(game, rp, func(i int, st games.State) {
		if i < 0 {
			name = Namer(st, rp)
			return
		}
		t := rp.Turns[i]
		for _, m := range t.Moves {
			if m.Status != OK {
				points = append(points, Point{Turn: t.Turn, Seat: m.Seat, Kind: PointFault, Text: faultText(t.Turn, m, name)})
			}
		}
		e, ok := st.(games.Explainer)
		if !ok {
			return
		}
		for _, n := range e.Explain() {
			points = append(points, Point{Turn: t.Turn, Seat: n.Seat, Kind: n.Kind, Text: name(n.Text)})
		}
	})
	if err != nil {
		return nil, err
	}
	// A threat decided the game when the opponent won on the next turn,
	// the last: earlier ones, never taken, did not.
	last := 0
	if n := len(rp.Turns); n > 0 {
		last = rp.Turns[n-1].Turn
	}
	kept := points[:0]
	for _, p := range points {
		if p.Kind == games.NoteThreat && (p.Turn != last-1 || rp.Outcome.Winner == p.Seat || rp.Outcome.Winner < 0) {
			continue
		}
		kept = append(kept, p)
	}
	points = kept
	o := rp.Outcome
	end := Point{Turn: last, Seat: o.Winner, Kind: PointEnd}
	reason := name(o.Reason)
	if o.Winner >= 0 && o.Winner < len(rp.Bots) {
		end.Text = fmt.Sprintf("%s wins after %s: %s", name("seat "+strconv.Itoa(o.Winner)), games.Plural(len(rp.Turns), "turn", "turns"), reason)
	} else {
		end.Text = fmt.Sprintf("no winner after %s: %s", games.Plural(len(rp.Turns), "turn", "turns"), reason)
	}
	return append(points, end), nil
}

// faultText is a seat's fault in words: who, what, at which turn, and
// the whole reason, which says what it wrote and what was expected.
func faultText(turn int, m TurnMove, name func(string) string) string {
	who := name("seat " + strconv.Itoa(m.Seat))
	w := fmt.Sprintf("%s %s at turn %d", who, m.Status.verb(false), turn)
	r := strings.TrimSpace(turnPrefix.ReplaceAllString(m.Reason, ""))
	if r == "" {
		return w
	}
	return w + ": " + r
}

// Namer returns what names the seats in a game's words, as the viewer
// does: "seat 1" becomes the bot's name, and in a two-player game of X
// and O (the state's view draws stones or discs) X and O become theirs,
// "alice (X)". Two bots of the same name are told apart by their seats.
// st is the game of rp, at any turn.
func Namer(st games.State, rp *Replay) func(string) string {
	symbols := false
	if v, ok := st.(games.Viewer); ok && len(rp.Bots) == 2 {
		var kinds []string
		if k, ok := st.(games.GridKinder); ok {
			kinds = k.GridKinds() // no drawing: a plugin's referee is not called
		} else {
			for _, g := range v.View().Grids {
				kinds = append(kinds, g.Kind)
			}
		}
		symbols = slices.Contains(kinds, games.KindStones) || slices.Contains(kinds, games.KindDiscs)
	}
	names := make([]string, len(rp.Bots))
	for i, b := range rp.Bots {
		var tags []string
		if symbols {
			tags = append(tags, string("XO"[i]))
		}
		for j, o := range rp.Bots {
			if j != i && o.Name == b.Name {
				tags = append(tags, "seat "+strconv.Itoa(i))
				break
			}
		}
		names[i] = b.Name
		if len(tags) > 0 {
			names[i] += " (" + strings.Join(tags, ", ") + ")"
		}
	}
	return func(text string) string {
		return seatWords.ReplaceAllStringFunc(text, func(w string) string {
			switch {
			case w == "X" || w == "O":
				if !symbols {
					return w
				}
				return names[strings.Index("XO", w)]
			}
			i, err := strconv.Atoi(strings.TrimPrefix(w, "seat "))
			if err != nil || i < 0 || i >= len(names) {
				return w
			}
			return names[i]
		})
	}
}

// seatWords are the words a game names seats with.
var seatWords = regexp.MustCompile(`\bseat [0-9]+\b|\b[XO]\b`)
