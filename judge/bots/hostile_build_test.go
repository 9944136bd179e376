//go:build unix

package bots

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"judge/judge/judgetest"
)

// Builds are hostile code: an entrant's upload is compiled, and what the
// build leaves is read by the judge. Each test here is an attack by a
// build, with the judge's answer.

// victim is a file outside every build, which no build may change.
func victim(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "victim")
	if err := os.WriteFile(p, []byte("the victim's own content\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func checkVictim(t *testing.T, p string) {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != "the victim's own content\n" {
		t.Errorf("the build changed %s: it holds %q", p, b)
	}
}

// shLanguages are languages with one, sh, whose compile is script run by
// /bin/sh with the main source ($1) and the output directory ($2), in the
// source directory; limits is the [limits] table, or "".
func shLanguages(t *testing.T, script, limits string) *Languages {
	t.Helper()
	langs, err := LoadLanguages(writeLanguages(t, limits+`
[language.sh]
extensions = ["sh"]
compile = ["/bin/sh", "-c", `+quoteTOML(script)+`, "compile", "{src}", "{out}"]
run = ["/bin/sh", "{src}"]
`))
	if err != nil {
		t.Fatal(err)
	}
	langs.Host = judgetest.Host()
	return langs
}

// submit writes files into a new submission directory and detects it.
func submit(t *testing.T, langs *Languages, files map[string]string) *Submission {
	t.Helper()
	dir := filepath.Join(judgetest.TempDir(t), "upload")
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s, err := langs.Detect(dir)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// cacheNames lists what a build cache holds at its top, but the shared
// directories of languages.
func cacheNames(t *testing.T, cache string) []string {
	t.Helper()
	entries, err := os.ReadDir(cache)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if e.Name() != "go-build" && e.Name() != "gopath" {
			names = append(names, e.Name())
		}
	}
	return names
}

// noWork fails when a work directory (KEY.tmp-N) is left in cache.
func noWork(t *testing.T, cache string) {
	t.Helper()
	for _, n := range cacheNames(t, cache) {
		if strings.Contains(n, ".tmp-") {
			t.Errorf("the build cache still holds %s", n)
		}
	}
}

func buildCtx(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

// A build that leaves a link or a special file, wherever in its directory,
// is refused as the submission's compile error, and the judge follows no
// link it left: not the one named like the judge's own built.json, not one
// that resolves only once another build exists. Nothing of it stays in the
// cache but the reason.
func TestBuildLeavingLinksIsRefused(t *testing.T) {
	for _, tc := range []struct {
		name, script, want string
	}{
		{"link to a file outside", `ln -s "$VICTIM" "$2/bot"; ln -s "$VICTIM" ../built.json; true`,
			"out/bot (a symbolic link)"},
		{"link that resolves later", `ln -s ../../0123456789abcdef/src/bot.sh later.sh`, "src/later.sh (a symbolic link)"},
		{"the source replaced by a link", `rm "$1" && ln -s "$VICTIM" "$1"`, "src/bot.sh (a symbolic link)"},
		{"FIFO", `mkfifo "$2/fifo"`, "out/fifo (a FIFO)"},
		{"hard link", `echo x > "$2/a" && ln "$2/a" "$2/b"`, "a hard link"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := victim(t)
			langs := shLanguages(t, "VICTIM="+v+"; "+tc.script, "")
			s := submit(t, langs, map[string]string{"bot.sh": "echo hi\n"})
			cache := judgetest.TempDir(t)
			_, err := langs.Build(buildCtx(t, time.Minute), s, cache)
			var ce *CompileError
			if !errors.As(err, &ce) {
				t.Fatalf("build: %v, want a compile error", err)
			}
			if !strings.Contains(ce.Message, tc.want) || !strings.Contains(ce.Message, "a build may leave only regular files and directories") {
				t.Errorf("compile error %q, want it to name %q", ce.Message, tc.want)
			}
			checkVictim(t, v)
			key, _ := s.Key()
			if got := cacheNames(t, cache); len(got) != 1 || got[0] != key+".failed" {
				t.Errorf("the cache holds %q, want only %s.failed", got, key)
			}
			// Asked again, the cached reason.
			_, err = langs.Build(buildCtx(t, time.Minute), s, cache)
			if !errors.As(err, &ce) || !strings.Contains(ce.Message, tc.want) {
				t.Errorf("built again: %v, want the same compile error", err)
			}
			checkVictim(t, v)
		})
	}
}

