// Package browsertest starts a headless Chromium for tests that drive web
// pages with chromedp. Tests skip, saying why, where no browser is
// installed (the Makefile's tools target installs Debian's chromium).
package browsertest

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// names are the browsers tried, in order.
var names = []string{"chromium", "chromium-browser", "google-chrome", "headless-shell"}

// Find returns the path of a Chromium, or "" when there is none.
func Find() string {
	for _, n := range names {
		if p, err := exec.LookPath(n); err == nil {
			return p
		}
	}
	return ""
}

// New starts a headless Chromium with a fresh profile for the test and
// returns a chromedp context for one tab, ended with the test (or after
// timeout). It skips the test when no browser is installed.
func New(tb testing.TB, timeout time.Duration) context.Context {
	tb.Helper()
	path := Find()
	if path == "" {
		tb.Skip("no Chromium installed (Debian: apt-get install chromium; make tools does it): browser tests skipped")
	}
	profile, err := os.MkdirTemp("", "browsertest-profile-")
	if err != nil {
		tb.Fatal(err)
	}
	// Chromium's own temporary files (its singleton's socket directory,
	// which a killed browser leaves behind) go with the profile.
	tmp := filepath.Join(profile, "tmp")
	if err := os.Mkdir(tmp, 0o700); err != nil {
		tb.Fatal(err)
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.UserDataDir(filepath.Join(profile, "profile")),
		chromedp.Env("TMPDIR=" + tmp),
		chromedp.Headless,
		chromedp.NoSandbox, // as root Chromium needs it
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("mute-audio", true),
		chromedp.WindowSize(1280, 900),
	}
	ctx, cancelTimeout := context.WithTimeout(context.Background(), timeout)
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	bctx, cancelBrowser := chromedp.NewContext(actx)
	tb.Cleanup(func() {
		cancelBrowser()
		cancelAlloc() // waits for the browser to exit
		cancelTimeout()
		os.RemoveAll(profile)
	})
	if err := chromedp.Do(bctx); err != nil {
		tb.Fatalf("start %s: %v", path, err)
	}
	return bctx
}

// CanvasColors returns how many distinct colours the canvas selected by
// the CSS selector sel shows: 1 for a blank canvas.
func CanvasColors(ctx context.Context, sel string) (int, error) {
	return chromedp.Run(ctx, chromedp.Evaluate[int](`(() => {
		const c = document.querySelector(`+"`"+sel+"`"+`);
		const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
		const seen = new Set();
		for (let i = 0; i < d.length && seen.size < 1000; i += 4) seen.add((d[i] << 16) | (d[i+1] << 8) | d[i+2]);
		return seen.size;
	})()`))
}

// ScreenshotDir, when set (JUDGE_SCREENSHOTS=dir go test -run ...), is a
// directory where tests leave screenshots of the pages they saw, to look
// at as a person would.
var ScreenshotDir = os.Getenv("JUDGE_SCREENSHOTS")

// Screenshot saves what the window shows as ScreenshotDir/name.png, and
// the whole page as name-full.png, when ScreenshotDir is set.
func Screenshot(tb testing.TB, ctx context.Context, name string) {
	tb.Helper()
	if ScreenshotDir == "" {
		return
	}
	// Quality 100: a PNG.
	for suffix, a := range map[string]chromedp.Action[[]byte]{"": chromedp.CaptureScreenshot(), "-full": chromedp.FullScreenshot(100)} {
		b, err := chromedp.Run(ctx, a)
		if err != nil {
			tb.Fatalf("screenshot %s: %v", name, err)
		}
		if err := os.WriteFile(filepath.Join(ScreenshotDir, name+suffix+".png"), b, 0o644); err != nil {
			tb.Fatal(err)
		}
	}
}
