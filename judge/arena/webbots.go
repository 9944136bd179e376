package arena

import (
	"context"
	"fmt"

	"judge/judge/httpbot"
	"judge/judge/tournament"
)

// Web bots are where the organiser says (Config.WebBots): a URL is
// checked when it is submitted, and the arena's policy goes with the bot
// to every match, where each connection is checked again.

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
func (a *Arena) webPolicy(c *tournament.Contestant) {
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
func (a *Arena) webPolicies(prepare tournament.Preparer) tournament.Preparer {
	return func(ctx context.Context, args []string, cache string, jobs int) ([]*tournament.Contestant, error) {
		cs, err := prepare(ctx, args, cache, jobs)
		for _, c := range cs {
			a.webPolicy(c)
		}
		return cs, err
	}
}
