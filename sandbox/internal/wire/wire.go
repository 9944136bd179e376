// Package wire is what the judge's side of the sandbox (package sandbox)
// and its init's side (package sandbox/inside) tell each other across
// the process boundary: the names the judge's binary is run again under,
// the config the init is given, the messages it answers with, and the
// few facts both sides must agree on.
package wire

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// The names the judge's binary is run again under, as os.Args[0], to be
// the sandbox's init, briefly the program's restricted parent (level
// basic), or the
// init of a reusable sandbox (a slot of the pool).
const (
	InitName = "judge-sandbox-init"
	ExecName = "judge-sandbox-exec"
	SlotName = "judge-sandbox-slot"
)

// SystemDirs are shown read-only in every isolated sandbox: programs,
// libraries, interpreters and their configuration.
var SystemDirs = []string{"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc"}

// Mode is what the judge's binary run again does.
type Mode string

// The modes.
const (
	// ModeInit is the init of one program, PID 1 of its namespaces.
	ModeInit Mode = "init"
	// ModeReaper is the init of one program without namespaces (level
	// basic): a subreaper.
	ModeReaper Mode = "reaper"
	// ModeProbe tries the namespaces and the sandbox's file system, and
	// runs nothing.
	ModeProbe Mode = "probe"
	// ModeSlot is the init of a reused sandbox.
	ModeSlot Mode = "slot"
)

// Config is what the judge tells the init, and the init the program's
// restricted parent (level basic).
type Config struct {
	Mode    Mode     `json:"mode"`
	Path    string   `json:"path"`
	Argv    []string `json:"argv"`
	Dir     string   `json:"dir"`
	Env     []string `json:"env"`
	Mounts  []Mount  `json:"mounts,omitempty"`
	TmpSize int64    `json:"tmp_size,omitempty"`
	Rlimits []Rlimit `json:"rlimits,omitempty"`
	// Base are limits (resource, soft, hard) a program's start sets
	// before Rlimits: a reused sandbox's programs get every limit from
	// the init's record, not from what the init has now.
	Base     [][3]uint64 `json:"base,omitempty"`
	Landlock int         `json:"landlock,omitempty"` // ABI to use; 0 for none
	RO       []string    `json:"ro,omitempty"`       // Landlock: read and execute
	RW       []string    `json:"rw,omitempty"`       // Landlock: everything
	Proc     []string    `json:"proc,omitempty"`     // Landlock: the paths of /proc shown (all when empty)
	Seccomp  bool        `json:"seccomp,omitempty"`
	// A reusable sandbox's init: where its programs start. On cgroup v1,
	// the tasks files of the cgroup run, one per controller; on v2, the
	// directory of run. Descriptors; 0 for none.
	RunTasks  []int `json:"run_tasks,omitempty"`
	RunCgroup int   `json:"run_cgroup,omitempty"`
	Uid       int   `json:"uid"` // -1 to keep
	Gid       int   `json:"gid"`
	// Basic adds to the seccomp filter the rules of level basic, whose
	// programs share the host's namespaces (inside/seccomp.go).
	Basic bool `json:"basic,omitempty"`
}

// Mount is a file or directory to show at Dst: a mount tree the judge
// cloned (FD in the init, or -1), else the path Src.
type Mount struct {
	FD    int    `json:"fd"`
	Src   string `json:"src,omitempty"`
	Dst   string `json:"dst"`
	Write bool   `json:"write,omitempty"`
}

// Rlimit is one resource limit to set.
type Rlimit struct {
	Resource int
	Value    uint64
}

// Run is what a slot's init is told for each program: what to run (the
// rest is the slot's, fixed when it was built).
type Run struct {
	Path string   `json:"path"`
	Argv []string `json:"argv"`
	Dir  string   `json:"dir"`
	Env  []string `json:"env"`
}

// runMagic starts an encoded run request (Run.AppendBinary).
const runMagic = "run1"

// AppendBinary appends r encoded for the control socket: its fields
// separated by NUL bytes, which none of them can hold (exec takes
// C strings), argv preceded by its count and env last. It is what a
// start costs the init to read: a tenth of the time of JSON's decoding.
func (r *Run) AppendBinary(b []byte) ([]byte, error) {
	b = append(b, runMagic...)
	for _, s := range append([]string{r.Path, r.Dir, strconv.Itoa(len(r.Argv))}, r.Argv...) {
		if strings.IndexByte(s, 0) >= 0 {
			return nil, fmt.Errorf("%q holds a NUL byte", s)
		}
		b = append(append(b, 0), s...)
	}
	for _, s := range r.Env {
		if strings.IndexByte(s, 0) >= 0 {
			return nil, fmt.Errorf("%q holds a NUL byte", s)
		}
		b = append(append(b, 0), s...)
	}
	return b, nil
}

// UnmarshalBinary decodes what AppendBinary encoded.
func (r *Run) UnmarshalBinary(b []byte) error {
	next := func() (string, bool) {
		if b == nil {
			return "", false
		}
		i := bytes.IndexByte(b, 0)
		if i < 0 {
			s := string(b)
			b = nil
			return s, true
		}
		s := string(b[:i])
		b = b[i+1:]
		return s, true
	}
	magic, _ := next()
	path, ok1 := next()
	dir, ok2 := next()
	count, ok3 := next()
	n, err := strconv.Atoi(count)
	switch {
	case magic != runMagic:
		return errors.New("not a run request")
	case !ok1 || !ok2 || !ok3:
		return errors.New("a run request cut short")
	case err != nil || n < 0 || b == nil && n > 0 || b != nil && n > bytes.Count(b, []byte{0})+1:
		return fmt.Errorf("a run request with %q arguments", count)
	}
	*r = Run{Path: path, Dir: dir, Argv: make([]string, 0, n)}
	for range n {
		s, ok := next()
		if !ok {
			return errors.New("a run request cut short in its arguments")
		}
		r.Argv = append(r.Argv, s)
	}
	for {
		s, ok := next()
		if !ok {
			return nil
		}
		r.Env = append(r.Env, s)
	}
}

// Message is what the init tells the judge: the program started (Pid),
// could not (Err), or ended (Done).
type Message struct {
	Err    string `json:"err,omitempty"`
	Pid    int    `json:"pid,omitempty"`
	Done   bool   `json:"done,omitempty"`
	Status int    `json:"status,omitempty"` // wait status
	UserUS int64  `json:"user_us,omitempty"`
	SysUS  int64  `json:"sys_us,omitempty"`
	MaxRSS int64  `json:"max_rss,omitempty"`
	Info   string `json:"info,omitempty"`
}

// ReadConfig reads a config line from f.
func ReadConfig(f *os.File) (*Config, error) {
	line, err := bufio.NewReader(f).ReadBytes('\n')
	if err != nil {
		return nil, fmt.Errorf("reading the sandbox config: %w", err)
	}
	var c Config
	if err := json.Unmarshal(line, &c); err != nil {
		return nil, fmt.Errorf("sandbox config: %w", err)
	}
	return &c, nil
}

// WriteMsg writes m as one line.
func WriteMsg(w io.Writer, m Message) {
	b, _ := json.Marshal(m)
	_, _ = w.Write(append(b, '\n'))
}

// Under reports whether path p is dir or inside it.
func Under(p, dir string) bool {
	if dir == "/" {
		return true
	}
	return p == dir || strings.HasPrefix(p, dir+"/")
}
