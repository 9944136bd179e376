package bots

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"judge/judge/judgetest"
)

// treeHash is the sha256 of every file's name and contents under dir.
func treeHash(t *testing.T, dir string) string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	h := sha256.New()
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(dir, f)
		h.Write([]byte(rel + "\x00"))
		h.Write(b)
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// The same source gives the same program wherever it is built: in
// another build cache, under another path, on another machine. Shards of
// a tournament then agree on what every bot is, and replays on their
// sha256.
func TestReproducibleBuilds(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every compiler twice")
	}
	root := judgetest.Root(t)
	langs, err := LoadLanguages(filepath.Join(root, "configs/languages.toml"))
	if err != nil {
		t.Fatal(err)
	}
	langs.Host = judgetest.Host()
	for _, tc := range []struct {
		lang, tool string
		src        string // a file or directory under root
	}{
		{"c", "gcc", "examples/gomoku/random.c"},
		{"cpp", "g++", ""},
		{"go", "go", "examples/gomoku/strong"},
		{"rust", "rustc", "examples/connect4/alphabeta.rs"},
		{"java", "javac", "examples/gomoku/RandomBot.java"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			if _, err := exec.LookPath(tc.tool); err != nil {
				t.Skipf("%s is not installed", tc.tool)
			}
			var hashes []string
			// Two copies of the source in directories of different names
			// and depths, built into two caches likewise.
			for i, where := range []string{"a", "a-much-longer/and/deeper"} {
				base := filepath.Join(judgetest.TempDir(t), where)
				var src string
				if tc.src == "" {
					// assert names its file: __FILE__ is a path in the program.
					src = filepath.Join(base, "bot.cpp")
					if err := os.MkdirAll(base, 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(src, []byte("#include <iostream>\n#include <cassert>\nint main(int argc, char **argv) {\n  assert(argc > 0);\n  std::string s;\n  while (std::cin >> s) std::cout << s << std::endl;\n}\n"), 0o644); err != nil {
						t.Fatal(err)
					}
				} else {
					src = filepath.Join(base, filepath.Base(tc.src))
					if err := copyTree(filepath.Join(root, tc.src), src); err != nil {
						t.Fatal(err)
					}
				}
				if err := chmodTree(filepath.Dir(base), 0o755); err != nil {
					t.Fatal(err)
				}
				sub, err := langs.Detect(src)
				if err != nil {
					t.Fatal(err)
				}
				if sub.Lang.Name != tc.lang {
					t.Fatalf("%s is %s, want %s", src, sub.Lang.Name, tc.lang)
				}
				cache := filepath.Join(base, strings.Repeat("cache", i+1))
				b, err := langs.Build(context.Background(), sub, cache)
				if err != nil {
					t.Fatal(err)
				}
				hashes = append(hashes, treeHash(t, filepath.Join(filepath.Dir(b.Dir), "out")))
			}
			if hashes[0] != hashes[1] {
				t.Errorf("two builds of the same source differ: %.12s and %.12s", hashes[0], hashes[1])
			}
		})
	}
}

// copyTree copies a file, or a directory's files, to to.
func copyTree(from, to string) error {
	return filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		return copyFile(p, filepath.Join(to, rel))
	})
}
