package web_test

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"judge/judge/arena"
	"judge/judge/arena/web"
	"judge/judge/judgetest"
)

func TestMain(m *testing.M) { judgetest.Main(m) }

// tarena is an arena served on a loopback listener for a test.
type tarena struct {
	a      *arena.Arena
	dir    string
	url    string
	tokens map[string]string
}

// newArena makes a tic-tac-toe arena with the C random bot as its
// reference, the entrants named, and serves it on 127.0.0.1.
func newArena(t testing.TB, c arena.Config, o web.Options, entrants ...string) *tarena {
	t.Helper()
	dir := filepath.Join(judgetest.TempDir(t), "arena")
	if c.Game == "" {
		c.Game = "tictactoe"
	}
	if c.References == nil {
		c.References = judgetest.Bot(t, "examples/gomoku/random.c")[:1]
	}
	if err := arena.Init(dir, c); err != nil {
		t.Fatal(err)
	}
	a, err := arena.Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	ta := &tarena{a: a, dir: dir, tokens: map[string]string{}}
	for _, e := range entrants {
		tok, err := a.AddParticipant(context.Background(), e)
		if err != nil {
			t.Fatal(err)
		}
		ta.tokens[e] = tok
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: web.Handler(a, o), ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	ta.url = "http://" + ln.Addr().String()
	return ta
}

// run runs the arena until the test ends.
func (ta *tarena) run(t testing.TB, jobs int) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	ta.a.SetLog(logWriter{t})
	go func() { done <- ta.a.Run(ctx, jobs) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil && ctx.Err() == nil {
			t.Errorf("Run: %v", err)
		}
	})
}

// logWriter writes the arena's log in the test's.
type logWriter struct{ t testing.TB }

func (w logWriter) Write(b []byte) (int, error) {
	w.t.Log(strings.TrimSuffix(string(b), "\n"))
	return len(b), nil
}

// response is an answer of the server.
type response struct {
	code int
	body []byte
}

func (r response) String() string { return fmt.Sprintf("%d %s", r.code, bytes.TrimSpace(r.body)) }

func (r response) json(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(r.body, v); err != nil {
		t.Fatalf("%v: %s", err, r.body)
	}
}

func do(t testing.TB, req *http.Request) response {
	t.Helper()
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return response{res.StatusCode, b}
}

