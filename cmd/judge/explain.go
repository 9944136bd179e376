package main

import (
	"context"
	"fmt"
	"strings"

	"judge/judge"
)

func (m *Main) explain(_ context.Context, args []string) error {
	fs := m.newFlags("explain", "[--seat S] REPLAY",
		"Says in words why a match ended as it did and where it turned, replaying it\n"+
			"through the game's rules: a bot's fault (the turn, what it wrote, what was\n"+
			"expected), the turns the game names as decisive (Connect Four and gomoku: the\n"+
			"threat left open; Battleship: each ship sunk; Splix: each death, by whom), then\n"+
			"the end. Each with its turn and the viewer's link to it (REPLAY.html#N, written\n"+
			"by judge view).")
	gameDir, configFile := replayGameFlags(fs)
	seat := fs.Int("seat", -1, "only what concerns this seat, and the end")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if err := addPluginGames(*configFile, nil); err != nil {
		return err
	}
	if len(pos) != 1 {
		return fmt.Errorf("%w: want one replay file, got %d arguments", errUsage, len(pos))
	}
	rp, err := readReplay(pos[0])
	if err != nil {
		return err
	}
	if *seat >= len(rp.Bots) {
		return fmt.Errorf("%w: --seat %d: the match has seats 0 to %d", errUsage, *seat, len(rp.Bots)-1)
	}
	v, err := replayGame(m.Stderr, rp, *gameDir)
	if err != nil {
		return fmt.Errorf("%s: %w", pos[0], err)
	}
	points, err := judge.Explain(v.Game, rp)
	if err != nil {
		return fmt.Errorf("%s: %w", pos[0], err)
	}
	html := strings.TrimSuffix(pos[0], ".json") + ".html"
	fmt.Fprintf(m.Stdout, "%s (%s), seed %d: %s\n", rp.Game, formatParams(rp.Params), rp.Seed, judge.PrintableLine(seatList(rp)))
	for _, p := range points {
		if *seat >= 0 && p.Seat != *seat && p.Kind != judge.PointEnd {
			continue
		}
		text := strings.ReplaceAll(strings.TrimRight(judge.Printable(p.Text), "\n"), "\n", "\n            ")
		fmt.Fprintf(m.Stdout, "  turn %-4d %s\n", p.Turn, text)
		fmt.Fprintf(m.Stdout, "            %s#%d\n", html, p.Turn)
	}
	return nil
}

// seatList names the seats of rp: "seat 0 alice, seat 1 bob".
func seatList(rp *judge.Replay) string {
	s := make([]string, len(rp.Bots))
	for i, b := range rp.Bots {
		s[i] = fmt.Sprintf("seat %d %s", i, b.Name)
	}
	return strings.Join(s, ", ")
}
