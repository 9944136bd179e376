package bots

import (
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"judge/judge"
	"judge/judge/config"
	"judge/judge/procbot"
)

// DefaultLanguages is the built-in copy of configs/languages.toml, used
// when no languages file is given or found.
//
//go:embed languages.toml
var DefaultLanguages []byte

// Languages says how to build and run submissions.
type Languages struct {
	Limits   BuildLimits          `toml:"limits"`
	Language map[string]*Language `toml:"language"`

	// Host runs the compilers, and the programs run to check a bot, in
	// the sandbox; set by whoever loads the file.
	Host *procbot.Host `toml:"-"`

	// What each version command said, once per run.
	versionMu sync.Mutex
	versions  map[string]*versionOnce
	// The warm-up builds done, once per language and cache.
	warmed map[string]*sync.Once
}

// BuildLimits bound one build: every process of its compiler together.
type BuildLimits struct {
	Time     config.Duration `toml:"time"`      // of CPU time
	Wall     config.Duration `toml:"wall"`      // of wall-clock time, at least Time
	MemoryMB int64           `toml:"memory_mb"` // of memory
	Procs    int             `toml:"procs"`     // processes and threads
	DiskMB   int64           `toml:"disk_mb"`   // in the build's directory, all files together
}

// The default limits of a build.
const (
	defaultCompileTime = 30 * time.Second
	defaultCompileDisk = 256 // MiB
)

// Language is one [language.NAME] table of languages.toml.
type Language struct {
	Name          string            `toml:"-"`
	Extensions    []string          `toml:"extensions"`
	Markers       []string          `toml:"markers"`
	Compile       []string          `toml:"compile"`
	CompileMarked []string          `toml:"compile_marked"`
	Env           map[string]string `toml:"env"`
	Run           []string          `toml:"run"`
	// Version prints the version of the toolchain and runtime a bot of
	// the language needs (java -version, python3 --version): its output
	// is part of every such bot's identity, and a command that cannot
	// run is a runtime missing.
	Version []string `toml:"version"`
	// WarmUp is the source of a program (main.EXT) the judge builds
	// with compile before the language's first build into a cache, under
	// limits ten times a build's, so that what every build shares (Go's
	// cache of the standard packages) is there before an entrant's build
	// is timed.
	WarmUp string `toml:"warm_up"`
}

// LoadLanguages reads a languages file strictly; an empty path means the
// built-in table.
func LoadLanguages(path string) (*Languages, error) {
	var l Languages
	if path == "" {
		tmp, err := os.CreateTemp("", "languages-*.toml")
		if err != nil {
			return nil, err
		}
		defer os.Remove(tmp.Name())
		if _, err := tmp.Write(DefaultLanguages); err != nil {
			tmp.Close()
			return nil, err
		}
		tmp.Close()
		if err := config.Decode(tmp.Name(), &l); err != nil {
			return nil, fmt.Errorf("built-in languages: %w", err)
		}
	} else if err := config.Decode(path, &l); err != nil {
		return nil, err
	}
	if len(l.Language) == 0 {
		return nil, fmt.Errorf("%s: no [language.NAME] tables", path)
	}
	seen := map[string]string{}
	for name, lang := range l.Language {
		lang.Name = name
		if len(lang.Run) == 0 {
			return nil, fmt.Errorf("%s: language.%s: no run command", path, name)
		}
		if len(lang.Extensions) == 0 {
			return nil, fmt.Errorf("%s: language.%s: no extensions", path, name)
		}
		for i, e := range lang.Extensions {
			e = strings.TrimPrefix(e, ".")
			lang.Extensions[i] = e
			if other, ok := seen[e]; ok {
				return nil, fmt.Errorf("%s: extension %q belongs to both %s and %s", path, e, other, name)
			}
			seen[e] = name
		}
	}
	if l.Limits.Time == 0 {
		l.Limits.Time = config.Duration(defaultCompileTime)
	}
	if l.Limits.Wall == 0 {
		l.Limits.Wall = max(config.Duration(defaultCompileTime), l.Limits.Time)
	}
	if l.Limits.Time > l.Limits.Wall {
		return nil, fmt.Errorf("%s: limits: time (CPU time) %v is more than wall %v", path, time.Duration(l.Limits.Time), time.Duration(l.Limits.Wall))
	}
	if l.Limits.DiskMB == 0 {
		l.Limits.DiskMB = defaultCompileDisk
	}
	if l.Limits.MemoryMB == 0 {
		l.Limits.MemoryMB = 1024
	}
	if l.Limits.Procs == 0 {
		l.Limits.Procs = 256
	}
	return &l, nil
}

