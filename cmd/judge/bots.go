package main

import (
	"context"

	"judge/judge"
	"judge/judge/bots"
	"judge/judge/procbot"
)

// loadLanguages loads the languages file given, else configs/languages.toml
// when there is one here, else the built-in one.
func loadLanguages(file string) (*bots.Languages, error) {
	return bots.LoadLanguages(bots.LanguagesFile(file))
}

// entrants turns the BOT arguments of a single match into what plays its
// seats, sources built in the machine's shared build cache.
func entrants(ctx context.Context, args []string, proc procbot.Options) ([]judge.Entrant, error) {
	if len(args) == 0 {
		return nil, nil
	}
	langs, err := loadLanguages("")
	if err != nil {
		return nil, err
	}
	return bots.Entrants(ctx, args, proc, langs, bots.MatchCache())
}
