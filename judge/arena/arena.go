// Package arena is a contest that runs by itself: entrants submit bots
// at any time, each built submission plays a few test matches against
// the reference bots, then a ladder that keeps playing the pairs whose
// result tells the most about the ratings. The organiser freezes
// submissions and plays a final round robin of the active submissions,
// the same as judge tournament plays.
//
// An arena is one directory: arena.toml (its settings), arena.db (a
// SQLite database: entrants, submissions, matches), submissions/ (the
// uploaded files), builds/ (the build cache), replays/ and refs/ (the
// reference bots).
package arena

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/BurntSushi/toml"

	"judge/games/catalog"
	"judge/judge"
	"judge/judge/bots"
	"judge/judge/httpbot"
	"judge/judge/play"
	"judge/judge/procbot"
)

// Errors of the arena's callers; the web API maps each to a status.
var (
	ErrUnauthorized = errors.New("unauthorized")
	ErrNotFound     = errors.New("not found")
	ErrTooLarge     = errors.New("upload too large")
	ErrRateLimited  = errors.New("too many submissions: try again later")
	ErrBadArchive   = errors.New("bad upload")
	ErrFrozen       = errors.New("submissions are closed")
	ErrExists       = errors.New("entrant exists")
)

// Defaults of Config.
const (
	// DefaultTestMatches is the test matches against each reference
	// bot: one in each seat of a two-seat game.
	DefaultTestMatches        = 2
	DefaultMaxUploadBytes     = 1 << 20
	DefaultSubmissionsPerHour = 20
	DefaultRefusedPerHour     = 20
	DefaultReplayBudgetMB     = 2048
	// DefaultStderrBytes is the tail of a bot's stderr each replay
	// keeps, unless the match file says otherwise: the arena's replays
	// are public and many.
	DefaultStderrBytes = 8 << 10
	DefaultLadderGames = 1000
)

// Config is how an arena is made (Init); it is kept in DIR/arena.toml.
type Config struct {
	// Game is the game's name, or a plugin game's folder: Init keeps
	// its absolute path, and its hash in GameHash (judge.GameHash), which
	// Open checks.
	Game     string         `toml:"game"`
	GameHash string         `toml:"game_hash,omitempty"`
	Params   map[string]int `toml:"params"`
	// ConfigFile is a match configuration file (TOML: limits, sandbox),
	// copied into DIR as match.toml.
	ConfigFile string `toml:"config"`
	// References are the reference bots (BOT arguments): files and
	// directories are copied into DIR/refs, command lines kept as given.
	References []string `toml:"references"`
	// TestMatches is how many test matches a submission plays against
	// each reference bot, at least one in each seat (default 2).
	TestMatches        int   `toml:"test_matches"`
	MaxUploadBytes     int64 `toml:"max_upload_bytes"`
	SubmissionsPerHour int   `toml:"submissions_per_hour"`
	// RefusedPerHour is how many refused uploads (bad archives, uploads
	// too large) an entrant may make in an hour before its uploads are
	// refused unread (default 20).
	RefusedPerHour int `toml:"refused_per_hour"`
	// LadderGames is how many ladder matches a submission seeks: once
	// every active submission has played as many, the ladder waits for
	// a new one (default 1000).
	LadderGames int `toml:"ladder_games"`
	// ReplayBudgetMB bounds the replays' disk, in MiB (default 2048):
	// past it, the oldest ladder matches' replays are dropped (test
	// matches' are kept), and the page says so.
	ReplayBudgetMB int64 `toml:"replay_budget_mb"`
	// Languages is the languages file that builds submissions; "" is
	// configs/languages.toml where the arena runs, else the built-in one.
	Languages string `toml:"languages"`
	// WebBots are where web bots may be (httpbot.ParsePolicy): networks
	// (10.0.0.0/24), addresses, host names (bots.example.org) and
	// domains (*.example.org). None: the arena takes no web bots.
	WebBots []string `toml:"web_bots,omitempty"`
	// FailingJoinsLadder lets a submission that failed in its test
	// matches (it crashed, timed out, broke the rules) play in the
	// ladder all the same, as failing; by default it does not.
	FailingJoinsLadder bool `toml:"failing_joins_ladder"`
}

func (c *Config) fill() {
	if c.TestMatches <= 0 {
		c.TestMatches = DefaultTestMatches
	}
	if c.MaxUploadBytes <= 0 {
		c.MaxUploadBytes = DefaultMaxUploadBytes
	}
	if c.SubmissionsPerHour <= 0 {
		c.SubmissionsPerHour = DefaultSubmissionsPerHour
	}
	if c.RefusedPerHour <= 0 {
		c.RefusedPerHour = DefaultRefusedPerHour
	}
	if c.LadderGames <= 0 {
		c.LadderGames = DefaultLadderGames
	}
	if c.ReplayBudgetMB <= 0 {
		c.ReplayBudgetMB = DefaultReplayBudgetMB
	}
}

