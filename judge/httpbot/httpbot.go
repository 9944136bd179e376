// Package httpbot plays web bots written for botsarena (and Bolosseum):
// bots that are HTTP services the judge POSTs each turn to. A web bot is a
// player like any other: a Go function in the judge (package goplayer) asks
// the game's queries, sends the bot the state in its own wire format, and
// turns its answer into the game's commands, so the rules and deadlines
// stay in the match loop.
//
// Wire formats, as botsarena's act.php sends them (testdata/botsarena
// holds one match of each, written down from its code):
//
//   - Connect Four: a JSON body {"game-id","action":"init",
//     "game":"connectfour","players":2,"board":"","player-index"} (the
//     id a number) to both bots before the first move, seat 0's first,
//     then "action":"play-turn" with the id as a string, "opponent",
//     "you", "board" (rows of "", "X", "O"; row 0 is the bottom) and
//     "player-index"; the answer is {"play":"3"} (a string or a number).
//   - Tic-tac-toe, as Bolosseum serves it: the same, with "game":
//     "tictactoe", the id a string, no "opponent", and "board" an object
//     whose keys are "y-x"; the answer {"play":"y-x"}.
//     In both games the answer to init is not used and a failed init is
//     no fault: act.php ignores it ("don't care about result").
//   - Battleship, given as http://…: botsarena's form fields (seed 000),
//     multipart as its curl sent them, in its order: game=Battleship,
//     match_id (N-1 or N-2; N-1 for both at init in battleship-botsarena,
//     as its code had it), act (init, fight), opponent, width, height,
//     ship1..ship6, and in fights your_strikes and his_strikes (JSON lists
//     of {"target":"x,y","result": "" | "hit" | "hit and sunk"}); the
//     answer to init is a JSON list of ships "x1,y1-x2,y2", to fight a
//     cell "x,y" (in battleship-botsarena checked as the arena does).
//   - Battleship, given as http+json://… (or https+json://…): botsarena's
//     JSON body, as its Battleship act.php sends it: {"game-id":1609,
//     "game":"battleship","action":"init","players":2,"player-index":0,
//     "board":{"opponent","width","height","ship1".."ship6"}} (the numbers
//     in "board" as strings), then {"game":"Battleship","game-id",
//     "action":"play-turn","player-index","board"} with your_strikes and
//     his_strikes in "board" as JSON lists. The answers are
//     {"name":…,"boats":["x1,y1-x2,y2",…]} and {"play":"x,y"}, checked
//     against ^[0-9]+,[0-9]+$ as the arena does: an answer without boats or
//     a malformed play loses. An answer in the other variant's shape says
//     which scheme to give the bot.
//
// The game-id (match_id) is the match's number, the same for both bots.
//
// Redirects are not followed, except a 307 or 308 to the same origin:
// those keep the POST and its body, and the same server.
//
// What a web bot's server answers is never quoted in a reason or in the
// log the replay keeps: the server could be another's, not a bot, and
// its answer another's data. A fault says "HTTP 404" or "answered with
// a body that is not a move"; the answer itself, its first KiB, is the
// fault's Detail, for the bot's author only. The moves passed on to the
// game are numbers only.
//
// Web bots run outside the sandbox, wherever their server is: the replay
// says so. Where they may be is a Policy's: the judge's command line
// lets them be anywhere, an arena only where its organiser lists.
package httpbot

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"judge/judge"
	"judge/judge/goplayer"
)

// Outside is the protection of a web bot, for results and replays.
const Outside = "none: a web bot, run by its own server outside the sandbox"

// Bot is a web bot as the entrant of a match.
type Bot struct {
	URL  string // where to POST
	JSON bool   // Battleship: the JSON body with "action" rather than the form
	// Client sends the requests; nil for a client of its own. Its
	// CheckRedirect is replaced: see the package's comment on redirects.
	Client *http.Client
	// Policy, when set, says where the bot may be: every connection
	// goes to an address it allows, never through a proxy (the
	// client's Transport is the policy's). Nil lets the bot be
	// anywhere.
	Policy *Policy
}

// Parse recognises a web bot argument: http://…, https://…, or with
// +json after the scheme for Battleship bots that take a JSON body. The
// host is an IP address or a host name, with a port from 1 to 65535 if
// any.
func Parse(arg string) (Bot, bool, error) {
	scheme, rest, ok := strings.Cut(arg, "://")
	if !ok {
		return Bot{}, false, nil
	}
	b, given := Bot{}, scheme
	switch scheme {
	case "http", "https":
	case "http+json", "https+json":
		b.JSON = true
		scheme = strings.TrimSuffix(scheme, "+json")
	default:
		return Bot{}, false, nil
	}
	if nested.MatchString(rest) {
		return Bot{}, true, fmt.Errorf("web bot %q: a URL inside a URL: give one, as %s://HOST[:PORT]/PATH", arg, given)
	}
	u, err := url.Parse(scheme + "://" + rest)
	if err != nil || u.Host == "" {
		return Bot{}, true, fmt.Errorf("web bot %q: not a URL", arg)
	}
	if err := checkHost(u); err != nil {
		return Bot{}, true, fmt.Errorf("web bot %q: %w", arg, err)
	}
	b.URL = u.String()
	return b, true, nil
}

