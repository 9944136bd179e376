package httpbot_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"net/http/httptest"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
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
func play(t *testing.T, variant string, lim judge.TurnLimits, es ...judge.Entrant) *judge.Result {
	t.Helper()
	v, err := catalog.Lookup(variant)
	if err != nil {
		t.Fatal(err)
	}
	p, err := v.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	if lim == (judge.TurnLimits{}) {
		lim = judge.DefaultTurnLimits
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
	return procbot.Bot{Spec: judgetest.Spec(t, filepath.Base(path), path), Options: judgetest.Proc(procbot.Options{})}
}

// botsarena's connectFour request.
type c4Request struct {
	GameID      json.RawMessage `json:"game-id"`
	Action      string          `json:"action"`
	Game        string          `json:"game"`
	Players     int             `json:"players"`
	Opponent    *string         `json:"opponent"`
	Board       any             `json:"board"`
	You         string          `json:"you"`
	PlayerIndex *int            `json:"player-index"`
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
	bad := func(f string, a ...any) { errs = append(errs, fmt.Sprintf(f, a...)) } // mu held
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		var q c4Request
		if r.Method != http.MethodPost || json.NewDecoder(r.Body).Decode(&q) != nil {
			bad("not a JSON POST")
			return
		}
		// act.php's game is "connectfour" (its doc and Bolosseum too); the
		// match id a number in init, a string in play-turn.
		if q.Game != "connectfour" || q.Players != 2 || q.PlayerIndex == nil {
			bad("request %+v", q)
		}
		switch q.Action {
		case "init":
			inits++
			if q.Board != "" || string(q.GameID) != "3" || q.Opponent != nil {
				bad("init board %v, game-id %s, opponent %v", q.Board, q.GameID, q.Opponent)
			}
			fmt.Fprint(w, `{"name":"gobot"}`)
			return
		case "play-turn":
			if string(q.GameID) != `"3"` || q.Opponent == nil || *q.Opponent != "random.c" {
				bad("play-turn game-id %s, opponent %v", q.GameID, q.Opponent)
			}
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
	res := play(t, "connect4", judge.TurnLimits{}, b, example(t, "examples/connect4/random.c"))
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

// botsarena's Battleship form (seed 000): every field of the seed, the
// strikes with their result words, the opponent's name.
func TestBattleshipForm(t *testing.T) {
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
		var mine, his []struct{ Target, Result string }
		if !strings.HasPrefix(r.Header.Get("Content-Type"), "multipart/form-data; boundary=") || r.ParseMultipartForm(1<<20) != nil {
			bad("not a multipart form")
			return
		}
		f := map[string]string{}
		for k := range r.PostForm {
			f[k] = r.PostForm.Get(k)
		}
		if f["act"] == "fight" && (json.Unmarshal([]byte(f["your_strikes"]), &mine) != nil || json.Unmarshal([]byte(f["his_strikes"]), &his) != nil) {
			bad("strikes %q %q", f["your_strikes"], f["his_strikes"])
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
	b, _, err := httpbot.Parse(srv.URL + "/bot")
	if err != nil {
		t.Fatal(err)
	}
	res := play(t, "battleship-botsarena", judge.TurnLimits{}, b, example(t, "examples/battleship/random.c"))
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
}

// keys is the sorted keys of a JSON object.
func keys(m map[string]json.RawMessage) string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return strings.Join(ks, " ")
}

// bsJSONBot is a botsarena JSON Battleship bot in Go that checks every
// request against botsarena's doc-en.html and act.php, key for key and
// type for type, and fires at every cell in order. Its fleet answers
// init; what it finds wrong is in errs.
func bsJSONBot(t *testing.T, fleet string, errs *[]string, results map[string]int) string {
	var mu sync.Mutex
	bad := func(f string, a ...any) { *errs = append(*errs, fmt.Sprintf(f, a...)) }
	fights := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		var q map[string]json.RawMessage
		if r.Method != http.MethodPost || r.Header.Get("Content-Type") != "application/json" || json.NewDecoder(r.Body).Decode(&q) != nil {
			bad("not a JSON POST")
			return
		}
		var action string
		_ = json.Unmarshal(q["action"], &action)
		var board map[string]json.RawMessage
		if json.Unmarshal(q["board"], &board) != nil {
			bad("board %s", q["board"])
			return
		}
		// The parameters, strings as the arena passes them on.
		for k, want := range map[string]string{"opponent": `"random.c"`, "width": `"10"`, "height": `"10"`,
			"ship1": `"0"`, "ship2": `"1"`, "ship3": `"2"`, "ship4": `"1"`, "ship5": `"1"`, "ship6": `"0"`} {
			if string(board[k]) != want {
				bad("%s: board %s is %s, want %s", action, k, board[k], want)
			}
		}
		var id int
		var seat *int
		if json.Unmarshal(q["game-id"], &id) != nil || json.Unmarshal(q["player-index"], &seat) != nil || seat == nil || *seat > 1 {
			bad("game-id %s, player-index %s", q["game-id"], q["player-index"])
		}
		switch action {
		case "init":
			if k := keys(q); k != "action board game game-id player-index players" || string(q["game"]) != `"battleship"` || string(q["players"]) != "2" {
				bad("init: keys %s, game %s, players %s", k, q["game"], q["players"])
			}
			if k := keys(board); k != "height opponent ship1 ship2 ship3 ship4 ship5 ship6 width" {
				bad("init: board keys %s", k)
			}
			fights = 0
			fmt.Fprint(w, fleet)
		case "play-turn":
			if k := keys(q); k != "action board game game-id player-index" || string(q["game"]) != `"Battleship"` {
				bad("play-turn: keys %s, game %s", k, q["game"])
			}
			var mine, his []map[string]string
			if json.Unmarshal(board["your_strikes"], &mine) != nil || json.Unmarshal(board["his_strikes"], &his) != nil ||
				mine == nil || his == nil {
				bad("strikes %s %s", board["your_strikes"], board["his_strikes"])
			}
			if len(mine) != fights || len(his) != fights+*seat {
				bad("fight %d of seat %d: %d strikes of mine, %d of his", fights, *seat, len(mine), len(his))
			}
			for i, s := range mine {
				if len(s) != 2 || s["target"] != fmt.Sprintf("%d,%d", i%10, i/10) {
					bad("strike %d: %v", i, s)
				}
				results[s["result"]]++
			}
			fmt.Fprintf(w, `{"play":"%d,%d"}`, fights%10, fights/10)
			fights++
		default:
			bad("action %q", action)
		}
	}))
	t.Cleanup(srv.Close)
	return strings.Replace(srv.URL, "http://", "http+json://", 1) + "/bot.php"
}

