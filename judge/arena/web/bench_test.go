package web_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"judge/judge/arena"
	"judge/judge/arena/web"
)

// BenchmarkPage is what the page costs the server for a big class: 100
// entrants, 1000 and 10000 ladder matches. Each request as the page
// makes it (the page itself, /api/arena, /api/standings, a page of 50
// matches of all or of one entrant, an old page), and "poll", the four
// requests of one poll of the page. Standings are "cold" when the arena
// was just opened (every match read and the ratings fit), "warm" when
// nothing was played since the last request. It reports the database's
// size, and its bytes a match.
func BenchmarkPage(b *testing.B) {
	names := make([]string, 100)
	for i := range names {
		names[i] = fmt.Sprintf("e%03d", i)
	}
	for _, n := range []int{1000, 10000} {
		ta := newArena(b, arena.Config{}, web.Options{})
		ta.fill(b, names, n)
		db, err := os.Stat(filepath.Join(ta.dir, "arena.db"))
		if err != nil {
			b.Fatal(err)
		}
		h := web.Handler(ta.a, web.Options{})
		get := func(b *testing.B, h http.Handler, path string) {
			req := httptest.NewRequest("GET", path, nil)
			req.Host = "127.0.0.1"
			w := httptest.NewRecorder()
			h.ServeHTTP(w, req)
			if w.Code != http.StatusOK {
				b.Fatalf("%s: %d %s", path, w.Code, w.Body)
			}
		}
		get(b, h, "/api/standings") // warm
		for _, x := range []struct{ name, path string }{
			{"page", "/"},
			{"arena", "/api/arena"},
			{"standings/warm", "/api/standings"},
			{"matches", "/api/matches?limit=50"},
			{"matches/entrant", "/api/matches?limit=50&entrant=e042"},
			{"matches/old", fmt.Sprintf("/api/matches?limit=50&before=%d", n/10)},
		} {
			b.Run(fmt.Sprintf("matches=%d/%s", n, x.name), func(b *testing.B) {
				for b.Loop() {
					get(b, h, x.path)
				}
			})
		}
		b.Run(fmt.Sprintf("matches=%d/poll", n), func(b *testing.B) {
			for b.Loop() {
				for _, p := range []string{"/api/arena", "/api/standings", "/api/matches?limit=50"} {
					get(b, h, p)
				}
			}
		})
		b.Run(fmt.Sprintf("matches=%d/standings/cold", n), func(b *testing.B) {
			for b.Loop() {
				a, err := arena.Open(context.Background(), ta.dir)
				if err != nil {
					b.Fatal(err)
				}
				get(b, web.Handler(a, web.Options{}), "/api/standings")
				a.Close()
			}
		})
		b.Run(fmt.Sprintf("matches=%d/standings/after-a-match", n), func(b *testing.B) {
			for b.Loop() {
				b.StopTimer()
				ta.played(b)
				b.StartTimer()
				get(b, h, "/api/standings")
			}
		})
		b.Run(fmt.Sprintf("matches=%d/db", n), func(b *testing.B) {
			for b.Loop() {
			}
			b.ReportMetric(float64(db.Size()), "bytes")
			b.ReportMetric(float64(db.Size())/float64(n), "bytes/match")
		})
	}
}