// names returns the language names, sorted.
func (l *Languages) names() []string {
	out := make([]string, 0, len(l.Language))
	for n := range l.Language {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// extensions are the file extensions of every language, as ".c", sorted.
func (l *Languages) extensions() []string {
	var out []string
	for _, lang := range l.Language {
		for _, e := range lang.Extensions {
			out = append(out, "."+e)
		}
	}
	sort.Strings(out)
	return out
}

// ByExt finds the language of a file name, or nil.
func (l *Languages) ByExt(file string) *Language {
	ext := strings.TrimPrefix(filepath.Ext(file), ".")
	if ext == "" {
		return nil
	}
	for _, n := range l.names() {
		for _, e := range l.Language[n].Extensions {
			if e == ext {
				return l.Language[n]
			}
		}
	}
	return nil
}

// Submission is a bot given as sources.
type Submission struct {
	Path  string    // the file or directory given
	Lang  *Language // its language
	Files []string  // its files, relative to the submission root, sorted
	Root  string    // the directory the files are relative to
	Main  string    // the main source file, relative to Root
	Class string    // Java main class (procbot.JavaClass)
	Mark  bool      // a marker file (go.mod) is present
}

const maxSubmission = 64 << 20 // bytes of sources

// Detect reads a submission: a source file, or a directory of sources.
func (l *Languages) Detect(path string) (*Submission, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	s := &Submission{Path: path}
	if !st.IsDir() {
		s.Lang = l.ByExt(path)
		if s.Lang == nil {
			return nil, fmt.Errorf("%s: no language for %q files in the languages file", s.name(), filepath.Ext(path))
		}
		s.Root = filepath.Dir(path)
		s.Main = filepath.Base(path)
		s.Files = []string{s.Main}
	} else {
		s.Root = path
		var total int64
		err := filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if p != path && strings.HasPrefix(d.Name(), ".") {
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			if !d.Type().IsRegular() || isTestFile(d.Name()) {
				return nil
			}
			info, err := d.Info()
			if err != nil {
				return err
			}
			if total += info.Size(); total > maxSubmission {
				return fmt.Errorf("more than %d MiB of files", maxSubmission>>20)
			}
			rel, _ := filepath.Rel(path, p)
			s.Files = append(s.Files, rel)
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		sort.Strings(s.Files)
		s.Lang, s.Mark = l.dirLanguage(s.Files)
		if s.Lang == nil {
			return nil, fmt.Errorf("%s: cannot tell its language: no single language's files, no main.EXT or bot.EXT", s.name())
		}
		for _, pref := range []string{"main", "bot", "Main", "Bot"} {
			for _, e := range s.Lang.Extensions {
				if contains(s.Files, pref+"."+e) {
					s.Main = pref + "." + e
					break
				}
			}
			if s.Main != "" {
				break
			}
		}
		if s.Main == "" {
			var cands []string
			for _, f := range s.Files {
				if l.ByExt(f) == s.Lang && !strings.Contains(f, string(filepath.Separator)) {
					cands = append(cands, f)
				}
			}
			if len(cands) == 1 {
				s.Main = cands[0]
			} else if !s.Mark {
				return nil, fmt.Errorf("%s: which %s file is the bot? name it main.%s", s.name(), s.Lang.Name, s.Lang.Extensions[0])
			}
		}
	}
	s.Class = strings.TrimSuffix(filepath.Base(s.Main), filepath.Ext(s.Main))
	if filepath.Ext(s.Main) == ".java" {
		// The class that holds main, with its package, as java names it.
		s.Class = procbot.JavaClass(filepath.Join(s.Root, s.Main))
	}
	return s, nil
}

// name is the submission's own name, its file's or directory's (bot.c,
// alice; . is the directory's name): what the builder's messages call it,
// naming nothing of where it is kept.
func (s *Submission) name() string {
	return ownPathName(s.Path)
}

// ownPathName is the last element of path, a directory's name for .
func ownPathName(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	return filepath.Base(path)
}

// dirLanguage picks the language of a directory's files: a marker file
// first, then the only language with files at the top, then the language
// of a main.EXT or bot.EXT file.
func (l *Languages) dirLanguage(files []string) (*Language, bool) {
	for _, n := range l.names() {
		for _, m := range l.Language[n].Markers {
			if contains(files, m) {
				return l.Language[n], true
			}
		}
	}
	found := map[*Language]bool{}
	var main []*Language
	for _, f := range files {
		if strings.Contains(f, string(filepath.Separator)) {
			continue
		}
		if lang := l.ByExt(f); lang != nil {
			found[lang] = true
			base := strings.TrimSuffix(f, filepath.Ext(f))
			if strings.EqualFold(base, "main") || strings.EqualFold(base, "bot") {
				main = append(main, lang)
			}
		}
	}
	if len(found) == 1 {
		for lang := range found {
			return lang, false
		}
	}
	if len(main) == 1 {
		return main[0], false
	}
	return nil, false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Key is the build's cache key: the sha256 of the language's command
// lines and of every file's name and contents.
func (s *Submission) Key() (string, error) {
	h := sha256.New()
	cmds, _ := json.Marshal([]any{s.Lang.Name, s.Lang.Compile, s.Lang.CompileMarked, s.Lang.Env, s.Lang.Run, s.Main})
	h.Write(cmds)
	for _, f := range s.Files {
		fmt.Fprintf(h, "\x00%s\x00", f)
		fh, err := procbot.OpenFile(filepath.Join(s.Root, f))
		if err != nil {
			return "", err
		}
		_, err = io.Copy(h, fh)
		fh.Close()
		if err != nil {
			return "", err
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// CompileError is a build that failed: the compiler's verdict.
type CompileError struct {
	// Name is the submission's own name, its file's or directory's (bad.c,
	// alice), as its author knows it: the message names nothing of where
	// the judge keeps it, and its files relative to it.
	Name    string
	Message string // the compiler's output (its tail)
	// Stopped is a build stopped by a limit (time, memory, disk), not
	// refused by its compiler: it is not cached, as it may pass another
	// time.
	Stopped bool
}

func (e *CompileError) Error() string {
	return fmt.Sprintf("%s: compile error:\n%s", e.Name, e.Message)
}

// Build is a built submission.
type Build struct {
	Argv []string // the command that runs the bot
	Dir  string   // the snapshot directory
	Key  string
	// Log is what the compiler said of a build that succeeded (its
	// warnings), its tail, its paths as a CompileError's.
	Log string
}

// builtInfo is stored in a cache entry.
type builtInfo struct {
	Argv []string `json:"argv"`
	Log  string   `json:"log,omitempty"`
}

// Build compiles a submission into cache (a directory of builds named by
// key), or finds it already built. A failed compile is the bot's *Fault,
// a *CompileError, and is cached too when the compiler itself said no (not
// when it was stopped for time, memory or disk). A build that left a link
// or a special file is a compile error too (see buildtree.go), and
// sources that cannot be read are the bot's *Fault as well. Any other
// error is the judge's: its build cache, or its sandbox that could not
// run the compiler.
//
// The build runs in a work directory of the cache, KEY.tmp-N, locked
// while it runs, which becomes KEY once built; its compiler may write
// only in its src and out directories, and the shared directories of its
// language's environment ({cache}/NAME).
func (l *Languages) Build(ctx context.Context, s *Submission, cache string) (*Build, error) {
	key, err := s.Key()
	if err != nil {
		return nil, faulty(err)
	}
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return nil, fmt.Errorf("the build cache: %w", err)
	}
	cache, err = filepath.Abs(cache)
	if err != nil {
		return nil, fmt.Errorf("the build cache: %w", err)
	}
	sweepOnce(cache)
	if b, err := cached(s, cache, key); b != nil || err != nil {
		return b, err
	}
	compile := s.Lang.Compile
	if s.Mark && len(s.Lang.CompileMarked) > 0 {
		compile = s.Lang.CompileMarked
	}
	if len(compile) > 0 {
		l.warm(ctx, s.Lang, cache)
	}

	w, err := newWork(cache, key)
	if err != nil {
		return nil, fmt.Errorf("the build cache: %w", err)
	}
	keep := false
	defer func() { w.close(keep) }()
	src, out := filepath.Join(w.path, "src"), filepath.Join(w.path, "out")
	for _, f := range s.Files {
		if err := copyFile(filepath.Join(s.Root, f), filepath.Join(src, f)); err != nil {
			return nil, err
		}
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, fmt.Errorf("the build cache: %w", err)
	}
	final := filepath.Join(cache, key)
	var log string
	if len(compile) > 0 {
		// The build runs in the work directory but its paths name the
		// final one, which the work directory becomes.
		msg, err := l.runCompiler(ctx, expand(compile, s.vars(src, out)), w.path, cache, s.Lang.Env, l.Limits)
		log = msg
		if errors.Is(err, procbot.ErrToolAlive) {
			keep = true // not to be touched: RemoveStaleBuilds will
		}
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			var ce *CompileError
			if errors.As(err, &ce) {
				ce.Name = s.name()
				if !ce.Stopped {
					_ = judge.WriteFileSync(final+".failed", []byte(ce.Message), judge.SyncRename)
				}
				return nil, &Fault{Err: ce}
			}
			return nil, err
		}
	}
	// Every process of the build has ended: what it left stays as it is.
	why, stopped, err := checkTree(w.path, l.Limits.DiskMB<<20)
	if err != nil {
		return nil, fmt.Errorf("the build cache: %w", err)
	}
	if why != "" {
		if !stopped {
			_ = judge.WriteFileSync(final+".failed", []byte(why), judge.SyncRename)
		}
		return nil, &Fault{Err: &CompileError{Name: s.name(), Message: why, Stopped: stopped}}
	}
	if err := settleTree(w.path); err != nil {
		return nil, fmt.Errorf("the build cache: %w", err)
	}
	argv := expand(s.Lang.Run, s.vars(filepath.Join(final, "src"), filepath.Join(final, "out")))
	info, _ := json.Marshal(builtInfo{Argv: argv, Log: log})
	if err := writeJudgeFile(w.path, "built.json", info); err != nil {
		return nil, fmt.Errorf("the build cache: %w", err)
	}
	if err := os.Rename(w.path, final); err != nil {
		// Another judge built it meanwhile: use that one.
		if b, cerr := cached(s, cache, key); b != nil || cerr != nil {
			return b, cerr
		}
		return nil, fmt.Errorf("the build cache: %w", err)
	}
	keep = true
	return &Build{Argv: argv, Dir: filepath.Join(final, "src"), Key: key, Log: log}, nil
}

// cached is the build of s in cache, or its cached compile error; nil and
// nil when it has not been built. Its files are checked as a new build's
// are. A build found with a link in it — one a tool outside the sandbox
// made since (perf's build-id cache hard-links the programs it profiles),
// or one an older judge left — is set aside, to be built again: the
// build checked it when it ended, so what is wrong now is not the
// submission's, and a submission whose build makes the link again is
// refused then.
func cached(s *Submission, cache, key string) (*Build, error) {
	final := filepath.Join(cache, key)
	if st, err := os.Lstat(final); err == nil && st.IsDir() {
		if b, err := readJudgeFile(final, "built.json"); err == nil {
			var info builtInfo
			if json.Unmarshal(b, &info) == nil && len(info.Argv) > 0 {
				why, _, err := checkTree(final, 0)
				if err != nil {
					return nil, fmt.Errorf("the build cache: %w", err)
				}
				if why != "" {
					if err := setAside(cache, key); err != nil {
						return nil, fmt.Errorf("the build cache: %s, and it cannot be set aside: %w", why, err)
					}
					return nil, nil
				}
				return &Build{Argv: info.Argv, Dir: filepath.Join(final, "src"), Key: key, Log: info.Log}, nil
			}
		}
	}
	if msg, err := readJudgeFile(cache, key+".failed"); err == nil {
		return nil, &Fault{Err: &CompileError{Name: s.name(), Message: string(msg)}}
	}
	return nil, nil
}

// setAside moves the build key out of the way, to a work directory's
// name (KEY.tmp-N) that RemoveStaleBuilds removes: a program of another
// judge that runs from it meanwhile keeps its files.
func setAside(cache, key string) error {
	// A name no other work has: made, then freed for the rename (which
	// does not replace a directory).
	aside, err := os.MkdirTemp(cache, key+".tmp-")
	if err != nil {
		return err
	}
	if err := os.Remove(aside); err != nil {
		return err
	}
	if err := os.Rename(filepath.Join(cache, key), aside); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err // (not there: another judge set it aside first)
	}
	return nil
}

// warm builds lang's warm-up program into cache, once per Languages and
// cache, when it has one. It is the judge's own program: a failure is the
// entrants' builds' to tell.
func (l *Languages) warm(ctx context.Context, lang *Language, cache string) {
	if lang.WarmUp == "" || len(lang.Compile) == 0 {
		return
	}
	l.versionMu.Lock()
	if l.warmed == nil {
		l.warmed = map[string]*sync.Once{}
	}
	key := lang.Name + "\x00" + cache
	once := l.warmed[key]
	if once == nil {
		once = &sync.Once{}
		l.warmed[key] = once
	}
	l.versionMu.Unlock()
	once.Do(func() {
		w, err := newWork(cache, "warm-"+lang.Name)
		if err != nil {
			return
		}
		defer w.close(false)
		main := "main." + lang.Extensions[0]
		src, out := filepath.Join(w.path, "src"), filepath.Join(w.path, "out")
		if os.Mkdir(src, 0o755) != nil || os.Mkdir(out, 0o755) != nil ||
			os.WriteFile(filepath.Join(src, main), []byte(lang.WarmUp), 0o644) != nil {
			return
		}
		s := &Submission{Lang: lang, Files: []string{main}, Root: src, Main: main, Class: "Main"}
		lim := l.Limits
		lim.Time *= warmFactor
		lim.Wall *= warmFactor
		_, _ = l.runCompiler(ctx, expand(lang.Compile, s.vars(src, out)), w.path, cache, lang.Env, lim)
	})
}

// warmFactor is how many times a build's time a warm-up build may take.
const warmFactor = 10

// vars are the placeholders' values for a build in src with output out.
func (s *Submission) vars(src, out string) map[string][]string {
	var srcs []string
	for _, f := range s.Files {
		if contains(s.Lang.Extensions, strings.TrimPrefix(filepath.Ext(f), ".")) {
			srcs = append(srcs, filepath.Join(src, f))
		}
	}
	return map[string][]string{
		"{src}":   {filepath.Join(src, s.Main)},
		"{srcs}":  srcs,
		"{dir}":   {src},
		"{out}":   {out},
		"{exe}":   {filepath.Join(out, "bot"+exeSuffix)},
		"{class}": {s.Class},
	}
}

// RunVars are the placeholders of run commands that depend on the
// bots' limits, so that runtimes which size themselves from the machine
// (the JVM's heap is a share of the RAM it sees) fit in the memory a bot
// is given at every sandbox level, cgroup or rlimit:
//
//	{memory_mb}  the bot's memory limit in MiB (the machine's memory when unlimited)
//	{stack_mb}   a thread stack size for it: memory_mb/64, between 1 and 64
//
// The JVM line of languages.toml gives the heap 40% of {memory_mb}
// (-XX:MaxRAM, -XX:MaxRAMPercentage) and each thread {stack_mb}: at 256
// MiB a bot can use about 100 MiB of heap and recurse 30,000 calls deep,
// and going over ends in its own OutOfMemoryError or StackOverflowError.
func RunVars(memory int64) map[string][]string {
	if memory <= 0 {
		memory = machineMemory()
	}
	mb := max(memory>>20, 1)
	return map[string][]string{
		"{memory_mb}": {strconv.FormatInt(mb, 10)},
		"{stack_mb}":  {strconv.FormatInt(min(max(mb/64, 1), 64), 10)},
	}
}

// expand replaces the placeholders of a command line: a whole argument
// by its values (one argument each), and inside a longer argument (such
// as -ffile-prefix-map={dir}=.) a placeholder of one value by it.
func expand(tmpl []string, vars map[string][]string) []string {
	var out []string
	for _, a := range tmpl {
		if v, ok := vars[a]; ok {
			out = append(out, v...)
			continue
		}
		for k, v := range vars {
			if len(v) == 1 {
				a = strings.ReplaceAll(a, k, v[0])
			}
		}
		out = append(out, a)
	}
	return out
}

// compileEnv is the environment of a compiler: a few variables of the
// judge's (so toolchains are found) and the language's, where {cache}
// stands for the build cache directory.
func compileEnv(extra map[string]string, cache string) []string {
	env := map[string]string{"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": os.TempDir(), "LANG": "C.UTF-8"}
	for _, k := range append([]string{"PATH", "HOME", "LANG", "GOROOT", "GOPROXY",
		"CARGO_HOME", "RUSTUP_HOME", "JAVA_HOME", "PYENV_ROOT"}, procbot.SystemEnv...) {
		if v, ok := os.LookupEnv(k); ok {
			env[k] = v
		}
	}
	for k, v := range extra {
		env[k] = strings.ReplaceAll(v, "{cache}", cache)
	}
	out := make([]string, 0, len(env))
	for k, v := range env {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}

// cacheDirs makes the directories of the build cache that the language's
// environment names ({cache}/go-build for Go's own cache) and returns
// them, to be shown writable to its compilers: the compiler's toolchain
// keeps there what every build of the language shares. They are open to
// every user, as the sandbox's may not be the judge's. A value that names
// no directory inside the cache is left alone.
func cacheDirs(env map[string]string, cache string) ([]string, error) {
	var dirs []string
	for _, k := range slices.Sorted(maps.Keys(env)) {
		v := env[k]
		if !strings.HasPrefix(v, "{cache}/") || strings.ContainsAny(v, string(os.PathListSeparator)) {
			continue
		}
		d := filepath.Join(cache, strings.TrimPrefix(v, "{cache}/"))
		if rel, err := filepath.Rel(cache, d); err != nil || rel == "." || strings.HasPrefix(rel, "..") {
			continue
		}
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, fmt.Errorf("the build cache: %w", err)
		}
		if err := os.Chmod(d, 0o777); err != nil {
			return nil, fmt.Errorf("the build cache: %w", err)
		}
		dirs = append(dirs, d)
	}
	return dirs, nil
}

// runCompiler runs one compile in work (its directories src and out) in
// the sandbox, under the limits lim, with the compiler's own installation
// visible read-only and src, out and the language's shared directories of
// the cache writable. A compiler that fails, or that goes over a limit,
// gives a *CompileError with the tail of its output, its paths made
// relative to src (relMessage). Once it returns every process of the
// compile has ended (procbot.Host.RunTool), or the error is procbot.ErrToolAlive.
func (l *Languages) runCompiler(ctx context.Context, argv []string, work, cache string, env map[string]string, lim BuildLimits) (string, error) {
	src, out := filepath.Join(work, "src"), filepath.Join(work, "out")
	shared, err := cacheDirs(env, cache)
	if err != nil {
		return "", err
	}
	// The compiler may run as another user (the sandbox's): it must be
	// able to write in src and out. They are the judge's again once built
	// (settleTree).
	for _, d := range []string{src, out} {
		if err := chmodTree(d, 0o777); err != nil {
			return "", err
		}
	}
	disk := lim.DiskMB << 20
	slim := procbot.CompileLimits
	slim.Memory = lim.MemoryMB << 20
	slim.Procs = lim.Procs
	slim.FileSize = min(slim.FileSize, disk)
	slim.Wall = time.Duration(lim.Wall)
	cpu := time.Duration(lim.Time)
	logs, err := newLogPipe()
	if err != nil {
		return "", err
	}
	runCtx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		watchDisk(runCtx, work, disk, stop)
	}()
	ex, overCPU, err := l.Host.RunTool(runCtx, procbot.ToolSpec{
		Argv: argv, Dir: src, Env: compileEnv(env, cache),
		Stdout: logs.w, Stderr: logs.w,
		Limits:   slim,
		ReadOnly: toolDirs(argv[0]),
		Writable: append([]string{src, out}, shared...),
	}, cpu)
	stop(nil)
	<-watched
	msg := relMessage(judge.LastLines(logs.text(), 40, 4000), work, cache)
	var over *overDisk
	switch {
	case err != nil && ctx.Err() == nil && errors.As(context.Cause(runCtx), &over) && !errors.Is(err, procbot.ErrToolAlive):
		return "", &CompileError{Message: fmt.Sprintf("the build %s\n%s", over.what, msg), Stopped: true}
	case err != nil:
		if ctx.Err() != nil && !errors.Is(err, procbot.ErrToolAlive) {
			return "", ctx.Err()
		}
		return "", fmt.Errorf("cannot run the compiler: %w", err)
	case overCPU:
		return "", &CompileError{Message: fmt.Sprintf("the compiler used more than %v of CPU time\n%s", cpu, msg), Stopped: true}
	case ex.Wall:
		return "", &CompileError{Message: fmt.Sprintf("the compiler took more than %v of wall-clock time (it used %v of CPU time)\n%s", slim.Wall, ex.CPU.Round(time.Millisecond), msg), Stopped: true}
	case ex.OOM || ex.Signaled():
		return "", &CompileError{Message: fmt.Sprintf("the compiler was %s\n%s", ex, msg), Stopped: true}
	case ex.Code != 0:
		return "", &CompileError{Message: fmt.Sprintf("%s: %s\n%s", filepath.Base(argv[0]), ex, msg)}
	}
	return msg, nil
}

// diskPoll is how often the size of a running build's directory is
// added up against its limit.
const diskPoll = 50 * time.Millisecond

// overDisk is why a build was stopped: it wrote more than its limit.
type overDisk struct{ what string }

func (e *overDisk) Error() string { return "the build " + e.what }

// watchDisk adds up the disk space of everything in dir every diskPoll
// until ctx ends, and stops the build (stop) once it passes limit bytes,
// or maxBuildEntries files: a build can write past its limit for at most
// one poll before it is killed, and it is then removed whole. (Each file
// is also bounded by the sandbox's file size limit, which is at most the
// limit.)
func watchDisk(ctx context.Context, dir string, limit int64, stop context.CancelCauseFunc) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return
	}
	defer root.Close()
	t := time.NewTicker(diskPoll)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		u := walkTree(root)
		switch {
		case u.bytes > limit:
			stop(&overDisk{fmt.Sprintf("wrote more than %d MiB in its directory", limit>>20)})
			return
		case u.entries > maxBuildEntries:
			stop(&overDisk{fmt.Sprintf("made more than %d files and directories", maxBuildEntries)})
			return
		}
	}
}