// botsarena's JSON Battleship, as its doc and act.php have it: a whole
// game in both seats, against a bot program and against itself.
func TestBattleshipJSON(t *testing.T) {
	const fleet = `{"name":"gobot","boats":["4,2-4,6","3,3-3,0","2,3-2,1","7,9-5,9","6,8-6,7"]}`
	var errs []string
	results := map[string]int{}
	arg := bsJSONBot(t, fleet, &errs, results)
	b, _, err := httpbot.Parse(arg)
	if err != nil || !b.JSON {
		t.Fatal(b, err)
	}
	for seat := range 2 {
		es := []judge.Entrant{example(t, "examples/battleship/random.c"), example(t, "examples/battleship/random.c")}
		es[seat] = b
		res := play(t, "battleship-botsarena", judge.TurnLimits{}, es...)
		for i, p := range res.Players {
			if p.Status != judge.OK {
				t.Errorf("seat %d %s: %s %s", i, p.Name, p.Status, p.Reason)
			}
		}
		if res.Turns < 20 {
			t.Errorf("%d turns", res.Turns)
		}
		if rb := res.Replay.Bots[seat].Stderr; strings.Contains(rb, "gobot") || !strings.Contains(rb, "< HTTP 200, 76 bytes") {
			t.Errorf("the log quotes the answers, or does not give their sizes: %q", judge.Clip(rb, 300))
		}
	}
	for _, r := range []string{"", "hit", "hit and sunk"} {
		if results[r] == 0 {
			t.Errorf("no strike with result %q (%v)", r, results)
		}
	}
	if len(errs) > 0 {
		t.Errorf("%d bad requests: %q", len(errs), errs[:min(3, len(errs))])
	}
}