// Files the judge reads back from its cache are never read through a
// link: a KEY.failed that is a link to a file outside is not quoted as a
// compile error, a built.json that is a link is not taken for a build.
func TestCachedFilesAreNotReadThroughLinks(t *testing.T) {
	langs := shLanguages(t, `false`, "")
	s := submit(t, langs, map[string]string{"bot.sh": "echo hi\n"})
	cache := judgetest.TempDir(t)
	key, _ := s.Key()
	secret := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(secret, []byte("a secret of the server\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, filepath.Join(cache, key+".failed")); err != nil {
		t.Fatal(err)
	}
	_, err := langs.Build(buildCtx(t, time.Minute), s, cache)
	if err == nil || strings.Contains(err.Error(), "secret") {
		t.Errorf("build: %v, want the compiler's own failure", err)
	}

	v := victim(t)
	langs = shLanguages(t, `true`, "")
	s = submit(t, langs, map[string]string{"bot.sh": "echo hi\n"})
	cache = judgetest.TempDir(t)
	key, _ = s.Key()
	if err := os.MkdirAll(filepath.Join(cache, key, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(v, []byte(`{"argv":["/bin/evil"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(v, filepath.Join(cache, key, "built.json")); err != nil {
		t.Fatal(err)
	}
	b, err := langs.Build(buildCtx(t, time.Minute), s, cache)
	if err == nil && strings.Contains(strings.Join(b.Argv, " "), "evil") {
		t.Errorf("the build's command is %q, read through a link", b.Argv)
	}
}

// A build found in the cache with a link in it is not used, nor is the
// submission blamed: the build was checked when it ended, so the link
// was made since, by a tool outside the sandbox (perf's build-id cache
// hard-links the programs it profiles) or by an older judge. It is set
// aside, to be removed with stale work, and built again.
func TestCachedBuildWithALinkIsBuiltAgain(t *testing.T) {
	for _, tc := range []struct {
		name string
		link func(t *testing.T, build, cache string)
	}{
		{"symbolic link", func(t *testing.T, build, _ string) {
			if err := os.Symlink("/etc/passwd", filepath.Join(build, "out", "old")); err != nil {
				t.Fatal(err)
			}
		}},
		{"hard link from outside", func(t *testing.T, build, cache string) {
			if err := os.Link(filepath.Join(build, "src", "bot.sh"), filepath.Join(cache, "profiled")); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			langs := shLanguages(t, `true`, "")
			s := submit(t, langs, map[string]string{"bot.sh": "echo hi\n"})
			cache := judgetest.TempDir(t)
			if _, err := langs.Build(buildCtx(t, time.Minute), s, cache); err != nil {
				t.Fatal(err)
			}
			key, _ := s.Key()
			build := filepath.Join(cache, key)
			tc.link(t, build, cache)
			b, err := langs.Build(buildCtx(t, time.Minute), s, cache)
			if err != nil {
				t.Fatalf("built again: %v, want a build", err)
			}
			if why, _, err := checkTree(build, 0); err != nil || why != "" || b.Dir != filepath.Join(build, "src") {
				t.Errorf("the build in the cache: %q, %v (its directory %s)", why, err, b.Dir)
			}
			var aside []string
			for _, n := range cacheNames(t, cache) {
				if strings.HasPrefix(n, key+".tmp-") {
					aside = append(aside, n)
				}
			}
			if len(aside) != 1 {
				t.Errorf("set aside: %q, want one %s.tmp-N", aside, key)
			}
			if err := RemoveStaleBuilds(cache); err != nil {
				t.Fatal(err)
			}
			noWork(t, cache)
		})
	}
}

// What a build may write in its directory is bounded as a whole, not only
// file by file, while it runs: a build that writes more, in files each
// under the file size limit, is stopped before it ends, and nothing of it
// is left in the cache.
func TestBuildDiskIsBoundedWhileItRuns(t *testing.T) {
	for _, tc := range []struct{ name, script string }{
		// Four files of 90 MiB, 360 MiB in all, over the default 256.
		{"stopped while it runs", `for i in 1 2 3 4; do head -c 94371840 /dev/zero > "$2/f$i" || exit 1; done; sleep 60`},
		// Past the limit, and done before the judge looks.
		{"seen at its end", `for i in 1 2 3 4; do head -c 94371840 /dev/zero > "$2/f$i" || exit 1; done`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			langs := shLanguages(t, tc.script, "")
			if langs.Limits.DiskMB != 256 {
				t.Fatalf("disk limit %d MiB, want 256 by default", langs.Limits.DiskMB)
			}
			s := submit(t, langs, map[string]string{"bot.sh": "echo hi\n"})
			cache := judgetest.TempDir(t)
			start := time.Now()
			_, err := langs.Build(buildCtx(t, 2*time.Minute), s, cache)
			took := time.Since(start)
			var ce *CompileError
			if !errors.As(err, &ce) || !strings.Contains(ce.Message, "wrote more than 256 MiB") || !ce.Stopped {
				t.Fatalf("build: %v (stopped: %v), want it stopped for writing more than 256 MiB", err, ce != nil && ce.Stopped)
			}
			if took > 30*time.Second {
				t.Errorf("the build was stopped after %v: not while it ran", took)
			}
			if got := cacheNames(t, cache); len(got) != 0 {
				t.Errorf("the cache holds %q, want nothing", got)
			}
		})
	}
}

// A compile whose output is huge (a macro bomb of 167 bytes makes gcc
// print about 50 MB) costs the judge only the tail it keeps: no temporary
// file, and no more memory than that tail, whatever the compiler prints.
func TestCompileLogIsBounded(t *testing.T) {
	judgetest.NeedTools(t, "gcc")
	tmp := judgetest.TempDir(t)
	t.Setenv("TMPDIR", tmp)
	langs, err := LoadLanguages("")
	if err != nil {
		t.Fatal(err)
	}
	langs.Host = judgetest.Host()
	s := submit(t, langs, map[string]string{"bad.c": `#define a 1=1;
#define b a a a a a a a a
#define c b b b b b b b b
#define d c c c c c c c c
#define e d d d d d d d d
#define f e e e e e e e e
void g(void){f f}
`})
	cache := judgetest.TempDir(t)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err = langs.Build(buildCtx(t, 2*time.Minute), s, cache)
	runtime.ReadMemStats(&after)
	var ce *CompileError
	if !errors.As(err, &ce) || !strings.Contains(ce.Message, "lvalue required") {
		t.Fatalf("build: %v, want gcc's error", err)
	}
	if len(ce.Message) > 4200 {
		t.Errorf("the compile error is %d bytes long", len(ce.Message))
	}
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("the judge allocated %.1f MiB for the build", float64(alloc)/(1<<20))
	if alloc > 16<<20 {
		t.Errorf("the judge allocated %d MiB for the build: it read the whole output", alloc>>20)
	}
	if left, _ := filepath.Glob(filepath.Join(tmp, "*")); len(left) > 0 {
		t.Errorf("the build left %q in TMPDIR", left)
	}
}

// A compile error names the submission's files as they were uploaded, and
// nothing of where the judge keeps them: the same failing sources sent by
// two entrants give each the same message, cached once, that names
// neither.
func TestCompileErrorNamesNoSubmitter(t *testing.T) {
	judgetest.NeedTools(t, "gcc")
	langs, err := LoadLanguages("")
	if err != nil {
		t.Fatal(err)
	}
	langs.Host = judgetest.Host()
	base := judgetest.TempDir(t)
	cache := filepath.Join(base, "builds")
	var msgs []string
	for _, who := range []string{"6/carol", "7/dave"} {
		dir := filepath.Join(base, "submissions", who)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "bad.c"), []byte("int main(void) {\n    return x;\n}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := langs.Detect(dir)
		if err != nil {
			t.Fatal(err)
		}
		_, err = langs.Build(buildCtx(t, time.Minute), s, cache)
		var ce *CompileError
		if !errors.As(err, &ce) {
			t.Fatalf("%s: build: %v, want a compile error", who, err)
		}
		// The error names the submission as its author knows it.
		if want := filepath.Base(who); ce.Name != want || strings.Contains(err.Error(), base) {
			t.Errorf("%s: the compile error names it %q, want %q; it says %q", who, ce.Name, want, err)
		}
		msgs = append(msgs, ce.Message)
	}
	for i, m := range msgs {
		if !strings.Contains(m, "\nbad.c:2:12: error:") {
			t.Errorf("message %d does not name bad.c as uploaded:\n%s", i, m)
		}
		for _, name := range []string{"carol", "dave", "submissions", base, "builds", ".tmp-"} {
			if strings.Contains(m, name) {
				t.Errorf("message %d names %q:\n%s", i, name, m)
			}
		}
	}
	if msgs[0] != msgs[1] {
		t.Errorf("the two entrants were told\n%s\nand\n%s", msgs[0], msgs[1])
	}
}

// A build has its own wall-clock limit, well under a minute by default and
// set in [limits]; its CPU time limit is at most that.
func TestBuildWallLimit(t *testing.T) {
	def, err := LoadLanguages("")
	if err != nil {
		t.Fatal(err)
	}
	def.Host = judgetest.Host()
	if w := time.Duration(def.Limits.Wall); w <= 0 || w > 30*time.Second || def.Limits.Time > def.Limits.Wall {
		t.Errorf("built-in limits: time %v, wall %v; want wall at most 30s and time at most wall",
			time.Duration(def.Limits.Time), w)
	}
	if _, err := LoadLanguages(writeLanguages(t, "[limits]\ntime = \"10s\"\nwall = \"5s\"\n[language.sh]\nextensions = [\"sh\"]\nrun = [\"sh\"]\n")); err == nil {
		t.Error("time 10s and wall 5s were accepted")
	}
	langs := shLanguages(t, `sleep 600`, "[limits]\ntime = \"1s\"\nwall = \"2s\"\n")
	s := submit(t, langs, map[string]string{"bot.sh": "echo hi\n"})
	cache := judgetest.TempDir(t)
	start := time.Now()
	_, err = langs.Build(buildCtx(t, 2*time.Minute), s, cache)
	var ce *CompileError
	if !errors.As(err, &ce) || !strings.Contains(ce.Message, "more than 2s of wall-clock time") || !ce.Stopped || strings.ContainsRune(ce.Message, 0) {
		t.Fatalf("build: %v (stopped: %v), want it stopped after 2s", err, ce != nil && ce.Stopped)
	}
	if took := time.Since(start); took > 30*time.Second {
		t.Errorf("the build was stopped after %v", took)
	}
	noWork(t, cache)
}

var evilOnce struct {
	sync.Once
	dir string
	err error
}

// evilProcessor compiles an annotation processor, Evil, that does at
// javac's start what the file evil.txt in javac's working directory says,
// one line each: "link NAME TARGET" makes a symbolic link, "sleep N"
// sleeps N seconds, "touch NAME" makes a file. It returns the directory
// of Evil.class.
func evilProcessor(t *testing.T) string {
	t.Helper()
	judgetest.NeedTools(t, "javac")
	evilOnce.Do(func() {
		dir, err := os.MkdirTemp("", "evil-processor-")
		if err != nil {
			evilOnce.err = err
			return
		}
		src := filepath.Join(dir, "Evil.java")
		err = os.WriteFile(src, []byte(`import java.nio.file.*;
import java.util.Set;
import javax.annotation.processing.*;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.TypeElement;

@SupportedAnnotationTypes("*")
public class Evil extends AbstractProcessor {
    @Override public SourceVersion getSupportedSourceVersion() { return SourceVersion.latestSupported(); }

    @Override public synchronized void init(ProcessingEnvironment env) {
        super.init(env);
        try {
            for (String line : Files.readAllLines(Paths.get("evil.txt"))) {
                String[] w = line.split(" ");
                try {
                    switch (w[0]) {
                    case "link": Files.createSymbolicLink(Paths.get(w[1]), Paths.get(w[2])); break;
                    case "sleep": Thread.sleep(Long.parseLong(w[1]) * 1000); break;
                    case "touch": Files.write(Paths.get(w[1]), new byte[0]); break;
                    }
                } catch (Exception e) {
                    System.err.println("evil: " + line + ": " + e);
                }
            }
        } catch (Exception e) {
            System.err.println("evil: " + e);
        }
    }

    @Override public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) { return false; }
}
`), 0o644)
		if err == nil {
			var out []byte
			out, err = exec.Command("javac", "-d", dir, src).CombinedOutput()
			if err != nil {
				err = errors.New(string(out))
			}
		}
		evilOnce.dir, evilOnce.err = dir, err
	})
	if evilOnce.err != nil {
		t.Fatal(evilOnce.err)
	}
	return evilOnce.dir
}

// A Java upload that brings an annotation processor (its class and the
// META-INF/services file that names it) does not get it run by javac: it
// cannot plant a link where the judge writes, nor hold the builder.
func TestJavaBuildRunsNoProcessor(t *testing.T) {
	for _, tc := range []struct{ name, evil string }{
		{"link", "touch ran\nlink ../built.json VICTIM\nlink later.txt ../../0123456789abcdef/src/Main.java\n"},
		{"sleep", "touch ran\nsleep 600\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			evil := evilProcessor(t)
			class, err := os.ReadFile(filepath.Join(evil, "Evil.class"))
			if err != nil {
				t.Fatal(err)
			}
			langs, err := LoadLanguages("")
			if err != nil {
				t.Fatal(err)
			}
			langs.Host = judgetest.Host()
			v := victim(t)
			s := submit(t, langs, map[string]string{
				"Main.java":  "public class Main { public static void main(String[] a) { System.out.println(\"hi\"); } }\n",
				"Evil.class": string(class),
				"META-INF/services/javax.annotation.processing.Processor": "Evil\n",
				"evil.txt": strings.ReplaceAll(tc.evil, "VICTIM", v),
			})
			cache := judgetest.TempDir(t)
			start := time.Now()
			b, err := langs.Build(buildCtx(t, 3*time.Minute), s, cache)
			took := time.Since(start)
			checkVictim(t, v)
			if err != nil {
				t.Fatalf("build: %v", err)
			}
			if took > time.Minute {
				t.Errorf("the build took %v", took)
			}
			if _, err := os.Lstat(filepath.Join(b.Dir, "ran")); err == nil {
				t.Error("javac ran the upload's annotation processor")
			}
			if st, err := os.Lstat(filepath.Join(filepath.Dir(b.Dir), "built.json")); err != nil || !st.Mode().IsRegular() {
				t.Errorf("built.json: %v, %v", st, err)
			}
		})
	}
}

// Go's first build into a new cache compiles the standard packages it
// uses, a minute on a busy machine: the judge's warm-up does that first,
// outside the entrant's limit, so that a Go bot builds within a limit of
// a few seconds even then.
func TestGoFirstBuildIsWarm(t *testing.T) {
	judgetest.NeedTools(t, "go")
	def, err := LoadLanguages("")
	if err != nil {
		t.Fatal(err)
	}
	def.Host = judgetest.Host()
	langs, err := LoadLanguages(writeLanguages(t, "[limits]\ntime = \"4s\"\n\n[language.go]\n"+goTable(t, def)))
	if err != nil {
		t.Fatal(err)
	}
	langs.Host = judgetest.Host()
	s, err := langs.Detect(filepath.Join(judgetest.Root(t), "examples/gomoku/strong"))
	if err != nil {
		t.Fatal(err)
	}
	cache := judgetest.TempDir(t)
	start := time.Now()
	if _, err := langs.Build(buildCtx(t, 5*time.Minute), s, cache); err != nil {
		t.Fatalf("build: %v", err)
	}
	t.Logf("warm-up and build: %v", time.Since(start).Round(time.Millisecond))
	noWork(t, cache)
}

// goTable is the built-in [language.go] table, as TOML.
func goTable(t *testing.T, l *Languages) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(judgetest.Root(t), "configs/languages.toml"))
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(b), "[language.go]\n")
	if !ok {
		t.Fatal("no [language.go] in configs/languages.toml")
	}
	table, _, _ := strings.Cut(after, "\n[language.")
	return table
}

// A live build's work directory is not touched by RemoveStaleBuilds, and
// is removed by its build when it is cancelled.
func TestRemoveStaleBuildsSparesLiveOnes(t *testing.T) {
	langs := shLanguages(t, `touch "$2/started"; sleep 60`, "")
	s := submit(t, langs, map[string]string{"bot.sh": "echo hi\n"})
	cache := judgetest.TempDir(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := langs.Build(ctx, s, cache)
		done <- err
	}()
	work := waitStarted(t, cache)
	if err := RemoveStaleBuilds(cache); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(work); err != nil {
		t.Errorf("RemoveStaleBuilds removed a live build: %v", err)
	}
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("build: %v, want it cancelled", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("the build did not end a minute after it was cancelled")
	}
	noWork(t, cache)
}

// waitStarted waits for a build's compile to have written out/started
// and returns its work directory.
func waitStarted(t *testing.T, cache string) string {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		m, _ := filepath.Glob(filepath.Join(cache, "*.tmp-*", "out", "started"))
		if len(m) > 0 {
			return filepath.Dir(filepath.Dir(m[0]))
		}
	}
	t.Fatal("the build did not start within a minute")
	return ""
}

// A judge killed (kill -9) while it builds leaves no temporary file, and
// its work directory, which nobody holds any more, is removed by
// RemoveStaleBuilds. The judge is this test binary, run again.
func TestKilledBuildLeavesNothing(t *testing.T) {
	if cache := os.Getenv("BOTS_TEST_BUILD_CACHE"); cache != "" {
		langs := shLanguages(t, `touch "$2/started"; echo a line of the log; sleep 60`, "")
		s := submit(t, langs, map[string]string{"bot.sh": "echo hi\n"})
		_, err := langs.Build(buildCtx(t, 2*time.Minute), s, cache)
		t.Fatalf("the build ended (%v): it should have been killed", err)
	}
	cache, tmp := judgetest.TempDir(t), judgetest.TempDir(t)
	cmd := exec.Command(os.Args[0], "-test.run=^TestKilledBuildLeavesNothing$", "-test.count=1")
	cmd.Env = append(os.Environ(), "BOTS_TEST_BUILD_CACHE="+cache, "TMPDIR="+tmp)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	work := waitStarted(t, cache)
	t.Logf("killing the judge building in %s", work)
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	if left, _ := filepath.Glob(filepath.Join(tmp, "compile-*")); len(left) > 0 {
		t.Errorf("the killed build left %q", left)
	}
	if m, _ := filepath.Glob(filepath.Join(cache, "*.tmp-*")); len(m) != 1 {
		t.Fatalf("the killed build left %q, want its work directory", m)
	}
	// The sandbox's processes end once their judge is gone, but maybe not
	// yet: their files do not hold the lock. A child the judge was forking
	// as it was killed does, until it executes (a loaded machine may
	// keep it waiting for a CPU): the work is removed once it is nobody's.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if err := RemoveStaleBuilds(cache); err != nil {
			t.Fatal(err)
		}
		if m, _ := filepath.Glob(filepath.Join(cache, "*.tmp-*")); len(m) == 0 || time.Now().After(deadline) {
			break
		}
	}
	noWork(t, cache)
}

// A finished build is the judge's: when the judge is root, the files the
// sandbox's user made are given to it, with plain modes and no setuid, so
// that no later program of that user can change them.
func TestBuildIsTheJudges(t *testing.T) {
	langs := shLanguages(t, `echo x > "$2/bot" && chmod 4777 "$2/bot" && mkdir "$2/d" && chmod 777 "$2/d" && echo y > "$2/d/f" && chmod 666 "$2/d/f"`, "")
	s := submit(t, langs, map[string]string{"bot.sh": "echo hi\n"})
	b, err := langs.Build(buildCtx(t, time.Minute), s, judgetest.TempDir(t))
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(filepath.Dir(b.Dir), "out")
	for name, want := range map[string]os.FileMode{"bot": 0o755, "d": os.ModeDir | 0o755, "d/f": 0o644} {
		st, err := os.Lstat(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode() != want {
			t.Errorf("out/%s: mode %v, want %v", name, st.Mode(), want)
		}
		if uid := int(st.Sys().(*syscall.Stat_t).Uid); os.Geteuid() == 0 && uid != 0 {
			t.Errorf("out/%s belongs to user %d, not to the judge", name, uid)
		}
	}
}