// nested is the start of a URL's rest that is another URL.
var nested = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*://`)

// checkHost checks the host and port of a web bot's URL: an IP address
// (IPv6 in brackets) or a host name, and a port from 1 to 65535 if any.
func checkHost(u *url.URL) error {
	host, port := u.Hostname(), u.Port()
	if strings.HasSuffix(u.Host, ":") {
		return fmt.Errorf("the host %q has an empty port", u.Host)
	}
	if port != "" {
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
			return fmt.Errorf("the port %q is not a number from 1 to 65535", port)
		}
	}
	if strings.HasPrefix(u.Host, "[") {
		if a, err := netip.ParseAddr(host); err != nil || !a.Is6() {
			return fmt.Errorf("the host %q is not an IPv6 address", host)
		}
		return nil
	}
	if a, err := netip.ParseAddr(host); err == nil && a.Is4() {
		return nil
	}
	if err := checkHostName(strings.TrimSuffix(host, ".")); err != nil {
		return fmt.Errorf("the host %q is not an IP address or a host name", host)
	}
	return nil
}

// checkHostName checks a host name's syntax: labels of letters, digits,
// - and _ (not at a label's ends), at most 63 bytes each, 253 in all, the
// last starting with a letter (so that it is no address, as 127.1 or
// 0x7f000001 would be to some resolvers).
func checkHostName(h string) error {
	if h == "" || len(h) > 253 {
		return errors.New("not a host name")
	}
	labels := strings.Split(h, ".")
	for _, l := range labels {
		if l == "" || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
			return errors.New("not a host name")
		}
		for i := 0; i < len(l); i++ {
			c := l[i]
			if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
				return errors.New("not a host name")
			}
		}
	}
	if last := labels[len(labels)-1]; !('a' <= last[0] && last[0] <= 'z' || 'A' <= last[0] && last[0] <= 'Z') {
		return errors.New("not a host name: its last label starts with a digit, and it is no address")
	}
	return nil
}

// Info implements judge.Entrant. A web bot is named by its address, host
// and path (127.0.0.1:8080/bot.php), in every game: the name its init
// answer may give is not used (botsarena ignores it, and one author's
// bots all give the same).
func (b Bot) Info() (judge.BotInfo, error) {
	u, err := url.Parse(b.URL)
	if err != nil {
		return judge.BotInfo{}, err
	}
	return judge.BotInfo{Name: strings.TrimSuffix(u.Host+u.Path, "/"), Command: []string{b.URL}, Sandbox: Outside}, nil
}

// Start implements judge.Entrant.
func (b Bot) Start(_ context.Context, s judge.Seat) (judge.Player, error) {
	c := b.Policy.client(b.Client)
	c.CheckRedirect = checkRedirect
	d := &driver{bot: b, seat: s, client: &c}
	var f goplayer.Func
	switch s.Game {
	case "connect4":
		f, d.arena, d.init = d.connect4, true, d.boardInit("connectfour", true)
	case "tictactoe", "gomoku":
		f, d.arena, d.init = d.tictactoe, true, d.boardInit("tictactoe", false)
	case "battleship-botsarena":
		f, d.arena = d.battleship, true
	case "battleship", "battleship-contest":
		f = d.battleship
	default:
		return nil, fmt.Errorf("web bot %s: botsarena's bots play connect4, tictactoe and battleship, not %s", b.URL, s.Game)
	}
	return &player{Player: goplayer.Start(f, goplayer.Options{Busy: d.busy}), d: d}, nil
}

// player is a web bot's player: a Go player that sends its init before
// the first turn, as botsarena does.
type player struct {
	*goplayer.Player
	d *driver
}

// Settle implements judge.Settler. The match loop settles its players in
// seat order before the first turn: a tic-tac-toe or Connect Four bot
// gets its init then, as act.php sends both inits, seat 0's first, before
// any play-turn. What it answers, or whether it answers, is not used.
func (p *player) Settle(ctx context.Context) {
	if p.d.init != nil {
		p.d.sendInit(ctx, limit{time.Now().Add(initLimit), initLimit}, p.Logf)
	}
}

// InitLimit bounds the wait for the answer to a tic-tac-toe or Connect
// Four init, sent before the first turn: the judge's default time for a
// bot's first turn. botsarena waits up to 10 s (its curl timeout) and
// does not use the answer.
const InitLimit = 5 * time.Second