// What botsarena's Battleship loses a bot for, in either variant, and the
// answers in the other variant's shape, whose reason says which scheme to
// give the bot.
func TestBattleshipAnswers(t *testing.T) {
	for _, tt := range []struct {
		name       string
		json       bool
		init, turn string
		status     judge.Status
		words      []string
		detail     []string // in the Detail, not in the reason
		game       string   // battleship-botsarena if empty
	}{
		{"json ok", true, `{"name":"x","boats":["0,0-0,4","1,0-1,3","2,0-2,2","3,0-3,2","4,0-4,1"]}`, `{"play":"9,9"}`, judge.OK, nil, nil, ""},
		{"json no boats", true, `{"name":"x"}`, ``, judge.Protocol, []string{`no "boats"`, `{"name":…,"boats":[`}, nil, ""},
		{"json null boats", true, `{"boats":null}`, ``, judge.Protocol, []string{`no "boats"`}, nil, ""},
		{"json boats not strings", true, `{"boats":[1,2]}`, ``, judge.Protocol, []string{`"boats"`, "list of strings"}, []string{"[1,2]"}, ""},
		{"json a form fleet", true, `["0,0-0,4"]`, ``, judge.Protocol, []string{"form variant", "give the bot as http://"}, nil, ""},
		{"json a bad fleet", true, `{"boats":["0,0-0,4"]}`, ``, judge.Illegal, []string{"fleet"}, nil, ""},
		{"json play with spaces", true, `{"boats":["0,0-0,4","1,0-1,3","2,0-2,2","3,0-3,2","4,0-4,1"]}`, `{"play":"1, 2"}`, judge.Protocol, []string{`{"play":"x,y"}`}, []string{`1, 2`}, ""},
		{"json play a number", true, `{"boats":["0,0-0,4","1,0-1,3","2,0-2,2","3,0-3,2","4,0-4,1"]}`, `{"play":12}`, judge.Protocol, []string{`{"play":"x,y"}`}, nil, ""},
		{"json play negative", true, `{"boats":["0,0-0,4","1,0-1,3","2,0-2,2","3,0-3,2","4,0-4,1"]}`, `{"play":"-1,2"}`, judge.Protocol, []string{`{"play":"x,y"}`}, []string{`-1,2`}, ""},
		{"json no play", true, `{"boats":["0,0-0,4","1,0-1,3","2,0-2,2","3,0-3,2","4,0-4,1"]}`, `{"shot":"1,2"}`, judge.Protocol, []string{`{"play":"x,y"}`}, nil, ""},
		{"json a form shot", true, `{"boats":["0,0-0,4","1,0-1,3","2,0-2,2","3,0-3,2","4,0-4,1"]}`, `1,2`, judge.Protocol, []string{"form variant", "give the bot as http://"}, nil, ""},
		{"json off the board", true, `{"boats":["0,0-0,4","1,0-1,3","2,0-2,2","3,0-3,2","4,0-4,1"]}`, `{"play":"10,2"}`, judge.Illegal, []string{"10"}, nil, ""},
		{"form ok", false, `["0,0-0,4","1,0-1,3","2,0-2,2","3,0-3,2","4,0-4,1"]`, "9,9\n", judge.OK, nil, nil, ""},
		// botsarena's act.php checks the shot against ^[0-9]+,[0-9]+$; the
		// judge's battleship takes it quoted and with spaces too.
		{"form quoted", false, `["0,0-0,4","1,0-1,3","2,0-2,2","3,0-3,2","4,0-4,1"]`, `"9,9"`, judge.Protocol, []string{"botsarena refuses quotes and spaces"}, []string{`"9,9"`}, ""},
		{"form spaces", false, `["0,0-0,4","1,0-1,3","2,0-2,2","3,0-3,2","4,0-4,1"]`, `9, 9`, judge.Protocol, []string{"x,y"}, nil, ""},
		{"form quoted in battleship", false, `["0,0-0,4","1,0-1,3","2,0-2,2","3,0-3,2","4,0-4,1"]`, `"9,9"`, judge.OK, nil, nil, "battleship"},
		{"form spaces in battleship", false, `[" 0,0-0,4","1,0 - 1,3","2,0-2,2","3,0-3,2","4,0-4,1"]`, ` 9, 9 `, judge.OK, nil, nil, "battleship"},
		{"form not a cell", false, `["0,0-0,4","1,0-1,3","2,0-2,2","3,0-3,2","4,0-4,1"]`, `secret-of-the-server`, judge.Protocol, []string{`x,y`}, []string{"secret-of-the-server"}, ""},
		{"form not a ship", false, `["0,0-0,4","secret","2,0-2,2","3,0-3,2","4,0-4,1"]`, ``, judge.Protocol, []string{`"x1,y1-x2,y2"`}, []string{"secret"}, ""},
		{"form negative", false, `["0,0-0,4","1,0-1,3","2,0-2,2","3,0-3,2","4,0-4,1"]`, `-1,3`, judge.Protocol, []string{"x,y"}, nil, ""},
		{"form off the board", false, `["0,0-0,4","1,0-1,3","2,0-2,2","3,0-3,2","4,0-4,1"]`, `-1,3`, judge.Illegal, []string{"-1"}, nil, "battleship"},
		{"json not JSON", true, `-1,0`, ``, judge.Protocol, []string{"not a JSON object", "give the bot as http://"}, nil, ""},
		{"json nothing", true, ``, ``, judge.Protocol, []string{"not a JSON object", "give the bot as http://"}, nil, ""},
		{"form a JSON shot at init", false, `{"play":"0,0"}`, ``, judge.Protocol, []string{"JSON object", "give the bot as http+json://"}, nil, ""},
		{"form a JSON fleet", false, `{"name":"x","boats":["0,0-0,4"]}`, ``, judge.Protocol, []string{"JSON Battleship", "give the bot as http+json://"}, nil, ""},
		{"form nothing", false, ``, ``, judge.Protocol, []string{"JSON body", "give the bot as http+json://"}, nil, ""},
		{"form a JSON shot", false, `["0,0-0,4","1,0-1,3","2,0-2,2","3,0-3,2","4,0-4,1"]`, `{"play":"1,2"}`, judge.Protocol, []string{"JSON Battleship", "give the bot as http+json://"}, nil, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				body, _ := io.ReadAll(r.Body)
				if bytes.Contains(body, []byte("init")) {
					fmt.Fprint(w, tt.init)
				} else {
					fmt.Fprint(w, tt.turn)
				}
			}))
			defer srv.Close()
			arg := srv.URL + "/bot"
			if tt.json {
				arg = strings.Replace(arg, "http://", "http+json://", 1)
			}
			b, _, err := httpbot.Parse(arg)
			if err != nil {
				t.Fatal(err)
			}
			game := tt.game
			if game == "" {
				game = "battleship-botsarena"
			}
			res := play(t, game, judge.TurnLimits{}, b, example(t, "examples/battleship/random.c"))
			p := res.Players[0]
			if p.Status != tt.status {
				t.Fatalf("got %s %q, want %s", p.Status, p.Reason, tt.status)
			}
			for _, w := range tt.words {
				if !strings.Contains(p.Reason, w) {
					t.Errorf("reason %q does not say %q", p.Reason, w)
				}
			}
			private(t, res, 0, tt.detail)
		})
	}
}

