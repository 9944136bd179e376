package arena

import (
	"context"
	"database/sql"
	"fmt"

	"judge/judge"
	"judge/judge/httpbot"
	"judge/judge/play"
)

// Web bots are where the organiser says (Config.WebBots): a URL is
// checked when it is submitted, and the arena's policy goes with the bot
// to every match, where each connection is checked again. A web bot
// whose server fails it (no connection, an HTTP error, an answer that is
// not a move) is taken out of play after that match: a URL that is not
// a bot costs its server a request or two per submission, not one per
// ladder match.

// checkURL checks a submitted web bot's URL: its syntax, and that the
// arena's policy lets a web bot be there.
func (a *Arena) checkURL(raw string) error {
	if a.web.Empty() {
		return fmt.Errorf("%w: this arena takes no web bots: its organiser has listed no networks or hosts for them", ErrBadArchive)
	}
	b, ok, err := httpbot.Parse(raw)
	if !ok || err != nil {
		return fmt.Errorf("%w: %v", ErrBadArchive, err)
	}
	if err := a.web.Check(b); err != nil {
		return fmt.Errorf("%w: %v (web bots may be at %v)", ErrBadArchive, err, a.web.Entries())
	}
	return nil
}

// webPolicy makes c, if it is a web bot, one that connects only where
// the arena's policy allows; one the policy does not allow (the
// organiser changed it) cannot play.
func (a *Arena) webPolicy(c *play.Contestant) {
	b, ok, err := httpbot.Parse(c.Arg)
	if !ok || err != nil || c.Err != nil {
		return
	}
	if err := a.web.Check(b); err != nil {
		c.Err, c.Entrant = err, nil
		return
	}
	b.Policy = a.web
	c.Entrant = named{b, c.Name}
}

// webPolicies is prepare with the arena's policy on its web bots.
func (a *Arena) webPolicies(prepare play.Preparer) play.Preparer {
	return func(ctx context.Context, b play.Batch) ([]*play.Contestant, error) {
		cs, err := prepare(ctx, b)
		for _, c := range cs {
			a.webPolicy(c)
		}
		return cs, err
	}
}

// stopWebBots takes out of play, in tx, the web bots among subs (0 for a
// reference bot) that res says their server failed: a crash (no
// connection, an HTTP error) or an answer that is not a move. The
// submission becomes compile-error; its log, which only its author
// sees, gives the reason and the fault's Detail (what the server
// answered). A web bot that timed out plays on.
func stopWebBots(ctx context.Context, tx *sql.Tx, subs []int64, res *judge.Result) error {
	for i, id := range subs {
		if id == 0 || i >= len(res.Players) {
			continue
		}
		p := res.Players[i]
		if p.Status != judge.Crash && p.Status != judge.Protocol {
			continue
		}
		var arg string
		if err := tx.QueryRowContext(ctx, `SELECT arg FROM submissions WHERE id = ?`, id).Scan(&arg); err != nil {
			return fmt.Errorf("arena: %w", err)
		}
		if _, ok, _ := httpbot.Parse(arg); !ok {
			continue
		}
		log := "cannot play: its server failed it in a match (" + string(p.Status) + "): " + p.Reason +
			"\nIt plays no more: submit its URL again once it answers."
		if p.Detail != "" {
			log += "\n\nWhat the server answered (shown to you only):\n" + p.Detail
		}
		if _, err := tx.ExecContext(ctx, `UPDATE submissions SET status = ?, log = ? WHERE id = ? AND status IN (?, ?, ?)`,
			StatusCompileError, log, id, StatusTesting, StatusActive, StatusFailing); err != nil {
			return fmt.Errorf("arena: %w", err)
		}
	}
	return nil
}
