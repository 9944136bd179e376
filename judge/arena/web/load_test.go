package web_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"judge/judge/arena"
	"judge/judge/arena/web"
	"judge/judge/judgetest"
)

// TestLoadUploads: 50 entrants upload at once; every upload is taken,
// each under its own ID, each entrant sees their own submission and not
// their neighbour's.
func TestLoadUploads(t *testing.T) {
	if testing.Short() {
		t.Skip("50 uploads at once: skipped with -short")
	}
	const n = 50
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("team%02d", i)
	}
	ta := newArena(t, arena.Config{}, web.Options{}, names...)
	src := source(t, "examples/gomoku/random.c")
	ids := make([]int64, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i, who := range names {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			r := ta.upload(t, ta.tokens[who], "bot.c", src)
			if r.code != http.StatusCreated {
				t.Errorf("%s: %v", who, r)
				return
			}
			var v struct{ ID int64 }
			r.json(t, &v)
			ids[i] = v.ID
		}()
	}
	close(start)
	wg.Wait()
	if t.Failed() {
		return
	}
	seen := map[int64]string{}
	for i, who := range names {
		if other, ok := seen[ids[i]]; ok || ids[i] <= 0 {
			t.Fatalf("%s and %s got the same submission %d", who, other, ids[i])
		}
		seen[ids[i]] = who
	}
	for i, who := range names {
		var s submission
		r := ta.get(t, ta.tokens[who], fmt.Sprint("/api/submissions/", ids[i]))
		r.json(t, &s)
		if r.code != http.StatusOK || s.Status != "queued" {
			t.Errorf("%s's own submission: %v", who, r)
		}
		if r := ta.get(t, ta.tokens[who], fmt.Sprint("/api/submissions/", ids[(i+1)%n])); r.code != http.StatusNotFound {
			t.Errorf("%s reads their neighbour's submission: %v", who, r)
		}
	}
}

// ladderMatches is the length of the ladder BenchmarkLadder plays.
const ladderMatches = 2000

// BenchmarkLadder plays a ladder of 2,000 matches between four random C
// bots submitted through the API, with the page's requests (the
// standings and the latest matches, every 2 s) served meanwhile, then
// the same bots in `judge tournament` with the same jobs for about as
// many matches: in tic-tac-toe (9 moves at most), then in Connect Four
// (42). Metrics: each one's matches a second, their ratio
// (arena over tournament), the database's size at the end (MB, with its
// write-ahead log), the peak of the process's Go heap while the ladder
// played and the process's peak resident set (MB: the arena, its server
// and the test's client together).
func BenchmarkLadder(b *testing.B) {
	judgetest.NeedTools(b, "gcc")
	const jobs = 2
	judgeBin := filepath.Join(b.TempDir(), "judge")
	build := exec.Command("go", "build", "-o", judgeBin, "./cmd/judge")
	build.Dir = judgetest.Root(b)
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	for _, game := range []struct{ name, bot string }{
		{"tictactoe", "examples/gomoku/random.c"},
		{"connect4", "examples/connect4/random.c"},
	} {
		b.Run(game.name, func(b *testing.B) { benchLadder(b, judgeBin, game.name, game.bot, jobs) })
	}
}

// benchLadder is BenchmarkLadder in game, the bots the C source bot.
func benchLadder(b *testing.B, judgeBin, game, bot string, jobs int) {
	src := source(b, bot)
	ref := judgetest.Bot(b, bot)[:1]
	names := []string{"alpha", "beta", "gamma", "delta"}
	var arenaRate, tourRate, dbMB, heapMB []float64
	for i := 0; i < b.N; i++ {
		rate, db, heap := ladder(b, arena.Config{Game: game, References: ref}, names, src, jobs)
		arenaRate, dbMB, heapMB = append(arenaRate, rate), append(dbMB, db), append(heapMB, heap)
		if hwm, ok := peakRSS(); ok {
			b.ReportMetric(hwm, "peak-RSS-MB")
		}
		tourRate = append(tourRate, tournament(b, judgeBin, game, names, src, jobs))
	}
	last := len(arenaRate) - 1
	b.ReportMetric(arenaRate[last], "ladder-matches/s")
	b.ReportMetric(tourRate[last], "tournament-matches/s")
	b.ReportMetric(arenaRate[last]/tourRate[last], "ladder/tournament")
	b.ReportMetric(dbMB[last], "db-MB")
	b.ReportMetric(heapMB[last], "peak-heap-MB")
}

// threads is how many threads the process has, where /proc tells it.
func threads() int {
	ents, _ := os.ReadDir("/proc/self/task")
	return len(ents)
}

// children is how many processes have this one as their parent.
func children() int {
	ents, _ := os.ReadDir("/proc")
	n, me := 0, fmt.Sprint(os.Getpid())
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if f := strings.Fields(string(b[min(len(b), strings.LastIndexByte(string(b), ')')+1):])); err == nil && len(f) > 1 && f[1] == me {
			n++
		}
	}
	return n
}

