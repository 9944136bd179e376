// Package judgetest helps tests that play real matches: it builds bot
// programs (example bots and test bots in any supported language, compiled
// once per test binary into a temporary directory) and plays them.
package judgetest

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"judge/games"
	"judge/games/catalog"
	"judge/judge"
	"judge/judge/procbot"
)

// Main is TestMain for packages whose tests start bots: the sandbox's
// init is the test binary run again; the bots start on the binary's Host
// (Host), closed at the end, and the built bots are removed then.
func Main(m *testing.M) {
	procbot.Init()
	host = procbot.NewHost(procbot.HostOptions{})
	code := m.Run()
	host.Close()
	Cleanup()
	os.Exit(code)
}

// host is the test binary's Host, made by Main.
var host *procbot.Host

// Host is the Host the test binary's bots start on (made by Main); a
// test that needs one of other options makes its own.
func Host() *procbot.Host {
	if host == nil {
		panic("judgetest.Host: the package's TestMain does not call judgetest.Main")
	}
	return host
}

// Proc is o with the test binary's Host (Host), for bots to start on.
func Proc(o procbot.Options) procbot.Options {
	o.Host = Host()
	return o
}

// Spec builds the bot at path (see Bot) and names it; args are added to
// its command line.
func Spec(tb testing.TB, name, path string, args ...string) procbot.Spec {
	tb.Helper()
	return procbot.Spec{Name: name, Argv: append(Bot(tb, path), args...)}
}

// Setup is a match of bot programs being set up: the match, and how its
// bots run.
type Setup struct {
	judge.Match
	Proc procbot.Options
	Bots []procbot.Spec
}

// Play plays one match of the variant with its preset parameters, within
// two minutes; mod, when not nil, changes the match first (the parameters
// it sets override the variant's).
func Play(tb testing.TB, variant string, seed uint64, mod func(*Setup), bots ...procbot.Spec) *judge.Result {
	tb.Helper()
	v, err := catalog.Lookup(variant)
	if err != nil {
		tb.Fatal(err)
	}
	params, err := v.Resolve(nil)
	if err != nil {
		tb.Fatal(err)
	}
	s := Setup{
		Match: judge.Match{Game: v.Game, Name: v.Name, Params: params, Seed: seed, Limits: judge.DefaultTurnLimits,
			Serve: procbot.OneCPU},
		Bots: bots,
	}
	if mod != nil {
		mod(&s)
	}
	m := s.Match
	// The parameters mod set are overrides of the variant's presets.
	if m.Params, err = v.Resolve(m.Params); err != nil {
		tb.Fatal(err)
	}
	return run(tb, m, s)
}

// PlayGame plays one match of g (a game outside the catalog: a plugin
// game) with its default parameters, as Play does; mod, when not nil,
// changes the match first (the parameters it sets override the
// defaults).
func PlayGame(tb testing.TB, g games.Game, seed uint64, mod func(*Setup), bots ...procbot.Spec) *judge.Result {
	tb.Helper()
	s := Setup{
		Match: judge.Match{Game: g, Name: g.Name(), Seed: seed, Limits: judge.DefaultTurnLimits, Serve: procbot.OneCPU},
		Bots:  bots,
	}
	if mod != nil {
		mod(&s)
	}
	m := s.Match
	var err error
	if m.Params, err = games.Resolve(g.Params(), m.Params); err != nil {
		tb.Fatal(err)
	}
	return run(tb, m, s)
}

// run plays m with the bots of s, within two minutes.
func run(tb testing.TB, m judge.Match, s Setup) *judge.Result {
	tb.Helper()
	if s.Proc.Host == nil {
		s.Proc.Host = Host()
	}
	for _, b := range s.Bots {
		m.Entrants = append(m.Entrants, procbot.Bot{Spec: b, Options: s.Proc})
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := judge.Run(ctx, m)
	if err != nil {
		tb.Fatalf("Run: %v", err)
	}
	return res
}

// Root is the repository root (the directory holding go.mod).
func Root(tb testing.TB) string {
	tb.Helper()
	dir, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			tb.Fatal("judgetest: no go.mod above the working directory")
		}
		dir = parent
	}
}

var (
	mu     sync.Mutex
	built  = map[string]*buildResult{}
	outDir string
)

type buildResult struct {
	once sync.Once
	argv []string
	err  error
}

