package browsertest

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// chromiumTemps lists Chromium's temporary directories in the system's
// temporary directory.
func chromiumTemps(t *testing.T) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(os.TempDir(), "org.chromium.Chromium.*"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestNewLeavesNothing: a test's browser, ended with the test, leaves
// nothing in the system's temporary directory (Chromium's singleton
// leaves a directory there when it is killed).
func TestNewLeavesNothing(t *testing.T) {
	before := chromiumTemps(t)
	t.Run("browser", func(t *testing.T) {
		ctx := New(t, 30*time.Second)
		if n, err := chromedp.Run(ctx, chromedp.Evaluate[int]("1 + 1")); err != nil || n != 2 {
			t.Fatalf("the browser computed %d, %v", n, err)
		}
	})
	for _, d := range chromiumTemps(t) {
		if !slices.Contains(before, d) {
			t.Errorf("the browser left %s", d)
		}
	}
}
