//go:build unix

package procbot_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"judge/games/catalog"
	"judge/judge"
	"judge/judge/bots"
	"judge/judge/judgetest"
	"judge/judge/procbot"
)

func TestMain(m *testing.M) { judgetest.Main(m) }

// play runs one match of the variant between bots given as source paths
// (relative to the repository root), with the transcript kept, and checks
// that its replay plays back.
func play(t *testing.T, variant string, seed uint64, mod func(*judgetest.Setup), bots ...string) *judge.Result {
	t.Helper()
	var specs []procbot.Spec
	for _, b := range bots {
		specs = append(specs, judgetest.Spec(t, filepath.Base(b), b))
	}
	res := judgetest.Play(t, variant, seed, func(m *judgetest.Setup) {
		m.Trace = true
		if mod != nil {
			mod(m)
		}
	}, specs...)
	v, _ := catalog.Lookup(variant)
	if _, _, err := judge.Playback(v.Game, res.Replay); err != nil {
		t.Errorf("the replay does not play back: %v", err)
	}
	return res
}

const (
	randomC  = "examples/gomoku/random.c"
	randomPy = "examples/gomoku/random_bot.py"
	strong   = "examples/gomoku/strong"
)

// TestNoFlushBots plays the C and Python bots that never flush, on 3×3
// and 15×15, with the default io, and with PYTHONUNBUFFERED set in the
// judge's environment (the bots get their own).
func TestNoFlushBots(t *testing.T) {
	t.Setenv("PYTHONUNBUFFERED", "the judge's")
	for _, variant := range []string{"tictactoe", "gomoku"} {
		for seed := uint64(1); seed <= 2; seed++ {
			res := play(t, variant, seed, nil, randomC, randomPy)
			for i, p := range res.Players {
				if p.Status != judge.OK {
					t.Errorf("%s seed %d: seat %d %s: %s %s", variant, seed, i, p.Name, p.Status, p.Reason)
				}
			}
			if res.Turns < 5 {
				t.Errorf("%s seed %d: only %d turns", variant, seed, res.Turns)
			}
		}
	}
}

// TestPipeNeedsFlush shows what the pty is for: on a plain pipe the same
// C bot never gets its query out, and the reason says to flush.
func TestPipeNeedsFlush(t *testing.T) {
	t.Parallel()
	res := play(t, "tictactoe", 1, func(m *judgetest.Setup) {
		m.Proc.IO = procbot.Pipe
		m.Limits.FirstTurn = time.Second
	}, randomC, randomPy)
	p := res.Players[0]
	if p.Status != judge.Timeout || !strings.Contains(p.Reason, "flush") {
		t.Fatalf("C bot on a pipe: got %s %q, want timeout with advice to flush", p.Status, p.Reason)
	}
	if res.Winner != 1 {
		t.Errorf("winner %d, want 1", res.Winner)
	}
}

func TestPipeModeWithFlushingBot(t *testing.T) {
	t.Parallel()
	res := play(t, "gomoku", 7, func(m *judgetest.Setup) { m.Proc.IO = procbot.Pipe }, strong, strong)
	for i, p := range res.Players {
		if p.Status != judge.OK {
			t.Errorf("seat %d: %s %s", i, p.Status, p.Reason)
		}
	}
}

func TestStrongBeatsRandom(t *testing.T) {
	t.Parallel()
	wins := 0
	for seed := uint64(1); seed <= 4; seed++ {
		if res := play(t, "gomoku", seed, nil, strong, randomC); res.Winner == 0 {
			wins++
		}
		if res := play(t, "gomoku", seed, nil, randomC, strong); res.Winner == 1 {
			wins++
		}
	}
	if wins < 7 {
		t.Errorf("strong won %d of 8 games against random, want at least 7", wins)
	}
}

func TestEnvironment(t *testing.T) {
	t.Setenv("PYTHONUNBUFFERED", "the judge's")
	t.Setenv("JUDGE_SECRET", "do not leak")
	res := play(t, "tictactoe", 5, func(m *judgetest.Setup) { m.Proc.Env = map[string]string{"EXTRA": "yes"} },
		"judge/procbot/testdata/env.py", randomC)
	env := res.Replay.Bots[0].Stderr
	for _, want := range []string{"PATH=", "HOME=", "LANG=", "JUDGE_SEED=", "EXTRA=yes"} {
		if !strings.Contains(env, want) {
			t.Errorf("bot environment lacks %s:\n%s", want, env)
		}
	}
	for _, bad := range []string{"the judge's", "JUDGE_SECRET"} {
		if strings.Contains(env, bad) {
			t.Errorf("bot environment has %s:\n%s", bad, env)
		}
	}
	// The JVM and Go are sized from the bot's memory limit (the default,
	// 256 MiB).
	for _, want := range []string{"JAVA_TOOL_OPTIONS=-XX:MaxRAM=256m -XX:MaxRAMPercentage=40 -Xss4m ", "GOMEMLIMIT=128MiB\n"} {
		if !strings.Contains(env, want) {
			t.Errorf("bot environment lacks %s:\n%s", want, env)
		}
	}
	// What the configuration gives replaces it.
	res = play(t, "tictactoe", 5, func(m *judgetest.Setup) { m.Proc.Env = map[string]string{"JAVA_TOOL_OPTIONS": "-Xmx64m"} },
		"judge/procbot/testdata/env.py", randomC)
	if env, want := res.Replay.Bots[0].Stderr, "\nJAVA_TOOL_OPTIONS=-Xmx64m\n"; !strings.Contains(env, want) {
		t.Errorf("bot environment lacks %s:\n%s", strings.TrimSpace(want), env)
	}
}