// private checks that seat's Detail says each of words, and that neither
// its reason nor the replay (as encoded) does.
func private(t *testing.T, res *judge.Result, seat int, words []string) {
	t.Helper()
	rp, err := judge.EncodeReplay(res.Replay)
	if err != nil {
		t.Fatal(err)
	}
	p := res.Players[seat]
	for _, w := range words {
		if !strings.Contains(p.Detail, w) {
			t.Errorf("detail %q does not say %q", p.Detail, w)
		}
		if strings.Contains(p.Reason, w) || strings.Contains(res.Reason, w) {
			t.Errorf("the public reason %q (%q) says %q", p.Reason, res.Reason, w)
		}
		if bytes.Contains(rp, []byte(w)) {
			t.Errorf("the replay says %q", w)
		}
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
	res := play(t, "tictactoe", judge.TurnLimits{}, b, example(t, "examples/gomoku/random.c"))
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
	slow := serve(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(5 * time.Second):
		case <-r.Context().Done():
		}
	})
	lim := judge.DefaultTurnLimits
	lim.FirstTurn = 300 * time.Millisecond
	httpbot.SetInitLimit(t, 300*time.Millisecond)
	for _, tt := range []struct {
		name   string
		url    string
		status judge.Status
		words  []string
		detail []string // in the Detail, not in the reason nor in the replay
	}{
		{"connection refused", closed, judge.Crash, []string{closed, "connection refused"}, nil},
		{"HTTP error", serve(func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "database down", http.StatusInternalServerError)
		}), judge.Crash, []string{"HTTP 500"}, []string{"database down"}},
		{"HTTP error with its own status line", serve(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/plain")
			w.WriteHeader(404)
			fmt.Fprint(w, `{"user":"root","password":"hunter2"}`)
		}), judge.Crash, []string{"HTTP 404"}, []string{"hunter2"}},
		{"not JSON", serve(func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprint(w, "<html>Parse error</html>")
		}), judge.Protocol, []string{"a body that is not a move", `{"play": …}`}, []string{"<html>Parse error</html>"}},
		{"not a column", serve(func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprint(w, `{"play":"hunter2"}`)
		}), judge.Protocol, []string{"a body that is not a move", "COLUMN"}, []string{"hunter2"}},
		{"not HTTP", "http://" + rawServer(t, "SSH-2.0-OpenSSH_9.6 secret-banner\r\n"), judge.Crash, []string{"the connection failed"}, []string{"secret-banner"}},
		{"too slow", slow, judge.Timeout, []string{"300ms", slow}, nil},
		{"a wrong column", serve(func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprint(w, `{"play":"9"}`)
		}), judge.Illegal, []string{"DropDisc 9", "off the board"}, nil},
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
			private(t, res, 0, tt.detail)
		})
	}
}

