package serve_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"judge/games"
	"judge/games/catalog"
	"judge/judge"
	"judge/judge/browsertest"
	"judge/judge/judgetest"
	"judge/judge/serve"
	"judge/judge/tournament"
)

func TestMain(m *testing.M) { judgetest.Main(m) }

func lookup(name string) (games.Game, error) {
	v, err := catalog.Lookup(name)
	return v.Game, err
}

// tempDir is a temporary directory that a sandboxed bot, running as
// another user, can enter.
func tempDir(t testing.TB) string {
	t.Helper()
	d := t.TempDir()
	for p := d; p != os.TempDir() && p != "/" && p != "."; p = filepath.Dir(p) {
		if err := os.Chmod(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return d
}

// bots copies the random tic-tac-toe bot under names of its own.
func bots(t testing.TB, names ...string) []string {
	t.Helper()
	exe := judgetest.Bot(t, "examples/gomoku/random.c")[0]
	b, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	dir := tempDir(t)
	var paths []string
	for _, n := range names {
		p := filepath.Join(dir, n)
		if err := os.WriteFile(p, b, 0o755); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	return paths
}

func options(t testing.TB, out string, rounds int, args []string) tournament.Options {
	t.Helper()
	v, err := catalog.Lookup("tictactoe")
	if err != nil {
		t.Fatal(err)
	}
	return tournament.Options{
		Match:  judge.Match{Game: v.Game, Name: v.Name, Params: v.Params, Limits: judge.DefaultLimits},
		Rounds: rounds, Seed: 3, Jobs: 1, Out: out, Bots: args, Log: io.Discard,
	}
}

// TestOnlyUnderDir: paths that climb out of the directory, in any
// spelling, and links that lead out of it are refused; what is under it
// is served.
func TestOnlyUnderDir(t *testing.T) {
	outside := t.TempDir()
	secret := "secret-outside-the-tournament"
	if err := os.WriteFile(filepath.Join(outside, "secret.json"), []byte(`{"version":1,"game":"tictactoe","x":"`+secret+`"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(tempDir(t), "t")
	if _, err := tournament.Run(context.Background(), options(t, dir, 1, bots(t, "alpha", "beta"))); err != nil {
		t.Fatal(err)
	}
	for _, link := range []string{"out.json", "replays/out.json"} {
		if err := os.Symlink(filepath.Join(outside, "secret.json"), filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(outside, filepath.Join(dir, "outdir")); err != nil {
		t.Fatal(err)
	}
	replays, err := filepath.Glob(filepath.Join(dir, "replays", "r*.json"))
	if err != nil || len(replays) == 0 {
		t.Fatalf("no replays: %v", err)
	}
	s, err := serve.New(dir, lookup)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	get := func(path string) (int, string) {
		t.Helper()
		req := httptest.NewRequest("GET", "http://127.0.0.1/", nil)
		req.URL.Path, req.URL.RawPath, req.RequestURI = path, "", path
		if strings.Contains(path, "%") {
			req.URL.RawPath = path
			var err error
			if req.URL.Path, err = urlUnescape(path); err != nil {
				t.Fatal(err)
			}
		}
		w := httptest.NewRecorder()
		s.ServeHTTP(w, req)
		return w.Code, w.Body.String()
	}
	for _, p := range []string{
		"/view/../secret.json", "/view/..%2fsecret.json", "/view/replays/../../secret.json",
		"/view/out.json", "/view/replays/out.json", "/view/outdir/secret.json", "/view//etc/passwd.json",
		"/files/../secret.json", "/files/..%2f..%2fsecret.json", "/files/out.json", "/files/outdir/secret.json",
		"/files/replays/out.json", "/view/" + strings.Repeat("../", 20) + "etc/passwd.json",
	} {
		code, body := get(p)
		if code == http.StatusOK || strings.Contains(body, secret) || strings.Contains(body, "root:") {
			t.Errorf("GET %s: %d %q: served something from outside", p, code, firstLine(body))
		}
	}
	rel, _ := filepath.Rel(dir, replays[0])
	if code, body := get("/view/" + rel); code != http.StatusOK || !strings.Contains(body, `id="replay-data"`) {
		t.Errorf("GET /view/%s: %d %q", rel, code, firstLine(body))
	}
	if code, body := get("/files/standings.md"); code != http.StatusOK || !strings.Contains(body, "alpha") {
		t.Errorf("GET /files/standings.md: %d %q", code, firstLine(body))
	}
	if code, body := get("/api/status"); code != http.StatusOK || !strings.Contains(body, `"scheduled":2`) {
		t.Errorf("GET /api/status: %d %q", code, firstLine(body))
	}
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

func urlUnescape(s string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' {
			if i+2 >= len(s) {
				return "", errors.New("bad escape")
			}
			var c byte
			if _, err := fmt.Sscanf(s[i+1:i+3], "%02x", &c); err != nil {
				return "", err
			}
			b.WriteByte(c)
			i += 2
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String(), nil
}

// TestLiveInBrowser follows a tournament in Chromium from before it
// starts: the page waits for it, shows matches as they are recorded and
// the standings at the end, and opens a match in the viewer.
func TestLiveInBrowser(t *testing.T) {
	ctx := browsertest.New(t, 3*time.Minute)
	dir := filepath.Join(tempDir(t), "t")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	s, err := serve.New(dir, lookup)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.Poll = 50 * time.Millisecond
	ts := httptest.NewServer(s) // 127.0.0.1
	defer ts.Close()

	if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/")); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.getElementById("state").textContent.includes("no tournament")`,
		chromedp.WithPollingTimeout(20*time.Second))); err != nil {
		t.Fatalf("the page does not say it waits for a tournament: %v", err)
	}

	tctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := tournament.Run(tctx, options(t, dir, 2, bots(t, "alpha", "beta", "gamma")))
		done <- err
	}()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`+document.body.dataset.matches >= 1`, chromedp.WithPollingTimeout(60*time.Second))); err != nil {
		t.Fatalf("no match appeared: %v", err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.body.dataset.finished === "true" && +document.body.dataset.matches === 12`,
		chromedp.WithPollingTimeout(30*time.Second))); err != nil {
		t.Fatalf("the page does not show the finished tournament: %v", err)
	}
	table, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("standings").textContent`))
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"alpha", "beta", "gamma"} {
		if !strings.Contains(table, n) {
			t.Errorf("the standings %q lack %s", table, n)
		}
	}
	state, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("state").textContent`))
	if !strings.Contains(state, "finished: 12 of 12") {
		t.Errorf("the progress says %q", state)
	}
	href, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector("a.watch").href`))
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(href), chromedp.WaitVisible(chromedp.CSS(`body[data-ready="true"]`))); err != nil {
		t.Fatalf("the viewer of %s: %v", href, err)
	}
	if n, err := browsertest.CanvasColors(ctx, "#board"); err != nil || n < 2 {
		t.Errorf("the viewer's canvas shows %d colours (%v)", n, err)
	}
}
