package tournament

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func names(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("bot%d", i)
	}
	return out
}

func TestRoundRobinEveryPairAndSeatOncePerRound(t *testing.T) {
	for n := 2; n <= 7; n++ {
		p := Plan{Format: RoundRobin, Names: names(n), Rounds: 3, Seed: 1, TestBot: -1}
		sched, err := p.Schedule()
		if err != nil {
			t.Fatal(err)
		}
		if got, want := len(sched), 3*n*(n-1); got != want {
			t.Fatalf("n=%d: %d fixtures, want %d", n, got, want)
		}
		seen := map[string]bool{}
		count := map[[3]int]int{}
		for i, f := range sched {
			if f.Index != i {
				t.Errorf("fixture %d has index %d", i, f.Index)
			}
			if seen[f.ID] {
				t.Errorf("duplicate id %s", f.ID)
			}
			seen[f.ID] = true
			if len(f.Seats) != 2 || f.Seats[0] == f.Seats[1] {
				t.Fatalf("bad seats %v", f.Seats)
			}
			count[[3]int{f.Round, f.Seats[0], f.Seats[1]}]++
		}
		for r := 1; r <= 3; r++ {
			for a := 0; a < n; a++ {
				for b := 0; b < n; b++ {
					if a == b {
						continue
					}
					if c := count[[3]int{r, a, b}]; c != 1 {
						t.Errorf("n=%d round %d: %d as seat 0 against %d: %d times, want 1", n, r, a, b, c)
					}
				}
			}
		}
	}
}

func TestGauntletIsTheTestBotAgainstTheField(t *testing.T) {
	p := Plan{Format: Gauntlet, Names: names(5), Rounds: 2, Seed: 1, TestBot: 2}
	sched, err := p.Schedule()
	if err != nil {
		t.Fatal(err)
	}
	if len(sched) != 2*4*2 {
		t.Fatalf("%d fixtures, want 16", len(sched))
	}
	count := map[[3]int]int{}
	for _, f := range sched {
		if f.Seats[0] != 2 && f.Seats[1] != 2 {
			t.Errorf("%s does not involve the test bot", f.ID)
		}
		count[[3]int{f.Round, f.Seats[0], f.Seats[1]}]++
	}
	for r := 1; r <= 2; r++ {
		for o := 0; o < 5; o++ {
			if o == 2 {
				continue
			}
			if count[[3]int{r, 2, o}] != 1 || count[[3]int{r, o, 2}] != 1 {
				t.Errorf("round %d: test bot vs %d not played once in each seat order", r, o)
			}
		}
	}
	if _, err := (Plan{Format: Gauntlet, Names: names(3), Rounds: 1, TestBot: -1}).Schedule(); err == nil {
		t.Error("gauntlet without a test bot: no error")
	}
}

func TestGroupsEqualParticipation(t *testing.T) {
	for n := 2; n <= 12; n++ {
		for k := 2; k <= min(5, n); k++ {
			for _, tb := range []int{-1, 0} {
				if tb >= 0 && (k < 3 || n < 3) {
					continue
				}
				p := Plan{Format: Groups, Names: names(n), Rounds: 2, Seed: uint64(n*10 + k), TestBot: tb, GroupSize: k}
				sched, err := p.Schedule()
				if err != nil {
					t.Fatalf("n=%d k=%d: %v", n, k, err)
				}
				games, each := GroupsPerRound(n, k, tb)
				if len(sched) != 2*games {
					t.Fatalf("n=%d k=%d tb=%d: %d games, want %d", n, k, tb, len(sched), 2*games)
				}
				played := make([]int, n)
				ids := map[string]bool{}
				for _, f := range sched {
					if ids[f.ID] {
						t.Fatalf("duplicate id %s", f.ID)
					}
					ids[f.ID] = true
					if len(f.Seats) != k {
						t.Fatalf("group of %d, want %d", len(f.Seats), k)
					}
					in := map[int]bool{}
					for _, s := range f.Seats {
						if in[s] {
							t.Fatalf("n=%d k=%d: bot %d twice in %v", n, k, s, f.Seats)
						}
						in[s] = true
						played[s]++
					}
					if tb >= 0 && !in[tb] {
						t.Fatalf("test bot not in %v", f.Seats)
					}
				}
				for b, c := range played {
					want := 2 * each
					if b == tb {
						want = 2 * games
					}
					if c != want {
						t.Errorf("n=%d k=%d tb=%d: bot %d played %d games, want %d", n, k, tb, b, c, want)
					}
				}
			}
		}
	}
}

func TestGroupRoundIsRandomButSeeded(t *testing.T) {
	a, _ := GroupRound(7, 5, -1, rand.New(rand.NewPCG(1, 2)))
	b, _ := GroupRound(7, 5, -1, rand.New(rand.NewPCG(1, 2)))
	c, _ := GroupRound(7, 5, -1, rand.New(rand.NewPCG(3, 4)))
	if !reflect.DeepEqual(a, b) {
		t.Error("same seed, different groups")
	}
	if reflect.DeepEqual(a, c) {
		t.Error("different seeds, same groups")
	}
}

