package serve_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"judge/judge/browsertest"
	"judge/judge/serve"
	"judge/judge/tournament"
)

// hostile is a bot's name that is HTML: pages must show it as text. Were
// it HTML, its script would mark the page (an alert would stop it).
const hostile = `<img src=x onerror=xss=1>`

// classTournament plays a tic-tac-toe round robin into dir: alpha, beta, a
// bot named like an HTML element, and crasher, which fails at once.
func classTournament(t *testing.T, dir string) {
	t.Helper()
	crasher := filepath.Join(tempDir(t), "crasher")
	if err := os.WriteFile(crasher, []byte("#!/bin/sh\necho boom >&2\nexit 3\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	o := options(t, dir, 1, append(botCopies(t, "alpha", "beta", hostile), crasher))
	if _, err := tournament.Run(context.Background(), o); err != nil {
		t.Fatal(err)
	}
}

// copyResults copies what judge serve shows of a tournament: its log,
// standings and replays.
func copyResults(t *testing.T, from, to string) {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(from, "replays", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	names = append(names, filepath.Join(from, tournament.LogName), filepath.Join(from, "standings.json"))
	for _, n := range names {
		rel, _ := filepath.Rel(from, n)
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(to, rel)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(to, rel), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// classFolder is a folder of tournaments: tictactoe, week2/tictactoe (a
// copy), notes/ (no tournament, but a standings.md) and link, a link to tictactoe.
func classFolder(t *testing.T) string {
	t.Helper()
	root := filepath.Join(tempDir(t), "class")
	classTournament(t, filepath.Join(root, "tictactoe"))
	copyResults(t, filepath.Join(root, "tictactoe"), filepath.Join(root, "week2", "tictactoe"))
	if err := os.MkdirAll(filepath.Join(root, "notes"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"standings.md", "readme.txt"} {
		if err := os.WriteFile(filepath.Join(root, "notes", n), []byte("notes"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("tictactoe", filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	return root
}

// start serves dir on a loopback listener and returns its URL.
func start(t *testing.T, dir string) string {
	t.Helper()
	s, err := serve.New(dir, lookup)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	ts := httptest.NewUnstartedServer(s) // 127.0.0.1
	if err := s.Listening(ts.Listener.Addr().String(), ts.Listener.Addr()); err != nil {
		t.Fatal(err)
	}
	ts.Start()
	t.Cleanup(func() {
		ts.CloseClientConnections() // a page's event stream ends with its connection
		ts.Close()
	})
	return ts.URL
}

// fetch gets u and returns its status, content type and body.
func fetch(t *testing.T, u string) (int, string, []byte) {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, resp.Header.Get("Content-Type"), b
}

func getJSON(t *testing.T, u string, v any) {
	t.Helper()
	code, _, b := fetch(t, u)
	if code != http.StatusOK {
		t.Fatalf("GET %s: %d %s", u, code, b)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("GET %s: %v", u, err)
	}
}

type folderStatus struct {
	Kind        string `json:"kind"`
	Tournaments []struct {
		Path, Href, Game, Leader string
		Recorded, Scheduled      int
	} `json:"tournaments"`
}

type tournamentStatus struct {
	Kind      string `json:"kind"`
	Standings struct {
		Standings []struct {
			Name                        string
			Played, Wins, Draws, Losses int
			Failures                    struct{ Total int }
		}
	}
	HeadToHead struct {
		Names   []string
		Records [][][3]int
	} `json:"head_to_head"`
	Failures []struct {
		Match, Bot, Status, Reason, Replay string
	}
	FailureCount int `json:"failure_count"`
}

type botStatus struct {
	Name    string
	Against []struct {
		Opponent string
		Record   [3]int
	}
	Matches []struct {
		ID, Result, Status, Reason, Replay string
		Opponents                          []string
	}
}

// TestFolderOfTournaments: a folder lists the tournaments in its folders,
// each served under t/ with its path; a link, a folder without one and
// the files of a tournament that are not results are not served.
func TestFolderOfTournaments(t *testing.T) {
	base := start(t, classFolder(t))
	var f folderStatus
	getJSON(t, base+"/api/status", &f)
	if f.Kind != "folder" || len(f.Tournaments) != 2 {
		t.Fatalf("the folder's status: %+v", f)
	}
	for i, want := range []string{"tictactoe", "week2/tictactoe"} {
		e := f.Tournaments[i]
		if e.Path != want || e.Href != "t/"+want+"/" || e.Game != "tictactoe" || e.Recorded != 12 || e.Scheduled != 12 || e.Leader == "" {
			t.Errorf("tournament %d: %+v", i, e)
		}
		var st tournamentStatus
		getJSON(t, base+"/"+e.Href+"api/status", &st)
		if st.Kind != "tournament" || len(st.Standings.Standings) != 4 {
			t.Errorf("%s: %+v", e.Href, st)
		}
	}
	getJSON(t, base+"/t/week2/api/status", &f)
	if f.Kind != "folder" || len(f.Tournaments) != 1 || f.Tournaments[0].Href != "./tictactoe/" {
		t.Errorf("week2's status: %+v", f)
	}
	var n struct{ Kind string }
	getJSON(t, base+"/t/notes/api/status", &n)
	if n.Kind != "neither" {
		t.Errorf("notes/ is %q", n.Kind)
	}
	for p, want := range map[string]int{
		"/t/tictactoe/":                           http.StatusOK,
		"/t/tictactoe/files/standings.json":       http.StatusOK,
		"/t/week2/tictactoe/files/standings.json": http.StatusOK,
		"/t/week2/tictactoe/bot":                  http.StatusOK,
		"/t/tictactoe/files/results.log":          http.StatusNotFound,
		"/t/tictactoe/cache/":                     http.StatusNotFound,
		"/t/tictactoe/t/x/":                       http.StatusNotFound,
		"/t/notes/files/standings.md":             http.StatusNotFound,
		"/t/link/":                                http.StatusNotFound,
		"/t/link/api/status":                      http.StatusNotFound,
		"/t/nothing/":                             http.StatusNotFound,
		"/t/tictactoe%2f..%2f..%2fetc/":           http.StatusNotFound,
		"/files/standings.json":                   http.StatusNotFound,
	} {
		if code, _, body := fetch(t, base+p); code != want {
			t.Errorf("GET %s: %d %q, want %d", p, code, firstLine(string(body)), want)
		}
	}
	// Without its slash a tournament's page is sent to it, so that its
	// links lead inside it.
	resp, err := (&http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}).Get(base + "/t/week2/tictactoe")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusMovedPermanently || loc != "/t/week2/tictactoe/" {
		t.Errorf("GET /t/week2/tictactoe: %d to %q", resp.StatusCode, loc)
	}
}

// TestKinds: a directory with no tournament in it or its folders says so;
// an empty one, or one with only what a tournament writes before its
// log, waits for one.
func TestKinds(t *testing.T) {
	for files, want := range map[string]serve.Kind{
		"":                              serve.KindWaiting,
		"cache/x replays/y":             serve.KindWaiting,
		"notes.txt":                     serve.KindNeither,
		"a/b/c/d/" + tournament.LogName: serve.KindNeither, // too deep
		"a/b/c/" + tournament.LogName:   serve.KindFolder,
		tournament.LogName:              serve.KindTournament,
	} {
		dir := t.TempDir()
		for _, f := range strings.Fields(files) {
			if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, f)), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, f), nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		s, err := serve.New(dir, lookup)
		if err != nil {
			t.Fatal(err)
		}
		if got := s.Kind(); got != want {
			t.Errorf("a directory with %q: %s, want %s", files, got, want)
		}
		s.Close()
		var st struct{ Kind serve.Kind }
		getJSON(t, start(t, dir)+"/api/status", &st)
		if st.Kind != want {
			t.Errorf("a directory with %q: the status says %s, want %s", files, st.Kind, want)
		}
	}
}

// TestClassData: the head-to-head table agrees with the standings and
// with itself, every failure is listed with a replay the viewer opens,
// and every bot's page lists its matches.
func TestClassData(t *testing.T) {
	dir := filepath.Join(tempDir(t), "t")
	classTournament(t, dir)
	base := start(t, dir)
	var st tournamentStatus
	getJSON(t, base+"/api/status", &st)
	rows, h := st.Standings.Standings, st.HeadToHead
	if len(rows) != 4 || len(h.Names) != 4 || len(h.Records) != 4 {
		t.Fatalf("standings %+v, head to head %+v", rows, h)
	}
	failed := 0
	for i, row := range rows {
		if h.Names[i] != row.Name {
			t.Errorf("head to head row %d is %q, the standings' %q", i, h.Names[i], row.Name)
		}
		var sum [3]int
		for j := range h.Records[i] {
			r := h.Records[i][j]
			back := h.Records[j][i]
			if r != [3]int{back[2], back[1], back[0]} {
				t.Errorf("%s against %s: %v, but the other way %v", h.Names[i], h.Names[j], r, back)
			}
			if n := r[0] + r[1] + r[2]; i != j && n != 2 || i == j && n != 0 {
				t.Errorf("%s against %s: %v: %d matches", h.Names[i], h.Names[j], r, n)
			}
			for k := range sum {
				sum[k] += r[k]
			}
		}
		if sum != [3]int{row.Wins, row.Draws, row.Losses} {
			t.Errorf("%s: head to head %v, standings %d-%d-%d", row.Name, sum, row.Wins, row.Draws, row.Losses)
		}
		failed += row.Failures.Total
	}
	if failed != 6 || st.FailureCount != failed || len(st.Failures) != failed {
		t.Errorf("%d failures in the standings, %d counted, %d listed", failed, st.FailureCount, len(st.Failures))
	}
	for _, f := range st.Failures {
		if f.Bot != "crasher" || f.Status != "crash" || !strings.Contains(f.Reason, "boom") || !strings.Contains(f.Replay, f.Match) {
			t.Errorf("failure %+v", f)
		}
		if code, _, body := fetch(t, base+"/view/"+f.Replay); code != http.StatusOK || !strings.Contains(string(body), `id="replay-data"`) {
			t.Errorf("the replay of %s: %d %q", f.Match, code, firstLine(string(body)))
		}
	}

	for i, row := range rows {
		var b botStatus
		getJSON(t, base+"/api/bot?name="+url.QueryEscape(row.Name), &b)
		if b.Name != row.Name || len(b.Matches) != row.Played || len(b.Against) != 3 {
			t.Errorf("%s's page: %d matches, %d opponents; played %d", row.Name, len(b.Matches), len(b.Against), row.Played)
		}
		results := map[string]int{}
		for _, m := range b.Matches {
			results[m.Result]++
			if len(m.Opponents) != 1 || m.Opponents[0] == row.Name || !strings.HasPrefix(m.Replay, "replays/") {
				t.Errorf("%s's match %+v", row.Name, m)
			}
			if (m.Status != "ok") != (row.Name == "crasher") {
				t.Errorf("%s's match %s: %s", row.Name, m.ID, m.Status)
			}
		}
		if want := map[string]int{"win": row.Wins, "draw": row.Draws, "loss": row.Losses}; !reflect.DeepEqual(results, clean(want)) {
			t.Errorf("%s's page counts %v, the standings %v", row.Name, results, want)
		}
		for _, a := range b.Against {
			j := index(h.Names, a.Opponent)
			if j < 0 || h.Records[i][j] != a.Record {
				t.Errorf("%s against %s: %v on its page", row.Name, a.Opponent, a.Record)
			}
		}
	}
	if code, _, body := fetch(t, base+"/api/bot?name=nobody"); code != http.StatusNotFound || !strings.Contains(string(body), `no bot "nobody"`) {
		t.Errorf("an unknown bot: %d %q", code, body)
	}
	if code, ct, body := fetch(t, base+"/bot?name="+url.QueryEscape(hostile)); code != http.StatusOK || !strings.HasPrefix(ct, "text/html") || strings.Contains(string(body), hostile) {
		t.Errorf("a bot's page: %d %s", code, ct)
	}
}

// clean drops the zero counts.
func clean(m map[string]int) map[string]int {
	for k, v := range m {
		if v == 0 {
			delete(m, k)
		}
	}
	return m
}

func index(names []string, n string) int {
	for i, m := range names {
		if m == n {
			return i
		}
	}
	return -1
}

// TestClassInBrowser drives the pages in Chromium: the folder's list
// leads to a tournament, whose head-to-head table matches the data, whose
// standings sort by a click on a header, whose bots' names lead to their
// pages, and whose failures lead to their replays; a bot named like HTML
// is shown as text.
func TestClassInBrowser(t *testing.T) {
	ctx := browsertest.New(t, 3*time.Minute)
	base := start(t, classFolder(t))
	var st tournamentStatus
	getJSON(t, base+"/t/tictactoe/api/status", &st)
	eval := func(js string, v any) {
		t.Helper()
		raw, err := chromedp.Run(ctx, chromedp.Evaluate[json.RawMessage](js))
		if err == nil {
			err = json.Unmarshal(raw, v)
		}
		if err != nil {
			t.Fatalf("%s: %v", js, err)
		}
	}

	// The folder.
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS(`#tournaments tr.tournament`))); err != nil {
		t.Fatalf("the folder's list: %v", err)
	}
	var listed []string
	eval(`[...document.querySelectorAll("#tournaments tr.tournament a")].map((a) => a.textContent)`, &listed)
	if !reflect.DeepEqual(listed, []string{"tictactoe", "week2/tictactoe"}) {
		t.Errorf("the folder lists %q", listed)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#tournaments tr.tournament a`)), chromedp.WaitVisible(chromedp.CSS(`body[data-finished="true"] #h2h td`))); err != nil {
		t.Fatalf("the tournament's page from the list: %v", err)
	}
	var where string
	eval(`location.pathname`, &where)
	if where != "/t/tictactoe/" {
		t.Errorf("the list's link led to %s", where)
	}
	var up string
	eval(`document.getElementById("up").href`, &up)
	if up != base+"/" {
		t.Errorf("the link back to the folder is %q", up)
	}

	// The head-to-head table, cell by cell.
	var cells [][3]string
	eval(`[...document.querySelectorAll("#h2h td[data-a]")].map((td) => [td.dataset.a, td.dataset.b, td.textContent])`, &cells)
	h := st.HeadToHead
	if len(cells) != len(h.Names)*(len(h.Names)-1) {
		t.Errorf("%d cells in the head-to-head table, want %d", len(cells), len(h.Names)*(len(h.Names)-1))
	}
	for _, c := range cells {
		i, j := index(h.Names, c[0]), index(h.Names, c[1])
		if i < 0 || j < 0 {
			t.Errorf("cell %q", c)
			continue
		}
		r := h.Records[i][j]
		if want := fmt.Sprintf("%d–%d–%d", r[0], r[1], r[2]); c[2] != want {
			t.Errorf("%s against %s: %q, want %q", c[0], c[1], c[2], want)
		}
	}

	// Bots' names are text.
	var imgs int
	var shown bool
	eval(`document.querySelectorAll("img").length + (window.xss ? 100 : 0)`, &imgs)
	eval(`[...document.querySelectorAll("#standings tr[data-bot] a.bot")].some((a) => a.textContent === `+strconv.Quote(hostile)+`)`, &shown)
	if imgs != 0 || !shown {
		t.Errorf("%d img elements (100 more: its script ran); the name shown as text: %v", imgs, shown)
	}

	// Sorting by a click on a header: the bot's name, then the other way,
	// then the losses.
	names := func() []string {
		var n []string
		eval(`[...document.querySelectorAll("#standings tr[data-bot]")].map((tr) => tr.dataset.bot)`, &n)
		return n
	}
	byName := append([]string(nil), h.Names...)
	sort.Slice(byName, func(a, b int) bool { return strings.ToLower(byName[a]) < strings.ToLower(byName[b]) })
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#standings th[data-col="1"]`))); err != nil {
		t.Fatal(err)
	}
	if got := names(); !reflect.DeepEqual(got, byName) {
		t.Errorf("sorted by name: %q, want %q", got, byName)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#standings th[data-col="1"]`))); err != nil {
		t.Fatal(err)
	}
	slices.Reverse(byName)
	if got := names(); !reflect.DeepEqual(got, byName) {
		t.Errorf("sorted by name, the other way: %q, want %q", got, byName)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#standings th[data-col="5"]`))); err != nil {
		t.Fatal(err)
	}
	losses := map[string]int{}
	for _, r := range st.Standings.Standings {
		losses[r.Name] = r.Losses
	}
	got := names()
	for k := 1; k < len(got); k++ {
		if losses[got[k-1]] > losses[got[k]] {
			t.Errorf("sorted by losses: %q", got)
		}
	}
	if len(got) != 4 || got[len(got)-1] != "crasher" {
		t.Errorf("sorted by losses, the last is not the bot that lost all: %q", got)
	}

	// Every failure, each with its replay.
	var failures []string
	eval(`[...document.querySelectorAll("#failures tr.failure a.watch")].map((a) => a.href)`, &failures)
	if len(failures) != st.FailureCount || st.FailureCount != 6 {
		t.Fatalf("%d failures linked, %d recorded", len(failures), st.FailureCount)
	}

	// A bot's page, from its name in the standings.
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#standings tr[data-bot="crasher"] a.bot`)), chromedp.WaitVisible(chromedp.CSS(`body[data-ready="true"] #matches tr.match`))); err != nil {
		t.Fatalf("crasher's page: %v", err)
	}
	var page struct {
		Title    string
		Statuses []string
		Replays  []string
	}
	eval(`({title: document.getElementById("title").textContent,
		statuses: [...document.querySelectorAll("#matches tr.match")].map((tr) => tr.dataset.status),
		replays: [...document.querySelectorAll("#matches tr.match a.watch")].map((a) => a.href)})`, &page)
	if page.Title != "crasher" || len(page.Statuses) != 6 || strings.Count(strings.Join(page.Statuses, " "), "crash") != 6 {
		t.Errorf("crasher's page: %+v", page)
	}
	slices.Sort(failures)
	slices.Sort(page.Replays)
	if !reflect.DeepEqual(failures, page.Replays) {
		t.Errorf("the failures' replays %q, crasher's matches' %q", failures, page.Replays)
	}
	// The page of the bot named like HTML.
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/t/tictactoe/bot?name="+url.QueryEscape(hostile)), chromedp.WaitVisible(chromedp.CSS(`body[data-ready="true"] #matches tr.match`))); err != nil {
		t.Fatalf("%s's page: %v", hostile, err)
	}
	eval(`document.querySelectorAll("img").length + (window.xss ? 100 : 0)`, &imgs)
	eval(`document.getElementById("title").textContent === `+strconv.Quote(hostile)+` && document.querySelectorAll("#against tr.against").length === 3`, &shown)
	if imgs != 0 || !shown {
		t.Errorf("%s's page: %d img elements, title and opponents right: %v", hostile, imgs, shown)
	}

	// A failure's replay in the viewer.
	if err := chromedp.Do(ctx, chromedp.Navigate(failures[0]), chromedp.WaitVisible(chromedp.CSS(`body[data-ready="true"]`))); err != nil {
		t.Fatalf("the viewer of %s: %v", failures[0], err)
	}
	if n, err := browsertest.CanvasColors(ctx, "#board"); err != nil || n < 2 {
		t.Errorf("the viewer's canvas shows %d colours (%v)", n, err)
	}
}
