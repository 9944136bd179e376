package main

import (
	"context"
	"fmt"

	"judge/judge"
	"judge/judge/httpbot"
	"judge/judge/procbot"
	"judge/judge/splixjava"
)

// entrant turns a BOT argument into what plays a seat: a web bot
// (http://…, https://…), a Ruby contest player (ruby-contest:FILE.rb,
// loaded once in the sandbox to tell a file that cannot play), a
// Splix contest player in Java or Clojure (splix-java:FILE.java, FILE.clj
// or DIR), or a program
// (a path or a command line) run as proc says.
func entrant(arg string, proc procbot.Options) (judge.Entrant, error) {
	if b, ok, err := httpbot.Parse(arg); ok {
		return b, err
	}
	if spec, ok, err := procbot.ParseRubyContest(arg); ok {
		if err != nil {
			return nil, err
		}
		// Loaded once before the match, so that a file that does not
		// parse or holds no player says so with Ruby's message.
		why, err := procbot.CheckRubyContest(context.Background(), spec)
		switch {
		case err != nil:
			return nil, err
		case why != "":
			return nil, fmt.Errorf("%s cannot play: %s", spec.Argv[2], why)
		}
		return procbot.Bot{Spec: spec, Options: proc}, nil
	}
	if _, ok := splixjava.Cut(arg); ok {
		return splixJava(arg, proc)
	}
	spec, err := procbot.ParseBot(arg)
	if err != nil {
		return nil, err
	}
	return procbot.Bot{Spec: spec, Options: proc}, nil
}
