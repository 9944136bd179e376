package plugin

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// GuideFile is a game's protocol guide for bot authors, in its folder:
// Markdown, as docs/protocol/NAME.md is for a built-in game.
const GuideFile = "protocol.md"

// Guide is the game's protocol guide: its folder's protocol.md when it
// has one, else one made from game.toml (its parameters, queries and
// commands, with their docs).
func (g *Game) Guide() []byte {
	if b, err := os.ReadFile(filepath.Join(g.dir, GuideFile)); err == nil {
		return b
	}
	s := g.spec
	var b bytes.Buffer
	fmt.Fprintf(&b, "# %s\n\n%s\n\nA plugin game (%s). Players: %s", s.Name, s.Description, g.dir, seatRange(s.Seats))
	if s.Simultaneous {
		b.WriteString(", all moving at once")
	}
	b.WriteString(".\n")
	if len(s.Params) > 0 {
		b.WriteString("\n## Parameters\n\n| name | default | range | meaning |\n|---|---|---|---|\n")
		for _, p := range s.Params {
			fmt.Fprintf(&b, "| `%s` | %d | %d..%d | %s |\n", p.Name, p.Default, p.Min, p.Max, p.Doc)
		}
	}
	for _, sec := range []struct {
		title string
		verbs []VerbSpec
	}{{"Queries (answered at once)", s.Queries}, {"Commands (the last valid one of a turn binds at #END)", s.Commands}} {
		if len(sec.verbs) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n## %s\n\n", sec.title)
		for _, v := range sec.verbs {
			fmt.Fprintf(&b, "- `%s`: %s\n", strings.TrimSpace(v.Name+" "+strings.Join(v.Args, " ")), v.Doc)
		}
	}
	b.WriteString("\nThe judge's own queries, in every game: `TimeLeft` (milliseconds left in the turn, in the bank, overruns left) and `Opponent` (the other players' names). End every turn with `#END`.\n")
	return b.Bytes()
}

func seatRange(seats []int) string {
	if seats[0] == seats[1] {
		return fmt.Sprint(seats[0])
	}
	return fmt.Sprintf("%d to %d", seats[0], seats[1])
}
