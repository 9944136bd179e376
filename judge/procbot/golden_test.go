//go:build unix

package procbot_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"judge/judge/judgetest"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// TestGoldenReplay plays a deterministic match and compares its replay,
// timing and machine-specific fields blanked, with a golden file: the
// replay format changes only on purpose (go test -run Golden -update).
func TestGoldenReplay(t *testing.T) {
	t.Parallel()
	res := play(t, "tictactoe", 1, func(m *judgetest.Setup) { m.Trace = false }, strong, "judge/procbot/testdata/override.py")
	rp := res.Replay
	for i := range rp.Bots {
		rp.Bots[i].Command = []string{"BOT"}
		rp.Bots[i].SHA256 = ""
	}
	for i := range rp.Turns {
		for j := range rp.Turns[i].Moves {
			rp.Turns[i].Moves[j].WallUS = 0
			rp.Turns[i].Moves[j].CPUUS = 0
			rp.Turns[i].Moves[j].WaitUS = 0
		}
	}
	rp.Sandbox = ""
	for i := range rp.Bots {
		rp.Bots[i].Sandbox = ""
	}
	got, err := json.MarshalIndent(rp, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	path := filepath.Join("testdata", "golden", "tictactoe-strong-override.json")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("replay differs from %s (run with -update if the change is intended):\n%s", path, got)
	}
}
