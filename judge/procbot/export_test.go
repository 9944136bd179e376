package procbot

import (
	"testing"

	"judge/sandbox"
)

// ProcessOf is the sandboxed process of a player, for the tests.
func ProcessOf(p *Player) *sandbox.Process { return p.proc }

// LeftIdle says the player's bot was left unfrozen at the end of its
// last turn, waiting on its stdin; Ponders that it was found computing
// between turns all the same.
func LeftIdle(p *Player) bool { return p.idle }
func Ponders(p *Player) bool  { return p.ponders }

// SettleWithin is how long Settle waits for a bot to load.
const SettleWithin = settleWithin

// newTestHost is a Host of the test's own, closed at its end.
func newTestHost(t testing.TB) *Host {
	h := NewHost(HostOptions{})
	t.Cleanup(h.Close)
	return h
}