// The JVM's sizes in every bot's environment are those of the java run
// line of configs/languages.toml, from the same limit.
func TestRuntimeEnvIsTheJavaRunLine(t *testing.T) {
	t.Parallel()
	langs, err := bots.LoadLanguages("")
	if err != nil {
		t.Fatal(err)
	}
	langs.Host = judgetest.Host()
	run := strings.Join(langs.Language["java"].Run, " ")
	for _, mem := range []int64{64 << 20, 256 << 20, 1 << 30, 8 << 30} {
		vars := bots.RunVars(mem)
		opts := procbot.RuntimeEnv(mem)["JAVA_TOOL_OPTIONS"]
		for _, o := range strings.Fields(opts) {
			o = strings.NewReplacer("="+vars["{memory_mb}"][0]+"m", "={memory_mb}m", "-Xss"+vars["{stack_mb}"][0]+"m", "-Xss{stack_mb}m").Replace(o)
			if !strings.Contains(" "+run+" ", " "+o+" ") {
				t.Errorf("memory %d MiB: JAVA_TOOL_OPTIONS has %s, the java run line (%s) has not", mem>>20, o, run)
			}
		}
		if !strings.Contains(opts, "-XX:MaxRAM="+vars["{memory_mb}"][0]+"m ") {
			t.Errorf("memory %d MiB: JAVA_TOOL_OPTIONS is %q", mem>>20, opts)
		}
	}
	env := procbot.RuntimeEnv(0)
	if opts := env["JAVA_TOOL_OPTIONS"]; strings.Contains(opts, "MaxRAM") || !strings.Contains(opts, "-XX:+DisplayVMOutputToStderr") {
		t.Errorf("without a memory limit JAVA_TOOL_OPTIONS is %q, want the output options alone", opts)
	}
	if v, ok := env["GOMEMLIMIT"]; ok {
		t.Errorf("without a memory limit GOMEMLIMIT is %q", v)
	}
}

func TestMisbehavingBots(t *testing.T) {
	t.Parallel()
	tests := []struct {
		bot    string
		status judge.Status
		words  []string // the reason must contain each
	}{
		{"judge/procbot/testdata/never_end.py", judge.Timeout, []string{"no #END within"}},
		{"judge/procbot/testdata/noeol.c", judge.Timeout, []string{`"#END" has no newline`}},
		{"judge/procbot/testdata/noflush.c", judge.Timeout, []string{`its line "PlaceSymbol 1 1" arrived`, "no #END", "flush"}},
		{"judge/procbot/testdata/noend.py", judge.Timeout, []string{`its line "PlaceSymbol 1 1" arrived, and then it waited for input with no #END`, "write it"}},
		{"judge/procbot/testdata/crash.c", judge.Crash, []string{"SIGSEGV", "about to dereference NULL"}},
		{"judge/procbot/testdata/once.py", judge.Crash, []string{"it ended before the game did: it exited with status 0 at turn 3"}},
		{"judge/procbot/testdata/exit3.py", judge.Crash, []string{"exit code 3", "giving up"}},
		{"judge/procbot/testdata/garbage.py", judge.Protocol, []string{"unknown query or command", "Hello judge"}},
		{"judge/procbot/testdata/binary.py", judge.Protocol, []string{"not valid UTF-8"}},
		{"judge/procbot/testdata/longline.py", judge.Protocol, []string{"longer than 65536 bytes"}},
		{"judge/procbot/testdata/flood.py", judge.Output, []string{"more than"}},
		{"judge/procbot/testdata/invalid_only.py", judge.Illegal, []string{"(5,5) is off the 3×3 board"}},
	}
	for _, tt := range tests {
		t.Run(filepath.Base(tt.bot), func(t *testing.T) {
			t.Parallel()
			res := play(t, "tictactoe", 1, func(m *judgetest.Setup) { m.Limits.FirstTurn = 2 * time.Second }, tt.bot, randomC)
			p := res.Players[0]
			if p.Status != tt.status {
				t.Fatalf("status %s (%s), want %s", p.Status, p.Reason, tt.status)
			}
			for _, w := range tt.words {
				if !strings.Contains(p.Reason, w) {
					t.Errorf("reason %q does not say %q", p.Reason, w)
				}
			}
			if res.Winner != 1 || res.Players[1].Status != judge.OK || res.Players[1].Score != 1 {
				t.Errorf("the other seat: winner %d, %+v", res.Winner, res.Players[1])
			}
		})
	}
}

