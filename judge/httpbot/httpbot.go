// Package httpbot plays web bots written for botsarena (and Bolosseum):
// bots that are HTTP services the judge POSTs each turn to. A web bot is a
// player like any other: a Go function in the judge (package local) asks
// the game's queries, sends the bot the state in its own wire format, and
// turns its answer into the game's commands, so the rules and deadlines
// stay in the match loop.
//
// Wire formats, as the botsarena documents give them:
//
//   - Connect Four: a JSON body {"game-id","action":"init","game":"connectFour",
//     "players":2,"board":"","player-index"} once, then "action":"play-turn"
//     with "board" (rows of "", "X", "O"; row 0 is the bottom), "you" and
//     "player-index"; the answer is {"play":"3"} (a string or a number).
//   - Tic-tac-toe, as Bolosseum serves it: the same, with "game":"tictactoe"
//     and "board" an object whose keys are "y-x"; the answer {"play":"y-x"}.
//   - Battleship: form fields game=Battleship, match_id (N-1 or N-2), act
//     (init, fight), opponent, width, height, ship1..ship6, and in fights
//     your_strikes and his_strikes (JSON lists of {"target":"x,y","result":
//     "" | "hit" | "hit and sunk"}); the answer to init is a JSON list of
//     ships "x1,y1-x2,y2", to fight a cell "x,y". Later bots take the same
//     fields as a JSON body with "action" init or play-turn (the lists as
//     JSON, not strings): give such a bot as http+json://… (or
//     https+json://…); http://… is the form.
//
// Web bots run outside the sandbox, wherever their server is: the replay
// says so.
package httpbot

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"judge/judge"
	"judge/judge/local"
)

// Outside is the protection of a web bot, for results and replays.
const Outside = "none: a web bot, run by its own server outside the sandbox"

// Bot is a web bot as the entrant of a match.
type Bot struct {
	URL  string // where to POST
	JSON bool   // Battleship: the JSON body with "action" rather than the form
	// Client sends the requests; nil for a client of its own.
	Client *http.Client
}

// Parse recognises a web bot argument: http://…, https://…, or with
// +json after the scheme for Battleship bots that take a JSON body.
func Parse(arg string) (Bot, bool, error) {
	scheme, rest, ok := strings.Cut(arg, "://")
	if !ok {
		return Bot{}, false, nil
	}
	b := Bot{}
	switch scheme {
	case "http", "https":
	case "http+json", "https+json":
		b.JSON = true
		scheme = strings.TrimSuffix(scheme, "+json")
	default:
		return Bot{}, false, nil
	}
	u, err := url.Parse(scheme + "://" + rest)
	if err != nil || u.Host == "" {
		return Bot{}, true, fmt.Errorf("web bot %q: not a URL", arg)
	}
	b.URL = u.String()
	return b, true, nil
}

// Info implements judge.Entrant.
func (b Bot) Info() (judge.BotInfo, error) {
	u, err := url.Parse(b.URL)
	if err != nil {
		return judge.BotInfo{}, err
	}
	return judge.BotInfo{Name: strings.TrimSuffix(u.Host+u.Path, "/"), Command: []string{b.URL}, Sandbox: Outside}, nil
}

// Start implements judge.Entrant.
func (b Bot) Start(_ context.Context, s judge.Seat) (judge.Player, error) {
	d := &driver{bot: b, seat: s, client: b.Client}
	if d.client == nil {
		d.client = &http.Client{}
	}
	var f local.Func
	switch s.Game {
	case "connect4":
		f = d.connect4
	case "tictactoe", "gomoku":
		f = d.tictactoe
	case "battleship", "battleship-botsarena", "battleship-contest":
		f = d.battleship
	default:
		return nil, fmt.Errorf("web bot %s: botsarena's bots play connect4, tictactoe and battleship, not %s", b.URL, s.Game)
	}
	return local.Start(f, local.Options{Busy: d.busy}), nil
}

// driver speaks for one web bot in one match.
type driver struct {
	bot    Bot
	seat   judge.Seat
	client *http.Client

	mu   sync.Mutex
	sent time.Time // when the request waiting for its answer was sent
}

// busy says what the bot was doing when its time ran out.
func (d *driver) busy() string {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.sent.IsZero() {
		return ""
	}
	return fmt.Sprintf("waiting for %s to answer (the request went %v before)", d.bot.URL, time.Since(d.sent).Round(time.Millisecond))
}

