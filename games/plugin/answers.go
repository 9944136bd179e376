package plugin

import (
	"os"
	"strings"

	"judge/games"
)

var (
	_ games.Playable = (*Game)(nil)
	_ games.Painter  = (*Game)(nil)
	_ games.Starter  = (*Game)(nil)
)

// Palette implements games.Painter: game.toml's [draw] table.
func (g *Game) Palette() games.Palette {
	p := make(games.Palette, len(g.spec.Draw))
	for c, d := range g.spec.Draw {
		p[c[0]] = games.Paint{Glyph: d.Glyph, Colour: d.Colour}
	}
	return p
}

// Play implements games.Playable: game.toml's [play] table lays out a
// person's turn (games.PlayTable); without a prompt, the person is asked
// for one of the game's commands.
func (g *Game) Play(s games.PlaySeat) (games.Plan, error) {
	t := games.PlayTable{Prompt: g.spec.Play.Prompt, Click: g.spec.Play.Click, Keys: g.spec.Play.Keys}
	if t.Prompt == "" {
		t.Prompt = "a command: " + strings.Join(g.Commands(), ", ")
	}
	return t.Plan(s, g.Palette())
}

// Starter implements games.Starter, from game.toml: the title is the
// description; the queries, those with no arguments and one-line
// answers; the move, the first command as the guide gives it; the
// example, the first move the referee lists for the first mover of a
// fresh game with the default parameters (none when it cannot say); the
// code, the folder's starter/LANG.txt files.
func (g *Game) Starter() games.StarterSpec {
	s := games.StarterSpec{Title: g.spec.Description, Code: games.StarterCode(os.DirFS(g.dir))}
	for _, q := range g.spec.Queries {
		if len(q.Args) == 0 && q.Lines != "many" {
			s.Queries = append(s.Queries, q.Name)
		}
	}
	c := g.spec.Commands[0]
	s.Move = strings.Join(append([]string{c.Name}, c.Args...), " ")
	if c.Doc != "" {
		s.Move += ", " + c.Doc
	}
	s.Example = g.firstMove()
	return s
}

// firstMove is the first move the referee lists for the first mover of a
// fresh game with the default parameters, or nil.
func (g *Game) firstMove() games.Move {
	gs, err := g.New(nil, 1)
	if err != nil {
		return nil
	}
	st := gs.(*State)
	defer st.Close()
	movers := st.Movers()
	if len(movers) == 0 {
		return nil
	}
	moves := st.Moves(movers[0])
	if len(moves) == 0 || st.Err() != nil {
		return nil
	}
	return moves[0]
}