func TestCPULimit(t *testing.T) {
	// The wall-clock limit is generous: on a loaded machine 300 ms of CPU
	// can take seconds.
	res := play(t, "tictactoe", 1, func(m *judgetest.Setup) {
		m.Limits.Turn = 20 * time.Second
		m.Limits.TurnCPU = 100 * time.Millisecond
	}, "judge/procbot/testdata/spin.c", randomC)
	p := res.Players[0]
	if p.Status != judge.Timeout || !strings.Contains(p.Reason, "of CPU in turn 3, over the limit of 100ms") {
		t.Fatalf("got %s %q, want a timeout for CPU in turn 3", p.Status, p.Reason)
	}
	// Without the CPU limit the same bot is in time.
	res = play(t, "tictactoe", 1, func(m *judgetest.Setup) { m.Limits.Turn = 20 * time.Second }, "judge/procbot/testdata/spin.c", randomC)
	if p := res.Players[0]; p.Status != judge.OK {
		t.Fatalf("without a CPU limit: %s %s", p.Status, p.Reason)
	}
}

func TestLinesAfterEndWaitForNextTurn(t *testing.T) {
	t.Parallel()
	for seed := uint64(1); seed <= 3; seed++ {
		res := play(t, "tictactoe", seed, nil, randomC, "judge/procbot/testdata/after_end.py")
		if p := res.Players[1]; p.Status != judge.OK {
			t.Fatalf("seed %d: %s %s", seed, p.Status, p.Reason)
		}
	}
}

func TestLastValidPlaceSymbolBinds(t *testing.T) {
	t.Parallel()
	res := play(t, "tictactoe", 1, nil, "judge/procbot/testdata/override.py", randomC)
	if p := res.Players[0]; p.Status != judge.OK {
		t.Fatalf("%s %s", p.Status, p.Reason)
	}
	for _, turn := range res.Replay.Turns {
		for _, mv := range turn.Moves {
			if mv.Seat != 0 {
				continue
			}
			if len(mv.Invalid) == 0 {
				t.Errorf("turn %d: no refused command recorded", turn.Turn)
			}
			// The bot's last valid command is the last empty cell in
			// reading order; its trace shows what it sent.
			if len(mv.Move) != 1 || !strings.HasPrefix(mv.Move[0], "PlaceSymbol ") {
				t.Fatalf("turn %d: move %q", turn.Turn, mv.Move)
			}
		}
	}
	// Check the binding move against the transcript: for every #END, the
	// third PlaceSymbol before it is the one applied.
	var sent []string
	for _, l := range res.Replay.Bots[0].Trace {
		if l.Dir == "out" && strings.HasPrefix(l.Line, "PlaceSymbol") {
			sent = append(sent, l.Line)
		}
		if l.Dir == "out" && l.Line == "#END" {
			sent = append(sent, "#END")
		}
	}
	var applied []string
	for _, turn := range res.Replay.Turns {
		for _, mv := range turn.Moves {
			if mv.Seat == 0 {
				applied = append(applied, mv.Move[0])
			}
		}
	}
	var want []string
	var turn []string
	for _, s := range sent {
		if s == "#END" {
			// valid, maybe taken, valid (last empty), off-board
			want = append(want, turn[len(turn)-2])
			turn = nil
			continue
		}
		turn = append(turn, s)
	}
	if strings.Join(applied, ",") != strings.Join(want, ",") {
		t.Errorf("applied %q, want the last valid of each turn %q", applied, want)
	}
}

// TestNoProcessOutlivesMatch: a bot's child is killed with it.
func TestNoProcessOutlivesMatch(t *testing.T) {
	t.Parallel()
	pidfile := filepath.Join(t.TempDir(), "pid")
	// Unsandboxed: a sandboxed bot can neither write the pid file nor
	// show its real pid (sandbox's hostile suite checks that case).
	res := play(t, "tictactoe", 1, func(m *judgetest.Setup) {
		m.Proc.Env = map[string]string{"PIDFILE": pidfile}
		m.Proc.Level = procbot.None
	},
		"judge/procbot/testdata/spawner.py", randomC)
	b, err := os.ReadFile(pidfile)
	if err != nil {
		t.Fatalf("%v; the bot: %s %s", err, res.Players[0].Status, res.Players[0].Reason)
	}
	pid, err := strconv.Atoi(string(b))
	if err != nil {
		t.Fatal(err)
	}
	// The match has killed the bot's process group before it returned:
	// the child is gone, a zombie, on its way out, or has the kill
	// pending (a loaded machine may not have run it since).
	if why := alive(pid); why != "" {
		t.Fatalf("the bot's child %d is alive after the match: %s", pid, why)
	}
}

