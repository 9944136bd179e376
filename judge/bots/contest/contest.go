// Package contest gives a tournament, a sequential test or an arena its
// bots: it makes BOT arguments contestants (play.Contestant) with package
// bots, and says how they run as the tournament records it. The
// tournament knows no kind of bot; this is where the two meet.
package contest

import (
	"context"
	"errors"

	"judge/judge/bots"
	"judge/judge/play"
	"judge/judge/procbot"
	"judge/judge/tournament"
)

// Use makes o's bots contestants as langs says, run as proc says: o's
// Prepare, BotSettings, Retry and Lateness, and its matches served one CPU at
// a time.
func Use(o *tournament.Options, langs *bots.Languages, proc procbot.Options) {
	o.Prepare = Preparer(langs, proc)
	o.BotSettings = BotSettings(proc)
	o.Retry = IsSandboxFailure
	o.Lateness = proc.Host.Lateness
	o.Match.Serve = procbot.OneCPU
}

// UseSPRT is Use for a sequential test.
func UseSPRT(o *tournament.SPRTOptions, langs *bots.Languages, proc procbot.Options) {
	o.Prepare = Preparer(langs, proc)
	o.Retry = IsSandboxFailure
	o.Match.Serve = procbot.OneCPU
}

// Preparer makes bot arguments contestants (bots.Prepare) that run as
// proc says, sources built as langs says, Ruby contest players loaded at
// proc's sandbox level.
func Preparer(langs *bots.Languages, proc procbot.Options) play.Preparer {
	return func(ctx context.Context, b play.Batch) ([]*play.Contestant, error) {
		ps, err := bots.PrepareAt(ctx, b, langs, proc.Level)
		if err != nil {
			return nil, err
		}
		cs := make([]*play.Contestant, len(ps))
		for i, p := range ps {
			cs[i] = &play.Contestant{Bot: p.Bot, Entrant: p.Entrant(proc)}
		}
		return cs, nil
	}
}

// BotSettings are how bots run as proc says, every default filled in, as
// a tournament records it.
func BotSettings(proc procbot.Options) tournament.BotSettings {
	l := proc.SandboxLimits()
	io := proc.IO
	if io == "" {
		io = procbot.AutoIO
	}
	return tournament.BotSettings{
		Level: string(proc.Host.RunLevel(proc.Level)), IO: string(io), Env: proc.Env,
		Memory: l.Memory, Procs: l.Procs, FileSize: l.FileSize, OpenFiles: l.OpenFiles, Tmp: l.TmpSize, Wall: l.Wall,
	}
}

// IsSandboxFailure tells a match's failure that is a bot's sandbox's, not
// the bot's: the match is played again.
func IsSandboxFailure(err error) bool { return errors.Is(err, procbot.ErrSandbox) }
