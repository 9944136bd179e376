package httpbot_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"judge/games/catalog"
	"judge/judge"
	"judge/judge/httpbot"
	"judge/judge/judgetest"
	"judge/judge/procbot"
)

func TestMain(m *testing.M) { judgetest.Main(m) }

// play plays a match of the variant between the entrants, with the
// variant's parameters.
func play(t *testing.T, variant string, lim judge.Limits, es ...judge.Entrant) *judge.Result {
	t.Helper()
	v, err := catalog.Lookup(variant)
	if err != nil {
		t.Fatal(err)
	}
	p, err := v.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	if lim == (judge.Limits{}) {
		lim = judge.DefaultLimits
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := judge.Run(ctx, judge.Match{Game: v.Game, Name: v.Name, Params: p, Seed: 3, Limits: lim, Entrants: es})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := judge.Playback(v.Game, res.Replay); err != nil {
		t.Errorf("the replay does not play back: %v", err)
	}
	return res
}

func example(t *testing.T, path string) judge.Entrant {
	return procbot.Bot{Spec: judgetest.Spec(t, filepath.Base(path), path)}
}

// botsarena's connectFour request.
type c4Request struct {
	GameID      string `json:"game-id"`
	Action      string `json:"action"`
	Game        string `json:"game"`
	Players     int    `json:"players"`
	Board       any    `json:"board"`
	You         string `json:"you"`
	PlayerIndex *int   `json:"player-index"`
}

// A Connect Four web bot in Go that checks every request against the
// seed's format and plays the lowest free cell's column, leftmost first.
func TestConnectFour(t *testing.T) {
	var (
		mu     sync.Mutex
		inits  int
		turns  int
		errs   []string
		played = map[int]int{} // discs per column the bot expects
	)
	bad := func(f string, a ...any) {
		mu.Lock()
		errs = append(errs, fmt.Sprintf(f, a...))
		mu.Unlock()
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var q c4Request
		if r.Method != http.MethodPost || json.NewDecoder(r.Body).Decode(&q) != nil {
			bad("not a JSON POST")
			return
		}
		if q.Game != "connectFour" || q.Players != 2 || q.PlayerIndex == nil || q.GameID == "" {
			bad("request %+v", q)
		}
		mu.Lock()
		defer mu.Unlock()
		switch q.Action {
		case "init":
			inits++
			if q.Board != "" {
				bad("init board %v", q.Board)
			}
			fmt.Fprint(w, `{"name":"gobot"}`)
			return
		case "play-turn":
		default:
			bad("action %q", q.Action)
		}
		turns++
		b, _ := json.Marshal(q.Board)
		var grid [][]string
		if json.Unmarshal(b, &grid) != nil || len(grid) != 6 || len(grid[0]) != 7 {
			bad("board %s", b)
			return
		}
		// Row 0 is the bottom: every column's discs are at its bottom.
		discs := 0
		for x := 0; x < 7; x++ {
			h := 0
			for h < 6 && grid[h][x] != "" {
				h++
			}
			for y := h; y < 6; y++ {
				if grid[y][x] != "" {
					bad("a disc floats at row %d of column %d: row 0 is not the bottom", y, x)
				}
			}
			discs += h
		}
		if want := 2*(turns-1) + *q.PlayerIndex; discs != want || q.You != []string{"X", "O"}[*q.PlayerIndex] {
			bad("turn %d: %d discs (want %d), you %q", turns, discs, want, q.You)
		}
		col := 0
		for grid[5][col] != "" {
			col++
		}
		played[col]++
		if turns%2 == 0 {
			fmt.Fprintf(w, `{"play":%d}`, col) // a number works too
		} else {
			fmt.Fprintf(w, `{"play":"%d"}`, col)
		}
	}))
	defer srv.Close()
	b, ok, err := httpbot.Parse(srv.URL + "/bot.php")
	if !ok || err != nil {
		t.Fatal(ok, err)
	}
	res := play(t, "connect4", judge.Limits{}, b, example(t, "examples/connect4/random.c"))
	for i, p := range res.Players {
		if p.Status != judge.OK {
			t.Errorf("seat %d %s: %s %s", i, p.Name, p.Status, p.Reason)
		}
	}
	if inits != 1 || turns < 4 || len(errs) > 0 {
		t.Errorf("%d inits, %d turns; %q", inits, turns, errs)
	}
	if rb := res.Replay.Bots[0]; rb.Sandbox != httpbot.Outside || !strings.Contains(rb.Stderr, "> POST") {
		t.Errorf("the replay's web bot: sandbox %q, log %q", rb.Sandbox, rb.Stderr)
	}
}

