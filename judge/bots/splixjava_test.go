package bots

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"judge/judge/judgetest"
	"judge/judge/splixjava"
)

// A bots directory's Splix contest players in Java and Clojure are found,
// files and directories; a .clj file that defines no make-move is not one.
func TestBotArgsFindsSplixPlayers(t *testing.T) {
	langs, err := LoadLanguages(filepath.Join(judgetest.Root(t), "configs/languages.toml"))
	if err != nil {
		t.Fatal(err)
	}
	langs.Host = judgetest.Host()
	dir := t.TempDir()
	for name, text := range map[string]string{
		"Hunter.java":          "public class Hunter extends SplixPlayer {}",
		"square_walker.clj":    "(ns square-walker)\n(defn make-move [game board state] [nil state])",
		"notes.clj":            "(ns notes)",
		"team/team_bot.clj":    "(ns team-bot (:require [team.util]))\n(defn make-move [g b s] [nil s])",
		"team/team/util.clj":   "(ns team.util)",
		"javateam/Bot.java":    "public class Bot extends SplixPlayer {}",
		"javateam/Helper.java": "class Helper {}",
		"javateam/scripts.clj": "(defn make-move [g b s])",
	} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	bots, skipped, err := BotArgs(dir, langs)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Hunter.java", "square_walker.clj", "team", "javateam"} {
		if !slices.Contains(bots, splixjava.Prefix+filepath.Join(dir, want)) {
			t.Errorf("%s not found as a player: %v", want, bots)
		}
	}
	if slices.Contains(bots, splixjava.Prefix+filepath.Join(dir, "notes.clj")) || len(bots) != 4 {
		t.Errorf("bots %v, skipped %v", bots, skipped)
	}
	if !splixjava.IsClojure(filepath.Join(dir, "team")) || splixjava.IsClojure(filepath.Join(dir, "javateam")) {
		t.Errorf("the team directory is not Clojure, or the Java one is")
	}
}
