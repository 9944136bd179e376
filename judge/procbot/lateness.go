package procbot

import (
	"math"
	"sync"
	"time"
)

// lateness is the machine's lateness, as a Host's bots meet it: how much of
// their turns' time limits they spent runnable but kept from every CPU
// by other programs (what the fair clock credits them, machineWait: a
// bot's threads waiting behind each other are not the machine's), over
// the last moments. A
// tournament holds back new matches while it is high: the machine cannot
// serve one more match without its bots waiting. It is measured against
// the limit, not the turn's wall time: a bot that answers in 100 µs on a
// CPU it shares with the judge's thread waits for it a good part of
// that, which matters to no one.
type lateness struct {
	mu            sync.Mutex
	queued, limit float64 // decayed sums, in seconds
	at            time.Time
}

// lateTau is how fast the past fades: a turn counts half as much 0.7 s on.
const lateTau = time.Second

// note adds a turn of a bot, with time limit limit, in which it
// waited queued for a CPU.
func (late *lateness) note(queued, limit time.Duration) {
	if limit <= 0 {
		return
	}
	late.mu.Lock()
	defer late.mu.Unlock()
	late.decay(time.Now())
	late.queued += queued.Seconds()
	late.limit += limit.Seconds()
}

// decay brings the sums to now; under late.mu.
func (late *lateness) decay(now time.Time) {
	if !late.at.IsZero() {
		f := math.Exp(-float64(now.Sub(late.at)) / float64(lateTau))
		late.queued *= f
		late.limit *= f
	}
	late.at = now
}

// Lateness is the share (0 to 1, or more) of their recent turns' time
// limits that this judge's bots spent waiting for a CPU, and how much
// limit, decayed, that share is taken over (a share over next to nothing
// means little).
func (h *Host) Lateness() (share float64, over time.Duration) {
	late := &h.late
	late.mu.Lock()
	defer late.mu.Unlock()
	late.decay(time.Now())
	if late.limit <= 0 {
		return 0, 0
	}
	return late.queued / late.limit, time.Duration(late.limit * float64(time.Second))
}