// botsarena's Battleship, the form and the JSON body: every field of the
// seed, the strikes with their result words, the opponent's name.
func TestBattleship(t *testing.T) {
	for _, asJSON := range []bool{false, true} {
		t.Run(map[bool]string{false: "form", true: "json"}[asJSON], func(t *testing.T) {
			var (
				mu      sync.Mutex
				errs    []string
				results = map[string]int{}
				fights  int
			)
			bad := func(f string, a ...any) { errs = append(errs, fmt.Sprintf(f, a...)) }
			matchID := regexp.MustCompile(`^[0-9]+-(1|2)$`)
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				defer mu.Unlock()
				f := map[string]string{}
				var mine, his []struct{ Target, Result string }
				if asJSON {
					var v map[string]any
					if json.NewDecoder(r.Body).Decode(&v) != nil {
						bad("not JSON")
						return
					}
					for k, x := range v {
						switch k {
						case "your_strikes", "his_strikes":
							b, _ := json.Marshal(x)
							if k == "your_strikes" {
								_ = json.Unmarshal(b, &mine)
							} else {
								_ = json.Unmarshal(b, &his)
							}
						default:
							f[k] = fmt.Sprint(x)
						}
					}
					f["act"] = map[string]string{"init": "init", "play-turn": "fight"}[f["action"]]
				} else {
					if r.ParseForm() != nil {
						bad("not a form")
						return
					}
					for k := range r.PostForm {
						f[k] = r.PostForm.Get(k)
					}
					if f["act"] == "fight" && (json.Unmarshal([]byte(f["your_strikes"]), &mine) != nil || json.Unmarshal([]byte(f["his_strikes"]), &his) != nil) {
						bad("strikes %q %q", f["your_strikes"], f["his_strikes"])
					}
				}
				if f["game"] != "Battleship" || !matchID.MatchString(f["match_id"]) || f["opponent"] != "random.c" ||
					f["width"] != "10" || f["height"] != "10" || f["ship2"] != "1" || f["ship3"] != "2" || f["ship6"] != "0" {
					bad("fields %v", f)
				}
				switch f["act"] {
				case "init":
					fmt.Fprint(w, `["3,3-3,7","2,1-2,4","0,1-0,3","7,3-7,1","8,8-7,8"]`)
				case "fight":
					if len(mine) != fights {
						bad("fight %d: %d strikes of mine", fights, len(mine))
					}
					for _, s := range mine {
						results[s.Result]++
					}
					x, y := fights%10, fights/10
					fights++
					fmt.Fprintf(w, "%d,%d", x, y)
				default:
					bad("act %q", f["act"])
				}
			}))
			defer srv.Close()
			arg := srv.URL + "/bot"
			if asJSON {
				arg = strings.Replace(arg, "http://", "http+json://", 1)
			}
			b, _, err := httpbot.Parse(arg)
			if err != nil {
				t.Fatal(err)
			}
			res := play(t, "battleship-botsarena", judge.Limits{}, b, example(t, "examples/battleship/random.c"))
			for i, p := range res.Players {
				if p.Status != judge.OK {
					t.Errorf("seat %d %s: %s %s", i, p.Name, p.Status, p.Reason)
				}
			}
			for _, r := range []string{"", "hit", "hit and sunk"} {
				if results[r] == 0 && res.Winner == 0 {
					t.Errorf("no strike with result %q (%v)", r, results)
				}
			}
			if len(errs) > 0 {
				t.Errorf("%d bad requests: %q", len(errs), errs[:min(3, len(errs))])
			}
		})
	}
}

// Tic-tac-toe as Bolosseum serves it: the board keyed "y-x".
func TestTicTacToe(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var q struct {
			Action string
			Board  any
		}
		_ = json.NewDecoder(r.Body).Decode(&q)
		if q.Action == "init" {
			return // an empty answer is fine
		}
		b, _ := q.Board.(map[string]any)
		for y := 0; y < 3; y++ {
			for x := 0; x < 3; x++ {
				if k := fmt.Sprintf("%d-%d", y, x); b[k] == "" {
					fmt.Fprintf(w, `{"play":%q}`, k)
					return
				}
			}
		}
	}))
	defer srv.Close()
	b, _, _ := httpbot.Parse(srv.URL)
	res := play(t, "tictactoe", judge.Limits{}, b, example(t, "examples/gomoku/random.c"))
	if p := res.Players[0]; p.Status != judge.OK || res.Turns < 5 {
		t.Errorf("%s %s after %d turns", p.Status, p.Reason, res.Turns)
	}
	if res.Replay.Turns[0].Moves[0].Move[0] != "PlaceSymbol 0 0" || res.Replay.Turns[2].Moves[0].Move[0] != "PlaceSymbol 1 0" {
		t.Errorf("moves %v %v", res.Replay.Turns[0].Moves[0].Move, res.Replay.Turns[2].Moves[0].Move)
	}
}

