package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"

	"judge/judge"
	"judge/judge/replayview"
)

func (m *Main) view(_ context.Context, args []string) error {
	fs := m.newFlags("view", "[flags] REPLAY",
		"Writes a replay viewer: one HTML file, with nothing to fetch, that draws the match\n"+
			"turn by turn on a canvas (step, scrub, play at a chosen speed; keys ← → space),\n"+
			"with each bot's status, times, queries, move, transcript and stderr beside the\n"+
			"board. The moves are checked against the game's rules as they are decoded.")
	out := fs.String("o", "", "the HTML file to write (default: REPLAY with .html for .json)")
	gameDir, configFile := replayGameFlags(fs)
	open := fs.Bool("open", false, "open the file in a web browser (xdg-open; open on macOS, explorer on Windows) once written")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if err := addPluginGames(*configFile, nil); err != nil {
		return err
	}
	if len(pos) != 1 {
		return fmt.Errorf("%w: want one replay file, got %d arguments", errUsage, len(pos))
	}
	path, err := writeViewer(m.Stderr, pos[0], *out, *gameDir)
	if err != nil {
		return err
	}
	fmt.Fprintln(m.Stdout, path)
	if *open {
		return openBrowser(path)
	}
	return nil
}

// writeViewer writes the viewer of the replay file at path to out (by
// default path with .html for .json) and returns out.
func writeViewer(w io.Writer, path, out, gameDir string) (string, error) {
	rp, err := readReplay(path)
	if err != nil {
		return "", err
	}
	v, err := replayGame(w, rp, gameDir)
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	if out == "" {
		out = strings.TrimSuffix(path, ".json") + ".html"
	}
	err = judge.WriteAtomic(out, 0o666, func(f *os.File) error {
		return replayview.WriteHTML(f, v.Game, rp)
	})
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	return out, nil
}

// openReplay writes the viewer of a replay file beside it and opens it in
// a web browser: what a tournament's option to watch its replays calls.
func openReplay(replayPath string) error {
	path, err := writeViewer(io.Discard, replayPath, "", "")
	if err != nil {
		return err
	}
	return openBrowser(path)
}

// openBrowser asks the desktop to open the file at path in a browser.
func openBrowser(path string) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	return openURL(abs)
}

// opener is the program that asks the desktop for a browser: xdg-open,
// open on macOS, explorer on Windows.
var opener = func() string {
	switch runtime.GOOS {
	case "darwin":
		return "open"
	case "windows":
		return "explorer"
	}
	return "xdg-open"
}()

// openURL asks the desktop to open a URL or a file in a browser.
func openURL(url string) error {
	path, err := exec.LookPath(opener)
	if err != nil {
		return fmt.Errorf("no %s to start a browser with: open %s in one", opener, url)
	}
	cmd := exec.Command(path, url)
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("%s: %w", opener, err)
	}
	go cmd.Wait() // reaps xdg-open, which returns once the browser is asked
	return nil
}

func readReplay(path string) (*judge.Replay, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rp, err := judge.ReadReplay(f)
	if errors.Is(err, judge.ErrStandings) {
		dir := filepath.Dir(path)
		return nil, fmt.Errorf("%s is not a replay but a tournament's standings: 'judge serve %s' shows them with the tournament's replays, which are in %s", path, dir, filepath.Join(dir, "replays"))
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return rp, nil
}
