package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"

	"judge/games"
	"judge/judge"
	"judge/judge/human"
	"judge/judge/replayview"
)

func (m *Main) play(ctx context.Context, args []string) error {
	fs := m.newFlags("play", "--game NAME [--seat N] [flags] BOT...",
		"Plays a match yourself against the bots, in the terminal: the board is drawn every\n"+
			"turn and you type your moves (docs/play.md gives the form per game). With --web, in a\n"+
			"browser page on 127.0.0.1 instead, where clicks and arrow keys also make moves. A wrong\n"+
			"move is explained and asked again; the match waits for you, with no time limit unless\n"+
			"--timed. Each BOT is the path of an executable or a quoted command line.")
	mf := addMatchFileFlags(fs)
	of := addOneMatchFlags(fs, "player")
	var (
		seat  = fs.Int("seat", 0, "your seat, from 0 (in turn-based games seat 0 moves first)")
		name  = fs.String("name", "you", "your name in the result and the replay")
		timed = fs.Bool("timed", false, "give your turns the match's time limits (--turn, --first-turn) too")
		web   = fs.Bool("web", false, "play in the browser: serve the game's page on --addr and print its address")
		addr  = fs.String("addr", "127.0.0.1:0", "with --web, the loopback address to serve on (port 0: any free port)")
	)
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	su, err := mf.load(m.Host, m.Stderr)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return fmt.Errorf("%w: no bots given: play against at least one BOT", errUsage)
	}
	if err := su.fitSeats(len(pos) + 1); err != nil {
		return err
	}
	if *seat < 0 || *seat > len(pos) {
		return fmt.Errorf("%w: --seat %d: with %d bots, the seats are 0..%d", errUsage, *seat, len(pos), len(pos))
	}
	if err := of.checkReplay(); err != nil {
		return err
	}
	if *web {
		if err := checkLoopback(*addr); err != nil {
			return err
		}
	}
	if m.Stdin == nil && !*web {
		return errors.New("no input to read your moves from")
	}
	mt := su.match
	mt.Seed = of.seedOf()
	var con human.Console
	var page *human.Web
	if *web {
		page = human.NewWeb(su.match.Game.Name())
		page.Viewer = replayview.Script()
		con = page
	} else {
		con = human.NewTerminal(m.Stdin, m.Stdout)
	}
	person := human.Person{Name: *name, Console: con, Game: su.match.Game, Timed: *timed}
	bs, err := entrants(ctx, pos, su.proc)
	if sig, ok := interrupted(ctx); ok && err != nil {
		return fmt.Errorf("%v while the bots were made ready (built, their runtimes checked): the game did not start", sig)
	}
	if err != nil {
		return err
	}
	for _, e := range bs {
		if len(mt.Entrants) == *seat {
			mt.Entrants = append(mt.Entrants, person)
		}
		mt.Entrants = append(mt.Entrants, e)
	}
	if len(mt.Entrants) == *seat {
		mt.Entrants = append(mt.Entrants, person)
	}
	mt.Trace = *of.trace

	if page != nil {
		return gameInterrupted(ctx, m.playWeb(ctx, mt, page, *addr, *seat, of))
	}
	fmt.Fprintf(m.Stdout, "%s (%s), seed %d: you are seat %d of %d. Ctrl-D leaves the game.\n", mt.Name, formatParams(mt.Params), mt.Seed, *seat, len(mt.Entrants))
	res, err := judge.Run(ctx, mt)
	if err != nil {
		return gameInterrupted(ctx, err)
	}
	if err := of.writeReplay(res.Replay); err != nil {
		return err
	}
	fmt.Fprintln(m.Stdout)
	printEnd(m, mt.Game, res)
	return nil
}

// gameInterrupted is err, or what a signal interrupted when one ended
// ctx: the game, which is left unfinished.
func gameInterrupted(ctx context.Context, err error) error {
	if sig, ok := interrupted(ctx); ok && err != nil {
		return fmt.Errorf("%v: the game was not finished, and its bots were stopped", sig)
	}
	return err
}

// printEnd writes the end of a game played: its whole board, when it
// fits, and its result.
func printEnd(m *Main, g games.Game, res *judge.Result) {
	if _, frames, err := judge.Playback(g, res.Replay); err == nil && len(frames) > 0 {
		if b := frames[len(frames)-1].Board; strings.Count(b, "\n") <= 50 {
			fmt.Fprintf(m.Stdout, "The end of the game:\n%s\n", strings.TrimRight(b, "\n"))
		}
	}
	printResult(m, g, res)
}

// playWeb plays the match with the person's seat in the browser: it
// serves page on addr (a loopback address), prints its address, and once
// the match is over shows the result there too, in words over the board
// of the end, and waits (a while) for
// the page to have it; of writes the replay.
func (m *Main) playWeb(ctx context.Context, mt judge.Match, page *human.Web, addr string, seat int, of *oneMatchFlags) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("serve the game: %w", err)
	}
	srv := &http.Server{Handler: page, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	defer func() {
		// Let a response under way (the end, to the page) finish, but
		// not a page's wait for the next change.
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		if srv.Shutdown(sctx) != nil {
			srv.Close()
		}
	}()
	fmt.Fprintf(m.Stdout, "%s (%s), seed %d: you are seat %d of %d.\nPlay at http://%s/\n", mt.Name, formatParams(mt.Params), mt.Seed, seat, len(mt.Entrants), ln.Addr())
	res, err := judge.Run(ctx, mt)
	if err != nil {
		page.End("The judge failed: " + err.Error())
		return err
	}
	if err := of.writeReplay(res.Replay); err != nil {
		page.End("The replay could not be written: " + err.Error())
		return err
	}
	printEnd(m, mt.Game, res)
	if b, ok := endBoard(mt.Game, res.Replay); ok {
		page.Draw(b)
	}
	page.Finish(human.EndOf(res, seat))
	t := time.NewTimer(time.Minute)
	defer t.Stop()
	select {
	case <-page.Seen():
	case <-t.C:
	case <-ctx.Done():
	}
	return nil
}

// endBoard is the end of the game as a spectator sees it (the hidden
// ships too), to draw in the page.
func endBoard(g games.Game, rp *judge.Replay) (human.Board, bool) {
	d, err := replayview.Decode(g, rp)
	if err != nil || len(d.Frames) == 0 {
		return human.Board{}, false
	}
	last := len(d.Frames) - 1
	cells := d.Cells(last)
	b := human.Board{Marks: d.Frames[last].Marks}
	if p, ok := g.(games.Painter); ok {
		b.Palette = p.Palette()
	}
	for i, gi := range d.Grids {
		b.Grids = append(b.Grids, games.Grid{Name: gi.Name, Kind: gi.Kind, W: gi.W, H: gi.H, Cells: cells[i]})
	}
	return b, true
}

// checkLoopback refuses an address that is not a loopback one.
func checkLoopback(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("%w: --addr %s: %v", errUsage, addr, err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return fmt.Errorf("%w: --addr %s: the game is served on a loopback address only (such as 127.0.0.1:8080)", errUsage, addr)
	}
	return nil
}
