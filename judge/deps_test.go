package judge_test

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"judge/judge/judgetest"
)

// pkgInfo is what `go list -deps -json` says of a package.
type pkgInfo struct {
	ImportPath string
	Dir        string
	Standard   bool
	Imports    []string
	Deps       []string
	GoFiles    []string
}

func listPackages(t *testing.T) map[string]pkgInfo {
	t.Helper()
	cmd := exec.Command("go", "list", "-deps", "-json", "./...")
	cmd.Dir = judgetest.Root(t)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	pkgs := map[string]pkgInfo{}
	for dec.More() {
		var p pkgInfo
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		if !p.Standard {
			pkgs[p.ImportPath] = p
		}
	}
	if len(pkgs) < 10 {
		t.Fatalf("go list found only %d packages", len(pkgs))
	}
	return pkgs
}

// TestImportRules keeps the shape of the program, as an allowlist over
// every package's dependencies (go list -deps): games are pure rules; the
// sandbox knows nothing of games or of the judge; the match loop knows
// neither processes, nor sandboxes, nor the catalog of games; only the
// process players (and the command, for its init and doctor) import the
// sandbox; nothing imports the command.
func TestImportRules(t *testing.T) {
	pkgs := listPackages(t)
	// Which of the module's packages each may depend on, directly or not.
	// A name ending in "/" stands for the packages under it.
	allowed := map[string][]string{
		"judge/games":  {},
		"judge/games/": {"judge/games", "judge/games/"},
		// The catalog gives a game's guide for bot authors: data only.
		"judge/games/catalog": {"judge/games", "judge/games/", "judge/docs/protocol"},
		"judge/docs/protocol": {},
		// The sandbox: the judge's side runs the init's side only by
		// executing it (sandbox.Init); what both read is internal.
		"judge/sandbox":           {"judge/sandbox/inside", "judge/sandbox/internal/"},
		"judge/sandbox/inside":    {"judge/sandbox/internal/"},
		"judge/sandbox/internal/": {},
		"judge/judge":             {"judge/games"},
		"judge/judge/goplayer":    {"judge/games", "judge/judge"},
		"judge/judge/procbot":     {"judge/games", "judge/judge", "judge/sandbox", "judge/sandbox/"},
		// The configuration and the tournament know no kind of player
		// and no sandbox: bots (and its contest glue) make players.
		"judge/judge/config": {},
		"judge/judge/tournament": {"judge/games", "judge/games/", "judge/judge", "judge/judge/config", "judge/judge/sprt",
			"judge/judge/play", "judge/judge/ratings", "judge/judge/standings"},
		// The runner that plays a contest's matches, the ratings and the
		// standings' lines serve the tournament and the arena and know
		// neither.
		"judge/judge/play":      {"judge/games", "judge/judge"},
		"judge/judge/ratings":   {},
		"judge/judge/standings": {"judge/games", "judge/judge"},
		"judge/judge/bots": {"judge/games", "judge/games/", "judge/judge", "judge/judge/config", "judge/judge/goplayer",
			"judge/judge/httpbot", "judge/judge/procbot", "judge/judge/splixjava", "judge/sandbox", "judge/sandbox/",
			"judge/judge/play", "judge/docs/protocol"},
		"judge/judge/bots/contest": {"judge/games", "judge/games/", "judge/judge", "judge/judge/config", "judge/judge/goplayer",
			"judge/judge/httpbot", "judge/judge/procbot", "judge/judge/splixjava", "judge/sandbox", "judge/sandbox/",
			"judge/judge/bots", "judge/judge/tournament", "judge/judge/sprt", "judge/judge/play", "judge/judge/ratings", "judge/judge/standings",
			"judge/docs/protocol"},
		// The arena plays through bots and the shared runner (play), and
		// runs its final as a tournament; its uploads are unpacked by a
		// package that knows nothing else.
		"judge/judge/arena/unpack": {},
		"judge/judge/arena": {"judge/games", "judge/games/", "judge/judge", "judge/judge/config", "judge/judge/goplayer",
			"judge/judge/httpbot", "judge/judge/procbot", "judge/judge/splixjava", "judge/sandbox", "judge/sandbox/",
			"judge/judge/bots", "judge/judge/bots/contest", "judge/judge/tournament", "judge/judge/sprt", "judge/judge/arena/unpack",
			"judge/judge/play", "judge/judge/ratings", "judge/judge/standings", "judge/docs/protocol"},
		"judge/judge/serve": {"judge/games", "judge/games/", "judge/judge", "judge/judge/config", "judge/judge/sprt",
			"judge/judge/tournament", "judge/judge/replayview", "judge/judge/play", "judge/judge/ratings", "judge/judge/standings"},
		"judge/judge/httpbot":    {"judge/games", "judge/judge", "judge/judge/goplayer"},
		"judge/judge/human":      {"judge/games", "judge/judge", "judge/judge/goplayer"},
		"judge/judge/replayview": {"judge/games", "judge/judge"},
	}
	rule := func(path string) ([]string, bool) {
		if a, ok := allowed[path]; ok {
			return a, true
		}
		for k, a := range allowed {
			if strings.HasSuffix(k, "/") && strings.HasPrefix(path, k) {
				return a, true
			}
		}
		return nil, false
	}
	match := func(dep string, allow []string) bool {
		for _, a := range allow {
			if dep == a || strings.HasSuffix(a, "/") && strings.HasPrefix(dep, a) {
				return true
			}
		}
		return false
	}
	checked := 0
	for path, p := range pkgs {
		if allow, ok := rule(path); ok {
			checked++
			for _, d := range p.Deps {
				if strings.HasPrefix(d, "judge/") && !match(d, allow) {
					t.Errorf("%s depends on %s", path, d)
				}
			}
		}
		for _, imp := range p.Imports {
			switch {
			case strings.HasPrefix(imp, "judge/cmd"):
				t.Errorf("%s imports %s", path, imp)
			case imp == "judge/sandbox" && !slices.Contains([]string{"judge/judge/procbot", "judge/judge/judgetest"}, path):
				t.Errorf("%s imports the sandbox: only judge/procbot starts sandboxed processes", path)
			case imp == "judge/sandbox/inside" && path != "judge/sandbox":
				t.Errorf("%s imports the sandbox's init: only judge/sandbox runs it (sandbox.Init)", path)
			}
		}
	}
	if checked < 8 {
		t.Errorf("only %d packages checked", checked)
	}
}

