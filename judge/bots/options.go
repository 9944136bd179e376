package bots

import (
	"judge/judge/config"
	"judge/judge/procbot"
)

// ApplyFile sets in o how a match file says bot programs run: [bots] io
// and env, [sandbox] level and limits; what the file leaves out is left
// as it is. Only the level can be wrong: its error is ParseLevel's, for
// the caller to place in the file.
func ApplyFile(o *procbot.Options, file *config.File) error {
	if file.Bots.IO != "" {
		o.IO = procbot.IO(file.Bots.IO)
	}
	if len(file.Bots.Env) > 0 {
		o.Env = map[string]string{}
		for k, v := range file.Bots.Env {
			o.Env[k] = v
		}
	}
	if file.Sandbox.Level != "" {
		lv, err := procbot.ParseLevel(file.Sandbox.Level)
		if err != nil {
			return err
		}
		o.Level = lv
	}
	sb, c := &o.Limits, file.Sandbox
	if c.Memory > 0 {
		sb.Memory = int64(c.Memory)
	}
	if c.Procs > 0 {
		sb.Procs = c.Procs
	}
	if c.FileSize > 0 {
		sb.FileSize = int64(c.FileSize)
	}
	if c.OpenFiles > 0 {
		sb.OpenFiles = c.OpenFiles
	}
	if c.Tmp > 0 {
		sb.TmpSize = int64(c.Tmp)
	}
	return nil
}
