package tournament

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"judge/judge/bots"
	"judge/judge/judgetest"
	"judge/judge/play"
	"judge/judge/procbot"
)

// use makes o's bots contestants as langs says, run as proc says, as the
// judge's command does.
func use(o *Options, langs *bots.Languages, proc procbot.Options) {
	o.Prepare = preparer(langs, proc)
	l := proc.SandboxLimits()
	io := proc.IO
	if io == "" {
		io = procbot.AutoIO
	}
	o.BotSettings = BotSettings{
		Level: string(judgetest.Host().RunLevel(proc.Level)), IO: string(io), Env: proc.Env,
		Memory: l.Memory, Procs: l.Procs, FileSize: l.FileSize, OpenFiles: l.OpenFiles, Tmp: l.TmpSize, Wall: l.Wall,
	}
	o.Retry = func(err error) bool { return errors.Is(err, procbot.ErrSandbox) }
	o.Lateness = judgetest.Host().Lateness
	o.Match.Serve = procbot.OneCPU
}

// preparer makes bot arguments contestants as langs says, run as proc
// says.
func preparer(langs *bots.Languages, proc procbot.Options) play.Preparer {
	return func(ctx context.Context, b play.Batch) ([]*play.Contestant, error) {
		ps, err := bots.PrepareAt(ctx, b, langs, procbot.Auto)
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

// copyFile copies a file with its permissions.
func copyFile(from, to string) error {
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return err
	}
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	st, err := os.Stat(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, b, st.Mode().Perm()|0o600)
}

// chmodTree sets the mode of every directory under root.
func chmodTree(root string, mode os.FileMode) error {
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return os.Chmod(p, mode)
		}
		return nil
	})
}