// relMessage is a compiler's message with the paths of its build made
// relative to the submission: its files by their names as uploaded
// (bad.c:3:5: error), the build's output as out/..., the build cache as
// ".". So it names nothing of where the judge keeps submissions and
// builds, and a cached failure serves any submitter of the same sources.
func relMessage(msg, work, cache string) string {
	sep := string(filepath.Separator)
	var pairs []string
	for _, c := range []string{cache, evalSymlinks(cache)} {
		w := filepath.Join(c, filepath.Base(work))
		s := filepath.Join(w, "src")
		pairs = append(pairs, s+sep, "", s, ".", w+sep, "", w, ".", c+sep, "", c, ".")
	}
	return strings.NewReplacer(pairs...).Replace(msg)
}

// toolDirs are the directories a compiler needs to see besides the system
// ones: its installation when it lives elsewhere (~/.cargo and ~/.rustup,
// ~/.pyenv).
func toolDirs(prog string) []string {
	var dirs []string
	add := func(d string) {
		if d == "" {
			return
		}
		if st, err := os.Stat(d); err == nil && st.IsDir() && !contains(dirs, d) {
			dirs = append(dirs, d)
		}
	}
	if p, err := exec.LookPath(prog); err == nil {
		for _, q := range []string{p, evalSymlinks(p)} {
			// bin/ is in a toolchain's root: show the root.
			add(filepath.Dir(filepath.Dir(q)))
		}
	}
	// rustup's proxies in ~/.cargo/bin need the toolchains in ~/.rustup.
	for _, d := range dirs {
		if filepath.Base(d) == ".cargo" {
			if rh := os.Getenv("RUSTUP_HOME"); rh != "" {
				add(rh)
			} else {
				add(filepath.Join(filepath.Dir(d), ".rustup"))
			}
			break
		}
	}
	var out []string
	for _, d := range dirs {
		switch d {
		case "/", "/usr", "/usr/local", "/bin", "/sbin", "/lib", "/lib64", "/etc":
			continue // shown anyway, or too much
		}
		out = append(out, d)
	}
	return out
}

func evalSymlinks(p string) string {
	q, err := filepath.EvalSymlinks(p)
	if err != nil {
		return p
	}
	return q
}

func copyFile(from, to string) error {
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return err
	}
	in, err := procbot.OpenFile(from)
	if err != nil {
		return &Fault{Err: err}
	}
	defer in.Close()
	st, err := in.Stat()
	if err != nil {
		return &Fault{Err: err}
	}
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, st.Mode().Perm()|0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// chmodTree sets the permissions of every directory under root.
func chmodTree(root string, mode os.FileMode) error {
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return os.Chmod(p, mode)
		}
		return nil
	})
}
