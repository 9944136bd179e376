package judge

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"judge/games"
)

// ReplayVersion is the version of the replay format this judge writes.
// Readers refuse other versions.
const ReplayVersion = 1

// Replay is the record of one match: enough to watch it again, to check
// it, and to see what each bot did and when. Apart from the timing fields
// (wall_us, cpu_us, wait_us, trace times) the same bots and seed give the same
// replay.
type Replay struct {
	Version int    `json:"version"`
	Game    string `json:"game"`
	// GameHash is a plugin game's: the SHA-256 of its game.toml and
	// referee, which replaying the match needs the same.
	GameHash string        `json:"game_hash,omitempty"`
	Params   games.Params  `json:"params"`
	Seed     uint64        `json:"seed"`
	IO       string        `json:"io,omitempty"`      // replays of older judges: the bots' stdout
	Sandbox  string        `json:"sandbox,omitempty"` // the protection of the first seat (see ReplayBot.Sandbox)
	Bots     []ReplayBot   `json:"bots"`
	Turns    []ReplayTurn  `json:"turns"`
	Outcome  ReplayOutcome `json:"outcome"`
}

// ReplayBot is one seat's bot.
type ReplayBot struct {
	Name        string      `json:"name"`
	Command     []string    `json:"command"`
	SHA256      string      `json:"sha256"`
	Sandbox     string      `json:"sandbox,omitempty"`      // the protection it ran under
	Stderr      string      `json:"stderr,omitempty"`       // the kept tail of its stderr
	StderrBytes int64       `json:"stderr_bytes,omitempty"` // all it wrote there
	Trace       []TraceLine `json:"trace,omitempty"`        // with --trace: every line in and out
}

// TraceLine is one protocol line: "out" from the bot, "in" to it (an
// answer may span several lines), at T microseconds from the match start;
// or "cut": what the trace's caps left out of a turn.
type TraceLine struct {
	T    int64  `json:"t_us"`
	Dir  string `json:"dir"`
	Line string `json:"line"`
}

// ReplayTurn is one turn: the move of every seat that moved.
type ReplayTurn struct {
	Turn  int        `json:"turn"`
	Moves []TurnMove `json:"moves"`
}

// TurnMove is one seat's part of a turn.
type TurnMove struct {
	Seat    int        `json:"seat"`
	Move    games.Move `json:"move"`              // the commands applied; null when the seat failed
	Invalid []string   `json:"invalid,omitempty"` // commands refused during the turn, with why
	Queries int        `json:"queries"`
	WallUS  int64      `json:"wall_us"`
	CPUUS   int64      `json:"cpu_us"`
	// WaitUS is the part of WallUS the machine kept the player waiting
	// (for a CPU, for the judge): not counted against its time limit.
	WaitUS int64  `json:"wait_us,omitempty"`
	Status Status `json:"status"`
	Reason string `json:"reason,omitempty"`
	// With a time bank: what is left of it after the turn.
	BankUS int64 `json:"bank_us,omitempty"`
	// The turn ran past its limit and the bank, on an allowed overrun.
	Overrun bool `json:"overrun,omitempty"`
	// With --trace: what the seat wrote on its stderr during the turn
	// (within the trace's caps), and how many bytes of it were not kept.
	Stderr    string `json:"stderr,omitempty"`
	StderrCut int64  `json:"stderr_cut,omitempty"`
}

// ReplayOutcome is how the match ended.
type ReplayOutcome struct {
	Winner  int            `json:"winner"`
	Reason  string         `json:"reason"`
	Players []PlayerResult `json:"players"`
}

// EncodeReplay is the file form of a replay: indented JSON, one final
// newline.
func EncodeReplay(r *Replay) ([]byte, error) {
	b, err := json.MarshalIndent(r, "", " ")
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	return append(b, '\n'), nil
}

// ErrStandings is ReadReplay's error for a tournament's standings file.
var ErrStandings = errors.New("not a replay: a tournament's standings file; 'judge serve DIR' shows a tournament's standings and its replays, which are in DIR/replays/")

// notReplay says what a JSON file without a replay's version is.
func notReplay(data []byte) error {
	var keys map[string]json.RawMessage
	_ = json.Unmarshal(data, &keys)
	has := func(k string) bool { _, ok := keys[k]; return ok }
	switch {
	case has("standings") && has("format"):
		return ErrStandings
	case has("players") && has("winner"):
		return errors.New("not a replay: a match's result (judge match --json); 'judge match --replay FILE' writes the replay")
	}
	return fmt.Errorf("not a replay: it has no replay version (a replay has \"version\": %d, \"game\", \"turns\"…; 'judge match --replay FILE' writes one)", ReplayVersion)
}

// WriteReplay writes r to path atomically: a reader never sees half a file.
func WriteReplay(path string, r *Replay) error {
	b, err := EncodeReplay(r)
	if err != nil {
		return err
	}
	if err := WriteFileAtomic(path, b, 0o644); err != nil {
		return fmt.Errorf("replay: %w", err)
	}
	return nil
}

// ReadReplay reads a replay and checks its version. A file that is no
// replay says what it looks like instead.
func ReadReplay(r io.Reader) (*Replay, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	// The version first: a file that has none is not a replay, whatever
	// else it holds.
	var v struct {
		Version int `json:"version"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	switch v.Version {
	case 0:
		return nil, notReplay(data)
	case ReplayVersion:
	default:
		return nil, fmt.Errorf("replay: version %d, this judge reads version %d", v.Version, ReplayVersion)
	}
	var rp Replay
	if err := json.Unmarshal(data, &rp); err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	if rp.Game == "" {
		return nil, errors.New("replay: no game")
	}
	return &rp, nil
}
