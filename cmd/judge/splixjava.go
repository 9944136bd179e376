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
// contest's Java API) with the judge's Java host, in a build cache shared
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
	spec, err := langs.SplixJavaSpec(context.Background(), arg, cache, proc.Memory())
	if err != nil {
		return nil, err
	}
	return procbot.Bot{Spec: spec, Options: proc}, nil
}