// post sends one request before the turn's deadline and returns the body
// of the answer. Failures are the bot's faults.
func (d *driver) post(ctx context.Context, c *local.Conn, contentType string, body []byte) ([]byte, error) {
	if dl := c.Turn().Deadline; !dl.IsZero() {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, dl)
		defer cancel()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, d.bot.URL, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", contentType)
	c.Logf("> POST %s %s", d.bot.URL, clip(string(body), 300))
	d.mu.Lock()
	d.sent = time.Now()
	d.mu.Unlock()
	defer func() {
		d.mu.Lock()
		d.sent = time.Time{}
		d.mu.Unlock()
	}()
	resp, err := d.client.Do(req)
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return nil, judge.Faultf(judge.Timeout, "%s did not answer within %v", d.bot.URL, c.Turn().Limit)
		}
		if ctx.Err() != nil {
			return nil, local.ErrStopped
		}
		return nil, judge.Faultf(judge.Crash, "%s: %v", d.bot.URL, unwrapURLError(err))
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return nil, judge.Faultf(judge.Crash, "%s: reading the answer: %v", d.bot.URL, unwrapURLError(err))
	}
	c.Logf("< %s %s", resp.Status, clip(string(b), 300))
	if resp.StatusCode != http.StatusOK {
		return nil, judge.Faultf(judge.Crash, "%s answered %s: %q", d.bot.URL, resp.Status, clip(strings.TrimSpace(string(b)), 200))
	}
	return b, nil
}

func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// postJSON posts v as JSON.
func (d *driver) postJSON(ctx context.Context, c *local.Conn, v any) ([]byte, error) {
	body, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return d.post(ctx, c, "application/json", body)
}

// play reads a {"play": …} answer: a string or a number.
func (d *driver) play(body []byte) (string, error) {
	var a struct {
		Play json.RawMessage `json:"play"`
	}
	if err := json.Unmarshal(body, &a); err != nil || len(a.Play) == 0 {
		return "", judge.Faultf(judge.Protocol, "%s answered %q, not {\"play\": …}", d.bot.URL, clip(strings.TrimSpace(string(body)), 200))
	}
	var s string
	if json.Unmarshal(a.Play, &s) == nil {
		return strings.TrimSpace(s), nil
	}
	var n json.Number
	if json.Unmarshal(a.Play, &n) == nil {
		return n.String(), nil
	}
	return "", judge.Faultf(judge.Protocol, "%s answered play %s: not a string or a number", d.bot.URL, clip(string(a.Play), 100))
}

// gameID is the match's number for the bot.
func (d *driver) gameID() string { return strconv.FormatUint(d.seat.Seed%100000, 10) }

// board reads a Board answer into rows of cells, top row first.
func board(ans string) [][]string {
	var rows [][]string
	for _, l := range strings.Split(ans, "\n") {
		rows = append(rows, strings.Fields(l))
	}
	return rows
}

// cell is a board symbol as botsarena writes it: "" for empty.
func cell(sym string) string {
	if sym == "-" {
		return ""
	}
	return sym
}

// boardTurn asks for the board and the bot's symbol at the start of a
// turn, and the first time sends the bot the botsarena init of game.
func (d *driver) boardTurn(ctx context.Context, c *local.Conn, first *bool, game string) (board, you string, err error) {
	if board, err = c.Ask("Board"); err != nil {
		return "", "", err
	}
	if you, err = c.Ask("MySymbol"); err != nil {
		return "", "", err
	}
	if *first {
		*first = false
		_, err = d.postJSON(ctx, c, map[string]any{"game-id": d.gameID(), "action": "init", "game": game,
			"players": d.seat.Seats, "board": "", "player-index": d.seat.Index})
	}
	return board, you, err
}

// connect4 plays Connect Four (botsarena's connectFour).
func (d *driver) connect4(ctx context.Context, c *local.Conn) error {
	first := true
	for {
		b, you, err := d.boardTurn(ctx, c, &first, "connectFour")
		if err != nil {
			return err
		}
		rows := board(b)
		// botsarena's row 0 is the bottom one.
		grid := make([][]string, len(rows))
		for i, r := range rows {
			out := make([]string, len(r))
			for x, s := range r {
				out[x] = cell(s)
			}
			grid[len(rows)-1-i] = out
		}
		ans, err := d.postJSON(ctx, c, map[string]any{"game-id": d.gameID(), "action": "play-turn", "game": "connectFour",
			"players": d.seat.Seats, "board": grid, "you": you, "player-index": d.seat.Index})
		if err != nil {
			return err
		}
		col, err := d.play(ans)
		if err != nil {
			return err
		}
		if err := sendAll(c, "DropDisc "+oneWord(col), "#END"); err != nil {
			return err
		}
	}
}

// tictactoe plays tic-tac-toe (and gomoku boards) as Bolosseum serves it.
func (d *driver) tictactoe(ctx context.Context, c *local.Conn) error {
	first := true
	for {
		b, you, err := d.boardTurn(ctx, c, &first, "tictactoe")
		if err != nil {
			return err
		}
		grid := map[string]string{}
		for y, r := range board(b) {
			for x, s := range r {
				grid[fmt.Sprintf("%d-%d", y, x)] = cell(s)
			}
		}
		ans, err := d.postJSON(ctx, c, map[string]any{"game-id": d.gameID(), "action": "play-turn", "game": "tictactoe",
			"players": d.seat.Seats, "board": grid, "you": you, "player-index": d.seat.Index})
		if err != nil {
			return err
		}
		p, err := d.play(ans)
		if err != nil {
			return err
		}
		y, x, ok := strings.Cut(p, "-")
		if !ok {
			return judge.Faultf(judge.Protocol, "%s played %q: want \"y-x\", such as \"1-2\"", d.bot.URL, clip(p, 40))
		}
		if err := sendAll(c, "PlaceSymbol "+oneWord(x)+" "+oneWord(y), "#END"); err != nil {
			return err
		}
	}
}

