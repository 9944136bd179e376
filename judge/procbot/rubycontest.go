package procbot

import (
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"judge/judge"
	"judge/sandbox"
)

// RubyContestPrefix starts a BOT argument naming a player of the Ruby
// Battleship contest: ruby-contest:FILE.rb.
const RubyContestPrefix = "ruby-contest:"

// rubyHost plays a contest player over the judge's Battleship protocol.
//
//go:embed hosts/ruby_contest.rb
var rubyHost []byte

var (
	// Player itself too: the contest's runner takes every class whose
	// name matches /Player$/.
	rubyPlayerClass = regexp.MustCompile(`(?m)^\s*class\s+(?:[A-Z]\w*::)*(?:[A-Z]\w*)?Player\b`)
	rubyNewGame     = regexp.MustCompile(`(?m)^\s*def\s+new_game\b`)
	rubyTakeTurn    = regexp.MustCompile(`(?m)^\s*def\s+take_turn\b`)
	// def name; "Team" end, or def name with the string on its own line.
	rubyName = regexp.MustCompile(`(?m)^\s*def\s+name\b(?:\s*\(\s*\))?\s*(?:;|\n)\s*(?:return\s+)?(?:"([^"\\\n]*)"|'([^'\\\n]*)')`)
)

// IsRubyContest reports whether path looks like a contest player, read
// without running it: a .rb file with a class whose name ends in Player
// (or is Player) and methods new_game and take_turn. Whether it loads is
// CheckRubyContest's to say.
func IsRubyContest(path string) bool {
	if filepath.Ext(path) != ".rb" {
		return false
	}
	b, err := ReadFile(path)
	return err == nil && rubyPlayerClass.Match(b) && rubyNewGame.Match(b) && rubyTakeTurn.Match(b)
}

// ParseRubyContest turns a ruby-contest:FILE.rb argument into the spec
// that runs the file's player under the judge's host: ruby HOST FILE.rb.
// ok is false when arg has another form. The name is what the player's
// name method returns when it is a plain string literal (read from the
// source, not run), else the file's name. Whether the file holds a player
// that loads is left to Ruby: the host says why not when it starts, and
// CheckRubyContest before.
func ParseRubyContest(arg string) (spec Spec, ok bool, err error) {
	file, ok := strings.CutPrefix(arg, RubyContestPrefix)
	if !ok {
		return Spec{}, false, nil
	}
	spec, err = RubyContestSpec(file)
	return spec, true, err
}

// RubyContestSpec is the spec that plays the contest player in file.
func RubyContestSpec(file string) (Spec, error) {
	src, err := ReadFile(file)
	if err != nil {
		return Spec{}, fmt.Errorf("ruby contest player: %w", err)
	}
	if err := checkReadable(file); err != nil {
		return Spec{}, err
	}
	if _, err := exec.LookPath("ruby"); err != nil {
		return Spec{}, fmt.Errorf("%s is a Ruby contest player, and ruby is not installed (Debian's package ruby: make tools installs it)", file)
	}
	host, err := RubyContestHost()
	if err != nil {
		return Spec{}, err
	}
	if !strings.Contains(file, "/") {
		file = "./" + file
	}
	name := strings.TrimSuffix(filepath.Base(file), ".rb")
	if m := rubyName.FindSubmatch(src); m != nil {
		if n := strings.TrimSpace(string(m[1]) + string(m[2])); n != "" {
			name = n
		}
	}
	return Spec{Name: name, Argv: []string{"ruby", host, file}}, nil
}

// RubyContestHost writes the host program where the sandbox can read
// it (a directory of its own in the temporary directory, readable by
// all: a judge run as root runs bots as nobody) and returns its path.
// The file's name holds its hash: it is written once per version.
func RubyContestHost() (string, error) {
	sum := sha256.Sum256(rubyHost)
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("judge-hosts-%d", os.Getuid()))
	path := filepath.Join(dir, "ruby_contest-"+hex.EncodeToString(sum[:6])+".rb")
	if b, err := ReadFile(path); err == nil && string(b) == string(rubyHost) {
		return path, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("ruby contest host: %w", err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		return "", fmt.Errorf("ruby contest host: %w", err)
	}
	tmp, err := os.CreateTemp(dir, ".host-*")
	if err != nil {
		return "", fmt.Errorf("ruby contest host: %w", err)
	}
	_, err = tmp.Write(rubyHost)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return "", fmt.Errorf("ruby contest host: %w", err)
	}
	return path, nil
}

// checkCPU bounds the CPU time of the loading of a player by
// CheckRubyContest.
const checkCPU = 30 * time.Second

// CheckRubyContest loads the contest player of spec (a RubyContestSpec)
// in the sandbox, as the host does before a game, and makes an instance
// of its class, without playing. why is empty when it can play, else the
// host's reason: Ruby's own message for a file that does not parse or
// raises as it loads, or what is missing. err is the judge's failure to
// run it at all.
func CheckRubyContest(ctx context.Context, spec Spec) (why string, err error) {
	if len(spec.Argv) != 3 {
		return "", fmt.Errorf("%v is not a Ruby contest player's command", spec.Argv)
	}
	out, err := os.CreateTemp("", "ruby-check-*.log")
	if err != nil {
		return "", fmt.Errorf("checking %s: %w", spec.Argv[2], err)
	}
	defer os.Remove(out.Name())
	defer out.Close()
	argv := []string{spec.Argv[0], spec.Argv[1], "--check", spec.Argv[2]}
	lim := sandbox.DefaultLimits
	lim.Wall = 10 * checkCPU // a player that waits on nothing
	ex, overCPU, err := RunTool(ctx, ToolSpec{
		Argv: argv, Dir: spec.Dir, Env: Env(nil, 0, lim.Memory),
		Stdout: out, Stderr: out,
		Limits:   lim,
		ReadOnly: sandbox.PathsOf(argv, spec.Dir),
	}, checkCPU)
	if err != nil {
		return "", fmt.Errorf("checking %s: %w", spec.Argv[2], err)
	}
	text, _ := os.ReadFile(out.Name())
	msg := strings.TrimSpace(string(judge.LastLines(text, 8, 2000)))
	switch {
	case overCPU:
		return fmt.Sprintf("it used more than %v of CPU time to load", checkCPU), nil
	case ex.Wall:
		return fmt.Sprintf("it took more than %v to load", lim.Wall), nil
	case ex.Code != 0 || ex.Signaled():
		if msg == "" {
			msg = ex.String()
		}
		return msg, nil
	}
	return "", nil
}
