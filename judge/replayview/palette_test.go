package replayview_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"judge/games"
	"judge/judge/browsertest"
	"judge/judge/replayview"
)

// Every built-in game gives the viewer its palette.
func TestDecodePalette(t *testing.T) {
	for _, mt := range matches {
		rp := replay(t, mt)
		d, err := replayview.Decode(gameOf(t, rp), rp)
		if err != nil {
			t.Fatal(err)
		}
		if len(d.Palette) == 0 || d.Palette['-'].Colour == "" && d.Palette[0].Colour == "" {
			t.Errorf("%s: palette %v", mt.name, d.Palette)
		}
	}
}

// A grid of a kind the viewer has no drawing for is drawn by its game's
// palette: each cell in its value's colour.
func TestViewerPalette(t *testing.T) {
	d := &replayview.Data{Game: "othello", Params: games.Params{}, Bots: []replayview.Bot{{Name: "a"}, {Name: "b"}},
		Grids: []replayview.GridInfo{{Name: "board", W: 3, H: 1}}, Layers: 1, Start: [][]byte{[]byte(".BW")},
		Frames:  []replayview.Frame{{Marks: []games.Mark{}, Seats: []string{"", ""}}},
		Palette: replayview.Palette{'.': {Glyph: " ", Colour: "#2e7d32"}, 'B': {Glyph: "●", Colour: "#000000"}, 'W': {Glyph: "○", Colour: "#ffffff"}}}
	path := filepath.Join(t.TempDir(), "viewer.html")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.WriteHTML(f); err != nil {
		t.Fatal(err)
	}
	f.Close()
	ctx := browsertest.New(t, time.Minute)
	if err := chromedp.Do(ctx, chromedp.Navigate("file://"+path),
		chromedp.WaitVisible(chromedp.CSS(`body[data-ready="true"]`))); err != nil {
		t.Fatal(err)
	}
	// The colour of a pixel near the top left corner of each cell.
	got := eval[[]string](t, ctx, `(() => {
		const g = viewer.geometry(), c = document.getElementById("board").getContext("2d"), out = [];
		for (let x = 0; x < 3; x++) {
			const p = c.getImageData(g.origins[0][0] + x * g.cell + 3, g.origins[0][1] + 3, 1, 1).data;
			out.push("#" + [p[0], p[1], p[2]].map((v) => v.toString(16).padStart(2, "0")).join(""));
		}
		return out;
	})()`)
	want := []string{"#2e7d32", "#000000", "#ffffff"}
	for i := range want {
		if i >= len(got) || got[i] != want[i] {
			t.Errorf("the cells' colours: %q, want %q", got, want)
			break
		}
	}
}
