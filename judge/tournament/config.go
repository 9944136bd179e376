package tournament

import (
	"fmt"
	"strconv"
	"strings"

	"judge/games"
	"judge/judge/config"
)

// Config is a tournament file (configs/tournament-*.toml): a match
// configuration (game, [params], [limits], [bots]) and a [tournament]
// table.
//
//	game = "tictactoe"
//	[limits]
//	turn = "1s"
//	[tournament]
//	format = "roundrobin"   # roundrobin, gauntlet, swiss or groups
//	rounds = 4              # every pair plays both seat orders each round (1 to MaxRounds)
//	games = 500             # groups: at least this many games in all (the Splix runner's "iterations")
//	seed = 1
//	jobs = 2                # matches at once; 0 = one per CPU
//	out = "../results/tictactoe" # paths: from the file's folder
//	cache = ""              # build cache; default OUT/cache
//	test_bot = ""           # only matches with this bot (gauntlet: the bot against the field)
//	group_size = 5          # groups: players per match
//	bots = ["../examples/gomoku/random.c", "python3 ../examples/gomoku/random_bot.py"]
//	bots_dir = ""           # every bot in this directory too
//	languages = "languages.toml"
type Config struct {
	config.File
	Tournament Settings `toml:"tournament"`
}

// Settings is the [tournament] table.
type Settings struct {
	Format    string   `toml:"format"`
	Rounds    int      `toml:"rounds"`
	Games     int      `toml:"games"`
	Seed      *uint64  `toml:"seed"`
	Jobs      int      `toml:"jobs"`
	Out       string   `toml:"out"`
	Cache     string   `toml:"cache"`
	TestBot   string   `toml:"test_bot"`
	GroupSize int      `toml:"group_size"`
	Bots      []string `toml:"bots"`
	BotsDir   string   `toml:"bots_dir"`
	Languages string   `toml:"languages"`
}

// LoadConfig reads a tournament file strictly: unknown keys and values of
// the wrong type are errors naming the file and line. Its paths are
// resolved from the file's folder (resolvePaths).
func LoadConfig(path string) (*Config, error) {
	c := &Config{}
	if err := config.Decode(path, c); err != nil {
		return nil, err
	}
	if err := c.File.Check(path); err != nil {
		return nil, err
	}
	c.Tournament.resolvePaths(path)
	t := c.Tournament
	if t.Format != "" {
		if _, err := ParseFormat(t.Format); err != nil {
			return nil, fmt.Errorf("%s: tournament.format: %w", path, err)
		}
	}
	values := map[string]int{"rounds": t.Rounds, "games": t.Games, "jobs": t.Jobs, "group_size": t.GroupSize}
	for _, k := range Counts {
		if err := k.Check(&c.File, path, int64(values[k.Key])); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// resolvePaths resolves the table's paths from the folder of the file
// at path (config.Path, config.BotPath): out, cache, bots_dir, languages,
// the bots and test_bot (a name is left as it is).
func (t *Settings) resolvePaths(path string) {
	for _, p := range []*string{&t.Out, &t.Cache, &t.BotsDir, &t.Languages} {
		*p = config.Path(path, *p)
	}
	t.TestBot = config.BotPath(path, t.TestBot)
	for i, b := range t.Bots {
		t.Bots[i] = config.BotPath(path, b)
	}
}

// The most a tournament may ask for. Its whole schedule is drawn before
// the first match (but Swiss rounds), so its size is bounded: a count past
// these is an error, in a file or on the command line.
const (
	MaxRounds    = 100_000
	MaxGames     = 1_000_000
	MaxMatches   = 1_000_000 // in the whole schedule, every shard's
	MaxJobs      = 1024
	MaxGroupSize = 1024
)

// Counts are the [tournament] table's counts and their ranges; the
// command line checks its flags against the same. A 0 is an error where
// the flag refuses it too (rounds, games, group_size); jobs = 0 is one
// match per CPU, as --jobs 0.
var Counts = []config.Count{
	{Table: "tournament", Key: "rounds", Min: 1, Max: MaxRounds},
	{Table: "tournament", Key: "games", Min: 1, Max: MaxGames},
	{Table: "tournament", Key: "jobs", Min: 0, Max: MaxJobs},
	{Table: "tournament", Key: "group_size", Min: 1, Max: MaxGroupSize},
}

// Shard is a deterministic share of a tournament's matches: those whose
// position in the schedule is Index modulo Count. The zero Shard is the
// whole tournament.
type Shard struct {
	Index int `json:"index"`
	Count int `json:"count"`
}

// ParseShard reads "i/n" with 0 <= i < n.
func ParseShard(s string) (Shard, error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(strings.TrimSpace(a))
	n, err2 := strconv.Atoi(strings.TrimSpace(b))
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return Shard{}, fmt.Errorf("shard %q: want i/n with 0 <= i < n, such as 0/4", s)
	}
	return Shard{Index: i, Count: n}, nil
}

func (s Shard) String() string {
	if s.Count <= 1 {
		return "all"
	}
	return fmt.Sprintf("%d/%d", s.Index, s.Count)
}

// has reports whether the fixture at position i of the schedule is in the
// shard.
func (s Shard) has(i int) bool { return s.Count <= 1 || i%s.Count == s.Index }

// seatsOf says how many players a match of the game may have: a range
// when the game has a "players" (or "seats") parameter, else the number
// the game says it always has (games.SeatRanger), else the number its
// states have.
func seatsOf(g games.Game, name string, p games.Params) (lo, hi int, param string, err error) {
	for _, s := range g.Params() {
		if s.Name == "players" || s.Name == "seats" {
			return s.Min, s.Max, s.Name, nil
		}
	}
	if r, ok := g.(games.SeatRanger); ok {
		if lo, hi := r.SeatRange(); lo == hi {
			return lo, hi, "", nil
		}
	}
	st, err := g.New(p, 0)
	if err != nil {
		return 0, 0, "", fmt.Errorf("%s: %w", name, err)
	}
	defer games.Close(st)
	return st.Seats(), st.Seats(), "", nil
}