// Bot builds the bot whose source is at path (relative to the repository
// root: a .c, .cpp, .rs, .java or .py file, or a Go package directory) and
// returns the command line that runs it. Builds are shared by all tests
// of the binary.
func Bot(tb testing.TB, path string) []string {
	tb.Helper()
	root := Root(tb)
	mu.Lock()
	if outDir == "" {
		d, err := os.MkdirTemp("", "judgetest-bots-")
		if err == nil {
			// Sandboxed bots run as nobody when the tests run as root.
			err = os.Chmod(d, 0o755)
		}
		if err != nil {
			mu.Unlock()
			tb.Fatal(err)
		}
		outDir = d
	}
	if tools := toolsFor(path); len(tools) > 0 {
		mu.Unlock()
		NeedTools(tb, tools...)
		mu.Lock()
	}
	r := built[path]
	if r == nil {
		r = &buildResult{}
		built[path] = r
	}
	dir := outDir
	mu.Unlock()
	r.once.Do(func() { r.argv, r.err = build(root, path, dir) })
	if r.err != nil {
		tb.Fatalf("judgetest: build %s: %v", path, r.err)
	}
	return append([]string(nil), r.argv...)
}

// NeedTools skips the test, saying why, unless every program named is
// installed (found in PATH).
func NeedTools(tb testing.TB, tools ...string) {
	tb.Helper()
	var missing []string
	for _, t := range tools {
		if _, err := exec.LookPath(t); err != nil {
			missing = append(missing, t)
		}
	}
	if len(missing) > 0 {
		tb.Skipf("needs %s, not installed here ('make tools' installs the toolchains)", strings.Join(missing, ", "))
	}
}

// toolsFor names the programs that build and run the bot at path.
func toolsFor(path string) []string {
	switch filepath.Ext(path) {
	case ".c":
		return []string{"gcc"}
	case ".cpp", ".cc":
		return []string{"g++"}
	case ".rs":
		return []string{"rustc"}
	case ".java":
		return []string{"javac", "java"}
	case ".py":
		return []string{"python3"}
	case "":
		return []string{"go"}
	}
	return nil
}

// Cleanup removes the built bots; call it from TestMain after m.Run.
func Cleanup() {
	mu.Lock()
	defer mu.Unlock()
	if outDir != "" {
		os.RemoveAll(outDir)
	}
}

func build(root, path, dir string) ([]string, error) {
	src := filepath.Join(root, path)
	name := strings.NewReplacer("/", "_", ".", "_").Replace(path)
	out := filepath.Join(dir, name)
	run := func(args ...string) error {
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Dir = root
		if b, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("%s: %w\n%s", strings.Join(args, " "), err, b)
		}
		return nil
	}
	switch ext := filepath.Ext(path); ext {
	case ".c":
		return []string{out}, run("gcc", "-O2", "-o", out, src, "-lm")
	case ".cpp", ".cc":
		return []string{out}, run("g++", "-O2", "-o", out, src)
	case ".rs":
		return []string{out}, run("rustc", "-O", "-o", out, src)
	case ".java":
		if err := os.MkdirAll(out, 0o755); err != nil {
			return nil, err
		}
		if err := run("javac", "-d", out, src); err != nil {
			return nil, err
		}
		cls := strings.TrimSuffix(filepath.Base(path), ".java")
		return []string{"java", "-cp", out, cls}, nil
	case ".py":
		return []string{"python3", src}, nil
	case "":
		return []string{out}, run("go", "build", "-o", out, "./"+path)
	default:
		return nil, fmt.Errorf("no rule for %q files", ext)
	}
}

// Running lists the live processes (not zombies) whose command line
// mentions s, as "pid: command line".
func Running(s string) []string {
	ents, _ := os.ReadDir("/proc")
	var out []string
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || !strings.Contains(string(b), s) {
			continue
		}
		if st, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "stat")); strings.Contains(string(st), ") Z ") {
			continue
		}
		out = append(out, e.Name()+": "+strings.ReplaceAll(string(b), "\x00", " "))
	}
	return out
}

// PHPServer serves dir with PHP's built-in server (php -S) on a free
// loopback port until the test ends, and returns its address. The test is
// skipped where php is missing.
func PHPServer(tb testing.TB, dir string) string {
	tb.Helper()
	NeedTools(tb, "php")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	cmd := exec.Command("php", "-S", addr, "-t", dir)
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	for i := 0; ; i++ {
		c, err := net.Dial("tcp", addr)
		if err == nil {
			c.Close()
			return addr
		}
		if i == 200 {
			tb.Fatalf("php -S %s did not start: %v", addr, err)
		}
		time.Sleep(25 * time.Millisecond)
	}
}

// TempDir is a temporary directory that sandboxed bots, which run as
// nobody when the tests run as root, can enter: it and the directories
// above it, up to the system's temporary directory, are searchable by
// all.
func TempDir(tb testing.TB) string {
	tb.Helper()
	d := tb.TempDir()
	for p := d; p != os.TempDir() && p != "/" && p != "."; p = filepath.Dir(p) {
		if err := os.Chmod(p, 0o755); err != nil {
			tb.Fatal(err)
		}
	}
	return d
}