func TestSwissPairings(t *testing.T) {
	for _, n := range []int{2, 4, 5, 8, 9} {
		p := Plan{Format: Swiss, Names: names(n), Rounds: n - 1 + n%2, Seed: 7, TestBot: -1}
		points := make([]float64, n)
		byes := make([]int, n)
		met := map[[2]int]bool{}
		r := rand.New(rand.NewPCG(1, 1))
		for round := 1; round <= p.Rounds; round++ {
			fix, bye := p.SwissRound(round, points, met, byes)
			if got, want := len(fix), n/2*2; got != want {
				t.Fatalf("n=%d round %d: %d fixtures, want %d", n, round, got, want)
			}
			if (bye >= 0) != (n%2 == 1) {
				t.Fatalf("n=%d: bye %d", n, bye)
			}
			if bye >= 0 {
				if byes[bye] > 0 {
					t.Errorf("n=%d round %d: second bye for %d", n, round, bye)
				}
				byes[bye]++
				points[bye]++
			}
			playing := map[int]int{}
			for i := 0; i < len(fix); i += 2 {
				a, b := fix[i].Seats, fix[i+1].Seats
				if a[0] != b[1] || a[1] != b[0] {
					t.Fatalf("pairing %v %v does not swap seats", a, b)
				}
				playing[a[0]]++
				playing[a[1]]++
				// With n-1 rounds a rematch-free pairing always exists
				// for these sizes; the top-down search finds one.
				if met[pairKey(a[0], a[1])] {
					t.Errorf("n=%d round %d: rematch %v", n, round, a)
				}
				met[pairKey(a[0], a[1])] = true
				// A random result.
				switch r.IntN(3) {
				case 0:
					points[a[0]] += 2
				case 1:
					points[a[1]] += 2
				default:
					points[a[0]]++
					points[a[1]]++
				}
			}
			for b := 0; b < n; b++ {
				want := 1
				if b == bye {
					want = 0
				}
				if playing[b] != want {
					t.Errorf("n=%d round %d: bot %d plays %d times", n, round, b, playing[b])
				}
			}
		}
	}
}

func TestSwissPairsEqualScores(t *testing.T) {
	p := Plan{Format: Swiss, Names: names(4), Rounds: 2, Seed: 3, TestBot: -1}
	// After round 1, bots 0 and 2 won; 1 and 3 lost. Round 2 pairs the
	// winners together and the losers together.
	points := []float64{2, 0, 2, 0}
	met := map[[2]int]bool{{0, 1}: true, {2, 3}: true}
	fix, _ := p.SwissRound(2, points, met, make([]int, 4))
	got := map[[2]int]bool{}
	for _, f := range fix {
		got[pairKey(f.Seats[0], f.Seats[1])] = true
	}
	if !got[[2]int{0, 2}] || !got[[2]int{1, 3}] {
		t.Errorf("pairs %v, want {0,2} and {1,3}", got)
	}
}

func TestSeedsAreDeterministicAndDistinct(t *testing.T) {
	p := Plan{Format: RoundRobin, Names: names(4), Rounds: 2, Seed: 42, TestBot: -1}
	a, _ := p.Schedule()
	b, _ := p.Schedule()
	seeds := map[uint64]string{}
	for i := range a {
		if a[i].Seed(42) != b[i].Seed(42) {
			t.Fatalf("%s: seed differs between two draws", a[i].ID)
		}
		if other, dup := seeds[a[i].Seed(42)]; dup {
			t.Errorf("%s and %s share a seed", a[i].ID, other)
		}
		seeds[a[i].Seed(42)] = a[i].ID
		if a[i].Seed(42) == a[i].Seed(43) {
			t.Errorf("%s: the tournament seed does not change the match seed", a[i].ID)
		}
		if a[i].Seed(42) >= 1<<63 {
			t.Errorf("seed over 63 bits")
		}
	}
	// A match's seed depends only on its identity: the same match in a
	// larger tournament has the same seed.
	big := Plan{Format: RoundRobin, Names: names(6), Rounds: 3, Seed: 42, TestBot: -1}
	bs, _ := big.Schedule()
	bySeed := map[string]uint64{}
	for _, f := range bs {
		bySeed[f.ID] = f.Seed(42)
	}
	for _, f := range a {
		if bySeed[f.ID] != f.Seed(42) {
			t.Errorf("%s: seed changed with the tournament's size", f.ID)
		}
	}
}

