package serve_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"judge/judge/bots"
	"judge/judge/bots/contest"
	"judge/judge/procbot"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
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
	return judgetest.TempDir(t)
}

// botCopies copies the random tic-tac-toe bot under names of its own.
func botCopies(t testing.TB, names ...string) []string {
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
	o := tournament.Options{
		Match:  judge.Match{Game: v.Game, Name: v.Name, Params: v.Params, Limits: judge.DefaultTurnLimits},
		Rounds: rounds, Seed: 3, Jobs: 1, Out: out, Bots: args, Log: io.Discard,
	}
	langs, err := bots.LoadLanguages("")
	if err != nil {
		t.Fatal(err)
	}
	langs.Host = judgetest.Host()
	contest.Use(&o, langs, procbot.Options{Host: judgetest.Host()})
	return o
}

// loopback is the address the tests' direct requests are made to.
var loopback = &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}

// get asks s for path (escapes kept as written) with Host 127.0.0.1:8080.
func get(t *testing.T, s *serve.Server, path string) (int, string) {
	t.Helper()
	req := httptest.NewRequest("GET", "http://127.0.0.1:8080/", nil)
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

// TestOnlyResults: what is served is the replays, the standings and the
// pages made of them. Paths that climb out of the directory, in any
// spelling, links that lead out of it or to another file in it, the
// cache of built bots (their sources) and the results log are refused.
func TestOnlyResults(t *testing.T) {
	outside := t.TempDir()
	secret := "secret-outside-the-tournament"
	if err := os.WriteFile(filepath.Join(outside, "secret.json"), []byte(`{"version":1,"game":"tictactoe","x":"`+secret+`"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(tempDir(t), "t")
	// A bot built from source: its source is in the cache.
	src := filepath.Join(tempDir(t), "gamma.c")
	code, err := os.ReadFile(filepath.Join(judgetest.Root(t), "examples/gomoku/random.c"))
	if err != nil {
		t.Fatal(err)
	}
	const mark = "source-of-a-submission"
	if err := os.WriteFile(src, append([]byte("// "+mark+"\n"), code...), 0o644); err != nil {
		t.Fatal(err)
	}
	o := options(t, dir, 1, append(botCopies(t, "alpha", "beta"), src))
	langs, err := bots.LoadLanguages(filepath.Join(judgetest.Root(t), "configs/languages.toml"))
	if err != nil {
		t.Fatal(err)
	}
	langs.Host = judgetest.Host()
	contest.Use(&o, langs, procbot.Options{Host: judgetest.Host()})
	if _, err := tournament.Run(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	var cached []string
	filepath.WalkDir(filepath.Join(dir, "cache"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			b, _ := os.ReadFile(p)
			if strings.Contains(string(b), mark) {
				rel, _ := filepath.Rel(dir, p)
				cached = append(cached, rel)
			}
		}
		return nil
	})
	if len(cached) == 0 {
		t.Fatal("no source in the cache: the test proves nothing")
	}
	// A JSON file of the cache, to try the viewer on.
	if err := os.WriteFile(filepath.Join(dir, "cache", "x.json"), []byte(`{"version":1,"game":"tictactoe","x":"`+mark+`"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, link := range []string{"out.json", "replays/out.json"} {
		if err := os.Symlink(filepath.Join(outside, "secret.json"), filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	for link, to := range map[string]string{"outdir": outside, "replays/cache": "../cache", "replays/src.json": "../" + cached[0], "replays/x.json": "../cache/x.json"} {
		if err := os.Symlink(to, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
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
	if err := s.Listening("127.0.0.1:8080", loopback); err != nil {
		t.Fatal(err)
	}
	refused := []string{
		"/view/../secret.json", "/view/..%2fsecret.json", "/view/replays/../../secret.json",
		"/view/out.json", "/view/replays/out.json", "/view/outdir/secret.json", "/view//etc/passwd.json",
		"/files/../secret.json", "/files/..%2f..%2fsecret.json", "/files/out.json", "/files/outdir/secret.json",
		"/files/replays/out.json", "/view/" + strings.Repeat("../", 20) + "etc/passwd.json",
		"/files/results.log", "/files/cache/", "/files/cache", "/files/cache/x.json", "/view/cache/x.json",
		"/files/replays/cache/x.json", "/view/replays/x.json", "/files/replays/x.json", "/files/replays/src.json",
		"/files/replays/../cache/x.json", "/files/replays/..%2fcache%2fx.json", "/files/", "/files/replays/",
		"/view/standings.json", "/files/replays",
	}
	for _, c := range cached {
		refused = append(refused, "/files/"+c, "/files/"+filepath.Dir(c)+"/", "/view/"+c)
	}
	for _, p := range refused {
		code, body := get(t, s, p)
		if code == http.StatusOK || strings.Contains(body, secret) || strings.Contains(body, "root:") || strings.Contains(body, mark) {
			t.Errorf("GET %s: %d %q: served what is not a result", p, code, firstLine(body))
		}
	}
	rel, _ := filepath.Rel(dir, replays[0])
	if code, body := get(t, s, "/view/"+rel); code != http.StatusOK || !strings.Contains(body, `id="replay-data"`) {
		t.Errorf("GET /view/%s: %d %q", rel, code, firstLine(body))
	}
	if code, body := get(t, s, "/files/"+rel); code != http.StatusOK || !strings.Contains(body, `"game"`) {
		t.Errorf("GET /files/%s: %d %q", rel, code, firstLine(body))
	}
	for _, f := range []string{"standings.md", "standings.csv", "standings.json"} {
		if code, body := get(t, s, "/files/"+f); code != http.StatusOK || !strings.Contains(body, "alpha") {
			t.Errorf("GET /files/%s: %d %q", f, code, firstLine(body))
		}
	}
	if code, body := get(t, s, "/api/status"); code != http.StatusOK || !strings.Contains(body, `"scheduled":6`) {
		t.Errorf("GET /api/status: %d %q", code, firstLine(body))
	}
}

// TestHost: a request is answered only when its Host is the address the
// server listens on, so that a page of another site cannot read it
// through a name it made resolve to this machine (DNS rebinding).
func TestHost(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		given, bound string
		ok, refused  []string
	}{
		{"127.0.0.1:0", "127.0.0.1:8080",
			[]string{"127.0.0.1:8080", "localhost:8080", "LOCALHOST:8080", "[::1]:8080"},
			[]string{"", "evil.example:8080", "evil.example", "127.0.0.1", "localhost", "127.0.0.1:8081", "localhost.:8080",
				"192.168.1.2:8080", "127.0.0.1.evil.example:8080", "127.0.0.1:8080@evil.example", "0.0.0.0:8080"}},
		{"[::1]:8080", "[::1]:8080",
			[]string{"[::1]:8080", "localhost:8080", "127.0.0.1:8080"},
			[]string{"evil.example:8080", "[::1]:80", "[::1]"}},
		{"localhost:80", "127.0.0.1:80",
			[]string{"localhost", "127.0.0.1", "[::1]", "localhost:80"},
			[]string{"evil.example", "evil.example:80", "localhost:8080"}},
		{"192.168.1.2:8080", "192.168.1.2:8080",
			[]string{"192.168.1.2:8080"},
			[]string{"localhost:8080", "127.0.0.1:8080", "192.168.1.3:8080", "evil.example:8080", "192.168.1.2"}},
		{"results.example:8080", "192.168.1.2:8080",
			[]string{"192.168.1.2:8080", "results.example:8080"},
			[]string{"evil.example:8080", "results.example"}},
		{":8080", "[::]:8080",
			[]string{"192.168.1.2:8080", "[2001:db8::1]:8080", "localhost:8080", "127.0.0.1:8080"},
			[]string{"evil.example:8080", "192.168.1.2:8081", "192.168.1.2"}},
		{"0.0.0.0:8080", "0.0.0.0:8080",
			[]string{"10.0.0.7:8080", "localhost:8080"},
			[]string{"evil.example:8080", "localhost"}},
	} {
		s, err := serve.New(dir, lookup)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		ask := func(host string) int {
			req := httptest.NewRequest("GET", "/api/status", nil)
			req.Host = host
			w := httptest.NewRecorder()
			s.ServeHTTP(w, req)
			return w.Code
		}
		if code := ask("127.0.0.1:8080"); code != http.StatusMisdirectedRequest {
			t.Errorf("before Listening: %d", code)
		}
		if err := s.Listening(tt.given, net.TCPAddrFromAddrPort(netip.MustParseAddrPort(tt.bound))); err != nil {
			t.Fatal(err)
		}
		for _, h := range tt.ok {
			if code := ask(h); code != http.StatusOK {
				t.Errorf("listening on %s (%s): Host %q: %d", tt.bound, tt.given, h, code)
			}
		}
		for _, h := range tt.refused {
			if code := ask(h); code != http.StatusMisdirectedRequest {
				t.Errorf("listening on %s (%s): Host %q: %d, want 421", tt.bound, tt.given, h, code)
			}
		}
	}

	// Over the network: a request sent to the server under another name.
	s, err := serve.New(dir, lookup)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ts := httptest.NewUnstartedServer(s)
	if err := s.Listening(ts.Listener.Addr().String(), ts.Listener.Addr()); err != nil {
		t.Fatal(err)
	}
	ts.Start()
	defer ts.Close()
	for host, want := range map[string]int{"": http.StatusOK, "rebound.example:" + strings.Split(ts.URL, ":")[2]: http.StatusMisdirectedRequest} {
		req, _ := http.NewRequest("GET", ts.URL+"/api/status", nil)
		req.Host = host
		resp, err := ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("Host %q: %d %q, want %d", host, resp.StatusCode, body, want)
		}
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
	ts := httptest.NewUnstartedServer(s) // 127.0.0.1
	if err := s.Listening(ts.Listener.Addr().String(), ts.Listener.Addr()); err != nil {
		t.Fatal(err)
	}
	ts.Start()
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
		_, err := tournament.Run(tctx, options(t, dir, 2, botCopies(t, "alpha", "beta", "gamma")))
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

// On any Host and any path, a server on loopback answers only for its
// own names, and serves no file but results.
func FuzzRequest(f *testing.F) {
	dir := resultsDir(f)
	for _, s := range []string{"127.0.0.1:8080", "localhost:8080", "[::1]:8080", "evil.example:8080", "", "LocalHost:8080", "127.0.0.1:08080", "[::ffff:127.0.0.1]:8080"} {
		f.Add(s, "/files/standings.md")
	}
	f.Add("127.0.0.1:8080", "/files/cache/src.c")
	f.Add("127.0.0.1:8080", "/files/replays/../cache/src.c")
	s, err := serve.New(dir, lookup)
	if err != nil {
		f.Fatal(err)
	}
	defer s.Close()
	if err := s.Listening("127.0.0.1:0", loopback); err != nil {
		f.Fatal(err)
	}
	ours := map[string]bool{"127.0.0.1:8080": true, "localhost:8080": true, "[::1]:8080": true}
	f.Fuzz(func(t *testing.T, host, p string) {
		req := httptest.NewRequest("GET", "http://127.0.0.1:8080/", nil)
		req.Host, req.URL.Path, req.RequestURI = host, p, p
		w := httptest.NewRecorder()
		s.ServeHTTP(w, req)
		if w.Code != http.StatusMisdirectedRequest && !ours[strings.ToLower(host)] {
			t.Errorf("Host %q: %d", host, w.Code)
		}
		if strings.Contains(w.Body.String(), "source-of-a-submission") {
			t.Errorf("GET %q served a source", p)
		}
	})
}

// resultsDir is a tournament directory with a standings file and a source in
// its cache.
func resultsDir(tb testing.TB) string {
	dir := tb.TempDir()
	for name, text := range map[string]string{"standings.md": "alpha", "cache/src.c": "// source-of-a-submission", "replays/r1.json": "{}"} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	return dir
}