// strike is one shot as botsarena lists it.
type strike struct {
	Target string `json:"target"`
	Result string `json:"result"`
}

// strikes reads a MyShots or OpponentShots answer.
func strikes(ans string) []strike {
	out := []strike{}
	lines := strings.Split(ans, "\n")
	for _, l := range lines[1:] {
		f := strings.Fields(l)
		if len(f) != 3 {
			continue
		}
		r := map[string]string{"miss": "", "hit": "hit", "sunk": "hit and sunk"}[f[2]]
		out = append(out, strike{Target: f[0] + "," + f[1], Result: r})
	}
	return out
}

// battleship plays Battleship (botsarena's, seed 000: the form; or the
// later JSON body).
func (d *driver) battleship(ctx context.Context, c *local.Conn) error {
	params, err := c.Ask("Params")
	if err != nil {
		return err
	}
	p := strings.Fields(params) // width height ship1 … ship6
	if len(p) != 8 {
		return fmt.Errorf("the query Params answered %q", params)
	}
	opponent := ""
	if len(d.seat.Opponents) > 0 {
		opponent = d.seat.Opponents[0]
	}
	matchID := fmt.Sprintf("%s-%d", d.gameID(), d.seat.Index+1)
	fields := func(act string) map[string]string {
		f := map[string]string{"game": "Battleship", "match_id": matchID, "opponent": opponent, "width": p[0], "height": p[1]}
		for i := 1; i <= 6; i++ {
			f["ship"+strconv.Itoa(i)] = p[1+i]
		}
		if d.bot.JSON {
			f["action"] = map[string]string{"init": "init", "fight": "play-turn"}[act]
		} else {
			f["act"] = act
		}
		return f
	}
	send := func(f map[string]string, mine, his []strike) ([]byte, error) {
		if d.bot.JSON {
			v := map[string]any{}
			for k, x := range f {
				v[k] = x
				if n, err := strconv.Atoi(x); err == nil && k != "match_id" {
					v[k] = n
				}
			}
			if mine != nil {
				v["your_strikes"], v["his_strikes"] = mine, his
			}
			return d.postJSON(ctx, c, v)
		}
		form := url.Values{}
		for k, x := range f {
			form.Set(k, x)
		}
		if mine != nil {
			a, _ := json.Marshal(mine)
			b, _ := json.Marshal(his)
			form.Set("your_strikes", string(a))
			form.Set("his_strikes", string(b))
		}
		return d.post(ctx, c, "application/x-www-form-urlencoded", []byte(form.Encode()))
	}
	for {
		phase, err := c.Ask("Phase")
		if err != nil {
			return err
		}
		if phase == "place" {
			ans, err := send(fields("init"), nil, nil)
			if err != nil {
				return err
			}
			var ships []string
			if err := json.Unmarshal(bytes.TrimSpace(ans), &ships); err != nil {
				return judge.Faultf(judge.Protocol, "%s answered %q to init: want a JSON list of ships such as [\"3,3-3,7\", …]", d.bot.URL, clip(strings.TrimSpace(string(ans)), 200))
			}
			lines := make([]string, 0, len(ships)+1)
			for _, s := range ships {
				lines = append(lines, "PlaceShip "+oneWord(s))
			}
			if err := sendAll(c, append(lines, "#END")...); err != nil {
				return err
			}
			continue
		}
		mine, err := c.Ask("MyShots")
		if err != nil {
			return err
		}
		his, err := c.Ask("OpponentShots")
		if err != nil {
			return err
		}
		ans, err := send(fields("fight"), strikes(mine), strikes(his))
		if err != nil {
			return err
		}
		target := strings.TrimSpace(string(ans))
		var quoted string
		if json.Unmarshal([]byte(target), &quoted) == nil {
			target = quoted
		}
		if err := sendAll(c, "Shoot "+oneWord(target), "#END"); err != nil {
			return err
		}
	}
}

// sendAll sends lines in order.
func sendAll(c *local.Conn, lines ...string) error {
	for _, l := range lines {
		if err := c.Send(l); err != nil {
			return err
		}
	}
	return nil
}

// oneWord keeps a bot's answer to one word of printable text, so that it
// is an argument and never another line or command.
func oneWord(s string) string {
	s = strings.Map(func(r rune) rune {
		if r <= ' ' || r == 0x7f {
			return -1
		}
		return r
	}, s)
	if s == "" {
		return `""`
	}
	return clip(s, 60)
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}
