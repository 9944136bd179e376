//go:build !linux

package procbot

import (
	"time"

	"judge/judge"
)

// OneCPU serves a match: it is judge.Match.Serve. Off Linux the judge
// does not choose the CPUs of bots, and plays the match as it comes.
func OneCPU(_ []judge.Player, play func()) { play() }

// nap sleeps d.
func nap(d time.Duration) { time.Sleep(d) }

// nearCaller does nothing: off Linux the judge does not choose the CPUs
// of programs.
func nearCaller(int) {}

// cpuSet is a Host's CPUs for matches: off Linux it has none.
type cpuSet struct{}

// seesBlocked: sandbox.Process.Blocked never says what a bot waits for.
const seesBlocked = false
