package othello_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"judge/judge/refereetest"
)

// bot is an example bot running, spoken to in the line protocol.
type bot struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Scanner
}

func startBot(t *testing.T, seed int, argv ...string) *bot {
	t.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), fmt.Sprintf("JUDGE_SEED=%d", seed))
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return &bot{cmd: cmd, in: in, out: bufio.NewScanner(out)}
}

// turn serves one turn of seat's bot, as the judge does: queries answered
// at once from the referee, commands passed to it, the move committed at
// #END. It returns apply's response: the status.
func turn(t *testing.T, ref *refereetest.Referee, b *bot, seat int) string {
	t.Helper()
	var resp string
	call := func(req map[string]any) map[string]any {
		q, _ := json.Marshal(req)
		var err error
		if resp, err = ref.Call(string(q)); err != nil {
			t.Fatal(err)
		}
		var v map[string]any
		if err := json.Unmarshal([]byte(resp), &v); err != nil || v["error"] != nil {
			t.Fatalf("%s: %s (%v)", q, resp, err)
		}
		return v
	}
	call(map[string]any{"op": "orders", "seat": seat})
	for b.out.Scan() {
		line := b.out.Text()
		if line == "#END" {
			v := call(map[string]any{"op": "commit", "seat": seat})
			if v["move"] == nil {
				t.Fatalf("seat %d: an illegal turn: %v", seat, v["invalid"])
			}
			call(map[string]any{"op": "apply", "moves": []any{map[string]any{"seat": seat, "move": v["move"]}}})
			return resp
		}
		v := call(map[string]any{"op": "query", "seat": seat, "line": line})
		if a, ok := v["answer"].(string); ok {
			fmt.Fprintln(b.in, a)
			continue
		}
		v = call(map[string]any{"op": "command", "seat": seat, "line": line})
		if v["unknown"] != nil || v["invalid"] != nil {
			t.Fatalf("seat %d: %q: %v", seat, line, v)
		}
	}
	t.Fatalf("seat %d: the bot stopped: %v", seat, b.out.Err())
	return ""
}

// TestBotsPlayToTheEnd plays the example bots against each other through
// the Python referee, served as the judge serves bots: both play legal
// moves (and pass when they must) to the end, and exit when their input
// closes. (Turning over the most discs is a weak strategy in Othello:
// greedy beats random in about 60% of games, too few to assert over ten.)
func TestBotsPlayToTheEnd(t *testing.T) {
	for _, tool := range []string{"python3", "gcc", "stdbuf"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skip("no " + tool)
		}
	}
	greedy := filepath.Join(t.TempDir(), "greedy")
	if out, err := exec.Command("gcc", "-O2", "-o", greedy, "greedy.c").CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s", err, out)
	}
	ref, err := refereetest.Start(context.Background(), "../games/othello", "python3", "referee.py")
	if err != nil {
		t.Fatal(err)
	}
	defer ref.Close()
	const games = 10
	wins := 0
	for seed := 1; seed <= games; seed++ {
		greedySeat := seed % 2
		bots := make([]*bot, 2)
		// The judge makes the bots' output line-buffered; over a bare
		// pipe, stdbuf and python3 -u do.
		bots[greedySeat] = startBot(t, seed, "stdbuf", "-oL", greedy)
		bots[1-greedySeat] = startBot(t, seed, "python3", "-u", "random_bot.py")
		resp, err := ref.Call(fmt.Sprintf(`{"op":"new","params":{"size":8},"seed":%d}`, seed))
		if err != nil {
			t.Fatal(err)
		}
		for seat := 0; ; seat = 1 - seat {
			var st struct {
				Status struct {
					Movers []int
					Over   bool
					Winner int
					Reason string
				}
			}
			if err := json.Unmarshal([]byte(resp), &st); err != nil {
				t.Fatal(err)
			}
			if st.Status.Over {
				t.Logf("seed %d: greedy is seat %d; winner %d: %s", seed, greedySeat, st.Status.Winner, st.Status.Reason)
				if st.Status.Winner == greedySeat {
					wins++
				}
				break
			}
			if !strings.Contains(resp, fmt.Sprintf(`"movers":[%d]`, seat)) {
				t.Fatalf("seat %d expected to move: %s", seat, resp)
			}
			resp = turn(t, ref, bots[seat], seat)
		}
		for _, b := range bots {
			b.in.Close()
			if err := b.cmd.Wait(); err != nil {
				t.Errorf("a bot did not exit cleanly at the end: %v", err)
			}
		}
	}
	t.Logf("greedy won %d of %d games", wins, games)
}
