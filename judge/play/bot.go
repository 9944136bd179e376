package play

import (
	"context"

	"judge/judge"
)

// Bot is a bot entered in a contest, as it was made ready (built, loaded
// or checked): under a name unique in the contest, and known by the hash
// of what it runs. Package bots makes them (bots.Prepared embeds one); a
// contest plays them as Contestants.
type Bot struct {
	Name string
	Arg  string // as given: a path or a command line
	Hash string // sha256 of what it runs: its sources, or its program
	// Runtime is its language's version: "" for a bot of no language.
	Runtime string
	Err     error // why it cannot play (a compile error, a runtime missing); nil when it can
	// BuildLog is what its compiler said when it built (warnings).
	BuildLog string
}

// Contestant is a bot as a contest takes it: ready to play its seats.
type Contestant struct {
	Bot
	// Entrant plays its seats, under Name; nil when it cannot play.
	Entrant judge.Entrant
}

// Batch is bot arguments to make contestants, and who hears how far the
// work went.
type Batch struct {
	Args  []string // bot arguments
	Cache string   // the build cache
	Jobs  int      // bots made ready at once, at most
	// Started and Ready, when set, are told a bot's argument when its
	// bot starts being made ready (built, or found built), and once it
	// is ready or found unable to play: a contest's progress names the
	// builds still going and counts those done.
	Started, Ready func(arg string)
}

// Preparer makes a batch's bot arguments contestants, in their order: a
// bot that cannot play is kept with the reason in its Err; an error is
// the judge's own (its cache, its sandbox) and stops the contest. The
// contest's caller, who knows the kinds of bots, gives it
// (judge/bots/contest).
type Preparer func(ctx context.Context, b Batch) ([]*Contestant, error)
