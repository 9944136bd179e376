package main

import (
	"context"

	"judge/judge"
	"judge/judge/bots"
	"judge/judge/procbot"
)

// loadLanguages loads the languages file given, else configs/languages.toml
// when there is one here, else the built-in one; its tools run on host.
func loadLanguages(host *procbot.Host, file string) (*bots.Languages, error) {
	l, err := bots.LoadLanguages(bots.LanguagesFile(file))
	if err != nil {
		return nil, err
	}
	l.Host = host
	return l, nil
}

// entrants turns the BOT arguments of a single match into what plays its
// seats, sources built in the machine's shared build cache.
func entrants(ctx context.Context, args []string, proc procbot.Options) ([]judge.Entrant, error) {
	if len(args) == 0 {
		return nil, nil
	}
	langs, err := loadLanguages(proc.Host, "")
	if err != nil {
		return nil, err
	}
	return bots.Entrants(ctx, args, proc, langs, bots.MatchCache())
}
