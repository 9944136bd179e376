package bots

import (
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"

	"judge/judge"
	"judge/judge/procbot"
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
	// A method the runner finds among instance_methods: def, or an
	// attribute reader (attr_reader :name, :new_game).
	rubyNewGame  = regexp.MustCompile(`(?m)^\s*(?:def\s+new_game\b|attr_(?:reader|accessor)\b[^\n#]*:new_game\b)`)
	rubyTakeTurn = regexp.MustCompile(`(?m)^\s*(?:def\s+take_turn\b|attr_(?:reader|accessor)\b[^\n#]*:take_turn\b)`)
	// def name; "Team" end, or def name with the string on its own line.
	rubyName = regexp.MustCompile(`(?m)^\s*def\s+name\b(?:\s*\(\s*\))?\s*(?:;|\n)\s*(?:return\s+)?(?:"([^"\\\n]*)"|'([^'\\\n]*)')`)
)

// IsRubyContest reports whether path looks like a contest player, read
// without running it: a .rb file with a class whose name ends in Player
// (or is Player) and methods new_game and take_turn (defined, or
// attribute readers, as the contest's runner finds them among the
// class's instance methods). Whether it loads is
// Host.CheckRubyContest's to say.
func IsRubyContest(path string) bool {
	if filepath.Ext(path) != ".rb" {
		return false
	}
	b, err := procbot.ReadFile(path)
	return err == nil && rubyPlayerClass.Match(b) && rubyNewGame.Match(b) && rubyTakeTurn.Match(b)
}

// ParseRubyContest turns a ruby-contest:FILE.rb argument into the spec
// that runs the file's player under the judge's host: ruby --disable-gems
// HOST [--contest DIR] FILE.rb (Ruby starts without RubyGems, which the
// host loads when a player requires what only a gem has). DIR is the
// contest's folder the file is in (RubyContestFolder), when it is in one.
// ok is false when arg has another form. The name is what the player's
// name method returns when it is a plain string literal (read from the
// source, not run), else the file's name. Whether the file holds a player
// that loads is left to Ruby: the host says why not when it starts, and
// Host.CheckRubyContest before.
func ParseRubyContest(arg string) (spec procbot.Spec, ok bool, err error) {
	file, ok := strings.CutPrefix(arg, RubyContestPrefix)
	if !ok {
		return procbot.Spec{}, false, nil
	}
	spec, err = RubyContestSpec(file)
	return spec, true, err
}

// RubyContestSpec is the spec that plays the contest player in file. A
// file that cannot be read, or ruby missing, is the player's *Fault; a
// failure to write the judge's host, the judge's.
func RubyContestSpec(file string) (procbot.Spec, error) {
	src, err := procbot.ReadFile(file)
	if err != nil {
		return procbot.Spec{}, &Fault{Err: fmt.Errorf("ruby contest player: %w", err)}
	}
	if err := procbot.CheckReadable(file); err != nil {
		return procbot.Spec{}, &Fault{Err: err}
	}
	if _, err := exec.LookPath("ruby"); err != nil {
		return procbot.Spec{}, &Fault{Err: fmt.Errorf("%s is a Ruby contest player, and ruby is not installed (Debian's package ruby: make tools installs it)", file)}
	}
	host, err := RubyContestHost()
	if err != nil {
		return procbot.Spec{}, err
	}
	if !strings.Contains(file, "/") {
		file = "./" + file
	}
	argv := []string{"ruby", "--disable-gems", host}
	if dir := RubyContestFolder(file); dir != "" {
		argv = append(argv, "--contest", dir)
	}
	name := strings.TrimSuffix(filepath.Base(file), ".rb")
	if m := rubyName.FindSubmatch(src); m != nil {
		if n := strings.TrimSpace(string(m[1]) + string(m[2])); n != "" {
			name = n
		}
	}
	return procbot.Spec{Name: name, Argv: append(argv, file)}, nil
}

// RubyContestRunner is the contest's runner, in the contest's folder: a
// folder holding it is a contest's.
const RubyContestRunner = "bin/player_server.rb"

// RubyContestFolder is the contest's folder that holds file, or "": the
// nearest folder above it that holds the contest's runner
// (bin/player_server.rb), as eschen2013/battleship holds
// contestants/don_bot_player.rb. The runner puts its lib/ on the load
// path (require 'battleship/board'), and players reach its other folders
// from their own (File.expand_path("../../data", __FILE__)): the host
// does the same, and the sandbox shows it, read-only.
func RubyContestFolder(file string) string {
	abs, err := filepath.Abs(file)
	if err != nil {
		return ""
	}
	for dir := filepath.Dir(abs); ; dir = filepath.Dir(dir) {
		if st, err := os.Stat(filepath.Join(dir, RubyContestRunner)); err == nil && st.Mode().IsRegular() {
			return dir
		}
		if dir == filepath.Dir(dir) {
			return ""
		}
	}
}

// RubyContestHost writes the host program where the sandbox can read
// it (a directory of its own in the temporary directory, readable by
// all: a judge run as root runs bots as nobody) and returns its path.
// The file's name holds its hash: it is written once per version.
func RubyContestHost() (string, error) {
	sum := sha256.Sum256(rubyHost)
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("judge-hosts-%d", os.Getuid()))
	path := filepath.Join(dir, "ruby_contest-"+hex.EncodeToString(sum[:6])+".rb")
	if b, err := procbot.ReadFile(path); err == nil && string(b) == string(rubyHost) {
		return path, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("ruby contest host: %w", err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		return "", fmt.Errorf("ruby contest host: %w", err)
	}
	// 0644 whatever the umask: the sandbox's user reads it.
	err := judge.WriteAtomic(path, 0o644, func(f *os.File) error {
		if _, err := f.Write(rubyHost); err != nil {
			return err
		}
		return f.Chmod(0o644)
	})
	if err != nil {
		return "", fmt.Errorf("ruby contest host: %w", err)
	}
	return path, nil
}