// peakRSS is the process's peak resident set (VmHWM), in MB, where
// /proc tells it.
func peakRSS() (float64, bool) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, false
	}
	for _, l := range strings.Split(string(b), "\n") {
		var kb float64
		if _, err := fmt.Sscanf(l, "VmHWM: %f kB", &kb); err == nil {
			return kb / 1e3, true
		}
	}
	return 0, false
}

// ladder plays ladderMatches ladder matches in the arena c makes and
// returns their rate, the database's size and the peak heap.
func ladder(b *testing.B, c arena.Config, names []string, src []byte, jobs int) (rate, dbMB, heapMB float64) {
	c.TestMatches, c.LadderGames = 1, 10*ladderMatches
	ta := newArena(b, c, web.Options{}, names...)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- ta.a.Run(ctx, jobs) }()
	ids := map[string]int64{}
	for _, n := range names {
		ids[n] = ta.submitted(b, n, "bot.c", src)
	}
	for _, n := range names {
		ta.waitFor(b, n, ids[n], func(s submission) bool { return s.Status == "active" })
	}
	// The newest match's ID counts the ladder's matches: the test
	// matches are all played by now.
	newest := func() int {
		ms, err := ta.a.Matches(context.Background(), "", 1)
		if err != nil || len(ms) == 0 {
			return 0
		}
		return int(ms[0].ID)
	}
	from := newest()
	var peak uint64
	var ms runtime.MemStats
	start := time.Now()
	page := start
	for newest() < from+ladderMatches {
		runtime.ReadMemStats(&ms)
		peak = max(peak, ms.HeapInuse)
		if time.Since(page) >= 2*time.Second {
			// What an open page asks for.
			page = time.Now()
			ta.get(b, "", "/api/standings")
			ta.get(b, "", "/api/matches")
		}
		time.Sleep(20 * time.Millisecond)
	}
	el := time.Since(start)
	n := newest() - from
	var st struct{ Matches int }
	ta.get(b, "", "/api/standings").json(b, &st)
	if st.Matches < ladderMatches {
		b.Fatalf("the standings count %d ladder matches, %d were played", st.Matches, n)
	}
	cancel()
	if err := <-done; err != nil && ctx.Err() == nil {
		b.Fatal(err)
	}
	var size int64
	var sizes []string
	for _, f := range []string{"arena.db", "arena.db-wal"} {
		if fi, err := os.Stat(filepath.Join(ta.dir, f)); err == nil {
			size += fi.Size()
			sizes = append(sizes, fmt.Sprintf("%s %d bytes", f, fi.Size()))
		}
	}
	b.Logf("ladder: %d matches in %v; %s; peak heap %d bytes; %d goroutines, %d threads and %d child processes after", n, el.Round(time.Millisecond),
		strings.Join(sizes, ", "), peak, runtime.NumGoroutine(), threads(), children())
	return float64(n) / el.Seconds(), float64(size) / 1e6, float64(peak) / 1e6
}

// tournament plays the bots in judge tournament, round robin, for about
// ladderMatches matches, and returns its rate. The bots are built first,
// by a tournament of one round sharing its build cache.
func tournament(b *testing.B, judgeBin, game string, names []string, src []byte, jobs int) float64 {
	dir := judgetest.TempDir(b)
	var bots []string
	for _, n := range names {
		if err := os.MkdirAll(filepath.Join(dir, n), 0o755); err != nil {
			b.Fatal(err)
		}
		p := filepath.Join(dir, n, "bot.c")
		if err := os.WriteFile(p, src, 0o644); err != nil {
			b.Fatal(err)
		}
		bots = append(bots, p)
	}
	perRound := len(names) * (len(names) - 1)
	rounds := (ladderMatches + perRound - 1) / perRound
	cache := filepath.Join(dir, "cache")
	play := func(out string, rounds int) time.Duration {
		args := append([]string{"tournament", "--game", game, "--jobs", fmt.Sprint(jobs),
			"--rounds", fmt.Sprint(rounds), "--seed", "1", "--cache", cache, "--out", filepath.Join(dir, out)}, bots...)
		cmd := exec.Command(judgeBin, args...)
		start := time.Now()
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("judge %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return time.Since(start)
	}
	play("warm", 1)
	el := play("out", rounds)
	n := rounds * perRound
	b.Logf("judge tournament: %d matches in %v", n, el.Round(time.Millisecond))
	return float64(n) / el.Seconds()
}

// BenchmarkUploads50: 50 entrants upload the same C bot at once through
// the API, and the arena builds and tests every upload with 2 jobs.
// Metrics: the uploads a second the server took, and the seconds until
// the 50 submissions were all active.
func BenchmarkUploads50(b *testing.B) {
	judgetest.NeedTools(b, "gcc")
	const n = 50
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("team%02d", i)
	}
	src := source(b, "examples/gomoku/random.c")
	var rate, active float64
	for range b.N {
		ta := newArena(b, arena.Config{}, web.Options{}, names...)
		ids := make([]int64, n)
		var wg sync.WaitGroup
		start := time.Now()
		for i, who := range names {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := ta.upload(b, ta.tokens[who], "bot.c", src)
				var v struct{ ID int64 }
				if r.code != http.StatusCreated || json.Unmarshal(r.body, &v) != nil {
					b.Errorf("%s: %v", who, r)
				}
				ids[i] = v.ID
			}()
		}
		wg.Wait()
		if b.Failed() {
			return
		}
		rate = n / time.Since(start).Seconds()
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- ta.a.Run(ctx, 2) }()
		for i, who := range names {
			ta.waitFor(b, who, ids[i], func(s submission) bool { return s.Status == "active" })
		}
		active = time.Since(start).Seconds()
		cancel()
		if err := <-done; err != nil && ctx.Err() == nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(rate, "uploads/s")
	b.ReportMetric(active, "s-until-all-active")
}

