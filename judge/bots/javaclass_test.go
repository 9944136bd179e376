package bots

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"judge/judge"
	"judge/judge/judgetest"
	"judge/judge/procbot"
)

// TestJavaMainClass: a Java source is run by the class that holds its
// main method, with its package, not by the file's name: Bot.java in
// package demo whose class is Player plays as demo.Player.
func TestJavaMainClass(t *testing.T) {
	judgetest.NeedTools(t, "javac", "java", "gcc")
	langs, err := LoadLanguages("")
	if err != nil {
		t.Fatal(err)
	}
	langs.Host = judgetest.Host()
	root := judgetest.Root(t)
	src, err := os.ReadFile(filepath.Join(root, "examples/gomoku/RandomBot.java"))
	if err != nil {
		t.Fatal(err)
	}
	text := "package demo;\n\n// class NotThis {\n" + strings.Replace(string(src), "public class RandomBot", "class Player", 1)
	if text == string(src) || !strings.Contains(text, "class Player") {
		t.Fatal("the example's class was not renamed")
	}
	dir := judgetest.TempDir(t)
	path := filepath.Join(dir, "Bot.java")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := langs.Detect(path)
	if err != nil {
		t.Fatal(err)
	}
	if s.Class != "demo.Player" {
		t.Errorf("class %q, want demo.Player", s.Class)
	}
	es, err := Entrants(context.Background(), []string{path}, procbot.Options{Host: judgetest.Host()}, langs, judgetest.TempDir(t))
	if err != nil {
		t.Fatal(err)
	}
	bb, ok := es[0].(builtBot)
	if !ok {
		t.Fatalf("entrant %T, want a built bot", es[0])
	}
	res := judgetest.Play(t, "tictactoe", 1, func(m *judgetest.Setup) { m.Limits.FirstTurn = 20 * time.Second },
		bb.Spec, judgetest.Spec(t, "random", "examples/gomoku/random.c"))
	if p := res.Players[0]; p.Status != judge.OK {
		t.Errorf("the Java bot: %s (%s)", p.Status, p.Reason)
	}
}