func TestShardsPartitionTheSchedule(t *testing.T) {
	p := Plan{Format: RoundRobin, Names: names(5), Rounds: 2, Seed: 1, TestBot: -1}
	sched, _ := p.Schedule()
	for n := 1; n <= 4; n++ {
		count := make([]int, len(sched))
		for i := 0; i < n; i++ {
			s := Shard{Index: i, Count: n}
			for _, f := range sched {
				if s.has(f.Index) {
					count[f.Index]++
				}
			}
		}
		for i, c := range count {
			if c != 1 {
				t.Errorf("n=%d: fixture %d in %d shards", n, i, c)
			}
		}
	}
	for _, bad := range []string{"", "1", "2/2", "-1/3", "a/b", "0/0"} {
		if _, err := ParseShard(bad); err == nil {
			t.Errorf("ParseShard(%q): no error", bad)
		}
	}
	if s, err := ParseShard("1/4"); err != nil || s != (Shard{1, 4}) {
		t.Errorf("ParseShard(1/4) = %v, %v", s, err)
	}
}

func TestFixtureIDsNameTheMatch(t *testing.T) {
	got := fixtureID(3, 0, []string{"bot A", "b/c"}, []int{0, 1})
	if want := "r003-bot_A-vs-b_c"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	got = fixtureID(2, 4, []string{"a", "b", "c"}, []int{2, 0, 1})
	if want := "r002-g004-c-vs-a-vs-b"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestScheduleSize: Size counts the fixtures Schedule draws, and a plan
// past MaxMatches is refused before anything is drawn, however many
// rounds it asks for.
func TestScheduleSize(t *testing.T) {
	for _, p := range []Plan{
		{Format: RoundRobin, Names: names(2), Rounds: 1, TestBot: -1},
		{Format: RoundRobin, Names: names(5), Rounds: 3, TestBot: -1},
		{Format: RoundRobin, Names: names(5), Rounds: 3, TestBot: 2},
		{Format: Gauntlet, Names: names(4), Rounds: 2, TestBot: 0},
		{Format: Groups, Names: names(7), Rounds: 3, TestBot: -1, GroupSize: 3},
		{Format: Groups, Names: names(7), Rounds: 2, TestBot: 1, GroupSize: 4},
	} {
		sched, err := p.Schedule()
		if err != nil {
			t.Fatalf("%+v: %v", p, err)
		}
		if len(sched) != p.Size() {
			t.Errorf("%s, %d bots, %d rounds: Size %d, Schedule drew %d", p.Format, len(p.Names), p.Rounds, p.Size(), len(sched))
		}
	}
	for _, p := range []Plan{
		{Format: RoundRobin, Names: names(2), Rounds: MaxMatches/2 + 1, TestBot: -1},
		{Format: RoundRobin, Names: names(3), Rounds: 99999999999, TestBot: -1},
		{Format: RoundRobin, Names: names(3), Rounds: math.MaxInt, TestBot: -1},
		{Format: Groups, Names: names(10), Rounds: 99999999999, TestBot: -1, GroupSize: 5},
	} {
		sched, err := p.Schedule()
		if err == nil || len(sched) != 0 || !strings.Contains(err.Error(), "more than the 1000000 a tournament may have") {
			t.Errorf("%s, %d rounds: %d fixtures, error %v; want none and an error", p.Format, p.Rounds, len(sched), err)
		}
	}
	p := Plan{Format: RoundRobin, Names: names(2), Rounds: MaxMatches / 2, TestBot: -1}
	if p.Size() != MaxMatches || p.checkSize() != nil {
		t.Errorf("%d rounds of 2 bots: Size %d, %v; want %d matches, allowed", p.Rounds, p.Size(), p.checkSize(), MaxMatches)
	}
}

// TestConfigCounts: a count of the [tournament] table is between its
// minimum and maximum when the file gives it; a 0 is an error where the
// command line refuses it too.
func TestConfigCounts(t *testing.T) {
	for _, c := range []struct {
		text, err string
	}{
		{"rounds = 3\ngames = 10\njobs = 0\ngroup_size = 4", ""},
		{"", ""},
		{"rounds = 0", ":3: tournament.rounds = 0: want 1 to 100000 (leave the key out for the default)"},
		{"rounds = 99999999999", ":3: tournament.rounds = 99999999999: want 1 to 100000"},
		{"rounds = -1", ":3: tournament.rounds = -1: want 1 to 100000"},
		{"games = 0", ":3: tournament.games = 0: want 1 to 1000000"},
		{"games = 99999999999", ":3: tournament.games = 99999999999: want 1 to 1000000"},
		{"group_size = 0", ":3: tournament.group_size = 0"},
		{"jobs = -1", ":3: tournament.jobs = -1: want 0 to 1024"},
		{"jobs = 100000", ":3: tournament.jobs = 100000: want 0 to 1024"},
	} {
		path := filepath.Join(t.TempDir(), "t.toml")
		if err := os.WriteFile(path, []byte("game = \"tictactoe\"\n[tournament]\n"+c.text+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := LoadConfig(path)
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%q: %v", c.text, err)
		case c.err != "" && (err == nil || err.Error() != path+c.err && !strings.HasPrefix(err.Error(), path+c.err)):
			t.Errorf("%q: error %v, want %s%s", c.text, err, path, c.err)
		}
	}
}
