//go:build linux

package sandbox

import (
	"os/exec"
	"slices"
	"testing"
	"time"
)

// BenchmarkStartPeers measures starting /bin/true and seeing it end three
// ways, back to back in every iteration: as a plain child (the floor), in
// a ready sandbox of level full (Start), and under bubblewrap with every
// namespace of its own (bwrap --unshare-all --ro-bind / / /bin/true),
// which builds its sandbox for every program and has no cgroup, Landlock
// or seccomp. Metrics: the medians of each, in milliseconds, and of the
// iterations' ratios to the plain child.
func BenchmarkStartPeers(b *testing.B) {
	if testHost.Probe().Level != Full {
		b.Skip("level full is not available here")
	}
	bwrap, err := exec.LookPath("bwrap")
	if err != nil {
		b.Skip("bwrap is not installed (Debian package bubblewrap)")
	}
	run := func(argv ...string) time.Duration {
		start := time.Now()
		if err := exec.Command(argv[0], argv[1:]...).Run(); err != nil {
			b.Fatalf("%v: %v", argv, err)
		}
		return time.Since(start)
	}
	sandboxed := func() time.Duration {
		start := time.Now()
		p, err := testHost.Start(b.Context(), Spec{Argv: []string{"/bin/true"}, Level: Full, Limits: DefaultLimits})
		if err != nil {
			b.Fatal(err)
		}
		<-p.Done()
		return time.Since(start)
	}
	sandboxed() // the pool's first sandbox is built here, not measured
	var plain, full, bw, rFull, rBw []float64
	for b.Loop() {
		p := run("/bin/true")
		f := sandboxed()
		w := run(bwrap, "--unshare-all", "--ro-bind", "/", "/", "/bin/true")
		plain, full, bw = append(plain, ms(p)), append(full, ms(f)), append(bw, ms(w))
		rFull, rBw = append(rFull, float64(f)/float64(p)), append(rBw, float64(w)/float64(p))
	}
	b.ReportMetric(median(plain), "plain-ms")
	b.ReportMetric(median(full), "full-ms")
	b.ReportMetric(median(bw), "bwrap-ms")
	b.ReportMetric(median(rFull), "full/plain")
	b.ReportMetric(median(rBw), "bwrap/plain")
	b.ReportMetric(0, "ns/op")
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func median(v []float64) float64 {
	v = slices.Clone(v)
	slices.Sort(v)
	return v[len(v)/2]
}
