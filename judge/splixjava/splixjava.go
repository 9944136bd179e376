// Package splixjava lets Splix players written for the Splix
// king-of-the-hill contest's Java API play in the judge unchanged, in Java
// or in Clojure. It ships a Java host: the contest's API types
// (SplixPlayer, Direction, ReadOnlyBoard, ReadOnlyGame,
// ReadOnlySplixPoint, HiddenPlayer, the KotHComm and Eclipse Collections
// types players use, and JavaFX's Pair, under the same package names),
// implemented over the judge's Splix protocol, and a main class that runs
// the player. Stage puts the host's sources beside the player's, to be
// compiled together with javac.
//
// A Clojure player is a file NAME.clj whose namespace is NAME with '_' as
// '-' and which defines make-move, called each turn with the game, the
// board and its state (nil at first) and returning [direction new-state],
// as the contest's controller loads it. It runs on the system's Clojure
// (ClojureJar).
package splixjava

import (
	"bytes"
	"embed"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
)

// Prefix starts a bot argument that is a Splix Java player:
// splix-java:FILE.java or splix-java:DIR.
const Prefix = "splix-java:"

// HostClass is the host's main class; its one argument is the player's
// class.
const HostClass = "com.jatkin.splixkoth.ppcg.game.JudgeHost"

//go:embed host
var host embed.FS

// Cut reports whether arg is a Splix Java player argument, and its path.
func Cut(arg string) (path string, ok bool) {
	return strings.CutPrefix(arg, Prefix)
}

// clojureLoader is the host's class that runs a Clojure player; it is
// compiled only for them, against the Clojure jar.
const clojureLoader = "host/com/jatkin/splixkoth/ppcg/loaders/ClojurePlayer.java"

