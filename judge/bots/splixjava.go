package bots

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"judge/judge/procbot"
	"judge/judge/splixjava"
)

// BuildSplixJava builds a Splix contest player (the path of a .java file
// or a directory of them; of a .clj file or a directory with one) together
// with the judge's Java host in cache, with the java language's run line
// of langs (the built-in one when langs has none), and returns the build
// and the player's name (its class's simple name, a Clojure player's
// namespace).
func (l *Languages) BuildSplixJava(ctx context.Context, path, cache string) (*Build, string, error) {
	java := l.Language["java"]
	if java == nil {
		def, err := LoadLanguages("")
		if err != nil {
			return nil, "", err
		}
		java = def.Language["java"]
	}
	stage, err := os.MkdirTemp("", "splix-java-")
	if err != nil {
		return nil, "", err
	}
	defer os.RemoveAll(stage)
	st, err := splixjava.Stage(path, stage)
	if err != nil {
		// Writing the stage is the judge's; reading the player, the
		// player's.
		var pe *fs.PathError
		if errors.As(err, &pe) && strings.HasPrefix(pe.Path, stage) {
			return nil, "", fmt.Errorf("staging a Splix contest player: %w", err)
		}
		return nil, "", &Fault{Err: err}
	}
	lang := &Language{
		Name:       "splix-java",
		Extensions: []string{"java"},
		Compile:    []string{"javac", "-encoding", "UTF-8", "-nowarn", "-d", "{out}", "{srcs}"},
		Env:        java.Env,
		// The host's class runs the player's.
		Run: append(append([]string(nil), java.Run...), st.Class),
	}
	if st.Clojure {
		jar, err := splixjava.ClojureJar()
		if err != nil {
			return nil, st.Name, &Fault{Err: &CompileError{Name: ownPathName(path), Message: err.Error()}}
		}
		// The loader is compiled against Clojure; the player's file is
		// loaded from where it is built. The host puts Clojure's jar and
		// the player's directory on its class path itself: each path of
		// the command line stands alone, for the sandbox to show it.
		lang.Name = "splix-clojure"
		lang.Compile = []string{"javac", "-encoding", "UTF-8", "-nowarn", "-cp", jar, "-d", "{out}", "{srcs}"}
		lang.Run = append(append([]string(nil), java.Run...), "clojure:{dir}/"+strings.TrimPrefix(st.Class, "clojure:"), jar)
	}
	sub := &Submission{Path: path, Lang: lang, Files: st.Files, Root: stage, Main: st.Files[0], Class: splixjava.HostClass}
	b, err := l.Build(ctx, sub, cache)
	if err != nil {
		return nil, st.Name, err
	}
	if !st.Clojure {
		b = shareClasses(ctx, l.Host, b)
	}
	return b, st.Name, nil
}

// SplixJavaSpec builds a splix-java:PATH bot argument and returns how to
// run it with a memory limit of memory bytes, under the player's name
// (its class's), and the build's key (the sha256 of the sources, the
// host's included).
func (l *Languages) SplixJavaSpec(ctx context.Context, arg, cache string, memory int64) (procbot.Spec, string, error) {
	path, ok := splixjava.Cut(arg)
	if !ok {
		return procbot.Spec{}, "", fmt.Errorf("bot %q is not %sPATH", arg, splixjava.Prefix)
	}
	b, name, err := l.BuildSplixJava(ctx, path, cache)
	if err != nil {
		return procbot.Spec{}, "", err
	}
	return procbot.Spec{Name: name, Argv: expand(b.Argv, RunVars(memory)), Dir: b.Dir}, b.Key, nil
}

// prepareSplixJava builds the entrant of a splix-java:PATH argument.
func (e *Prepared) prepareSplixJava(ctx context.Context, langs *Languages, path, cache string) error {
	if java := langs.Language["java"]; java != nil {
		rt, err := langs.Runtime(ctx, java, path, cache)
		if err != nil {
			return err
		}
		e.Runtime = rt
	}
	b, _, err := langs.BuildSplixJava(ctx, path, cache)
	if err != nil {
		return err
	}
	e.Spec = procbot.Spec{Argv: b.Argv, Dir: b.Dir}
	e.Hash = b.Key
	return nil
}