// initLimit is InitLimit, shorter in tests.
var initLimit = InitLimit

// driver speaks for one web bot in one match.
type driver struct {
	bot    Bot
	seat   judge.Seat
	client *http.Client
	// arena is set where the judge plays as botsarena's act.php does:
	// its web games (tic-tac-toe, Connect Four) and battleship-botsarena.
	arena bool
	// init is the init request of tic-tac-toe and Connect Four, sent
	// once (initOnce): before the first turn when the match loop settles
	// the players, else at the bot's first turn.
	init     []byte
	initOnce sync.Once

	mu       sync.Mutex
	sent     time.Time // when the request waiting for its answer was sent
	answered time.Time // when the last request was answered
	late     string    // what it was waiting for when its turn's time ran out
	// The request waiting for its answer: its server, the requests to it
	// that were waiting when it was sent, and waiting.arrived then.
	origin string
	others int
	mark   uint64
}

// busy says what the bot was doing when its time ran out.
func (d *driver) busy() string {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.late != "" {
		return d.late
	}
	return d.doing()
}

// doing says what the bot is doing; d.mu is held.
func (d *driver) doing() string {
	if d.sent.IsZero() {
		if d.answered.IsZero() {
			return fmt.Sprintf("not yet waiting for %s: its request was about to be sent", d.bot.URL)
		}
		return fmt.Sprintf("between two requests to %s (the last was answered %v before)", d.bot.URL, time.Since(d.answered).Round(time.Millisecond))
	}
	return fmt.Sprintf("waiting for %s to answer (the request went %v before)%s", d.bot.URL, time.Since(d.sent).Round(time.Millisecond), d.queued())
}

// waiting counts the requests of every web bot of the judge that a server
// (an origin) has not answered yet, and how many were sent to it since
// it last had none waiting.
var waiting = struct {
	sync.Mutex
	n       map[string]int
	arrived map[string]uint64
}{n: map[string]int{}, arrived: map[string]uint64{}}

// queued says, while a request of d waits, how many others wait for the
// same server: a server that answers one request at a time, or that has
// too few CPUs for them, makes bots time out behind each other.
// Every request to the server that waited at some moment with d's counts:
// those waiting when it was sent, and those sent since, answered or not
// (two bots whose times run out together see each other). d.mu is held.
func (d *driver) queued() string {
	if d.origin == "" {
		return ""
	}
	waiting.Lock()
	others := d.others + int(waiting.arrived[d.origin]-d.mark)
	waiting.Unlock()
	if others <= 0 {
		return ""
	}
	return fmt.Sprintf("; %d other request(s) to %s waited too: a server that answers one request at a time "+
		"(php -S without PHP_CLI_SERVER_WORKERS), or has fewer CPUs than requests, makes its bots wait behind each other", others, d.origin)
}

// limit is the time a request has: its deadline, and the limit it comes
// from, for the reasons.
type limit struct {
	deadline time.Time
	d        time.Duration
}

// turnLimit is the time left in c's turn.
func turnLimit(c *goplayer.Conn) limit {
	t := c.Turn()
	return limit{t.Deadline, t.Limit}
}

// request is one request to the bot: act names it in reasons ("init",
// "play-turn", "fight").
type request struct {
	act         string
	contentType string
	body        []byte
}