// What goes wrong with a web bot is its fault, with a reason naming the
// URL and what came back.
func TestFaults(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + ln.Addr().String() + "/gone"
	ln.Close()
	serve := func(h http.HandlerFunc) string {
		s := httptest.NewServer(h)
		t.Cleanup(s.Close)
		return s.URL + "/bot"
	}
	lim := judge.DefaultLimits
	lim.FirstTurn = 300 * time.Millisecond
	for _, tt := range []struct {
		name   string
		url    string
		status judge.Status
		words  []string
	}{
		{"connection refused", closed, judge.Crash, []string{closed, "connection refused"}},
		{"HTTP error", serve(func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "database down", http.StatusInternalServerError)
		}), judge.Crash, []string{"500 Internal Server Error", "database down"}},
		{"not JSON", serve(func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprint(w, "<html>Parse error</html>")
		}), judge.Protocol, []string{"<html>Parse error</html>", `not {"play": …}`}},
		{"too slow", serve(func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-time.After(5 * time.Second):
			case <-r.Context().Done():
			}
		}), judge.Timeout, []string{"300ms"}},
		{"a wrong column", serve(func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprint(w, `{"play":"9"}`)
		}), judge.Illegal, []string{"DropDisc 9", "off the board"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b, _, err := httpbot.Parse(tt.url)
			if err != nil {
				t.Fatal(err)
			}
			res := play(t, "connect4", lim, b, example(t, "examples/connect4/random.c"))
			p := res.Players[0]
			if p.Status != tt.status {
				t.Fatalf("got %s %q, want %s", p.Status, p.Reason, tt.status)
			}
			for _, w := range tt.words {
				if !strings.Contains(p.Reason, w) {
					t.Errorf("reason %q does not say %q", p.Reason, w)
				}
			}
		})
	}
}

func TestParse(t *testing.T) {
	for arg, want := range map[string]string{"http://h:1/b.php": "http://h:1/b.php", "https://h/x": "https://h/x", "http+json://h/b": "http://h/b"} {
		b, ok, err := httpbot.Parse(arg)
		if !ok || err != nil || b.URL != want || b.JSON != strings.Contains(arg, "+json") {
			t.Errorf("Parse(%q) = %+v, %v, %v", arg, b, ok, err)
		}
	}
	for _, arg := range []string{"bot.py", "python3 bot.py", "./http"} {
		if _, ok, _ := httpbot.Parse(arg); ok {
			t.Errorf("Parse(%q) is a web bot", arg)
		}
	}
	if _, ok, err := httpbot.Parse("http://"); !ok || err == nil {
		t.Errorf("Parse(http://): %v %v", ok, err)
	}
}

// botsarena's own kind of bot: PHP scripts served by PHP's built-in
// server (Debian's php-cli), against bot programs.
func TestPHPBots(t *testing.T) {
	judgetest.NeedTools(t, "php")
	root := judgetest.Root(t)
	for _, tt := range []struct{ variant, dir, opponent string }{
		{"connect4", "examples/connect4/web", "examples/connect4/random.c"},
		{"battleship-botsarena", "examples/battleship/web", "examples/battleship/random.c"},
	} {
		t.Run(tt.variant, func(t *testing.T) {
			addr := judgetest.PHPServer(t, filepath.Join(root, tt.dir))
			b, _, err := httpbot.Parse("http://" + addr + "/random.php")
			if err != nil {
				t.Fatal(err)
			}
			for seat := range 2 {
				es := []judge.Entrant{example(t, tt.opponent), example(t, tt.opponent)}
				es[seat] = b
				res := play(t, tt.variant, judge.Limits{}, es...)
				for i, p := range res.Players {
					if p.Status != judge.OK {
						t.Errorf("seat %d %s: %s %s\n%s", i, p.Name, p.Status, p.Reason, res.Replay.Bots[i].Stderr)
					}
				}
				if res.Turns < 4 {
					t.Errorf("%d turns", res.Turns)
				}
			}
		})
	}
}