// TestOneRunner: the tournament and the arena play their matches with
// one runner (judge/play: retries, durable replays), rate with one fit
// (judge/ratings) and count their tables' lines with one type
// (judge/standings), each imported directly; the arena takes its bots as
// contestants of judge/play, and uses of the tournament only what runs
// its final tournament, never a copy of the runner or the ratings
// reached through it.
func TestOneRunner(t *testing.T) {
	pkgs := listPackages(t)
	shared := []string{"judge/judge/play", "judge/judge/ratings", "judge/judge/standings"}
	for _, path := range []string{"judge/judge/tournament", "judge/judge/arena"} {
		p, ok := pkgs[path]
		if !ok {
			t.Fatalf("no package %s", path)
		}
		for _, s := range shared {
			if !slices.Contains(p.Imports, s) {
				t.Errorf("%s does not import %s", path, s)
			}
		}
	}
	arena := pkgs["judge/judge/arena"]
	allowed := []string{"Options", "Run"}
	fset := token.NewFileSet()
	for _, f := range arena.GoFiles {
		file, err := parser.ParseFile(fset, filepath.Join(arena.Dir, f), nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		name := ""
		for _, im := range file.Imports {
			if strings.Trim(im.Path.Value, `"`) == "judge/judge/tournament" {
				name = "tournament"
				if im.Name != nil {
					name = im.Name.Name
				}
			}
		}
		if name == "" {
			continue
		}
		ast.Inspect(file, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if id, ok := sel.X.(*ast.Ident); ok && id.Name == name && !slices.Contains(allowed, sel.Sel.Name) {
				t.Errorf("%s: the arena uses tournament.%s: only %v (its final)", fset.Position(sel.Pos()), sel.Sel.Name, allowed)
			}
			return true
		})
	}
}