// rawServer answers every request with answer, which need not be HTTP,
// on a port of the loopback address, and gives its address.
func rawServer(t *testing.T, answer string) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	t.Cleanup(func() { ln.Close(); wg.Wait() })
	wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			r := bufio.NewReader(c)
			for {
				l, err := r.ReadString('\n')
				if err != nil || l == "\r\n" {
					break
				}
			}
			c.Write([]byte(answer))
			c.Close()
		}
	})
	return ln.Addr().String()
}

// Two web bots of one server that answers one request at a time, in
// matches played at once: the one that times out while the other's
// request waits too is told so, with the remedy.
func TestQueuedBehindOneAnother(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body) // then the server sees the client go
		<-r.Context().Done()        // never answers
	}))
	defer srv.Close()
	httpbot.SetInitLimit(t, 100*time.Millisecond)
	lim := judge.DefaultTurnLimits
	lim.FirstTurn = 5 * time.Second
	reasons := make([]string, 2)
	// The opponents are built first, so that both matches start at once
	// and their requests wait together.
	opps := []judge.Entrant{example(t, "examples/connect4/random.c"), example(t, "examples/connect4/random.c")}
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Go(func() {
			b, _, _ := httpbot.Parse(fmt.Sprintf("%s/bot%d.php", srv.URL, i))
			res := play(t, "connect4", lim, b, opps[i])
			reasons[i] = res.Players[0].Reason
		})
	}
	wg.Wait()
	told := 0
	for i, r := range reasons {
		if !strings.Contains(r, fmt.Sprintf("%s/bot%d.php", srv.URL, i)) {
			t.Errorf("reason %q does not name the URL", r)
		}
		if strings.Contains(r, "1 other request(s) to "+srv.URL+" waited too") && strings.Contains(r, "PHP_CLI_SERVER_WORKERS") {
			told++
		}
	}
	t.Logf("reasons: %q", reasons)
	if told == 0 {
		t.Errorf("neither reason tells of the other request: %q", reasons)
	}
}

