package judge

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"sync"
)

// BuildInfo is what the judge's program knows of its own build: the
// module's version, the revision it was built from and whether the sources
// had changed (Go's VCS stamp), and the Go release that built it.
type BuildInfo struct {
	Module   string // "(devel)" for a build from a checkout
	Revision string // "" when built without version control (go build -buildvcs=false)
	Time     string // the revision's commit time, RFC 3339
	Modified bool   // built from sources that differ from Revision
	Go       string
}

// Build is the judge's BuildInfo, read once from runtime/debug.
var Build = sync.OnceValue(func() BuildInfo {
	b := BuildInfo{Module: "(unknown)", Go: "unknown"}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return b
	}
	b.Go = bi.GoVersion
	if bi.Main.Version != "" {
		b.Module = bi.Main.Version
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			b.Revision = s.Value
		case "vcs.time":
			b.Time = s.Value
		case "vcs.modified":
			b.Modified = s.Value == "true"
		}
	}
	return b
})

// programSum is the sha256 of the running program, or "unknown".
var programSum = sync.OnceValue(func() string {
	exe, err := os.Executable()
	if err != nil {
		return "unknown"
	}
	f, err := os.Open(exe)
	if err != nil {
		return "unknown"
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "unknown"
	}
	return hex.EncodeToString(h.Sum(nil))
})

// Identity is the build as a run records it, to tell one judge from
// another: the revision and the Go release, or, built without version
// control or from changed sources, the sha256 of the program itself.
func (b BuildInfo) Identity() string {
	switch {
	case b.Revision != "" && !b.Modified:
		return fmt.Sprintf("revision %s (%s)", b.Revision, b.Go)
	case b.Revision != "":
		return fmt.Sprintf("revision %s, modified, program sha256 %s", b.Revision, programSum())
	}
	return "program sha256 " + programSum()
}

// String is the build for people, as judge --version prints it:
// "judge (devel), revision 0123abc… of 2026-11-25T10:00:00Z, modified, built with go1.26.8".
func (b BuildInfo) String() string {
	s := "judge " + b.Module
	if b.Revision == "" {
		s += ", no revision recorded (built without version control)"
	} else {
		s += ", revision " + b.Revision
		if b.Time != "" {
			s += " of " + b.Time
		}
		if b.Modified {
			s += ", modified"
		}
	}
	return s + ", built with " + b.Go
}