// The patterns that find a player's class, its package and a Clojure
// player's make-move, compiled at their first use: every start of the
// judge's binary, a sandbox's restricted parent (level basic) included,
// would pay for them otherwise.
var (
	makeMoveRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\(defn-?\s+(?:\^\S+\s+)?make-move[\s\[]`)
	})
	playerRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?m)^[^/\n]*\bclass\s+([A-Za-z_$][A-Za-z0-9_$]*)(?:\s*<[^>{]*>)?\s+extends\s+(?:[A-Za-z0-9_$.]+\.)?SplixPlayer\b`)
	})
	packageRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?m)^\s*package\s+([A-Za-z0-9_$.]+)\s*;`)
	})
)

// sources lists the files of a player with one of the extensions exts:
// the file, or every such file under the directory (hidden ones left out),
// relative to root.
func sources(path string, exts ...string) (root string, files []string, err error) {
	st, err := os.Stat(path)
	if err != nil {
		return "", nil, err
	}
	if !st.IsDir() {
		if !slices.Contains(exts, filepath.Ext(path)) {
			return "", nil, fmt.Errorf("%s: a Splix contest player is a .java or .clj file, or a directory", path)
		}
		return filepath.Dir(path), []string{filepath.Base(path)}, nil
	}
	err = filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p != path && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() && slices.Contains(exts, filepath.Ext(p)) {
			rel, _ := filepath.Rel(path, p)
			files = append(files, rel)
		}
		return nil
	})
	if err != nil {
		return "", nil, err
	}
	if len(files) == 0 {
		return "", nil, fmt.Errorf("%s: no %s files in it", path, strings.Join(exts, " or "))
	}
	sort.Strings(files)
	return path, files, nil
}

// PlayerClass finds the player's class: the class that extends
// SplixPlayer, with its package. An error when there is none, or more
// than one.
func PlayerClass(path string) (string, error) {
	root, files, err := sources(path, ".java")
	if err != nil {
		return "", err
	}
	var found []string
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			return "", err
		}
		b = stripComments(b)
		for _, m := range playerRe().FindAllSubmatch(b, -1) {
			name := string(m[1])
			if p := packageRe().FindSubmatch(b); p != nil {
				name = string(p[1]) + "." + name
			}
			found = append(found, name)
		}
	}
	switch len(found) {
	case 0:
		return "", fmt.Errorf("%s: no class extends SplixPlayer", path)
	case 1:
		return found[0], nil
	}
	return "", fmt.Errorf("%s: several classes extend SplixPlayer (%s): give one file, or a directory with one player", path, strings.Join(found, ", "))
}

// ClojurePlayer finds a Clojure player: the .clj file path, which defines
// make-move, or the one .clj file at the top of the directory path that
// does. It
// returns the file, relative to the directory, and the player's name,
// which is its namespace: the file's name with '_' as '-'.
func ClojurePlayer(path string) (file, name string, err error) {
	st, err := os.Stat(path)
	if err != nil {
		return "", "", err
	}
	if !st.IsDir() {
		if filepath.Ext(path) != ".clj" {
			return "", "", fmt.Errorf("%s: a Clojure player is a .clj file", path)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return "", "", err
		}
		if !makeMoveRe().Match(b) {
			return "", "", fmt.Errorf("%s: defines no make-move", path)
		}
		file = filepath.Base(path)
	} else {
		ents, err := os.ReadDir(path)
		if err != nil {
			return "", "", err
		}
		var found []string
		for _, e := range ents {
			if !e.Type().IsRegular() || filepath.Ext(e.Name()) != ".clj" || strings.HasPrefix(e.Name(), ".") {
				continue
			}
			b, err := os.ReadFile(filepath.Join(path, e.Name()))
			if err != nil {
				return "", "", err
			}
			if makeMoveRe().Match(b) {
				found = append(found, e.Name())
			}
		}
		switch len(found) {
		case 0:
			return "", "", fmt.Errorf("%s: no .clj file in it defines make-move", path)
		case 1:
			file = found[0]
		default:
			return "", "", fmt.Errorf("%s: several .clj files define make-move (%s): give one file, or a directory with one player", path, strings.Join(found, ", "))
		}
	}
	return file, strings.ReplaceAll(strings.TrimSuffix(file, ".clj"), "_", "-"), nil
}

// IsPlayer reports whether path is a Splix contest player: a .java file,
// or a directory whose .java files hold, one class that extends
// SplixPlayer; or a Clojure player (a .clj file, or a directory with one
// .clj file defining make-move at its top, and no Java player).
func IsPlayer(path string) bool {
	if _, err := PlayerClass(path); err == nil {
		return true
	}
	_, _, err := ClojurePlayer(path)
	return err == nil
}

// IsClojure reports whether path is to be played as a Clojure player: a
// .clj file, or a directory holding no Java player.
func IsClojure(path string) bool {
	if filepath.Ext(path) == ".clj" {
		return true
	}
	if st, err := os.Stat(path); err != nil || !st.IsDir() {
		return false
	}
	_, err := PlayerClass(path)
	return err != nil
}

// ClojureJars are where Debian's clojure package and others put the
// Clojure jar, tried in order by ClojureJar.
var ClojureJars = []string{"/usr/share/java/clojure.jar", "/usr/share/java/clojure-*.jar", "/usr/share/clojure/clojure.jar", "/usr/local/lib/clojure/clojure.jar"}

// ClojureJar is the path of the system's Clojure jar, links resolved (the
// last version when several match), or an error saying how to get it.
func ClojureJar() (string, error) {
	for _, pat := range ClojureJars {
		m, _ := filepath.Glob(pat)
		sort.Strings(m)
		for i := len(m) - 1; i >= 0; i-- {
			if p, err := filepath.EvalSymlinks(m[i]); err == nil {
				if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
					return p, nil
				}
			}
		}
	}
	return "", fmt.Errorf("a Clojure player needs Clojure's jar, found nowhere in %s: install Clojure (apt-get install clojure)", strings.Join(ClojureJars, ", "))
}

// stripComments blanks out // and /* */ comments (not inside strings, in
// the simple cases), so that a commented-out class is not found.
func stripComments(b []byte) []byte {
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		switch {
		case b[i] == '"':
			j := i + 1
			for j < len(b) && b[j] != '"' && b[j] != '\n' {
				if b[j] == '\\' {
					j++
				}
				j++
			}
			end := min(j+1, len(b))
			out = append(out, b[i:end]...)
			i = end - 1
		case b[i] == '/' && i+1 < len(b) && b[i+1] == '/':
			for i < len(b) && b[i] != '\n' {
				i++
			}
			if i < len(b) {
				out = append(out, '\n')
			}
		case b[i] == '/' && i+1 < len(b) && b[i+1] == '*':
			end := bytes.Index(b[i+2:], []byte("*/"))
			if end < 0 {
				return out
			}
			out = append(out, bytes.Repeat([]byte("\n"), bytes.Count(b[i:i+2+end+2], []byte("\n")))...)
			i += 2 + end + 1
		default:
			out = append(out, b[i])
		}
	}
	return out
}

// Staged is a player staged with the host.
type Staged struct {
	Files []string // relative to the staging directory, sorted
	// Class is the host's argument: the Java player's class, or
	// "clojure:player/FILE.clj" for a Clojure player.
	Class string
	Name  string // the class's simple name, or the Clojure namespace
	// Clojure: the host's loader of Clojure players is among the files,
	// to be compiled and run with ClojureJar on the class path.
	Clojure bool
}

// Stage writes the host's sources and the player's into dir (the player's
// under player/, the host's under host/).
func Stage(path, dir string) (*Staged, error) {
	st := &Staged{Clojure: IsClojure(path)}
	exts := []string{".java"}
	if st.Clojure {
		file, name, err := ClojurePlayer(path)
		if err != nil {
			return nil, err
		}
		st.Class, st.Name = "clojure:"+filepath.ToSlash(filepath.Join("player", file)), name
		// Its other Clojure files and resources, for require.
		exts = []string{".clj", ".cljc", ".edn"}
	} else {
		class, err := PlayerClass(path)
		if err != nil {
			return nil, err
		}
		st.Class, st.Name = class, class[strings.LastIndex(class, ".")+1:]
	}
	root, srcs, err := sources(path, exts...)
	if err != nil {
		return nil, err
	}
	for _, f := range srcs {
		b, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			return nil, err
		}
		rel := filepath.Join("player", f)
		if err := write(filepath.Join(dir, rel), b); err != nil {
			return nil, err
		}
		st.Files = append(st.Files, rel)
	}
	err = fs.WalkDir(host, "host", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || p == clojureLoader && !st.Clojure {
			return err
		}
		b, err := host.ReadFile(p)
		if err != nil {
			return err
		}
		st.Files = append(st.Files, filepath.FromSlash(p))
		return write(filepath.Join(dir, filepath.FromSlash(p)), b)
	})
	if err != nil {
		return nil, err
	}
	sort.Strings(st.Files)
	return st, nil
}

func write(path string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}
