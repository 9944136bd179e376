//go:build unix

package arena_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"judge/judge/arena"
)

// service is the machine's own service on the loopback address, which
// counts the requests it gets and answers as h does (nil: 404 with a
// secret).
func service(t *testing.T, h http.HandlerFunc) (string, *atomic.Int32) {
	t.Helper()
	var n atomic.Int32
	if h == nil {
		h = func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "secret-of-the-internal-service", http.StatusNotFound)
		}
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		h(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL, &n
}

// tictactoeBot answers as Bolosseum's tic-tac-toe: the first free cell.
func tictactoeBot(w http.ResponseWriter, r *http.Request) {
	var q struct {
		Action string
		Board  map[string]string
	}
	_ = json.NewDecoder(r.Body).Decode(&q)
	if q.Action == "init" {
		return
	}
	for y := range 3 {
		for x := range 3 {
			if k := fmt.Sprintf("%d-%d", y, x); q.Board[k] == "" {
				fmt.Fprintf(w, `{"play":%q}`, k)
				return
			}
		}
	}
}

// runArena runs a's Run until the test ends.
func runArena(t *testing.T, a *arena.Arena) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- a.Run(ctx, 1) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
	})
}

// A URL upload to the machine's own service: refused by an arena that
// lists no web bots, or lists only other networks, or any network but
// not the loopback one explicitly; the service is never asked.
func TestWebBotsOnlyWhereListed(t *testing.T) {
	url, asked := service(t, nil)
	for _, tt := range []struct {
		list []string
		url  string
		err  string
	}{
		{nil, url + "/admin/export", "takes no web bots"},
		{[]string{"203.0.113.0/24"}, url + "/admin/export", "loopback"},
		{[]string{"0.0.0.0/0", "::/0"}, url + "/admin/export", "loopback"},
		{[]string{"bots.example.org"}, url + "/admin/export", "loopback"},
		{[]string{"203.0.113.0/24"}, strings.Replace(url, "http://", "http+json://http://", 1) + "/admin/export", "a URL inside a URL"},
		{[]string{"203.0.113.0/24"}, strings.Replace(url, "127.0.0.1", "localhost", 1) + "/admin/export", "not a host web bots may be at"},
	} {
		t.Run(fmt.Sprint(tt.list, tt.url), func(t *testing.T) {
			_, a := newArenaOf(t, arena.Config{TestMatches: 1, WebBots: tt.list})
			e, _ := entrant(t, a, "mallory", nil)
			_, err := a.Submit(context.Background(), e, arena.Upload{URL: tt.url})
			if !errors.Is(err, arena.ErrBadArchive) || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("Submit(%s) = %v, want ErrBadArchive saying %q", tt.url, err, tt.err)
			}
			if subs, err := a.Submissions(context.Background(), e); err != nil || len(subs) != 0 {
				t.Errorf("submissions %v, %v", subs, err)
			}
		})
	}
	if n := asked.Load(); n != 0 {
		t.Errorf("the service was asked %d times", n)
	}
}

// A host name the organiser lists that resolves to the loopback address
// (as a name its owner points there after the upload would): the upload
// is taken, its connections are refused, the service is never asked, and
// the submission leaves play after its first match.
func TestWebBotNameToLoopback(t *testing.T) {
	url, asked := service(t, nil)
	_, a := newArenaOf(t, arena.Config{TestMatches: 4, WebBots: []string{"localhost"}})
	e, _ := entrant(t, a, "mallory", nil)
	id, err := a.Submit(context.Background(), e, arena.Upload{URL: strings.Replace(url, "127.0.0.1", "localhost", 1) + "/admin/export"})
	if err != nil {
		t.Fatal(err)
	}
	runArena(t, a)
	waitFor(t, "the web bot's verdict", func() bool {
		s := status(t, a, e, id).Status
		return s != arena.StatusQueued && s != arena.StatusBuilding && s != arena.StatusTesting
	})
	if s := status(t, a, e, id); s.Status != arena.StatusCompileError || !strings.Contains(s.Log, "may not connect") || len(s.Replays) != 1 {
		t.Errorf("status %s, log %q, %d test matches", s.Status, s.Log, len(s.Replays))
	}
	if n := asked.Load(); n != 0 {
		t.Errorf("the service was asked %d times", n)
	}
}

