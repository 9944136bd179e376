//go:build unix

package plugin

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"judge/games/plugin/plugintest"
)

// TestCompilationCache: a referee compiled with a cache folder is kept
// there, and a second runtime of another run takes it from there (seen
// by breaking what is kept: the second runtime then fails where a
// compilation would not); the judge then compiles it without the cache.
func TestCompilationCache(t *testing.T) {
	ctx := context.Background()
	code, err := os.ReadFile(filepath.Join(plugintest.Connect4(t, false), "referee.wasm"))
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "wasm")
	c, err := compileWasm(ctx, code, 64, dir)
	if err != nil {
		t.Fatal(err)
	}
	c.rt.Close(ctx)
	var kept []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			kept = append(kept, p)
		}
		return nil
	})
	if len(kept) == 0 {
		t.Fatalf("nothing kept in %s", dir)
	}
	for _, p := range kept {
		if err := os.WriteFile(p, []byte("not compiled code"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	checked, err := addStopChecks(code)
	if err != nil {
		t.Fatal(err)
	}
	cache := openCache(dir)
	if cache == nil {
		t.Fatalf("the cache in %s is not used", dir)
	}
	if c, err := compileModule(ctx, checked, 64, true, cache); err == nil {
		c.rt.Close(ctx)
		t.Fatal("a runtime with the broken cache compiled the module: it did not read the cache")
	}
	c, err = compileWasm(ctx, code, 64, dir)
	if err != nil {
		t.Fatalf("with a broken cache: %v", err)
	}
	if !c.checked {
		t.Error("with a broken cache, compiled without the stop checks")
	}
	c.rt.Close(ctx)
}

// TestPrivateDir: a cache folder that another user could change is not
// used.
func TestPrivateDir(t *testing.T) {
	base := t.TempDir()
	if err := privateDir(filepath.Join(base, "a", "wasm")); err != nil {
		t.Errorf("a new folder: %v", err)
	}
	open := filepath.Join(base, "open")
	if err := os.Mkdir(open, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(open, 0o777); err != nil { // past the umask
		t.Fatal(err)
	}
	if err := privateDir(open); err == nil {
		t.Error("a folder all may write: used")
	}
	if err := privateDir(filepath.Join(open, "wasm")); err == nil {
		t.Error("a folder in one all may write (not sticky): used")
	}
	if err := os.Chmod(open, 0o777|os.ModeSticky); err != nil {
		t.Fatal(err)
	}
	if err := privateDir(filepath.Join(open, "wasm2")); err != nil {
		t.Errorf("a folder in a sticky one all may write (as /tmp): %v", err)
	}
	link := filepath.Join(base, "link")
	if err := os.Symlink(open, link); err != nil {
		t.Fatal(err)
	}
	if err := privateDir(link); err == nil {
		t.Error("a link to a folder all may write: used")
	}
}