// TestGamesArePure: the games import nothing with I/O, processes, clocks or
// global randomness, and draw random numbers only from a generator they
// make from their seed (never math/rand's global functions). Checked in
// the import lists and in the source. sync is allowed (not sync/atomic):
// a state may draw an answer once a turn (sync.Once) for the seats that
// query it at once, which changes no answer.
func TestGamesArePure(t *testing.T) {
	pkgs := listPackages(t)
	banned := []string{"os", "os/exec", "net", "net/http", "time", "math/rand", "syscall", "io/ioutil",
		"golang.org/x/sys/unix", "crypto/rand", "runtime", "unsafe", "sync/atomic"}
	// Helpers for tests and the command line may do more.
	// The plugin runtime runs referees (a wasm runtime, processes): the
	// rules are in its referees, which it gives only the seed.
	exempt := map[string]bool{"judge/games/gametest": true, "judge/games/catalog": true,
		"judge/games/plugin": true, "judge/games/plugin/plugintest": true}
	n := 0
	for path, p := range pkgs {
		if !(path == "judge/games" || strings.HasPrefix(path, "judge/games/")) || exempt[path] {
			continue
		}
		n++
		for _, imp := range p.Imports {
			if slices.Contains(banned, imp) {
				t.Errorf("%s imports %s", path, imp)
			}
		}
		fset := token.NewFileSet()
		for _, f := range p.GoFiles {
			file, err := parser.ParseFile(fset, filepath.Join(p.Dir, f), nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			randName := ""
			for _, im := range file.Imports {
				if strings.Trim(im.Path.Value, `"`) == "math/rand/v2" {
					randName = "rand"
					if im.Name != nil {
						randName = im.Name.Name
					}
				}
			}
			if randName == "" {
				continue
			}
			ast.Inspect(file, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				sel, ok := call.Fun.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				if id, ok := sel.X.(*ast.Ident); ok && id.Name == randName && !strings.HasPrefix(sel.Sel.Name, "New") {
					t.Errorf("%s: %s.%s uses math/rand's global generator", fset.Position(call.Pos()), randName, sel.Sel.Name)
				}
				return true
			})
		}
	}
	if n < 5 {
		t.Errorf("only %d game packages checked", n)
	}
}

