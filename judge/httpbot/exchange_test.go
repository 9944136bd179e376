package httpbot_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"judge/games"
	"judge/games/catalog"
	"judge/judge"
	"judge/judge/httpbot"
)

// exchange is a recorded exchange: the requests botsarena's act.php sends
// for one match, in order, as testdata/botsarena/*.json writes them down
// from its code.
type exchange struct {
	Game     string       `json:"game"`
	Params   games.Params `json:"params"`
	JSON     bool         `json:"json"` // Battleship's JSON variant
	Requests []recorded   `json:"requests"`
}

// recorded is one request: to bot a (seat 0) or b (seat 1), a JSON body
// or multipart form fields in order.
type recorded struct {
	To   string          `json:"to"`
	JSON json.RawMessage `json:"json,omitempty"`
	Form [][2]string     `json:"form,omitempty"`
}

// canonical is a JSON text with its objects' keys sorted, numbers kept as
// written, no spaces.
func canonical(t *testing.T, b []byte) string {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return "not JSON: " + string(b)
	}
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// The requests the judge sends botsarena's web bots, field for field,
// type for type, id for id and in order, are those act.php sends: for
// tic-tac-toe, Connect Four and both Battleship variants, one match each
// between two bots of a server that answers as the fixture's match goes.
func TestRecordedExchanges(t *testing.T) {
	for _, name := range []string{"tictactoe", "connect4", "battleship-json", "battleship-form"} {
		t.Run(name, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join("testdata", "botsarena", name+".json"))
			if err != nil {
				t.Fatal(err)
			}
			var want exchange
			if err := json.Unmarshal(b, &want); err != nil {
				t.Fatal(err)
			}
			got := playExchange(t, want)
			// The judge sends Battleship's two inits at once, in the
			// placement turn, where act.php sends seat 0's first.
			if strings.HasPrefix(name, "battleship") && len(got) >= 2 && got[0].To == "b" {
				got[0], got[1] = got[1], got[0]
			}
			for i := range max(len(got), len(want.Requests)) {
				switch {
				case i >= len(got):
					t.Errorf("request %d, to %s, not sent: %s", i, want.Requests[i].To, show(t, want.Requests[i]))
				case i >= len(want.Requests):
					t.Errorf("request %d, to %s, sent but not by act.php: %s", i, got[i].To, show(t, got[i]))
				case show(t, got[i]) != show(t, want.Requests[i]) || got[i].To != want.Requests[i].To:
					t.Errorf("request %d:\n got to %s: %s\nwant to %s: %s", i, got[i].To, show(t, got[i]), want.Requests[i].To, show(t, want.Requests[i]))
				}
			}
		})
	}
}

// show is a recorded request as one line to compare.
func show(t *testing.T, r recorded) string {
	if r.JSON != nil {
		return canonical(t, r.JSON)
	}
	b, _ := json.Marshal(r.Form)
	return "form " + string(b)
}

// playExchange plays the fixture's match between two web bots of one
// server, a.test/bot and b.test/bot (their connections go to a listener
// of the test), and returns the requests they got, in order.
func playExchange(t *testing.T, x exchange) []recorded {
	var (
		mu  sync.Mutex
		got []recorded
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		to := strings.TrimSuffix(r.Host, ".test")
		body, _ := io.ReadAll(r.Body)
		rec := recorded{To: to}
		ct, params, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
		switch ct {
		case "application/json":
			rec.JSON = body
		case "multipart/form-data":
			mr := multipart.NewReader(bytes.NewReader(body), params["boundary"])
			for {
				p, err := mr.NextPart()
				if err != nil {
					break
				}
				v, _ := io.ReadAll(p)
				rec.Form = append(rec.Form, [2]string{p.FormName(), string(v)})
			}
		default:
			rec.Form = [][2]string{{"Content-Type", r.Header.Get("Content-Type")}}
		}
		mu.Lock()
		got = append(got, rec)
		n := 0 // the requests to this bot before
		for _, g := range got[:len(got)-1] {
			if g.To == to {
				n++
			}
		}
		mu.Unlock()
		fmt.Fprint(w, exchangeAnswer(x, to, n, rec))
	}))
	t.Cleanup(srv.Close)
	client := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, "tcp", srv.Listener.Addr().String())
	}}}
	scheme := "http"
	if x.JSON {
		scheme = "http+json"
	}
	var es []judge.Entrant
	for _, host := range []string{"a.test", "b.test"} {
		b, ok, err := httpbot.Parse(scheme + "://" + host + "/bot")
		if !ok || err != nil {
			t.Fatal(ok, err)
		}
		b.Client = client
		es = append(es, b)
	}
	v, err := catalog.Lookup(x.Game)
	if err != nil {
		t.Fatal(err)
	}
	p, err := v.Resolve(x.Params)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := judge.Run(ctx, judge.Match{Game: v.Game, Name: v.Name, Params: p, Seed: 3, Limits: judge.DefaultTurnLimits, Entrants: es})
	if err != nil {
		t.Fatal(err)
	}
	for i, pr := range res.Players {
		if pr.Status != judge.OK {
			t.Errorf("seat %d: %s %s", i, pr.Status, pr.Reason)
		}
	}
	if res.Winner != 0 {
		t.Errorf("winner %d (%s), want seat 0 as in the fixture", res.Winner, res.Reason)
	}
	mu.Lock()
	defer mu.Unlock()
	return slices.Clone(got)
}

// exchangeAnswer is what bot to answers to its request n (from 0) in the
// fixtures' matches.
func exchangeAnswer(x exchange, to string, n int, r recorded) string {
	seat := strings.Index("ab", to)
	switch x.Game {
	case "tictactoe":
		// The first free cell in the board's key order.
		var q struct{ Board map[string]string }
		if json.Unmarshal(r.JSON, &q) != nil || q.Board == nil {
			return `{"name":"first-free"}`
		}
		for y := range 3 {
			for x := range 3 {
				if k := fmt.Sprintf("%d-%d", y, x); q.Board[k] == "" {
					return fmt.Sprintf(`{"play":%q}`, k)
				}
			}
		}
	case "connect4":
		return fmt.Sprintf(`{"play":"%d"}`, seat) // seat 0 column 0, seat 1 column 1
	}
	// Battleship: both fleets 0,0-1,0 and 3,0-3,0; the shots in order.
	shots := [][]string{{"0,0", "1,0", "2,0", "3,0"}, {"1,0", "0,0", "0,0"}}[seat]
	switch {
	case n == 0 && x.JSON:
		return `{"name":"fixture","boats":["0,0-1,0","3,0-3,0"]}`
	case n == 0:
		return `["0,0-1,0","3,0-3,0"]`
	case n-1 >= len(shots):
		return "no more shots"
	case x.JSON:
		return fmt.Sprintf(`{"play":%q}`, shots[n-1])
	}
	return shots[n-1]
}
