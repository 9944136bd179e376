package splix

import (
	"embed"
	"fmt"
	"strconv"
	"strings"

	"judge/games"
)

// Play implements games.Playable: the view around the head, and a
// direction → Move d. The game's own view shows the whole board, more
// than a seat sees: the person is shown the View query's window, as a
// bot.
func (Game) Play(ps games.PlaySeat) (games.Plan, error) {
	a, err := ps.Asks("MySeat", "CurrentTurn", "TurnsLeft", "Position", "Players", "View")
	if err != nil {
		return games.Plan{}, err
	}
	seat, turn, left, pos, players, view := a[0], a[1], a[2], a[3], a[4], a[5]
	var v, st strings.Builder
	s, _ := strconv.Atoi(seat)
	head := string(rune('A' + s))
	fmt.Fprintf(&v, "Turn %s, %s to play. You are seat %s: %s your head, %s your trail, %s your land.\n",
		turn, left, seat, head, strings.ToLower(head), seat)
	fmt.Fprintf(&st, "Turn %s, %s to play. You are seat %s (%s).", turn, left, seat, games.SeatColour(s))
	if f := strings.Fields(pos); len(f) == 3 {
		fmt.Fprintf(&v, "You are at %s %s (x from the west, y from the south), heading %s.\n", f[0], f[1], f[2])
		fmt.Fprintf(&st, " At %s %s, heading %s.", f[0], f[1], f[2])
	}
	st.WriteString("\n")
	for _, l := range strings.Split(players, "\n") {
		f := strings.Fields(l)
		if len(f) != 7 {
			continue
		}
		who, color := "seat "+f[0], ""
		if n, err := strconv.Atoi(f[0]); err == nil {
			color = " (" + games.SeatColour(n) + ")"
		}
		if f[0] == seat {
			who += " (you)"
		}
		fmt.Fprintf(&v, "  %s: %s, land %s, kills %s, score %s\n", who, f[1], f[4], f[5], f[6])
		fmt.Fprintf(&st, "%s%s: %s, land %s, kills %s, score %s\n", who, color, f[1], f[4], f[5], f[6])
	}
	st.WriteString("Steer with the arrow keys; north is up.")
	for _, r := range viewRows(view) {
		v.WriteString("  " + strings.Join(r, " ") + "\n")
	}
	v.WriteString("North is up; # is off the board.")
	return games.Plan{Text: v.String(), Status: st.String(), Help: "Steer with the arrow keys (or type n, e, s, w); Enter goes straight on.", Board: func() games.View { return viewBoard(view) }, Steps: []games.Step{{
		Prompt: "your move (n, e, s, w or an arrow key; Enter goes straight on)",
		Parse:  parseDirection,
		Key:    true,
	}}}, nil
}

// viewRows splits the View query's answer into its rows of cells, single
// characters.
func viewRows(view string) [][]string {
	var out [][]string
	for _, l := range strings.Split(strings.TrimRight(view, "\n"), "\n") {
		if f := strings.Fields(l); len(f) > 1 || len(f) == 1 && len(f[0]) == 1 {
			out = append(out, f)
		} else {
			out = append(out, strings.Split(strings.TrimSpace(l), ""))
		}
	}
	return out
}

// viewBoard is the View query's square as a grid of land (a cell is
// owner | trail<<4, as in the game's own view), the heads as marks; off
// the board is drawn as no one's land.
func viewBoard(view string) games.View {
	rs := viewRows(view)
	h := len(rs)
	w := 0
	for _, r := range rs {
		w = max(w, len(r))
	}
	g := games.Grid{Name: "around you", Kind: games.KindLand, W: w, H: h, Cells: make([]byte, w*h)}
	var marks []games.Mark
	for y, r := range rs {
		for x, c := range r {
			if len(c) != 1 {
				continue
			}
			switch b := c[0]; {
			case b >= '0' && b <= '9':
				g.Cells[y*w+x] = b - '0' + 1
			case b >= 'a' && b <= 'z':
				g.Cells[y*w+x] = (b - 'a' + 1) << 4
			case b >= 'A' && b <= 'Z':
				marks = append(marks, games.Mark{X: x, Y: y, Seat: int(b - 'A'), Kind: games.MarkHead})
			}
		}
	}
	return games.View{Grids: []games.Grid{g}, Marks: marks}
}

// parseDirection reads a direction: a letter, a word, or an arrow key's
// escape sequence (typed before Enter).
func parseDirection(in string) ([]string, error) {
	if i := strings.LastIndex(in, "\x1b"); i >= 0 {
		seq := in[i:]
		if len(seq) == 3 && (seq[1] == '[' || seq[1] == 'O') {
			if d, ok := map[byte]string{'A': "N", 'B': "S", 'C': "E", 'D': "W"}[seq[2]]; ok {
				return []string{"Move " + d}, nil
			}
		}
		return nil, fmt.Errorf("that key is not a direction: use the arrow keys, or n, e, s, w")
	}
	switch strings.ToLower(in) {
	case "":
		return nil, nil // no Move: straight on
	case "n", "north":
		return []string{"Move N"}, nil
	case "e", "east":
		return []string{"Move E"}, nil
	case "s", "south":
		return []string{"Move S"}, nil
	case "w", "west":
		return []string{"Move W"}, nil
	case "straight", "on":
		return []string{"Move STRAIGHT"}, nil
	}
	return nil, fmt.Errorf("%q is not a direction: type n, e, s or w (north, east, south, west), or use the arrow keys", in)
}

// Palette implements games.Painter: a cell is owner | trail<<4, each 0
// for none or seat+1; a trail is drawn over land, as the View query
// writes it (a letter for a trail, a digit for land, . for neither).
func (Game) Palette() games.Palette {
	p := games.Palette{}
	for tr := range MaxPlayers + 1 {
		for own := range MaxPlayers + 1 {
			c := games.Paint{Glyph: ".", Colour: "#f6f6f6"}
			switch {
			case tr > 0:
				c = games.Paint{Glyph: string(rune('a' + tr - 1)), Colour: lighter(games.SeatColourHex[(tr-1)%len(games.SeatColourHex)], 0.25)}
			case own > 0:
				c = games.Paint{Glyph: strconv.Itoa(own - 1), Colour: lighter(games.SeatColourHex[(own-1)%len(games.SeatColourHex)], 0.62)}
			}
			p[byte(own|tr<<4)] = c
		}
	}
	return p
}

// lighter is colour hex ("#rrggbb") mixed with white by t, as the viewer
// lightens a seat's colour for its land (0.62) and trail (0.25).
func lighter(hex string, t float64) string {
	n, _ := strconv.ParseUint(hex[1:], 16, 32)
	mix := func(c uint64) int { return int(float64(c) + (255-float64(c))*t + 0.5) }
	return fmt.Sprintf("#%02x%02x%02x", mix(n>>16), mix(n>>8&255), mix(n&255))
}

// starterFiles are the game's parts of starter bots, one a language.
//
//go:embed starter/*.txt
var starterFiles embed.FS

// Starter implements games.Starter.
func (Game) Starter() games.StarterSpec {
	return games.StarterSpec{Title: "Splix",
		Queries: []string{"CurrentTurn", "TurnsLeft", "Params", "MySeat", "Position", "CellAt 0 0"},
		Example: []string{"Move N"},
		Move:    "Move N, E, S or W (not back the way the head came), or nothing to go straight on",
		Code:    games.StarterCode(starterFiles),
		Calls:   "calls {choose_move}: put your strategy there."}
}
