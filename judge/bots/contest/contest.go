// Package contest gives a tournament or a sequential test its bots: it
// makes BOT arguments contestants with package bots, and says how they
// run as the tournament records it. The tournament knows no kind of bot;
// this is where the two meet.
package contest

import (
	"context"
	"errors"

	"judge/judge/bots"
	"judge/judge/procbot"
	"judge/judge/tournament"
)

// Use makes o's bots contestants as langs says, run as proc says: o's
// Prepare, Process, Retry and Lateness, and its matches served one CPU at
// a time.
func Use(o *tournament.Options, langs *bots.Languages, proc procbot.Options) {
	o.Prepare = Preparer(langs, proc)
	o.Process = Process(proc)
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
func Preparer(langs *bots.Languages, proc procbot.Options) tournament.Preparer {
	return func(ctx context.Context, args []string, cache string, jobs int) ([]*tournament.Contestant, error) {
		ps, err := bots.PrepareAt(bots.WithStart(bots.WithReady(ctx, tournament.OnReady(ctx)), tournament.OnStart(ctx)), args, langs, proc.Level, cache, jobs)
		if err != nil {
			return nil, err
		}
		cs := make([]*tournament.Contestant, len(ps))
		for i, p := range ps {
			cs[i] = &tournament.Contestant{Name: p.Name, Arg: p.Arg, Hash: p.Hash, Runtime: p.Runtime, Err: p.Err,
				BuildLog: p.BuildLog, Entrant: p.Entrant(proc)}
		}
		return cs, nil
	}
}

// Process is how bots run as proc says, every default filled in, as a
// tournament records it.
func Process(proc procbot.Options) tournament.Process {
	l := proc.SandboxLimits()
	io := proc.IO
	if io == "" {
		io = procbot.AutoIO
	}
	return tournament.Process{
		Level: string(proc.Host.RunLevel(proc.Level)), IO: string(io), Env: proc.Env,
		Memory: l.Memory, Procs: l.Procs, FileSize: l.FileSize, OpenFiles: l.OpenFiles, Tmp: l.TmpSize, Wall: l.Wall,
	}
}

// IsSandboxFailure tells a match's failure that is a bot's sandbox's, not
// the bot's: the match is played again.
func IsSandboxFailure(err error) bool { return errors.Is(err, procbot.ErrSandbox) }
