package tournament

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"

	"judge/judge/judgetest"
)

// TestSaboteurHarmsNobody plays a tournament of a saboteur, which lowers
// every resource limit, the nice value and the CPU affinity of its
// sandbox's init and of the init's threads (testdata/sabotage), and two
// honest bots that check, every turn, that they got what any sandbox
// gives and can use it (stack, open files, a child). The three bots are
// in one directory with the same limits, so their programs share reused
// sandboxes. Nobody is harmed: the tournament completes, and the honest
// bots never fail.
func TestSaboteurHarmsNobody(t *testing.T) {
	dir := tempDir(t)
	var args []string
	for _, b := range []struct{ src, name string }{
		{"judge/tournament/testdata/sabotage/honest.c", "honest1"},
		{"judge/tournament/testdata/sabotage/honest.c", "honest2"},
		{"judge/tournament/testdata/sabotage/saboteur.c", "saboteur"},
	} {
		exe := judgetest.Bot(t, b.src)[0]
		to := filepath.Join(dir, b.name)
		if err := copyFile(exe, to); err != nil {
			t.Fatal(err)
		}
		args = append(args, to)
	}
	var log bytes.Buffer
	o := options(t, filepath.Join(tempDir(t), "out"), tempDir(t), args)
	o.Rounds = 3
	o.Log = &log
	st, err := Run(context.Background(), o)
	if err != nil {
		t.Fatalf("Run: %v\n%s", err, log.String())
	}
	// Three bots, three rounds, both seat orders.
	if st.Matches != 18 {
		t.Errorf("%d matches, want 18", st.Matches)
	}
	for _, r := range st.Standings {
		t.Logf("%s: %d played, %d failures %s", r.Name, r.Played, r.Failures.Total, r.Failures.Last)
		if r.Name != "saboteur" && r.Failures.Total != 0 {
			t.Errorf("%s failed %d times, last %s", r.Name, r.Failures.Total, r.Failures.Last)
		}
	}
}
