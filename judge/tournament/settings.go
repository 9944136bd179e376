package tournament

import (
	"crypto/sha256"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"judge/judge"
)

// The settings a run records besides the game, its parameters, the
// format, the seed, the bots and the sandbox level: each decides results,
// so a directory is played with one value of each, and shards whose
// values differ are not merged. Their names are those of the
// configuration file's keys.
const (
	SetTurn      = "turn"       // [limits] turn, --turn
	SetFirstTurn = "first_turn" // [limits] first_turn, --first-turn
	SetTurnCPU   = "turn_cpu"   // [limits] turn_cpu, --turn-cpu
	SetBank      = "bank"       // [limits] bank, --bank
	SetIncrement = "increment"  // [limits] increment, --increment
	SetOverruns  = "overruns"   // [limits] overruns, --overruns
	SetGrace     = "grace"      // [limits] grace
	SetOutput    = "output"     // [limits] output_bytes
	SetIO        = "io"         // [bots] io, --io
	SetEnv       = "env"        // [bots] env: NAME=sha256:HASH of each value
	SetMemory    = "memory"     // [sandbox] memory
	SetProcs     = "procs"      // [sandbox] procs
	SetFileSize  = "file_size"  // [sandbox] file_size
	SetOpenFiles = "open_files" // [sandbox] open_files
	SetTmp       = "tmp"        // [sandbox] tmp
	SetWall      = "wall"       // the bots' wall-clock limit (none from the command line)
	SetJudge     = "judge"      // the judge's build: JudgeVersion
)

// BotSettings are how a tournament's bots run, as far as it decides
// results: the one record of it, in plain values (the tournament knows no
// kind of bot), every default filled in by the caller, who runs them
// (judge/bots/contest makes it from the process player's options).
// RunSettings writes it, with the matches' limits, as the run records it.
type BotSettings struct {
	Level     string            // the sandbox level they run at
	IO        string            // "auto", "pty" or "pipe"
	Env       map[string]string // added to their environment
	Memory    int64             // bytes
	Procs     int
	FileSize  int64 // bytes
	OpenFiles int
	Tmp       int64         // bytes of their temporary directory
	Wall      time.Duration // their wall-clock limit; 0 for none
}

// RunSettings are the settings of o that decide results, each as text.
func RunSettings(o *Options) map[string]string {
	l := o.Match.Limits
	sb := o.BotSettings
	// The environment's values may be secrets (a key for a service):
	// each is recorded by a hash of it.
	var env []string
	for _, k := range slices.Sorted(maps.Keys(sb.Env)) {
		sum := sha256.Sum256([]byte(sb.Env[k]))
		env = append(env, fmt.Sprintf("%s=sha256:%x", k, sum[:6]))
	}
	return map[string]string{
		SetTurn:      dur(l.Turn),
		SetFirstTurn: dur(l.FirstTurn),
		SetTurnCPU:   dur(l.TurnCPU),
		SetBank:      dur(l.Bank),
		SetIncrement: dur(l.Increment),
		SetOverruns:  strconv.Itoa(l.Overruns),
		SetGrace:     dur(l.Grace),
		SetOutput:    size(l.Output),
		SetIO:        sb.IO,
		SetEnv:       strings.Join(env, " "),
		SetMemory:    size(sb.Memory),
		SetProcs:     strconv.Itoa(sb.Procs),
		SetFileSize:  size(sb.FileSize),
		SetOpenFiles: strconv.Itoa(sb.OpenFiles),
		SetTmp:       size(sb.Tmp),
		SetWall:      dur(sb.Wall),
		SetJudge:     JudgeVersion(),
	}
}

// dur is a duration as the settings write it: 0 is "none".
func dur(d time.Duration) string {
	if d == 0 {
		return "none"
	}
	return d.String()
}

// size is a size in bytes as the settings write it: in the largest
// binary unit it is a whole number of, 0 for none.
func size(n int64) string {
	switch {
	case n == 0:
		return "none"
	case n%(1<<30) == 0:
		return fmt.Sprintf("%dGiB", n>>30)
	case n%(1<<20) == 0:
		return fmt.Sprintf("%dMiB", n>>20)
	case n%(1<<10) == 0:
		return fmt.Sprintf("%dKiB", n>>10)
	}
	return fmt.Sprintf("%dB", n)
}

// JudgeVersion is the judge's build as a run records it: the revision it
// was built from and the Go release that built it, or the sha256 of its
// program when it was built without version control (go build
// -buildvcs=false) or from changed sources (judge.BuildInfo.Identity).
func JudgeVersion() string { return judge.Build().Identity() }

// show is a recorded value for people.
func show(v string, ok bool) string {
	switch {
	case !ok:
		return "not recorded (an older judge's log)"
	case v == "":
		return "(none)"
	}
	return v
}

// settingsDiff names the first setting where a and b differ, as
// "turn is 5ms, REF has 1s" (a's value, then b's, named ref): a setting
// one of them does not record differs too, unless neither records any.
func settingsDiff(a, b map[string]string, ref string) string {
	if len(a) == 0 && len(b) == 0 {
		return ""
	}
	keys := slices.Sorted(maps.Keys(a))
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		va, oka := a[k]
		vb, okb := b[k]
		if oka != okb || va != vb {
			return fmt.Sprintf("%s is %s, %s has %s", k, show(va, oka), ref, show(vb, okb))
		}
	}
	return ""
}

// changedSetting names a setting that run records with another value
// than an earlier run of runs, as "turn 1s then, 5ms now", or is "". A
// setting an earlier run does not record (an older judge's log) is not
// compared.
func changedSetting(runs []*RunInfo, run *RunInfo) string {
	for _, old := range runs {
		for _, k := range slices.Sorted(maps.Keys(old.Settings)) {
			if v, ok := run.Settings[k]; ok && v != old.Settings[k] {
				return fmt.Sprintf("%s %s then, %s now", k, show(old.Settings[k], true), show(v, true))
			}
		}
	}
	return ""
}