// Listed explicitly, the loopback address plays.
func TestWebBotListedPlays(t *testing.T) {
	url, asked := service(t, tictactoeBot)
	_, a := newArenaOf(t, arena.Config{TestMatches: 2, WebBots: []string{"127.0.0.1/32"}})
	e, _ := entrant(t, a, "alice", nil)
	id, err := a.Submit(context.Background(), e, arena.Upload{URL: url + "/bot"})
	if err != nil {
		t.Fatal(err)
	}
	runArena(t, a)
	waitFor(t, "the web bot's test matches", func() bool {
		s := status(t, a, e, id).Status
		return s != arena.StatusQueued && s != arena.StatusBuilding && s != arena.StatusTesting
	})
	if s := status(t, a, e, id); s.Status != arena.StatusActive || len(s.Replays) != 2 {
		t.Errorf("status %s, log %q, test replays %v", s.Status, s.Log, s.Replays)
	}
	if asked.Load() < 4 {
		t.Errorf("the bot was asked %d times", asked.Load())
	}
}

// A web bot whose server answers 404 with a secret: the matches' reasons
// and replays, which everybody sees, do not give the secret; the log of
// the submission, its author's only, does. The bot leaves play after its
// first match: its server gets that match's requests, its init (whose
// failure botsarena ignores) and its first play-turn, not those of every
// ladder match.
func TestWebBotAnswerIsPrivate(t *testing.T) {
	url, asked := service(t, nil)
	dir, a := newArenaOf(t, arena.Config{TestMatches: 4, LadderGames: 50, WebBots: []string{"127.0.0.1/32"}})
	e, _ := entrant(t, a, "mallory", nil)
	id, err := a.Submit(context.Background(), e, arena.Upload{URL: url + "/admin/export"})
	if err != nil {
		t.Fatal(err)
	}
	// An opponent for the ladder, should the web bot get there.
	bob, bid := entrant(t, a, "bob", source(t))
	runArena(t, a)
	waitFor(t, "the web bot's verdict", func() bool {
		s := status(t, a, e, id).Status
		return s != arena.StatusQueued && s != arena.StatusBuilding && s != arena.StatusTesting
	})
	waitFor(t, "bob's test matches", func() bool { return status(t, a, bob, bid).Status == arena.StatusActive })
	time.Sleep(time.Second) // time for the ladder, should it play the web bot
	const secret = "secret-of-the-internal-service"
	s := status(t, a, e, id)
	if s.Status != arena.StatusCompileError || !strings.Contains(s.Log, "HTTP 404") || !strings.Contains(s.Log, secret) {
		t.Errorf("status %s, log %q", s.Status, s.Log)
	}
	if n := asked.Load(); n > 2 {
		t.Errorf("the server was asked %d times", n)
	}
	ms, err := a.Matches(context.Background(), "", 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		if strings.Contains(m.Reason, secret) {
			t.Errorf("match %d's reason %q gives the secret", m.ID, m.Reason)
		}
	}
	if n, err := arena.Count(context.Background(), a, `SELECT count(*) FROM match_seats WHERE reason LIKE '%HTTP 404%'`); err != nil || n != 1 {
		t.Errorf("%d seats lost by the answer HTTP 404 (%v)", n, err)
	}
	if n, err := arena.Count(context.Background(), a, `SELECT count(*) FROM match_seats WHERE reason LIKE '%`+secret+`%'`); err != nil || n != 0 {
		t.Errorf("%d seats' reasons give the secret (%v)", n, err)
	}
	replays, err := os.ReadDir(filepath.Join(dir, "replays"))
	if err != nil || len(replays) == 0 {
		t.Fatalf("%d replays: %v", len(replays), err)
	}
	for _, r := range replays {
		b, err := os.ReadFile(filepath.Join(dir, "replays", r.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), secret) {
			t.Errorf("replay %s gives the secret", r.Name())
		}
	}
}
