package splix

import (
	"fmt"
	"strings"
)

// Parse reads a board drawn as text, northern row first, cells separated
// by spaces. A cell is its land ('.' for none, or the owner's seat digit
// 0-4), then optionally a trail (a-e for seats 0-4), then optionally a
// head (A-E for seats 0-4):
//
//	.  .   .   .
//	.  0   0a  .aA     seat 0's land, its trail, its head at the trail's end
//	.  1B  1   .
//
// A seat with no head is dead and must own nothing. Heads point North
// (see SetHeading); no one has killed anyone. Meant for tests.
func Parse(players, turns int, board string) (*State, error) {
	return parse(players, turns, board, false)
}

// ParseLagged is Parse for the contest controller's rules (the game's
// lag parameter): there a head off its land stands on no trail of its
// own, the cell it stands on becoming trail when it leaves it.
func ParseLagged(players, turns int, board string) (*State, error) {
	return parse(players, turns, board, true)
}

func parse(players, turns int, board string, lag bool) (*State, error) {
	var rows [][]string
	for _, l := range strings.Split(strings.TrimSpace(board), "\n") {
		rows = append(rows, strings.Fields(l))
	}
	n := len(rows)
	if players < 1 || players > MaxPlayers {
		return nil, fmt.Errorf("%d players: want 1..%d", players, MaxPlayers)
	}
	s := empty(n, turns, players)
	s.lag = lag
	seen := make([]bool, players)
	for r, row := range rows {
		y := n - 1 - r
		if len(row) != n {
			return nil, fmt.Errorf("row %d has %d cells, want %d", r, len(row), n)
		}
		for x, tok := range row {
			c := y*n + x
			bad := func(why string) error { return fmt.Errorf("row %d, cell %q: %s", r, tok, why) }
			switch o := tok[0]; {
			case o == '.':
			case o >= '0' && o < '0'+byte(players):
				s.setOwner(c, o-'0'+1)
			default:
				return nil, bad("land must be '.' or a seat digit")
			}
			rest := tok[1:]
			if len(rest) > 0 && rest[0] >= 'a' && rest[0] <= 'e' {
				t := int(rest[0] - 'a')
				if t >= players {
					return nil, bad("trail of a seat that is not playing")
				}
				s.trail[c] = uint8(t + 1)
				rest = rest[1:]
			}
			if len(rest) > 0 && rest[0] >= 'A' && rest[0] <= 'E' {
				j := int(rest[0] - 'A')
				if j >= players || seen[j] {
					return nil, bad("head of a seat that is not playing, or a second head")
				}
				seen[j] = true
				p := &s.p[j]
				p.x, p.y, p.alive = x, y, true
				switch {
				case lag && s.trail[c] == uint8(j+1):
					return nil, bad("a head is on no trail of its own: the cell becomes trail when it leaves")
				case !lag && s.owner[c] != uint8(j+1) && s.trail[c] != uint8(j+1):
					return nil, bad("a head must be on its own land or its own trail")
				}
				rest = rest[1:]
			}
			if rest != "" {
				return nil, bad("want land, then trail a-e, then head A-E")
			}
		}
	}
	for c, t := range s.trail {
		if t == 0 {
			continue
		}
		p := &s.p[t-1]
		if !p.alive {
			return nil, fmt.Errorf("seat %d has a trail but no head", t-1)
		}
		if s.owner[c] == t {
			return nil, fmt.Errorf("seat %d has a trail on its own land at %d %d", t-1, c%n, c/n)
		}
		p.trail = append(p.trail, int32(c))
	}
	for j := range s.p {
		if !s.p[j].alive && s.p[j].land > 0 {
			return nil, fmt.Errorf("seat %d owns land but has no head", j)
		}
	}
	s.settle()
	return s, nil
}

// SetHeading sets the direction of seat's last move. Meant for tests.
func (s *State) SetHeading(seat int, d Dir) { s.p[seat].head = d }

// Draw writes the board the way Parse reads it, cells padded to one width.
func (s *State) Draw() string {
	n := s.n
	toks := make([]string, n*n)
	wide := 1
	for y := n - 1; y >= 0; y-- {
		for x := 0; x < n; x++ {
			c := y*n + x
			t := string(seatChar(s.owner[c]))
			if tr := s.trail[c]; tr != 0 {
				t += string(rune('a' + tr - 1))
			}
			for j := range s.p {
				if p := &s.p[j]; p.alive && p.x == x && p.y == y {
					t += string(rune('A' + j))
				}
			}
			toks[(n-1-y)*n+x] = t
			wide = max(wide, len(t))
		}
	}
	var b strings.Builder
	for r := 0; r < n; r++ {
		line := make([]string, n)
		for x := 0; x < n; x++ {
			line[x] = fmt.Sprintf("%-*s", wide, toks[r*n+x])
		}
		b.WriteString(strings.TrimRight(strings.Join(line, " "), " "))
		b.WriteByte('\n')
	}
	return b.String()
}
