package replayview

import (
	"bufio"
	_ "embed"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"strings"

	"judge/games"
	"judge/judge"
)

var (
	//go:embed web/viewer.html
	page string
	//go:embed web/viewer.js
	script string
	//go:embed web/viewer.css
	style string
)

// WriteHTML writes the viewer of rp: one self-contained HTML page (no
// network: the script, the style and the decoded replay are inside) that
// draws the game on a canvas turn by turn.
func WriteHTML(w io.Writer, g games.Game, rp *judge.Replay) error {
	d, err := Decode(g, rp)
	if err != nil {
		return err
	}
	return d.WriteHTML(w)
}

// WriteHTML writes the viewer of d.
func (d *Data) WriteHTML(w io.Writer) error {
	names := make([]string, len(d.Bots))
	for i, b := range d.Bots {
		names[i] = b.Name
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	parts := map[string]func() error{
		"TITLE": func() error {
			_, err := io.WriteString(bw, html.EscapeString(d.Game+": "+strings.Join(names, " vs ")))
			return err
		},
		"CSS": func() error { _, err := io.WriteString(bw, style); return err },
		"JS":  func() error { _, err := io.WriteString(bw, script); return err },
		// encoding/json writes <, > and & as \u003c, \u003e and \u0026: the
		// data cannot end its script element.
		"DATA": func() error { return json.NewEncoder(bw).Encode(d) },
	}
	rest := page
	for {
		i := strings.Index(rest, "{{")
		if i < 0 {
			break
		}
		j := strings.Index(rest[i:], "}}")
		if j < 0 {
			return fmt.Errorf("viewer page: unclosed {{ at %q", rest[i:])
		}
		if _, err := io.WriteString(bw, rest[:i]); err != nil {
			return err
		}
		f := parts[rest[i+2:i+j]]
		if f == nil {
			return fmt.Errorf("viewer page: unknown part %q", rest[i+2:i+j])
		}
		if err := f(); err != nil {
			return err
		}
		rest = rest[i+j+2:]
	}
	if _, err := io.WriteString(bw, rest); err != nil {
		return err
	}
	return bw.Flush()
}