// post sends one request before the deadline and returns the body of the
// answer. Failures are the bot's faults, whose reasons say which request
// failed.
func (d *driver) post(ctx context.Context, lim limit, logf func(string, ...any), r request) ([]byte, error) {
	if !lim.deadline.IsZero() {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, lim.deadline)
		defer cancel()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, d.bot.URL, bytes.NewReader(r.body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", r.contentType)
	logf("> POST %s %s", d.bot.URL, judge.Clip(string(r.body), 300))
	o := origin(req.URL)
	d.mu.Lock()
	waiting.Lock()
	d.origin, d.others = o, waiting.n[o]
	waiting.n[o]++
	waiting.arrived[o]++
	d.mark = waiting.arrived[o]
	waiting.Unlock()
	d.sent, d.late = time.Now(), ""
	d.mu.Unlock()
	defer func() {
		d.mu.Lock()
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			// The turn's time ran out while it waited: that is what the
			// judge's reason says, whichever of the two sees it first.
			d.late = d.doing()
		}
		d.sent, d.answered, d.origin = time.Time{}, time.Now(), ""
		d.mu.Unlock()
		waiting.Lock()
		if waiting.n[o]--; waiting.n[o] == 0 {
			delete(waiting.n, o)
			delete(waiting.arrived, o)
		}
		waiting.Unlock()
	}()
	resp, err := d.client.Do(req)
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			d.mu.Lock()
			q := d.queued()
			d.mu.Unlock()
			return nil, judge.Faultf(judge.Timeout, "%s did not answer the %s request within %v%s", d.bot.URL, r.act, lim.d, q)
		}
		if ctx.Err() != nil {
			return nil, goplayer.ErrStopped
		}
		return nil, d.connFault(err, r.act)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return nil, &judge.Fault{Status: judge.Crash, Reason: fmt.Sprintf("%s: its answer to the %s request (HTTP %d) was cut off", d.bot.URL, r.act, resp.StatusCode),
			Detail: detail(unwrapURLError(err).Error())}
	}
	// The log is the replay's: the answer's size, never its text.
	logf("< HTTP %d, %d bytes", resp.StatusCode, len(b))
	if resp.Request.URL.String() != d.bot.URL {
		logf("(from where %s redirected with a 307 or 308, the method kept)", d.bot.URL)
	}
	if loc := resp.Header.Get("Location"); loc != "" && resp.StatusCode >= 300 && resp.StatusCode < 400 {
		return nil, &judge.Fault{Status: judge.Crash, Reason: fmt.Sprintf("%s answered HTTP %d to the %s request, a redirect: a web bot's redirects are not followed, "+
			"except a 307 or 308 (which keep the POST) to the same scheme, host and port; give the bot by the URL that answers",
			d.bot.URL, resp.StatusCode, r.act), Detail: detail("Location: " + loc + "\n" + string(b))}
	}
	if resp.StatusCode != http.StatusOK {
		return nil, &judge.Fault{Status: judge.Crash, Reason: fmt.Sprintf("%s answered HTTP %d to the %s request", d.bot.URL, resp.StatusCode, r.act), Detail: detail(string(b))}
	}
	return b, nil
}

// DetailBytes bounds a fault's Detail.
const DetailBytes = 1 << 10

// detail is s as a fault's Detail: its first DetailBytes, trimmed, valid
// UTF-8.
func detail(s string) string {
	return strings.ToValidUTF8(judge.Clip(strings.TrimSpace(s), DetailBytes), "\uFFFD")
}

// connFault is the fault of request act that got no answer: the reason
// says what happened in the judge's words. The error itself is the
// Detail only where it can hold what the server sent (a malformed
// answer): where the server sent nothing, there is no Detail.
func (d *driver) connFault(err error, act string) *judge.Fault {
	err = unwrapURLError(err)
	var (
		refused *RefusedError
		dns     *net.DNSError
		ne      net.Error
	)
	why, sent := fmt.Sprintf("the connection failed while it sent the %s request", act), ""
	switch {
	case errors.As(err, &refused):
		why = "the judge may not connect to it: " + refused.Why
	case errors.Is(err, errRedirects):
		why = fmt.Sprintf("the %s request was %v", act, err)
	case errors.As(err, &dns):
		why = "its host name does not resolve"
	case errors.Is(err, syscall.ECONNREFUSED):
		why = fmt.Sprintf("connection refused: nothing listens there for the %s request", act)
	case errors.Is(err, syscall.EHOSTUNREACH), errors.Is(err, syscall.ENETUNREACH):
		why = "its host cannot be reached"
	case errors.Is(err, syscall.ECONNRESET):
		why = fmt.Sprintf("the server reset the connection without answering the %s request", act)
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		why = fmt.Sprintf("the server closed the connection without answering the %s request", act)
	case errors.As(err, &ne) && ne.Timeout():
		why = fmt.Sprintf("the connection timed out while it sent the %s request", act)
	default:
		sent = detail(err.Error())
	}
	return &judge.Fault{Status: judge.Crash, Reason: fmt.Sprintf("%s: %s", d.bot.URL, why), Detail: sent}
}

// notMove is the fault of an answer that is not a move: want says what a
// move is.
func (d *driver) notMove(ans []byte, want string) *judge.Fault {
	return &judge.Fault{Status: judge.Protocol, Reason: fmt.Sprintf("%s answered with a body that is not a move: %s", d.bot.URL, want),
		Detail: detail(string(ans))}
}

// maxRedirects bounds the redirects followed for one request.
const maxRedirects = 5

// errRedirects is the error of a request redirected too many times.
var errRedirects = fmt.Errorf("more than %d redirects", maxRedirects)

// checkRedirect follows only what keeps the request as it was: a 307 or a
// 308 (the method and the body kept) to the same origin. Any other
// redirect is the answer, and the bot's fault: a 301, 302 or 303 would
// turn the POST into a GET, and another host or port is not the bot the
// judge was given.
func checkRedirect(req *http.Request, via []*http.Request) error {
	code := 0
	if req.Response != nil {
		code = req.Response.StatusCode
	}
	if (code != http.StatusTemporaryRedirect && code != http.StatusPermanentRedirect) ||
		origin(req.URL) != origin(via[0].URL) || req.Method != via[0].Method {
		return http.ErrUseLastResponse
	}
	if len(via) > maxRedirects {
		return errRedirects
	}
	return nil
}

