package procbot

import (
	"sync/atomic"
	"time"
)

// closedStdin is when a bot's stdin was found to have no reader left
// (UnixNano), or 0, for the readers of its output (fdReader,
// pumpReader). From then on a read waits at most exitWait for the bot's
// output: what it wrote before, or its end. A bot that keeps running
// with no way to hear the judge can only run out its time.
type closedStdin struct{ closedAt atomic.Int64 }

// markClosed notes that the stdin is closed now, and says whether it
// was not noted before.
func (c *closedStdin) markClosed() bool {
	return c.closedAt.CompareAndSwap(0, time.Now().UnixNano())
}

// stdinClosed says whether the stdin was found closed.
func (c *closedStdin) stdinClosed() bool { return c.closedAt.Load() != 0 }

// bound is deadline t, or the end of the wait for a bot whose stdin is
// closed when that is sooner.
func (c *closedStdin) bound(t time.Time) time.Time {
	if at := c.closedAt.Load(); at != 0 {
		if end := time.Unix(0, at).Add(exitWait); end.Before(t) {
			return end
		}
	}
	return t
}

// closedOver says the wait bounded by a closed stdin is over.
func (c *closedStdin) closedOver() bool {
	at := c.closedAt.Load()
	return at != 0 && !time.Now().Before(time.Unix(0, at).Add(exitWait))
}