// floodArchive is a .tar.gz that unpacks size bytes, then holds a path
// out of its folder: refused, once unpacked.
func floodArchive(t testing.TB, size int) []byte {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	tw := tar.NewWriter(zw)
	tw.WriteHeader(&tar.Header{Name: "bot/main.c", Typeflag: tar.TypeReg, Mode: 0o644, Size: 1})
	tw.Write([]byte("\n"))
	tw.WriteHeader(&tar.Header{Name: "bot/data.bin", Typeflag: tar.TypeReg, Mode: 0o644, Size: int64(size)})
	tw.Write(make([]byte, size))
	tw.WriteHeader(&tar.Header{Name: "../escape", Typeflag: tar.TypeReg, Mode: 0o644, Size: 1})
	tw.Write([]byte("x"))
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestServesThroughAFlood: eight entrants upload archives that unpack
// megabytes and are refused, over and over, and point web bots at a
// service of the machine's, while two bots play the ladder: the service
// is never asked, the flood is cut off by the refusals' limit, the
// ladder goes on, and another entrant's upload is taken and plays.
func TestServesThroughAFlood(t *testing.T) {
	if testing.Short() {
		t.Skip("a flood of uploads: skipped with -short")
	}
	var asked atomic.Int64
	internal := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked.Add(1)
		w.Write([]byte("secret export"))
	}))
	defer internal.Close()
	names := []string{"alice", "bob", "carol"}
	for i := range 8 {
		names = append(names, fmt.Sprintf("flood%d", i))
	}
	ta := newArena(t, arena.Config{TestMatches: 1, LadderGames: 100000}, web.Options{}, names...)
	src := source(t, "examples/gomoku/random.c")
	ta.submitted(t, "alice", "bot.c", src)
	ta.submitted(t, "bob", "bot.c", append(append([]byte{}, src...), "/* bob */\n"...))
	ta.run(t, 2)
	ladder := func() int {
		n, _, err := ta.a.Standings(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	waitUntil(t, "ladder matches", func() bool { return ladder() >= 2 })

	bomb := floodArchive(t, 2<<20)
	codes := make([]map[int]int, 8)
	var wg sync.WaitGroup
	for i := range 8 {
		codes[i] = map[int]int{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			tok := ta.tokens[fmt.Sprintf("flood%d", i)]
			for range 25 {
				codes[i][ta.upload(t, tok, "bot.tar.gz", bomb).code]++
				codes[i][ta.upload(t, tok, "", nil, "url", internal.URL+"/admin/export").code]++
			}
		}()
	}
	// Meanwhile carol's bot is taken.
	carol := ta.submitted(t, "carol", "bot.c", append(append([]byte{}, src...), "/* carol */\n"...))
	wg.Wait()
	during := ladder()
	for i, c := range codes {
		// 20 refused (400), then refused unread (429).
		if c[http.StatusBadRequest] != 20 || c[http.StatusTooManyRequests] != 30 {
			t.Errorf("flood%d: answers %v, want 20 × 400 and 30 × 429", i, c)
		}
	}
	ta.waitFor(t, "carol", carol, func(s submission) bool { return s.Status == "active" })
	waitUntil(t, "ladder matches after the flood", func() bool { return ladder() >= during+3 })
	if n := asked.Load(); n != 0 {
		t.Errorf("the machine's own service was asked %d times", n)
	}
	// Nothing of the flood is left on disk.
	ents, err := os.ReadDir(filepath.Join(ta.dir, "submissions"))
	if err != nil {
		t.Fatal(err)
	}
	if len(ents) != 3 {
		t.Errorf("submissions/ holds %d entries after the flood, want alice's, bob's and carol's", len(ents))
	}
}

// waitUntil polls cond until it holds, failing after two minutes.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited in vain for %s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
