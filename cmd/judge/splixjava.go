package main

import (
	"context"
	"os"
	"path/filepath"

	"judge/judge"
	"judge/judge/procbot"
	"judge/judge/tournament"
)

// splixJava builds a splix-java:PATH bot (a Splix player written for the
// contest's Java API, in Java or Clojure) with the judge's Java host, in a build cache shared
// by the matches of this machine, and returns it as a program bot.
func splixJava(arg string, proc procbot.Options) (judge.Entrant, error) {
	langFile := ""
	if _, err := os.Stat("configs/languages.toml"); err == nil {
		langFile = "configs/languages.toml"
	}
	langs, err := tournament.LoadLanguages(langFile)
	if err != nil {
		return nil, err
	}
	cache := filepath.Join(os.TempDir(), "judge-build-cache")
	spec, key, err := langs.SplixJavaSpec(context.Background(), arg, cache, proc.Memory())
	if err != nil {
		return nil, err
	}
	return splixJavaBot{procbot.Bot{Spec: spec, Options: proc}, key}, nil
}

// splixJavaBot is a program bot whose identity is its sources' hash,
// not the java program's.
type splixJavaBot struct {
	procbot.Bot
	key string
}

func (b splixJavaBot) Info() (judge.BotInfo, error) {
	i, err := b.Bot.Info()
	i.SHA256 = b.key
	return i, err
}
