// Package splixjava lets Splix players written for the Splix
// king-of-the-hill contest's Java API play in the judge unchanged. It
// ships a Java host: the contest's API types (SplixPlayer, Direction,
// ReadOnlyBoard, ReadOnlyGame, ReadOnlySplixPoint, HiddenPlayer, and the
// few KotHComm and Eclipse Collections types they use, under the same
// package names), implemented over the judge's Splix protocol, and a main
// class that runs the player. Stage puts the host's sources beside the
// player's, to be compiled together with javac.
package splixjava

import (
	"bytes"
	"embed"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
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

var (
	playerRe  = regexp.MustCompile(`(?m)^[^/\n]*\bclass\s+([A-Za-z_$][A-Za-z0-9_$]*)(?:\s*<[^>{]*>)?\s+extends\s+(?:[A-Za-z0-9_$.]+\.)?SplixPlayer\b`)
	packageRe = regexp.MustCompile(`(?m)^\s*package\s+([A-Za-z0-9_$.]+)\s*;`)
)

// sources lists the .java files of a player: the file, or every .java
// file under the directory (hidden ones left out), relative to root.
func sources(path string) (root string, files []string, err error) {
	st, err := os.Stat(path)
	if err != nil {
		return "", nil, err
	}
	if !st.IsDir() {
		if filepath.Ext(path) != ".java" {
			return "", nil, fmt.Errorf("%s: a Splix Java player is a .java file or a directory of them", path)
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
		if d.Type().IsRegular() && filepath.Ext(p) == ".java" {
			rel, _ := filepath.Rel(path, p)
			files = append(files, rel)
		}
		return nil
	})
	if err != nil {
		return "", nil, err
	}
	if len(files) == 0 {
		return "", nil, fmt.Errorf("%s: no .java files in it", path)
	}
	sort.Strings(files)
	return path, files, nil
}

// PlayerClass finds the player's class: the class that extends
// SplixPlayer, with its package. An error when there is none, or more
// than one.
func PlayerClass(path string) (string, error) {
	root, files, err := sources(path)
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
		for _, m := range playerRe.FindAllSubmatch(b, -1) {
			name := string(m[1])
			if p := packageRe.FindSubmatch(b); p != nil {
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

// IsPlayer reports whether path is a .java file, or a directory whose
// .java files hold, one class that extends SplixPlayer.
func IsPlayer(path string) bool {
	_, err := PlayerClass(path)
	return err == nil
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

// Stage writes the host's sources and the player's into dir (the player's
// under player/, the host's under host/) and returns the files, relative
// to dir and sorted, and the player's class.
func Stage(path, dir string) (files []string, class string, err error) {
	class, err = PlayerClass(path)
	if err != nil {
		return nil, "", err
	}
	root, srcs, err := sources(path)
	if err != nil {
		return nil, "", err
	}
	for _, f := range srcs {
		b, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			return nil, "", err
		}
		rel := filepath.Join("player", f)
		if err := write(filepath.Join(dir, rel), b); err != nil {
			return nil, "", err
		}
		files = append(files, rel)
	}
	err = fs.WalkDir(host, "host", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := host.ReadFile(p)
		if err != nil {
			return err
		}
		files = append(files, filepath.FromSlash(p))
		return write(filepath.Join(dir, filepath.FromSlash(p)), b)
	})
	if err != nil {
		return nil, "", err
	}
	sort.Strings(files)
	return files, class, nil
}

func write(path string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}