func (ta *tarena) get(t testing.TB, token, path string) response {
	t.Helper()
	req, err := http.NewRequest("GET", ta.url+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return do(t, req)
}

// form is a multipart body with a file (when name is not "") and the
// fields given.
func form(t testing.TB, name string, data []byte, fields ...string) (string, []byte) {
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	if name != "" {
		w, err := mw.CreateFormFile("file", name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(data)
	}
	for i := 0; i+1 < len(fields); i += 2 {
		mw.WriteField(fields[i], fields[i+1])
	}
	mw.Close()
	return mw.FormDataContentType(), b.Bytes()
}

func (ta *tarena) upload(t testing.TB, token, name string, data []byte, fields ...string) response {
	t.Helper()
	ct, body := form(t, name, data, fields...)
	req, err := http.NewRequest("POST", ta.url+"/api/submissions", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", ct)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return do(t, req)
}

// submitted uploads and returns the submission's ID.
func (ta *tarena) submitted(t testing.TB, who, name string, data []byte) int64 {
	t.Helper()
	r := ta.upload(t, ta.tokens[who], name, data)
	if r.code/100 != 2 {
		t.Fatalf("%s uploads %s: %v", who, name, r)
	}
	var v struct{ ID int64 }
	r.json(t, &v)
	if v.ID <= 0 {
		t.Fatalf("%s uploads %s: %v", who, name, r)
	}
	return v.ID
}

type submission struct {
	ID      int64
	Status  string
	Log     string
	Replays []string
}

// waitFor polls a submission until done says so.
func (ta *tarena) waitFor(t testing.TB, who string, id int64, done func(submission) bool) submission {
	t.Helper()
	deadline := time.Now().Add(3 * time.Minute)
	for {
		r := ta.get(t, ta.tokens[who], fmt.Sprint("/api/submissions/", id))
		if r.code != http.StatusOK {
			t.Fatalf("%s's submission %d: %v", who, id, r)
		}
		var s submission
		r.json(t, &s)
		if done(s) {
			return s
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s's submission %d: still %q: %s", who, id, s.Status, s.Log)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func source(t testing.TB, path string) []byte {
	b, err := os.ReadFile(filepath.Join(judgetest.Root(t), path))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

const broken = "#include <stdio.h>\nint main(void) { printf(\"x\") return 0; }\n"

// TestAPIFlow submits bots that build and one that does not, through
// the API, with the arena running: the first two (a source file, and a
// .tar.gz of a folder) are tested and join the ladder; the third's
// compile error is for its author only.
func TestAPIFlow(t *testing.T) {
	judgetest.NeedTools(t, "gcc")
	ta := newArena(t, arena.Config{TestMatches: 2}, web.Options{}, "alice", "bob", "carol")
	ta.run(t, 2)
	good := source(t, "examples/gomoku/random.c")
	alice := ta.submitted(t, "alice", "random.c", good)
	bob := ta.submitted(t, "bob", "broken.c", []byte(broken))
	// carol's is a .tar.gz of her bot's folder.
	var tgz bytes.Buffer
	zw := gzip.NewWriter(&tgz)
	tw := tar.NewWriter(zw)
	tw.WriteHeader(&tar.Header{Name: "carolbot/", Typeflag: tar.TypeDir, Mode: 0o755})
	tw.WriteHeader(&tar.Header{Name: "carolbot/main.c", Typeflag: tar.TypeReg, Mode: 0o644, Size: int64(len(good))})
	tw.Write(good)
	tw.Close()
	zw.Close()
	carol := ta.submitted(t, "carol", "carolbot.tar.gz", tgz.Bytes())

	s := ta.waitFor(t, "bob", bob, func(s submission) bool { return s.Status == "compile-error" })
	if !strings.Contains(s.Log, "error") || !strings.Contains(s.Log, "broken.c") {
		t.Errorf("bob's compile error says %q, not gcc's message", s.Log)
	}
	if strings.Contains(s.Log, ta.dir) {
		t.Errorf("bob's compile error shows where the arena is on the server: %q", s.Log)
	}
	// Nobody else learns of it, not even that it exists.
	for _, who := range []string{"alice", "carol"} {
		if r := ta.get(t, ta.tokens[who], fmt.Sprint("/api/submissions/", bob)); r.code != http.StatusNotFound || strings.Contains(string(r.body), "printf") {
			t.Errorf("%s asks for bob's submission: %v", who, r)
		}
	}
	if r := ta.get(t, ta.tokens["bob"], fmt.Sprint("/api/submissions/", bob+1000)); r.code != http.StatusNotFound {
		t.Errorf("a submission that does not exist: %v", r)
	}
	for _, who := range []string{"alice", "carol"} {
		id := map[string]int64{"alice": alice, "carol": carol}[who]
		s := ta.waitFor(t, who, id, func(s submission) bool { return s.Status == "active" && len(s.Replays) > 0 })
		if s.Status != "active" {
			t.Fatalf("%s: %+v", who, s)
		}
		for _, rp := range s.Replays {
			if r := ta.get(t, "", "/view/"+rp); r.code != http.StatusOK || !strings.Contains(string(r.body), "<html") {
				t.Fatalf("the viewer of %s's test match %s: %d", who, rp, r.code)
			}
		}
	}
	// The ladder: alice and carol play each other.
	deadline := time.Now().Add(3 * time.Minute)
	var ladder []struct {
		Seats  []string
		Replay string
		Test   bool
	}
	for {
		var v struct {
			Matches []struct {
				Seats  []string
				Replay string
				Test   bool
			}
		}
		ta.get(t, "", "/api/matches?entrant=alice").json(t, &v)
		ladder = ladder[:0]
		for _, m := range v.Matches {
			if !m.Test && strings.Contains(strings.Join(m.Seats, " "), "carol") {
				ladder = append(ladder, m)
			}
		}
		if len(ladder) >= 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no ladder match between alice and carol: %+v", v.Matches)
		}
		time.Sleep(200 * time.Millisecond)
	}
	if r := ta.get(t, "", "/replays/"+ladder[0].Replay); r.code != http.StatusOK || !json.Valid(r.body) {
		t.Errorf("the replay %s: %d", ladder[0].Replay, r.code)
	}
	var st struct {
		Matches   int
		Standings []struct {
			Name     string
			Played   int
			Failures *int // losses by its own fault
		}
	}
	ta.get(t, "", "/api/standings").json(t, &st)
	names := map[string]int{}
	for _, x := range st.Standings {
		names[x.Name] = x.Played
		if x.Failures == nil || *x.Failures != 0 {
			t.Errorf("%s, a bot that does not fail: failures %v", x.Name, x.Failures)
		}
	}
	if st.Matches < 2 || names["alice"] == 0 || names["carol"] == 0 {
		t.Errorf("standings: %+v", st)
	}
	if _, ok := names["bob"]; ok && names["bob"] > 0 {
		t.Errorf("bob, who has no bot that builds, played: %+v", st)
	}
	// What everybody sees holds nothing of the sources or of bob's log.
	for _, p := range []string{"/api/standings", "/api/matches", "/api/matches?entrant=bob", "/"} {
		if r := ta.get(t, "", p); strings.Contains(string(r.body), "printf") || strings.Contains(string(r.body), "#include") {
			t.Errorf("%s shows a source or a build log: %s", p, r.body)
		}
	}
}

func zipOf(t testing.TB, files map[string][]byte) []byte {
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	zw.RegisterCompressor(zip.Deflate, func(w io.Writer) (io.WriteCloser, error) { return flate.NewWriter(w, flate.BestSpeed) })
	for name, data := range files {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(data)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func tarOf(t testing.TB, hdrs ...*tar.Header) []byte {
	var b bytes.Buffer
	tw := tar.NewWriter(&b)
	for _, h := range hdrs {
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if h.Typeflag == tar.TypeReg {
			tw.Write(make([]byte, h.Size))
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestAPIRefuses checks what the API refuses, and with which status.
func TestAPIRefuses(t *testing.T) {
	ta := newArena(t, arena.Config{MaxUploadBytes: 64 << 10, SubmissionsPerHour: 100, WebBots: []string{"127.0.0.1/32"}}, web.Options{}, "alice", "bob")
	tok := ta.tokens["alice"]
	good := []byte("int main(void) { return 0; }\n")
	code := func(name string, r response, want int) {
		t.Helper()
		if r.code != want {
			t.Errorf("%s: %v, want %d", name, r, want)
		}
	}
	code("no token", ta.upload(t, "", "bot.c", good), http.StatusUnauthorized)
	code("a wrong token", ta.upload(t, strings.Repeat("A", len(tok)), "bot.c", good), http.StatusUnauthorized)
	code("no token, a submission", ta.get(t, "", "/api/submissions/1"), http.StatusUnauthorized)
	code("a wrong token, a submission", ta.get(t, tok+"x", "/api/submissions/1"), http.StatusUnauthorized)
	code("no submission", ta.get(t, tok, "/api/submissions/12345"), http.StatusNotFound)
	code("not a number", ta.get(t, tok, "/api/submissions/..%2farena.db"), http.StatusNotFound)
	code("no file and no url", ta.upload(t, tok, "", nil, "other", "x"), http.StatusBadRequest)
	code("a file over the bound", ta.upload(t, tok, "bot.c", bytes.Repeat([]byte("/"), 64<<10+1)), http.StatusRequestEntityTooLarge)
	code("a body far over the bound", ta.upload(t, tok, "bot.c", bytes.Repeat([]byte("/"), 4<<20)), http.StatusRequestEntityTooLarge)

	// Hostile archives.
	slip := zipOf(t, map[string][]byte{"../../escaped.c": good})
	code("zip slip", ta.upload(t, tok, "bot.zip", slip), http.StatusBadRequest)
	link := tarOf(t, &tar.Header{Name: "bot.c", Typeflag: tar.TypeSymlink, Linkname: "/etc/passwd"})
	code("a symbolic link", ta.upload(t, tok, "bot.tar", link), http.StatusBadRequest)
	bomb := zipOf(t, map[string][]byte{"a.c": make([]byte, 32<<20)})
	if len(bomb) > 64<<10 {
		t.Fatalf("the zip bomb is %d bytes", len(bomb))
	}
	code("a zip bomb", ta.upload(t, tok, "bot.zip", bomb), http.StatusBadRequest)
	code("not a zip", ta.upload(t, tok, "bot.zip", []byte("PK\x03\x04 nothing")), http.StatusBadRequest)
	filepath.Walk(filepath.Dir(ta.dir), func(p string, fi os.FileInfo, err error) error {
		if fi != nil && fi.Name() == "escaped.c" {
			t.Errorf("the zip slip wrote %s", p)
		}
		return nil
	})

	// Host and Origin.
	req, _ := http.NewRequest("GET", ta.url+"/api/standings", nil)
	req.Host = "attacker.example:80"
	code("another Host", do(t, req), http.StatusMisdirectedRequest)
	req, _ = http.NewRequest("GET", ta.url+"/", nil)
	req.Host = "10.1.2.3"
	code("an IP address, not public", do(t, req), http.StatusMisdirectedRequest)
	for _, h := range []string{"localhost", "127.0.0.1:8080", "[::1]:1"} {
		req, _ = http.NewRequest("GET", ta.url+"/api/standings", nil)
		req.Host = h
		code("Host "+h, do(t, req), http.StatusOK)
	}
	ct, body := form(t, "bot.c", good)
	req, _ = http.NewRequest("POST", ta.url+"/api/submissions", bytes.NewReader(body))
	req.Header.Set("Content-Type", ct)
	req.Header.Set("Authorization", "Bearer "+tok)
	req.Header.Set("Origin", "http://attacker.example")
	code("a post from another origin", do(t, req), http.StatusForbidden)
	req, _ = http.NewRequest("POST", ta.url+"/api/submissions", bytes.NewReader(body))
	req.Header.Set("Content-Type", ct)
	req.Header.Set("Authorization", "Bearer "+tok)
	req.Header.Set("Origin", ta.url)
	code("a post from the page", do(t, req), http.StatusCreated)

	// A web bot's URL, in a multipart form or a urlencoded one.
	code("a web bot", ta.upload(t, tok, "", nil, "url", "http+json://127.0.0.1:9/bot.php"), http.StatusCreated)
	code("not a web bot's URL", ta.upload(t, tok, "", nil, "url", "file:///etc/passwd"), http.StatusBadRequest)
	code("a web bot where the arena takes none", ta.upload(t, tok, "", nil, "url", "http://10.0.0.5:9000/"), http.StatusBadRequest)
	code("a file and a URL", ta.upload(t, tok, "bot.c", good, "url", "http://127.0.0.1:9/"), http.StatusBadRequest)
	req, _ = http.NewRequest("POST", ta.url+"/api/submissions", strings.NewReader("url=http%3A%2F%2F127.0.0.1%3A9%2F"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Authorization", "Bearer "+tok)
	code("a urlencoded web bot", do(t, req), http.StatusCreated)

	// Her own submissions, and nobody else's.
	var mine struct {
		Name        string
		Submissions []submission
	}
	ta.get(t, tok, "/api/submissions").json(t, &mine)
	if mine.Name != "alice" || len(mine.Submissions) != 3 {
		t.Errorf("alice's submissions: %+v", mine)
	}
	ta.get(t, ta.tokens["bob"], "/api/submissions").json(t, &mine)
	if mine.Name != "bob" || len(mine.Submissions) != 0 {
		t.Errorf("bob's submissions: %+v", mine)
	}
	for _, s := range []submission{{ID: 1}, {ID: 2}} {
		code("bob asks for alice's", ta.get(t, ta.tokens["bob"], fmt.Sprint("/api/submissions/", s.ID)), http.StatusNotFound)
	}

	// Frozen, the arena takes no upload.
	if err := ta.a.Freeze(context.Background(), true); err != nil {
		t.Fatal(err)
	}
	code("frozen", ta.upload(t, tok, "bot.c", good), http.StatusConflict)

	// No route serves the arena's files.
	for _, p := range []string{"/arena.db", "/builds/", "/refs/", "/replays/..%2farena.db", "/view/..%2farena.toml", "/replays/%2e%2e%2farena.db"} {
		if r := ta.get(t, tok, p); r.code != http.StatusNotFound {
			t.Errorf("%s: %v", p, r)
		}
	}
}

// TestAPIPublicHosts: a public server answers to its allowed names and
// to IP addresses, not to other names.
func TestAPIPublicHosts(t *testing.T) {
	ta := newArena(t, arena.Config{}, web.Options{Public: true, AllowedHosts: []string{"contest.example.org"}})
	for h, want := range map[string]int{
		"contest.example.org":      http.StatusOK,
		"CONTEST.example.org:443":  http.StatusOK,
		"192.0.2.7:8080":           http.StatusOK,
		"other.example.org":        http.StatusMisdirectedRequest,
		"contest.example.org.evil": http.StatusMisdirectedRequest,
	} {
		req, _ := http.NewRequest("GET", ta.url+"/api/standings", nil)
		req.Host = h
		if r := do(t, req); r.code != want {
			t.Errorf("Host %q: %v, want %d", h, r, want)
		}
	}
}

// TestAPIRateLimit: past the submissions of an hour, 429.
func TestAPIRateLimit(t *testing.T) {
	ta := newArena(t, arena.Config{SubmissionsPerHour: 2}, web.Options{}, "alice")
	good := []byte("int main(void) { return 0; }\n")
	for i := range 2 {
		if r := ta.upload(t, ta.tokens["alice"], "bot.c", good); r.code != http.StatusCreated {
			t.Fatalf("upload %d: %v", i, r)
		}
	}
	if r := ta.upload(t, ta.tokens["alice"], "bot.c", good); r.code != http.StatusTooManyRequests {
		t.Fatalf("a third upload in the hour: %v", r)
	}
}