// origin is a URL's scheme, host and port, the port spelled out.
func origin(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	return u.Scheme + "://" + strings.ToLower(u.Hostname()) + ":" + port
}

func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// postJSON posts v as JSON, request act of the turn of c.
func (d *driver) postJSON(ctx context.Context, c *goplayer.Conn, act string, v any) ([]byte, error) {
	body, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return d.post(ctx, turnLimit(c), c.Logf, request{act, "application/json", body})
}

// play reads a {"play": …} answer: a string or a number.
func (d *driver) play(body []byte) (string, error) {
	var a struct {
		Play json.RawMessage `json:"play"`
	}
	if err := json.Unmarshal(body, &a); err != nil || len(a.Play) == 0 {
		return "", d.notMove(body, `want {"play": …}`)
	}
	var s string
	if json.Unmarshal(a.Play, &s) == nil {
		return strings.TrimSpace(s), nil
	}
	var n json.Number
	if json.Unmarshal(a.Play, &n) == nil {
		return n.String(), nil
	}
	return "", d.notMove(body, `its "play" is not a string or a number`)
}

// number is a coordinate or a column as the judge passes it on to the
// game, which judges its range.
const number = `-?[0-9]{1,9}`

// Moves as the judge passes them on: numbers only, so that nothing else
// of an answer reaches the game's text (its reasons, the replay).
var (
	columnMove = regexp.MustCompile(`^` + number + `$`)
	cellMove   = regexp.MustCompile(`^(` + number + `)-(` + number + `)$`)
	shotMove   = regexp.MustCompile(`^` + number + `,` + number + `$`)
	shipMove   = regexp.MustCompile(`^[0-9]{1,9},[0-9]{1,9}-[0-9]{1,9},[0-9]{1,9}$`)
)

// gameNumber is the match's number, one for both seats as botsarena's
// match id: the match's seed, recovered from the seat's (see matchSeed),
// below 100000.
func (d *driver) gameNumber() int { return int(matchSeed(d.seat.Seed, d.seat.Index) % 100000) }

// gameID is the match's number as a string, as tic-tac-toe and Connect
// Four's play-turn send it.
func (d *driver) gameID() string { return strconv.Itoa(d.gameNumber()) }

// matchSeed is the seed of the match whose seat's seed is seatSeed: it
// undoes judge.SeatSeed (splitmix64's steps are each invertible), so that
// the two seats of a match, which know only their own seeds, name it
// alike.
func matchSeed(seatSeed uint64, seat int) uint64 {
	z := unshift(seatSeed, 31)
	z = unshift(z*inverse(0x94d049bb133111eb), 27)
	z = unshift(z*inverse(0xbf58476d1ce4e5b9), 30)
	return z - uint64(seat+1)*0x9e3779b97f4a7c15
}

// unshift inverts y = x ^ x>>s.
func unshift(y uint64, s uint) uint64 {
	x := y
	for i := s; i < 64; i += s {
		x = y ^ x>>s
	}
	return x
}

// inverse is the inverse of the odd number a modulo 2^64 (Newton's
// iteration doubles the bits that are right each time).
func inverse(a uint64) uint64 {
	x := a
	for range 5 {
		x *= 2 - a*x
	}
	return x
}

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

// boardInit is the init request of tic-tac-toe or Connect Four, game
// named as act.php names it: botsarena's Connect Four sends its match id
// as a number there (and as a string in play-turn), tic-tac-toe as a
// string in both.
func (d *driver) boardInit(game string, numericID bool) []byte {
	var id any = d.gameID()
	if numericID {
		id = d.gameNumber()
	}
	b, _ := json.Marshal(map[string]any{"game-id": id, "action": "init", "game": game,
		"players": d.seat.Seats, "board": "", "player-index": d.seat.Index})
	return b
}

// sendInit sends the init of tic-tac-toe or Connect Four, once. The
// answer is not used, and a failure is no fault: botsarena's act.php
// ignores both ("don't care about result"), and Bolosseum sends none.
// The bot's log says what went wrong.
func (d *driver) sendInit(ctx context.Context, lim limit, logf func(string, ...any)) {
	d.initOnce.Do(func() {
		_, err := d.post(ctx, lim, logf, request{"init", "application/json", d.init})
		if f := judge.AsFault(err); f != nil {
			logf("%s; botsarena does not use the answer to init: the bot plays on", f.Reason)
		}
	})
}

// boardTurn asks for the board and the bot's symbol at the start of a
// turn; if the bot has not had its init (the players were not settled),
// it is sent now.
func (d *driver) boardTurn(ctx context.Context, c *goplayer.Conn) (board, you string, err error) {
	if board, err = c.Ask("Board"); err != nil {
		return "", "", err
	}
	if you, err = c.Ask("MySymbol"); err != nil {
		return "", "", err
	}
	d.sendInit(ctx, turnLimit(c), c.Logf)
	return board, you, nil
}