// TestOneResolver: only judge/bots tells what a BOT argument is (a
// program, a command line, a contest player: bots.Resolve); no other
// package parses one itself. (The arena reads its web bots' URLs, to hold
// them to its policy.)
func TestOneResolver(t *testing.T) {
	pkgs := listPackages(t)
	parsers := map[string][]string{
		"judge/judge/procbot":   {"ParseBot"},
		"judge/judge/splixjava": {"Cut"},
		"judge/judge/bots":      {"ParseRubyContest", "RubyContestSpec"},
	}
	owner := map[string]bool{"judge/judge/bots": true, "judge/judge/procbot": true, "judge/judge/splixjava": true}
	n := 0
	for path, p := range pkgs {
		if owner[path] {
			continue
		}
		fset := token.NewFileSet()
		for _, f := range p.GoFiles {
			file, err := parser.ParseFile(fset, filepath.Join(p.Dir, f), nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			names := map[string]string{} // local name → import path
			for _, im := range file.Imports {
				ip := strings.Trim(im.Path.Value, `"`)
				if _, ok := parsers[ip]; ok {
					name := ip[strings.LastIndex(ip, "/")+1:]
					if im.Name != nil {
						name = im.Name.Name
					}
					names[name] = ip
				}
			}
			if len(names) == 0 {
				continue
			}
			n++
			ast.Inspect(file, func(nd ast.Node) bool {
				sel, ok := nd.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				if id, ok := sel.X.(*ast.Ident); ok && slices.Contains(parsers[names[id.Name]], sel.Sel.Name) {
					t.Errorf("%s: %s.%s: a BOT argument is resolved in judge/bots only (bots.Resolve, bots.Prepare, bots.Entrants)",
						fset.Position(sel.Pos()), id.Name, sel.Sel.Name)
				}
				return true
			})
		}
	}
	if n < 3 {
		t.Errorf("only %d files that import a resolver's package checked", n)
	}
}

// TestNoProcessStateInSandbox: the sandbox and the process players keep
// their state in values made once and passed down (sandbox.Host,
// procbot.Host), never in package variables, so that tests may run in
// parallel and a program owns what it made. Every package-level var of
// their sources (all systems' files, tests aside) is a sentinel error, a
// sync.Pool, a blank assertion (var _ I = T{}), or listed below with
// the reason it may be one: read-only tables, and process-level setup
// that is the same for every Host.
func TestNoProcessStateInSandbox(t *testing.T) {
	allowed := map[string]string{
		// Read-only tables.
		"sandbox.basicProc":     "the /proc paths level basic shows",
		"sandbox.v2Controllers": "the controllers cgroup v2 sandboxes need",
		"sandbox.initEnv":       "the environment of every sandbox's init",
		"sandbox.initCaps":      "the capabilities the init keeps",
		"sandbox.ptyCheck":      "doctor's pty line off Linux",
		"sandbox.DefaultLimits": "the limits of a bot, copied by whoever uses them",
		"sandbox.CompileLimits": "the limits of a compiler, copied by whoever uses them",
		"inside.devices":        "the devices a sandbox shows",
		"inside.selfOnly":       "seccomp: calls allowed on the caller only",
		"inside.commonDenied":   "seccomp: the calls denied on every architecture",
		"inside.deniedSyscalls": "seccomp: the calls denied on this architecture",
		"inside.writeCalls":     "the system calls that write, for the stopper",
		"inside.traceDirs":      "where programs leave traces",
		"kernel.rlimitNames":    "the names of the resource limits",
		"wire.SystemDirs":       "the system directories every sandbox shows",
		"procbot.SystemEnv":     "the variables of the system kept in a bot's environment",
		"procbot.interpreters":  "the interpreters of scripts",
		"procbot.sources":       "the source files' extensions",
		"procbot.javaComment":   "a compiled regular expression",
		"procbot.javaPackage":   "a compiled regular expression",
		"procbot.javaClassRe":   "a compiled regular expression",
		"procbot.javaMain":      "a compiled regular expression",
		"procbot.stdbufPaths":   "where distributions install libstdbuf",
		"procbot.DefaultLimits": "sandbox.DefaultLimits, for the judge's packages",
		"procbot.CompileLimits": "sandbox.CompileLimits, for the judge's packages",
		// Process-level setup, the same for every Host.
		"sandbox.initCalled":   "whether main called sandbox.Init: set once, first thing, before any Host",
		"inside.computing":     "the init's own measure of its machine, in the init's process (a fresh one)",
		"inside.computingOnce": "guards inside.computing",
		"procbot.lineOnce":     "guards procbot.lineSet",
		"procbot.lineSet":      "the machine's libstdbuf and the one Ruby file every bot's RUBYOPT names, found and written once a process",
	}
	root := judgetest.Root(t)
	seen := map[string]bool{}
	for _, dir := range []string{"sandbox", "judge/procbot"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && d.Name() == "testdata" {
				return filepath.SkipDir
			}
			if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			fset := token.NewFileSet()
			file, err := parser.ParseFile(fset, path, nil, 0)
			if err != nil {
				return err
			}
			for _, decl := range file.Decls {
				g, ok := decl.(*ast.GenDecl)
				if !ok || g.Tok != token.VAR {
					continue
				}
				for _, spec := range g.Specs {
					vs := spec.(*ast.ValueSpec)
					for i, name := range vs.Names {
						key := file.Name.Name + "." + name.Name
						var value ast.Expr
						if i < len(vs.Values) {
							value = vs.Values[i]
						}
						switch {
						case name.Name == "_", sentinelError(name.Name, value), syncPool(vs.Type, value):
						case allowed[key] != "":
							seen[key] = true
						default:
							t.Errorf("%s: package variable %s: keep it in a Host (or, if it is a read-only table, list it here with why)", fset.Position(name.Pos()), key)
						}
					}
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for key := range allowed {
		if !seen[key] {
			t.Errorf("%s is allowed but is no package variable: remove it from the list", key)
		}
	}
}

// sentinelError says whether a package variable named name with value
// value is a sentinel error: ErrX (or errX) = errors.New(…),
// fmt.Errorf(…) or another package's sentinel.
func sentinelError(name string, value ast.Expr) bool {
	if !strings.HasPrefix(name, "Err") && !strings.HasPrefix(name, "err") || value == nil {
		return false
	}
	switch v := value.(type) {
	case *ast.CallExpr:
		sel, ok := v.Fun.(*ast.SelectorExpr)
		if !ok {
			return false
		}
		pkg, ok := sel.X.(*ast.Ident)
		return ok && (pkg.Name == "errors" && sel.Sel.Name == "New" || pkg.Name == "fmt" && sel.Sel.Name == "Errorf")
	case *ast.SelectorExpr:
		return strings.HasPrefix(v.Sel.Name, "Err")
	}
	return false
}

// syncPool says whether a package variable of type typ (nil when not
// written) and value value is a sync.Pool.
func syncPool(typ, value ast.Expr) bool {
	isPool := func(e ast.Expr) bool {
		sel, ok := e.(*ast.SelectorExpr)
		if !ok {
			return false
		}
		pkg, ok := sel.X.(*ast.Ident)
		return ok && pkg.Name == "sync" && sel.Sel.Name == "Pool"
	}
	if typ != nil {
		return isPool(typ)
	}
	lit, ok := value.(*ast.CompositeLit)
	return ok && isPool(lit.Type)
}
