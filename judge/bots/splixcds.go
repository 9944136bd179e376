package bots

import (
	"archive/zip"
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"judge/games"
	"judge/games/catalog"
	"judge/judge"
	"judge/judge/procbot"
)

// A Splix Java player's build gets a class-data-sharing archive (AppCDS)
// of the classes its first turn loads, the host's, the player's and the
// JDK's beyond the JDK's own archive: the JVM maps them at start rather
// than loading, verifying and linking them again in every match. It is
// made once, when the player is built: the host plays one turn of a Splix
// game in the sandbox with -XX:ArchiveClassesAtExit, its queries answered
// from a real game, and the archive is kept beside the classes. Matches
// run -XX:SharedArchiveFile, which only reads it. The JVM archives only
// classes from JAR files, so the build's classes are put in one too.
const (
	cdsJar    = "host.jar"
	cdsFile   = "host.jsa"
	cdsFailed = "host.jsa.failed" // why the archive could not be made
	cdsCPU    = 30 * time.Second  // of the JVM's CPU time to make it
)

// shareClasses returns b run with its class-data-sharing archive, made
// first when b has none. A build that cannot have one (its run line has
// no class path of its own, or the JVM could not make the archive: the
// reason is kept in the build, so that it is not tried again) is returned
// as it is: the archive only saves time.
func shareClasses(ctx context.Context, h *procbot.Host, b *Build) *Build {
	out := filepath.Join(filepath.Dir(b.Dir), "out")
	cp := slices.Index(b.Argv, out)
	if cp < 1 || b.Argv[cp-1] != "-cp" && b.Argv[cp-1] != "-classpath" {
		return b
	}
	jar, jsa := filepath.Join(out, cdsJar), filepath.Join(out, cdsFile)
	with := func(flag string) []string {
		argv := slices.Clone(b.Argv)
		argv[cp] = jar
		return slices.Insert(argv, 1, flag)
	}
	shared := &Build{Argv: with("-XX:SharedArchiveFile=" + jsa), Dir: b.Dir, Key: b.Key}
	if _, err := os.Stat(jsa); err == nil {
		return shared
	}
	if _, err := os.Stat(filepath.Join(out, cdsFailed)); err == nil {
		return b
	}
	if err := makeArchive(ctx, h, out, jar, jsa, b.Dir, with); err != nil {
		if ctx.Err() == nil {
			_ = os.WriteFile(filepath.Join(out, cdsFailed), []byte(err.Error()+"\n"), 0o644)
		}
		return b
	}
	return shared
}

// makeArchive puts the classes of out in jar, then runs the host with
// -XX:ArchiveClassesAtExit for one turn and moves its archive to jsa.
func makeArchive(ctx context.Context, h *procbot.Host, out, jar, jsa, dir string, with func(string) []string) error {
	if err := writeJar(out, jar); err != nil {
		return err
	}
	// A work directory of the cache, KEY.cds.tmp-N, locked while it is
	// used, so that RemoveStaleBuilds removes it after a kill.
	w, err := newWork(filepath.Dir(filepath.Dir(out)), filepath.Base(filepath.Dir(out))+".cds")
	if err != nil {
		return err
	}
	defer w.close(false)
	tmp := w.path
	// The sandbox's user writes the archive.
	if err := os.Chmod(tmp, 0o777); err != nil {
		return err
	}
	lim := procbot.DefaultLimits
	lim.Wall = 10 * cdsCPU
	argv := expand(with("-XX:ArchiveClassesAtExit="+filepath.Join(tmp, cdsFile)), RunVars(lim.Memory))
	// The player's code runs: its output is kept as a compiler's is (its
	// tail, from a pipe), and what it leaves is checked.
	logs, err := newLogPipe()
	if err != nil {
		return err
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		return err
	}
	defer inR.Close()
	defer inW.Close()
	outR, outW, err := os.Pipe()
	if err != nil {
		return err
	}
	defer outR.Close()
	played := make(chan error, 1)
	go func() { played <- playFirstTurn(outR, inW) }()
	ex, overCPU, err := h.RunTool(ctx, procbot.ToolSpec{
		Argv: argv, Dir: dir, Env: procbot.Env(nil, 1, lim.Memory),
		Stdin: inR, Stdout: outW, Stderr: logs.w,
		Limits:   lim,
		ReadOnly: append(toolDirs(argv[0]), filepath.Dir(out)),
		Writable: []string{tmp},
	}, cdsCPU)
	outW.Close() // the host's end is closed: the turn's reader sees the end
	perr := <-played
	text := []byte(judge.LastLines(logs.text(), 40, 4000))
	switch {
	case err != nil:
		return err
	case overCPU || ex.Wall || ex.Code != 0 || ex.Signaled():
		return fmt.Errorf("the JVM making the archive: %v (%v of CPU time): %s", ex, ex.CPU, strings.TrimSpace(string(text)))
	case perr != nil:
		return fmt.Errorf("the host's first turn: %w: %s", perr, strings.TrimSpace(string(text)))
	}
	if why, _, err := checkTree(tmp, 0); err != nil || why != "" {
		return fmt.Errorf("the JVM making the archive: %v%s", err, why)
	}
	return os.Rename(filepath.Join(tmp, cdsFile), jsa)
}

// playFirstTurn answers the host's queries (read from r) as seat 0 of a
// Splix game at the contest's size answers them, until the host ends its
// first turn; then it closes w, and the host, asking for its second turn,
// finds the game over and exits.
func playFirstTurn(r io.Reader, w io.WriteCloser) error {
	defer w.Close()
	v, err := catalog.Lookup("splix")
	if err != nil {
		return err
	}
	params, err := v.Resolve(games.Params{"players": 5})
	if err != nil {
		return err
	}
	st, err := v.Game.New(params, 1)
	if err != nil {
		return err
	}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "#END" {
			return nil
		}
		ans, err := st.Query(0, games.ParseLine(line))
		if errors.Is(err, games.ErrNotQuery) {
			continue // its move
		}
		if err != nil {
			return err
		}
		if _, err := io.WriteString(w, ans+"\n"); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	return errors.New("the host ended before its first #END")
}

// writeJar puts the files under out in a JAR (a zip file) at jar, unless
// one is there already: an archive names the JAR by its size and time,
// which must not change under it.
func writeJar(out, jar string) error {
	if _, err := os.Stat(jar); err == nil {
		return nil
	}
	f, err := os.CreateTemp(out, ".host-*.jar")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	defer f.Close()
	zw := zip.NewWriter(f)
	err = filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() || filepath.Dir(p) == out && !strings.HasSuffix(p, ".class") {
			return err // the top holds the JAR, the archive and packages
		}
		rel, _ := filepath.Rel(out, p)
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		dst, err := zw.Create(filepath.ToSlash(rel))
		if err != nil {
			return err
		}
		_, err = dst.Write(src)
		return err
	})
	if err == nil {
		err = zw.Close()
	}
	if err == nil {
		err = f.Chmod(0o644)
	}
	if err == nil {
		err = f.Close()
	}
	if err != nil {
		return fmt.Errorf("the classes' JAR: %w", err)
	}
	// Linked, not renamed: a JAR another judge made meanwhile stays.
	if err := os.Link(f.Name(), jar); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("the classes' JAR: %w", err)
	}
	return nil
}