// c4Bot answers botsarena's Connect Four: the leftmost column with room.
func c4Bot(w http.ResponseWriter, r *http.Request) {
	var q struct {
		Action string
		Board  json.RawMessage
	}
	if r.Method != http.MethodPost || json.NewDecoder(r.Body).Decode(&q) != nil {
		http.Error(w, "not a JSON POST", http.StatusBadRequest)
		return
	}
	if q.Action == "init" {
		fmt.Fprint(w, `{"name":"c4"}`)
		return
	}
	var grid [][]string
	if json.Unmarshal(q.Board, &grid) != nil || len(grid) != 6 {
		http.Error(w, "not a board", http.StatusBadRequest)
		return
	}
	for col := range 7 {
		if grid[5][col] == "" {
			fmt.Fprintf(w, `{"play":"%d"}`, col)
			return
		}
	}
}

// A web bot's redirects are followed only to the same origin with the
// method kept (307, 308); any other is the bot's fault, with a reason
// that says so, and the server it points to is never asked.
func TestRedirects(t *testing.T) {
	var mu sync.Mutex
	asked := map[string]int{} // requests the redirects' targets got
	target := func(name string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			asked[name]++
			mu.Unlock()
			c4Bot(w, r)
		}
	}
	other := httptest.NewServer(target("other"))
	defer other.Close()
	mux := http.NewServeMux()
	mux.Handle("/real", target("real"))
	redirect := func(code int, to string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, to, code) }
	}
	mux.Handle("/same307", redirect(http.StatusTemporaryRedirect, "/real"))
	mux.Handle("/same308", redirect(http.StatusPermanentRedirect, "/real"))
	mux.Handle("/same302", redirect(http.StatusFound, "/real"))
	mux.Handle("/same301", redirect(http.StatusMovedPermanently, "/real"))
	mux.Handle("/other302", redirect(http.StatusFound, other.URL+"/bot"))
	mux.Handle("/other307", redirect(http.StatusTemporaryRedirect, other.URL+"/bot"))
	mux.Handle("/loop", redirect(http.StatusTemporaryRedirect, "/loop"))
	srv := httptest.NewServer(mux)
	defer srv.Close()
	// The same host by another name is another origin too.
	localhost := strings.Replace(srv.URL, "127.0.0.1", "localhost", 1)
	mux.Handle("/host307", redirect(http.StatusTemporaryRedirect, localhost+"/real"))
	for _, tt := range []struct {
		path   string
		status judge.Status
		asked  string // the target that plays, if one does
		words  []string
		detail []string // in the Detail only
	}{
		{"/same307", judge.OK, "real", nil, nil},
		{"/same308", judge.OK, "real", nil, nil},
		{"/same302", judge.Crash, "", []string{"HTTP 302", "not followed", "307 or 308"}, []string{"Location: /real"}},
		{"/same301", judge.Crash, "", []string{"HTTP 301", "not followed"}, []string{"Location: /real"}},
		{"/other302", judge.Crash, "", []string{"HTTP 302", "not followed", "same scheme, host and port"}, []string{"Location: " + other.URL + "/bot"}},
		{"/other307", judge.Crash, "", []string{"HTTP 307", "not followed"}, []string{"Location: " + other.URL + "/bot"}},
		{"/host307", judge.Crash, "", []string{"HTTP 307", "not followed"}, []string{"Location: " + localhost + "/real"}},
		{"/loop", judge.Crash, "", []string{"more than 5 redirects"}, nil},
	} {
		t.Run(tt.path, func(t *testing.T) {
			mu.Lock()
			clear(asked)
			mu.Unlock()
			b, _, err := httpbot.Parse(srv.URL + tt.path)
			if err != nil {
				t.Fatal(err)
			}
			res := play(t, "connect4", judge.TurnLimits{}, b, example(t, "examples/connect4/random.c"))
			p := res.Players[0]
			if p.Status != tt.status {
				t.Fatalf("got %s %q, want %s", p.Status, p.Reason, tt.status)
			}
			for _, w := range tt.words {
				if !strings.Contains(p.Reason, w) {
					t.Errorf("reason %q does not say %q", p.Reason, w)
				}
			}
			private(t, res, 0, tt.detail)
			mu.Lock()
			defer mu.Unlock()
			for name, n := range asked {
				if name != tt.asked {
					t.Errorf("%s was asked %d times", name, n)
				}
			}
			if tt.asked != "" && asked[tt.asked] < 4 {
				t.Errorf("%s was asked %d times", tt.asked, asked[tt.asked])
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
	for arg, want := range map[string]string{
		"http://":                             "not a URL",
		"http+json://http://127.0.0.1:8080/x": "a URL inside a URL: give one, as http+json://HOST[:PORT]/PATH",
		"http://https://127.0.0.1/":           "a URL inside a URL",
		"http://h:/b":                         "empty port",
		"http://h:0/b":                        "port \"0\"",
		"http://h:65536/b":                    "port \"65536\"",
		"http://h:99999999999999999999/b":     "port",
		"http://[::1/b":                       "not a URL",
		"http://[127.0.0.1]/b":                "not a URL",
		"http://-h/":                          "not an IP address or a host name",
		"http://h_/":                          "",
		"http://127.1/":                       "not an IP address or a host name",
		"http://0x7f000001/":                  "not an IP address or a host name",
		"http://1.2.3.4.5/":                   "not an IP address or a host name",
		"http://" + strings.Repeat("a.", 127) + "b/": "not an IP address or a host name",
	} {
		_, ok, err := httpbot.Parse(arg)
		switch {
		case !ok:
			t.Errorf("Parse(%q) is not a web bot", arg)
		case want == "" && err != nil:
			t.Errorf("Parse(%q): %v", arg, err)
		case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
			t.Errorf("Parse(%q) = %v, want an error saying %q", arg, err, want)
		}
	}
	for _, arg := range []string{"http://127.0.0.1:8080/bot.php", "http://[::1]:80/", "http://[fe80::1%25eth0]:80/", "http://localhost./x",
		"https://bots.example.org/a?b=http://c/", "http+json://h-1.example.org:65535/"} {
		if _, ok, err := httpbot.Parse(arg); !ok || err != nil {
			t.Errorf("Parse(%q): %v %v", arg, ok, err)
		}
	}
}

// botsarena's own kind of bot: PHP scripts served by PHP's built-in
// server (Debian's php-cli), against bot programs.
func TestPHPBots(t *testing.T) {
	judgetest.NeedTools(t, "php")
	root := judgetest.Root(t)
	for _, tt := range []struct{ variant, dir, bot, opponent string }{
		{"connect4", "examples/connect4/web", "http://%s/random.php", "examples/connect4/random.c"},
		{"battleship-botsarena", "examples/battleship/web", "http://%s/random.php", "examples/battleship/random.c"},
		{"battleship-botsarena", "examples/battleship/web", "http+json://%s/random-json.php", "examples/battleship/random.c"},
	} {
		t.Run(tt.variant+"/"+path.Base(tt.bot), func(t *testing.T) {
			addr := judgetest.PHPServer(t, filepath.Join(root, tt.dir))
			b, _, err := httpbot.Parse(fmt.Sprintf(tt.bot, addr))
			if err != nil {
				t.Fatal(err)
			}
			for seat := range 2 {
				es := []judge.Entrant{example(t, tt.opponent), example(t, tt.opponent)}
				es[seat] = b
				res := play(t, tt.variant, judge.TurnLimits{}, es...)
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

// dropsInit is a web bot that drops the connection on init without
// answering, as a Go bot that panics on botsarena's "board":"" does, and
// plays the first free cell (tic-tac-toe, keys "y-x") or the leftmost
// column with room (Connect Four) after.
func dropsInit(t *testing.T) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var q struct {
			Action string
			Board  json.RawMessage
		}
		if strings.HasPrefix(r.Header.Get("Content-Type"), "multipart/form-data") {
			q.Action = r.FormValue("act") // Battleship's form
		} else {
			_ = json.NewDecoder(r.Body).Decode(&q)
		}
		if q.Action == "init" {
			panic(http.ErrAbortHandler) // the connection closes, unanswered
		}
		var grid [][]string
		if json.Unmarshal(q.Board, &grid) == nil {
			for col := range 7 {
				if grid[5][col] == "" {
					fmt.Fprintf(w, `{"play":"%d"}`, col)
					return
				}
			}
		}
		var cells map[string]string
		_ = json.Unmarshal(q.Board, &cells)
		for _, k := range slices.Sorted(maps.Keys(cells)) {
			if cells[k] == "" {
				fmt.Fprintf(w, `{"play":%q}`, k)
				return
			}
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/bot"
}

// A tic-tac-toe or Connect Four bot whose init fails plays on: botsarena
// does not use the answer to init. The bot's log says what happened, in
// words.
func TestInitFailureIgnored(t *testing.T) {
	url := dropsInit(t)
	for _, game := range []string{"tictactoe", "connect4"} {
		t.Run(game, func(t *testing.T) {
			a, _, _ := httpbot.Parse(url + "?a")
			b, _, _ := httpbot.Parse(url + "?b")
			res := play(t, game, judge.TurnLimits{}, a, b)
			for i, p := range res.Players {
				if p.Status != judge.OK {
					t.Errorf("seat %d: %s %s", i, p.Status, p.Reason)
				}
				log := res.Replay.Bots[i].Stderr
				if !strings.Contains(log, "the server closed the connection without answering the init request; botsarena does not use the answer to init: the bot plays on") {
					t.Errorf("seat %d's log: %q", i, judge.Clip(log, 400))
				}
			}
			if res.Winner != 0 {
				t.Errorf("winner %d: %s", res.Winner, res.Reason)
			}
		})
	}
}

// A Battleship bot needs its init's answer, its fleet: one that drops
// the connection loses, with a reason in words, and no Detail, since the
// server sent nothing.
func TestBattleshipInitDropped(t *testing.T) {
	url := dropsInit(t)
	for _, arg := range []string{url, strings.Replace(url, "http://", "http+json://", 1)} {
		b, _, _ := httpbot.Parse(arg)
		res := play(t, "battleship-botsarena", judge.TurnLimits{}, b, example(t, "examples/battleship/random.c"))
		p := res.Players[0]
		if want := b.URL + ": the server closed the connection without answering the init request"; p.Status != judge.Crash || p.Reason != want || p.Detail != "" {
			t.Errorf("%s: got %s %q (detail %q), want crash %q", arg, p.Status, p.Reason, p.Detail, want)
		}
	}
}
