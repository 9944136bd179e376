package plugin_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"judge/games/plugin"
	"judge/games/plugin/plugintest"
	"judge/judge"
	"judge/judge/judgetest"
	"judge/judge/procbot"
)

func TestMain(m *testing.M) { judgetest.Main(m) }

// TestRefereeErrorEndsMatch: real bots play the hostile game; a referee
// that fails ends the match with status referee-error for both seats,
// no winner, no score, and its fault as the reason. The referee is a
// reactor, as docs/games.md builds a Go referee.
func TestRefereeErrorEndsMatch(t *testing.T) {
	g, err := plugin.Load(hostileWasm(t, plugintest.Reactor), plugin.Options{})
	if err != nil {
		t.Fatal(err)
	}
	bot := judgetest.Spec(t, "gobot", "games/plugin/testdata/gobot.py")
	res := judgetest.PlayGame(t, g, modeGood, nil, bot, bot)
	if res.Players[0].Status != judge.OK || res.Reason != "ten turns" {
		t.Fatalf("the well-behaved referee: %+v", res)
	}
	for _, tc := range hostileCases {
		t.Run(tc.name, func(t *testing.T) {
			res := judgetest.PlayGame(t, g, tc.seed, nil, bot, bot)
			checkRefereeError(t, res, tc.wasmReason(true))
		})
	}
}

func checkRefereeError(t *testing.T, res *judge.Result, reason string) {
	t.Helper()
	if !strings.HasPrefix(res.Reason, "referee error: ") || !strings.Contains(res.Reason, reason) || res.Winner != -1 {
		t.Errorf("result: winner %d, reason %q; want a referee error saying %q", res.Winner, res.Reason, reason)
	}
	for _, p := range res.Players {
		if p.Status != judge.RefereeError || p.Score != 0 {
			t.Errorf("%s: %s %v %q, want %s", p.Name, p.Status, p.Score, p.Reason, judge.RefereeError)
		}
	}
	if res.Replay.Outcome.Reason != res.Reason {
		t.Errorf("the replay's reason %q, want %q", res.Replay.Outcome.Reason, res.Reason)
	}
}

// TestProcessRefereeInSandbox: a process referee runs in the sandbox as
// bots do (procbot.Host.StartReferee): its memory bomb is stopped there, and
// the match ends as a referee error.
func TestProcessRefereeInSandbox(t *testing.T) {
	judgetest.NeedTools(t, "python3")
	// Sandboxed programs run as nobody when the tests run as root.
	dir := judgetest.TempDir(t)
	data, err := os.ReadFile(filepath.Join(plugintest.Root(t), "games", "plugin", "testdata", "hostile.py"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "hostile.py"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	gdir := hostileGame(t, `command = ["python3", "hostile.py"]`)
	spec, _ := os.ReadFile(filepath.Join(gdir, "game.toml"))
	if err := os.WriteFile(filepath.Join(dir, "game.toml"), spec, 0o644); err != nil {
		t.Fatal(err)
	}
	start := func(ctx context.Context, argv []string, dir string, memory int64) (*plugin.Process, error) {
		r, err := judgetest.Host().StartReferee(ctx, argv, dir, memory, procbot.Auto)
		if err != nil {
			return nil, err
		}
		return &plugin.Process{Stdin: r.Stdin, Stdout: r.Stdout, Stderr: r.Stderr, Stop: r.Stop,
			Exited: func() string { return r.Exit().String() }}, nil
	}
	g, err := plugin.Load(dir, plugin.Options{Start: start})
	if err != nil {
		t.Fatal(err)
	}
	bot := judgetest.Spec(t, "gobot", "games/plugin/testdata/gobot.py")
	res := judgetest.PlayGame(t, g, modeGood, nil, bot, bot)
	if res.Players[0].Status != judge.OK || res.Reason != "ten turns" {
		t.Fatalf("the well-behaved referee: %+v", res)
	}
	for _, tc := range []struct {
		seed   uint64
		reason string
	}{{modeBomb, ""}, {modeExit, "exit code 3; its stderr ends: hostile: giving up at turn 3"}, {modeLoop, "did not answer within"}} {
		res := judgetest.PlayGame(t, g, tc.seed, nil, bot, bot)
		t.Logf("seed %d: %s", tc.seed, res.Reason)
		checkRefereeError(t, res, tc.reason)
	}
}