// Participant is a person or team in the arena: an entrant, in its pages,
// commands and tables (not a judge.Entrant, which plays a seat).
type Participant struct {
	ID      int64
	Name    string
	Retired bool
}

// Upload is a submission as it arrives: exactly one of Data (a source
// file, or a .tar, .tar.gz or .zip archive, by FileName) and URL (a web
// bot: http:// or http+json://).
type Upload struct {
	FileName string
	Data     []byte
	URL      string
}

// Statuses of a submission.
const (
	StatusQueued       = "queued"
	StatusBuilding     = "building"
	StatusCompileError = "compile-error"
	StatusTesting      = "testing"
	StatusActive       = "active"
	StatusRetired      = "retired"
	// StatusBenched is a submission the judge failed to build or start
	// however often it tried, or one that built but cannot start (its
	// build names a file that is gone): its log says why. It plays no
	// more; its entrant may submit again.
	StatusBenched = "benched"
	// StatusFailing is a submission that lost test matches by its own
	// fault: it crashed, timed out, or broke the game's rules or the
	// protocol. Its log says which match, which turn, what happened. It
	// plays in the ladder only where the arena lets failing submissions
	// (Config.FailingJoinsLadder); else its entrant's earlier active
	// submission, if any, plays on.
	StatusFailing = "failing"
)

// Submission is one upload of an entrant and what became of it.
type Submission struct {
	ID          int64
	Participant string
	Status      string
	Log         string // the build log: shown to its author only
	Created     time.Time
	Replays     []string // the replays of its test matches
}

// Match is a finished match.
type Match struct {
	ID    int64
	Seed  uint64
	Seats []string // entrant names, or reference bots' names
	// Winner is the winner's seat, -1 for a draw; Result says it in
	// words ("alice won").
	Winner int
	Result string
	Reason string
	Replay string // "" when dropped
	// ReplayDropped says the replay was dropped to keep the arena's
	// replays within their budget.
	ReplayDropped bool
	Test          bool
	Finished      time.Time
}

// Arena is an open arena.
type Arena struct {
	dir  string
	cfg  Config
	db   *sql.DB
	host *procbot.Host   // runs its bots and compilers; its own, closed by Close
	web  *httpbot.Policy // where web bots may be, from cfg.WebBots

	mu sync.Mutex // guards what follows
	// built are the prepared submissions, by id: built once per
	// process.
	built map[int64]*play.Contestant
	// busy counts the ladder matches being played.
	busy playing
	// wake is closed, and replaced, when there is new work: every
	// waiting worker wakes.
	wake chan struct{}

	// unpacking holds a token for each upload being unpacked.
	unpacking chan struct{}

	replayMu    sync.Mutex // guards replayBytes
	replayBytes int64      // the kept replays' bytes, once Run has counted them

	ladderMu sync.Mutex // guards ladder
	ladder   *ladder    // the ladder as last read

	logMu sync.Mutex // guards log
	log   io.Writer  // where Run reports the judge's failures

	stmtMu sync.Mutex           // guards stmts
	stmts  map[string]*sql.Stmt // the statements every match runs, prepared once
}

