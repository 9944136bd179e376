package replayview_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"judge/games"
	"judge/judge"
	"judge/judge/browsertest"
	"judge/judge/judgetest"
	"judge/judge/procbot"
	"judge/judge/replayview"
)

// BenchmarkOpenBigSplix times opening, in Chromium, the viewer of a real
// Splix match as the king-of-the-hill contest plays it (200×200, 2000
// turns, 5 players, the looper example bot in every seat) until the page
// has decoded every frame and drawn the first, and a jump to a random
// turn (from the copies kept every 32 frames). The baseline, opened back
// to back in the same iteration, is the viewer of a tic-tac-toe match.
func BenchmarkOpenBigSplix(b *testing.B) {
	ctx := browsertest.New(b, 10*time.Minute)
	var specs []procbot.Spec
	for i := range 5 {
		specs = append(specs, judgetest.Spec(b, fmt.Sprintf("looper-%d", i), "examples/splix/looper"))
	}
	big := judgetest.Play(b, "splix", 7, func(m *judgetest.Setup) { m.Params = games.Params{"players": 5} }, specs...).Replay
	small := replay(b, matches[0])
	dir := b.TempDir()
	size := map[string]int{}
	page := func(name string, rp *judge.Replay) string {
		var buf bytes.Buffer
		if err := replayview.WriteHTML(&buf, gameOf(b, rp), rp); err != nil {
			b.Fatal(err)
		}
		path := filepath.Join(dir, name+".html")
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			b.Fatal(err)
		}
		size[name] = buf.Len()
		return "file://" + path
	}
	bigURL, smallURL := page("splix", big), page("tictactoe", small)
	open := func(url string) time.Duration {
		start := time.Now()
		if err := chromedp.Do(ctx, chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS(`body[data-ready="true"]`))); err != nil {
			b.Fatal(err)
		}
		return time.Since(start)
	}
	rng := rand.New(rand.NewPCG(1, 1))
	var bigT, smallT, jumpT time.Duration
	jumps := 0
	b.ResetTimer()
	for range b.N {
		smallT += open(smallURL)
		bigT += open(bigURL)
		start := time.Now()
		for range 20 {
			if _, err := chromedp.Run(ctx, chromedp.Evaluate[any](fmt.Sprintf("viewer.show(%d)", rng.IntN(len(big.Turns)+1)))); err != nil {
				b.Fatal(err)
			}
			jumps++
		}
		jumpT += time.Since(start)
	}
	b.StopTimer()
	ms := func(d time.Duration, n int) float64 { return float64(d) / float64(n) / 1e6 }
	b.ReportMetric(ms(bigT, b.N), "ms/open-splix")
	b.ReportMetric(ms(smallT, b.N), "ms/open-tictactoe")
	b.ReportMetric(float64(bigT)/float64(smallT), "splix/tictactoe")
	b.ReportMetric(ms(jumpT, jumps), "ms/jump")
	b.ReportMetric(float64(size["splix"])/1e6, "MB-splix")
}
