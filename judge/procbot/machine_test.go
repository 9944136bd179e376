package procbot_test

import (
	"time"
)

// cpuShare measures, with no code of the judge's, how much of a CPU a
// plain busy loop gets on this machine now, about 1 on an idle machine,
// less as other work competes for the CPUs: the loop does the same work
// in many chunks over d, and the share is the time the chunks would
// take all at the pace of the fastest over the time they took. Tests
// that skip because "the machine is too busy" ask it, rather than the
// code they test, whose failure would look the same.
func cpuShare(d time.Duration) float64 {
	chunk := func(x uint64) (uint64, time.Duration) {
		start := time.Now()
		for range 20000 {
			x = x*6364136223846793005 + 1442695040888963407
		}
		return x, time.Since(start)
	}
	x := uint64(1)
	var fastest, all time.Duration
	n := 0
	for start := time.Now(); time.Since(start) < d || n < 10; n++ {
		var took time.Duration
		x, took = chunk(x)
		if n == 0 || took < fastest {
			fastest = took
		}
		all += took
	}
	if x == 0 || all <= 0 {
		return 1 // the loop's result is used, so that it is not optimized away
	}
	return min(1, float64(fastest)*float64(n)/float64(all))
}

// busyShare is the CPU share (cpuShare) under which the machine counts
// as too busy for a test's timings: a loop kept from its CPU more than
// half the time.
const busyShare = 0.5