// Init makes an arena in dir, which must not exist or be empty.
// On error it leaves dir as it found it.
func Init(dir string, c Config) (err error) {
	c.fill()
	if c.Game == "" {
		return errors.New("arena: no game")
	}
	if _, err := httpbot.ParsePolicy(c.WebBots...); err != nil {
		return fmt.Errorf("arena: %w", err)
	}
	ents, rerr := os.ReadDir(dir)
	if rerr == nil && len(ents) > 0 {
		return fmt.Errorf("arena: %s is not empty", dir)
	}
	defer func() {
		if err == nil {
			return
		}
		if rerr != nil {
			os.RemoveAll(dir)
			return
		}
		ents, _ := os.ReadDir(dir)
		for _, e := range ents {
			os.RemoveAll(filepath.Join(dir, e.Name()))
		}
	}()
	// The arena's directory is its owner's alone: the entrants' sources
	// and builds, the tokens' hashes. The builds and the reference bots
	// are open to the sandbox's user (nobody, when the judge runs as
	// root), which is shown them wherever they are, not the folders
	// above.
	for _, d := range []string{"", "submissions", "builds", "replays", "refs"} {
		mode := os.FileMode(0o700)
		if d == "builds" || d == "refs" {
			mode = 0o755
		}
		if err := os.MkdirAll(filepath.Join(dir, d), mode); err != nil {
			return fmt.Errorf("arena: %w", err)
		}
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		return fmt.Errorf("arena: %w", err)
	}
	if c.ConfigFile != "" {
		if err := copyPath(c.ConfigFile, filepath.Join(dir, "match.toml")); err != nil {
			return fmt.Errorf("arena: match configuration: %w", err)
		}
		c.ConfigFile = "match.toml"
	}
	refs, err := copyRefs(dir, c.References)
	if err != nil {
		return err
	}
	c.References = refs
	if c.Languages != "" {
		if c.Languages, err = filepath.Abs(c.Languages); err != nil {
			return fmt.Errorf("arena: %w", err)
		}
	}
	if v, err := catalog.Lookup(c.Game); err == nil && v.Dir != "" {
		c.Game, c.GameHash = v.Dir, judge.GameHash(v.Game)
	}
	a := &Arena{dir: dir, cfg: c}
	if _, err := a.setup(); err != nil {
		return err
	}
	f, err := os.OpenFile(filepath.Join(dir, "arena.toml"), os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return fmt.Errorf("arena: %w", err)
	}
	if err := toml.NewEncoder(f).Encode(c); err != nil {
		f.Close()
		return fmt.Errorf("arena: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("arena: %w", err)
	}
	db, err := openDB(context.Background(), filepath.Join(dir, "arena.db"))
	if err != nil {
		return err
	}
	return db.Close()
}

// copyRefs copies the reference bots that are files or directories into
// dir/refs, and gives the arguments that name them there (relative to
// dir); command lines stay as they are.
func copyRefs(dir string, refs []string) ([]string, error) {
	out := make([]string, len(refs))
	for i, r := range refs {
		if _, err := os.Stat(r); err != nil {
			out[i] = r
			continue
		}
		// Under the path that names it: refs/alice/bot.c is alice.
		rel := filepath.Join("refs", bots.NamingPath(r))
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, rel)), 0o755); err != nil {
			return nil, fmt.Errorf("arena: reference %s: %w", r, err)
		}
		if err := copyPath(r, filepath.Join(dir, rel)); err != nil {
			return nil, fmt.Errorf("arena: reference %s: %w", r, err)
		}
		out[i] = rel
	}
	return out, nil
}

// Open opens the arena in dir.
func Open(ctx context.Context, dir string) (*Arena, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("arena: %w", err)
	}
	a := &Arena{dir: dir, built: map[int64]*play.Contestant{}, wake: make(chan struct{}),
		unpacking: make(chan struct{}, unpackers), host: procbot.NewHost(procbot.HostOptions{})}
	if _, err := toml.DecodeFile(filepath.Join(dir, "arena.toml"), &a.cfg); err != nil {
		return nil, fmt.Errorf("arena: %w", err)
	}
	a.cfg.fill()
	// An arena made by an earlier judge, open to every local user, is
	// closed: only its owner reads its sources and tokens' hashes.
	if err := os.Chmod(dir, 0o700); err != nil {
		return nil, fmt.Errorf("arena: %w", err)
	}
	if a.web, err = httpbot.ParsePolicy(a.cfg.WebBots...); err != nil {
		return nil, fmt.Errorf("arena: %s: %w", filepath.Join(dir, "arena.toml"), err)
	}
	if a.cfg.GameHash != "" {
		if _, err := a.game(); err != nil {
			a.host.Close()
			return nil, err
		}
	}
	db, err := openDB(ctx, filepath.Join(dir, "arena.db"))
	if err != nil {
		return nil, err
	}
	a.db = db
	return a, nil
}

// Close closes the arena's database and ends what its Host keeps.
func (a *Arena) Close() error {
	a.stmtMu.Lock()
	for _, s := range a.stmts {
		s.Close()
	}
	a.stmts = nil
	a.stmtMu.Unlock()
	a.host.Close()
	return a.db.Close()
}

// SetLog sets where Run reports the failures of the judge's own that it
// goes on after (by default, nowhere).
func (a *Arena) SetLog(w io.Writer) {
	a.logMu.Lock()
	defer a.logMu.Unlock()
	a.log = w
}

// logf writes a line on the arena's log.
func (a *Arena) logf(format string, args ...any) {
	a.logMu.Lock()
	defer a.logMu.Unlock()
	if a.log != nil {
		fmt.Fprintf(a.log, format+"\n", args...)
	}
}

// Dir is the arena's directory.
func (a *Arena) Dir() string { return a.dir }

// Config is the arena's configuration, defaults filled in.
func (a *Arena) Config() Config { return a.cfg }

// laddered are the statuses of the submissions that play in the ladder:
// active ones, and failing ones where the arena lets them.
func (a *Arena) laddered() (string, string) {
	if a.cfg.FailingJoinsLadder {
		return StatusActive, StatusFailing
	}
	return StatusActive, StatusActive
}

// notify wakes Run: there is new work.
func (a *Arena) notify() {
	a.mu.Lock()
	defer a.mu.Unlock()
	close(a.wake)
	a.wake = make(chan struct{})
}

// woken is what notify closes next.
func (a *Arena) woken() <-chan struct{} {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.wake
}