// opponent is the name of the other seat's bot, botsarena's opponent.
func (d *driver) opponent() string {
	if len(d.seat.Opponents) > 0 {
		return d.seat.Opponents[0]
	}
	return ""
}

// connect4 plays Connect Four (botsarena's connectfour).
func (d *driver) connect4(ctx context.Context, c *goplayer.Conn) error {
	for {
		b, you, err := d.boardTurn(ctx, c)
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
		ans, err := d.postJSON(ctx, c, "play-turn", map[string]any{"game-id": d.gameID(), "action": "play-turn", "game": "connectfour",
			"players": d.seat.Seats, "opponent": d.opponent(), "you": you, "board": grid, "player-index": d.seat.Index})
		if err != nil {
			return err
		}
		col, err := d.play(ans)
		if err != nil {
			return err
		}
		if !columnMove.MatchString(col) {
			return d.notMove(ans, `want {"play": COLUMN}, a whole number`)
		}
		if err := sendAll(c, "DropDisc "+col, "#END"); err != nil {
			return err
		}
	}
}

// tictactoe plays tic-tac-toe (and gomoku boards) as Bolosseum serves it.
func (d *driver) tictactoe(ctx context.Context, c *goplayer.Conn) error {
	for {
		b, you, err := d.boardTurn(ctx, c)
		if err != nil {
			return err
		}
		grid := map[string]string{}
		for y, r := range board(b) {
			for x, s := range r {
				grid[fmt.Sprintf("%d-%d", y, x)] = cell(s)
			}
		}
		ans, err := d.postJSON(ctx, c, "play-turn", map[string]any{"game-id": d.gameID(), "action": "play-turn", "game": "tictactoe",
			"players": d.seat.Seats, "board": grid, "you": you, "player-index": d.seat.Index})
		if err != nil {
			return err
		}
		p, err := d.play(ans)
		if err != nil {
			return err
		}
		m := cellMove.FindStringSubmatch(p)
		if m == nil {
			return d.notMove(ans, `want {"play": "y-x"}, such as "1-2"`)
		}
		if err := sendAll(c, "PlaceSymbol "+m[2]+" "+m[1], "#END"); err != nil {
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

// bsBoard is the "board" of botsarena's JSON Battleship: the parameters,
// numbers as strings as the arena passes them on, and in play-turn the
// strikes.
type bsBoard struct {
	Opponent    string   `json:"opponent"`
	Width       string   `json:"width"`
	Height      string   `json:"height"`
	Ship1       string   `json:"ship1"`
	Ship2       string   `json:"ship2"`
	Ship3       string   `json:"ship3"`
	Ship4       string   `json:"ship4"`
	Ship5       string   `json:"ship5"`
	Ship6       string   `json:"ship6"`
	YourStrikes []strike `json:"your_strikes,omitzero"`
	HisStrikes  []strike `json:"his_strikes,omitzero"`
}

// bsInit and bsTurn are the requests of botsarena's JSON Battleship, field
// for field as its act.php sends them (init's "game" is "battleship",
// play-turn's "Battleship"; play-turn has no "players").
type bsInit struct {
	GameID      int     `json:"game-id"`
	Game        string  `json:"game"`
	Action      string  `json:"action"`
	Players     int     `json:"players"`
	PlayerIndex int     `json:"player-index"`
	Board       bsBoard `json:"board"`
}

type bsTurn struct {
	Game        string  `json:"game"`
	GameID      int     `json:"game-id"`
	Action      string  `json:"action"`
	PlayerIndex int     `json:"player-index"`
	Board       bsBoard `json:"board"`
}

// bsPlay is what botsarena checks a play-turn answer against.
var bsPlay = regexp.MustCompile(`^[0-9]+,[0-9]+\n?$`)

// battleship plays Battleship: botsarena's form (seed 000) for http://…,
// its JSON body for http+json://….
func (d *driver) battleship(ctx context.Context, c *goplayer.Conn) error {
	params, err := c.Ask("Params")
	if err != nil {
		return err
	}
	p := strings.Fields(params) // width height ship1 … ship6
	if len(p) != 8 {
		return fmt.Errorf("the query Params answered %q", params)
	}
	board := bsBoard{Opponent: d.opponent(), Width: p[0], Height: p[1], Ship1: p[2], Ship2: p[3], Ship3: p[4], Ship4: p[5], Ship5: p[6], Ship6: p[7]}
	for {
		phase, err := c.Ask("Phase")
		if err != nil {
			return err
		}
		var lines []string
		if phase == "place" {
			ships, err := d.bsInit(ctx, c, board)
			if err != nil {
				return err
			}
			for _, s := range ships {
				lines = append(lines, "PlaceShip "+oneWord(s))
			}
		} else {
			mine, err := c.Ask("MyShots")
			if err != nil {
				return err
			}
			his, err := c.Ask("OpponentShots")
			if err != nil {
				return err
			}
			b := board
			b.YourStrikes, b.HisStrikes = strikes(mine), strikes(his)
			target, err := d.bsTurn(ctx, c, b)
			if err != nil {
				return err
			}
			lines = append(lines, "Shoot "+oneWord(target))
		}
		if err := sendAll(c, append(lines, "#END")...); err != nil {
			return err
		}
	}
}

// bsInit asks the bot for its fleet.
func (d *driver) bsInit(ctx context.Context, c *goplayer.Conn, b bsBoard) ([]string, error) {
	var (
		ans []byte
		err error
	)
	if d.bot.JSON {
		ans, err = d.postJSON(ctx, c, "init", bsInit{GameID: d.gameNumber(), Game: "battleship", Action: "init", Players: d.seat.Seats,
			PlayerIndex: d.seat.Index, Board: b})
	} else {
		ans, err = d.postForm(ctx, c, "init", d.bsForm("init", b))
	}
	if err != nil {
		return nil, err
	}
	read := formFleet
	if d.bot.JSON {
		read = jsonFleet
	}
	ships, p := read(ans)
	if p.why != "" {
		return nil, d.answerFault(ans, "init", p)
	}
	for i, s := range ships {
		if ships[i] = strings.Join(strings.Fields(s), ""); !shipMove.MatchString(ships[i]) {
			return nil, d.notMove(ans, `a ship is "x1,y1-x2,y2", four whole numbers from 0`)
		}
	}
	return ships, nil
}

// bsTurn asks the bot for its shot.
func (d *driver) bsTurn(ctx context.Context, c *goplayer.Conn, b bsBoard) (string, error) {
	var (
		ans []byte
		err error
	)
	if d.bot.JSON {
		ans, err = d.postJSON(ctx, c, "play-turn", bsTurn{Game: "Battleship", GameID: d.gameNumber(), Action: "play-turn", PlayerIndex: d.seat.Index, Board: b})
	} else {
		ans, err = d.postForm(ctx, c, "fight", d.bsForm("fight", b))
	}
	if err != nil {
		return "", err
	}
	read, act := d.formShot, "fight"
	if d.bot.JSON {
		read, act = jsonShot, "play-turn"
	}
	target, p := read(ans)
	if p.why != "" {
		return "", d.answerFault(ans, act, p)
	}
	return target, nil
}

// problem is what is wrong with an answer: why, and whether it has the
// shape of the other variant's answer.
type problem struct {
	why   string
	other bool
}

// answerFault is the fault of an answer with a problem; when it looks like
// the other variant's, the reason says which URL to give.
func (d *driver) answerFault(ans []byte, act string, p problem) error {
	msg := fmt.Sprintf("%s answered %s with a body that is not a move%s", d.bot.URL, act, p.why)
	switch {
	case !p.other:
	case d.bot.JSON:
		msg += "; if the bot reads form fields (botsarena's form variant), give the bot as " + d.otherScheme()
	default:
		msg += "; if the bot reads botsarena's JSON body, give the bot as " + d.otherScheme()
	}
	return &judge.Fault{Status: judge.Protocol, Reason: msg, Detail: detail(string(ans))}
}

// jsonFleet reads an init answer of botsarena's JSON Battleship:
// {"name":…,"boats":["x1,y1-x2,y2",…]}. What the arena loses a bot for
// (no boats, or not JSON) is a problem; what the ships are is the game's
// to judge.
func jsonFleet(ans []byte) (ships []string, p problem) {
	if json.Unmarshal(ans, &ships) == nil && ships != nil {
		return nil, problem{`, a bare list of ships as botsarena's form variant answers: in the JSON variant the answer is {"name":…,"boats":[…]}`, true}
	}
	if !isObject(ans) {
		return nil, problem{`, not a JSON object: want {"name":…,"boats":["x1,y1-x2,y2",…]}`, true}
	}
	var a struct {
		Boats json.RawMessage `json:"boats"`
	}
	if json.Unmarshal(ans, &a) != nil || len(a.Boats) == 0 || string(a.Boats) == "null" {
		return nil, problem{`, with no "boats": want {"name":…,"boats":["x1,y1-x2,y2",…]}`, false}
	}
	if json.Unmarshal(a.Boats, &ships) != nil {
		return nil, problem{`: its "boats" is not a list of strings "x1,y1-x2,y2"`, false}
	}
	return ships, problem{}
}

// formFleet reads an init answer of botsarena's form variant: a JSON list
// of ships.
func formFleet(ans []byte) ([]string, problem) {
	var ships []string
	if json.Unmarshal(ans, &ships) != nil {
		switch {
		case isObject(ans):
			return nil, problem{`: want a JSON list of ships such as ["3,3-3,7", …]; a JSON object is the answer of botsarena's JSON Battleship`, true}
		case len(bytes.TrimSpace(ans)) == 0:
			return nil, problem{`: want a JSON list of ships such as ["3,3-3,7", …], and a bot that reads a JSON body finds none`, true}
		}
		return nil, problem{`: want a JSON list of ships such as ["3,3-3,7", …]`, false}
	}
	return ships, problem{}
}

// jsonShot reads a play-turn answer of botsarena's JSON Battleship,
// {"play":"x,y"}, checked as the arena checks it.
func jsonShot(ans []byte) (string, problem) {
	var a struct {
		Play any `json:"play"`
	}
	if json.Unmarshal(ans, &a) != nil || !isObject(ans) {
		t := strings.Trim(strings.TrimSpace(string(ans)), `"`)
		return "", problem{`: want {"play":"x,y"}, x and y whole numbers from 0; a bare cell is the answer of botsarena's form variant`, bsPlay.MatchString(t)}
	}
	s, ok := a.Play.(string)
	if !ok || !bsPlay.MatchString(s) {
		return "", problem{`: want {"play":"x,y"}, x and y whole numbers from 0`, false}
	}
	return strings.TrimSpace(s), problem{}
}

// formShot reads a fight answer of botsarena's form variant: the cell
// x,y, whose range the game judges. In botsarena's game it is checked as
// the arena checks it (^[0-9]+,[0-9]+$); elsewhere it may be quoted and
// hold spaces.
func (d *driver) formShot(ans []byte) (string, problem) {
	if jsonShape(ans, "play") {
		return "", problem{`: that is the answer of botsarena's JSON Battleship`, true}
	}
	if d.arena {
		if !bsPlay.Match(ans) {
			return "", problem{`: want x,y, x and y whole numbers from 0, nothing else (botsarena refuses quotes and spaces)`, false}
		}
		return strings.TrimSpace(string(ans)), problem{}
	}
	target := strings.TrimSpace(string(ans))
	var quoted string
	if json.Unmarshal([]byte(target), &quoted) == nil {
		target = quoted
	}
	if target = strings.Join(strings.Fields(target), ""); !shotMove.MatchString(target) {
		return "", problem{`: want a cell "x,y", x and y whole numbers`, false}
	}
	return target, problem{}
}

// field is a form field.
type field struct{ name, value string }

// bsForm is the form of botsarena's Battleship (seed 000) for act, its
// fields in the order of its act.php. The match_id ends in the seat, 1
// or 2; botsarena's init sent "-1" to both players, and so does the
// judge in botsarena's game.
func (d *driver) bsForm(act string, b bsBoard) []field {
	seat := d.seat.Index + 1
	if act == "init" && d.arena {
		seat = 1
	}
	f := []field{{"game", "Battleship"}, {"match_id", fmt.Sprintf("%d-%d", d.gameNumber(), seat)}, {"act", act},
		{"opponent", b.Opponent}, {"width", b.Width}, {"height", b.Height}, {"ship1", b.Ship1}, {"ship2", b.Ship2},
		{"ship3", b.Ship3}, {"ship4", b.Ship4}, {"ship5", b.Ship5}, {"ship6", b.Ship6}}
	if act == "fight" {
		mine, _ := json.Marshal(b.YourStrikes)
		his, _ := json.Marshal(b.HisStrikes)
		f = append(f, field{"your_strikes", string(mine)}, field{"his_strikes", string(his)})
	}
	return f
}

// postForm posts form fields as botsarena's curl did, given them as an
// array: multipart/form-data, one part for each, in order.
func (d *driver) postForm(ctx context.Context, c *goplayer.Conn, act string, f []field) ([]byte, error) {
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	for _, x := range f {
		if err := w.WriteField(x.name, x.value); err != nil {
			return nil, err
		}
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return d.post(ctx, turnLimit(c), c.Logf, request{act, w.FormDataContentType(), body.Bytes()})
}

// isObject reports whether an answer is a JSON object.
func isObject(ans []byte) bool {
	var m map[string]json.RawMessage
	return json.Unmarshal(ans, &m) == nil && m != nil
}

// jsonShape reports whether an answer is a JSON object with the key.
func jsonShape(ans []byte, key string) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal(ans, &m) != nil {
		return false
	}
	_, ok := m[key]
	return ok
}

// otherScheme is the bot's URL in the other Battleship variant: http+json
// for the form, http for the JSON body.
func (d *driver) otherScheme() string {
	u := d.bot.URL
	if d.bot.JSON {
		return u
	}
	scheme, rest, _ := strings.Cut(u, "://")
	return scheme + "+json://" + rest
}

// sendAll sends lines in order.
func sendAll(c *goplayer.Conn, lines ...string) error {
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
	return judge.Clip(s, 60)
}