// alive says why process pid may still run, or "" when it is done for:
// gone, a zombie, exiting, or with SIGKILL pending.
func alive(pid int) string {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return ""
	}
	dir := "/proc/" + strconv.Itoa(pid)
	st, err := os.ReadFile(dir + "/stat")
	if err != nil {
		return "" // reaped meanwhile
	}
	i := bytes.LastIndexByte(st, ')')
	f := strings.Fields(string(st[i+1:])) // state, ppid, … flags is the 7th
	if len(f) < 7 {
		return fmt.Sprintf("stat %q", st)
	}
	if f[0] == "Z" || f[0] == "X" {
		return ""
	}
	const pfExiting = 0x4
	if flags, err := strconv.ParseUint(f[6], 10, 64); err == nil && flags&pfExiting != 0 {
		return ""
	}
	status, err := os.ReadFile(dir + "/status")
	if err != nil {
		return ""
	}
	for _, l := range strings.Split(string(status), "\n") {
		k, v, ok := strings.Cut(l, ":")
		if !ok || k != "SigPnd" && k != "ShdPnd" {
			continue
		}
		if mask, err := strconv.ParseUint(strings.TrimSpace(v), 16, 64); err == nil && mask&(1<<(syscall.SIGKILL-1)) != 0 {
			return ""
		}
	}
	return "state " + f[0] + ", no kill pending"
}

func TestReplayDeterministic(t *testing.T) {
	t.Parallel()
	strip := func(r *judge.Replay) {
		for i := range r.Turns {
			for j := range r.Turns[i].Moves {
				r.Turns[i].Moves[j].WallUS = 0
				r.Turns[i].Moves[j].CPUUS = 0
				r.Turns[i].Moves[j].WaitUS = 0
			}
		}
		for i := range r.Bots {
			for j := range r.Bots[i].Trace {
				r.Bots[i].Trace[j].T = 0
			}
		}
	}
	dir := t.TempDir()
	var files [2][]byte
	for i := range files {
		res := play(t, "gomoku", 42, nil, randomC, randomPy)
		strip(res.Replay)
		path := filepath.Join(dir, "r.json")
		if err := judge.WriteReplay(path, res.Replay); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		files[i] = b
	}
	if string(files[0]) != string(files[1]) {
		t.Errorf("same bots and seed gave different replays")
	}
	// Another seed, another game.
	res := play(t, "gomoku", 43, nil, randomC, randomPy)
	strip(res.Replay)
	other, err := judge.EncodeReplay(res.Replay)
	if err != nil {
		t.Fatal(err)
	}
	if string(other) == string(files[0]) {
		t.Errorf("seeds 42 and 43 gave the same replay")
	}
}

// Each turn's record agrees with what the bot did: its queries are the
// answers in its transcript, its time is measured, and a bot that
// computes shows CPU time.
func TestTimings(t *testing.T) {
	res := play(t, "tictactoe", 1, nil, strong, randomC)
	answers := map[int][]int{} // seat → answers per turn, from the transcript
	for seat, b := range res.Replay.Bots {
		n := 0
		for _, l := range b.Trace {
			switch {
			case l.Dir == "in":
				n++
			case l.Dir == "out" && l.Line == "#END":
				answers[seat] = append(answers[seat], n)
				n = 0
			}
		}
	}
	turns := map[int]int{}
	var cpu [2]int64
	for _, turn := range res.Replay.Turns {
		for _, mv := range turn.Moves {
			k := turns[mv.Seat]
			turns[mv.Seat]++
			if mv.WallUS <= 0 || mv.CPUUS < 0 || mv.CPUUS > 2*mv.WallUS+1000 {
				t.Errorf("turn %d: wall %dµs cpu %dµs", turn.Turn, mv.WallUS, mv.CPUUS)
			}
			if k >= len(answers[mv.Seat]) || mv.Queries != answers[mv.Seat][k] {
				t.Errorf("turn %d, seat %d: %d queries recorded, the transcript has %v", turn.Turn, mv.Seat, mv.Queries, answers[mv.Seat])
			}
			cpu[mv.Seat] += mv.CPUUS
		}
	}
	if cpu[0] == 0 {
		t.Errorf("the strong bot used no CPU in %d turns", turns[0])
	}
}
