//go:build linux

package sandbox

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"

	"judge/sandbox/internal/wire"
)

// What a sandbox's init is told (a wire.Config), worked out from a Spec:
// the program's path, arguments, working directory and environment,
// found the way a shell would but among what the sandbox shows; the
// directories shown; the protections and which limits bind whom.

// configFor works out what the init of spec's sandbox is told: the
// program, its arguments (made absolute when they name visible files), its
// directory and environment, and the directories shown read-only and
// writable.
func configFor(spec Spec) (cfg *wire.Config, ro, rw []string, err error) {
	cwd, err := os.Getwd()
	if err != nil {
		return nil, nil, nil, fmt.Errorf("sandbox: %w", err)
	}
	abs := func(p string) string {
		if filepath.IsAbs(p) {
			return filepath.Clean(p)
		}
		return filepath.Join(cwd, p)
	}
	base := cwd
	if spec.Dir != "" {
		base = abs(spec.Dir)
	}
	for _, p := range spec.ReadOnly {
		p = abs(p)
		// The system's directories are shown read-only anyway, some
		// through symbolic links (/bin to usr/bin): one of them is not
		// shown again (a program such as /bin/cat).
		system := false
		for _, d := range wire.SystemDirs {
			system = system || wire.Under(p, d)
		}
		if !system {
			ro = append(ro, p)
		}
	}
	for _, p := range spec.Writable {
		rw = append(rw, abs(p))
	}
	visible := func(p string) bool {
		for _, d := range append(append(append([]string(nil), wire.SystemDirs...), ro...), rw...) {
			if wire.Under(p, d) {
				return true
			}
		}
		return false
	}
	cfg = &wire.Config{Env: spec.Env, Uid: -1, Gid: -1, TmpSize: spec.Limits.TmpSize}
	if cfg.Env == nil {
		cfg.Env = []string{}
	}
	// The program and the arguments that name files.
	cfg.Argv = append([]string(nil), spec.Argv...)
	for i := 1; i < len(cfg.Argv); i++ {
		if a := cfg.Argv[i]; !filepath.IsAbs(a) && a != "" && !strings.HasPrefix(a, "-") {
			p := filepath.Join(base, a)
			if _, err := os.Stat(p); err == nil && visible(p) {
				cfg.Argv[i] = p
			}
		}
	}
	if real, install := pyenvProgram(spec.Argv[0], spec.Env); real != "" {
		// The interpreter the user's shell would run, not the system's.
		ro = append(ro, install)
	}
	cfg.Path, err = findProgram(spec.Argv[0], base, spec.Env, visible)
	if err != nil {
		return nil, nil, nil, err
	}
	switch real, _ := pyenvProgram(spec.Argv[0], spec.Env); {
	case real != "":
		// Python finds its library from argv[0].
		cfg.Path, cfg.Argv[0] = real, real
	case !strings.Contains(spec.Argv[0], "/") && !envFinds(spec.Argv[0], spec.Env, cfg.Path, visible):
		// Found in the judge's PATH only (lookup.go).
		cfg.Argv[0] = cfg.Path
	}
	switch {
	case spec.Dir != "" && visible(base):
		cfg.Dir = base
	case spec.Dir != "":
		return nil, nil, nil, fmt.Errorf("sandbox: working directory %s is not shown to the program (add it to the read-only paths)", base)
	case visible(cwd):
		cfg.Dir = cwd
	case len(ro) > 0 && isDir(ro[0]):
		cfg.Dir = ro[0]
	default:
		cfg.Dir = "/"
	}
	if os.Geteuid() == 0 {
		for _, p := range append([]string{cfg.Path}, ro...) {
			if err := othersCanRead(p); err != nil {
				return nil, nil, nil, err
			}
		}
	}
	return cfg, ro, rw, nil
}

// findProgram resolves argv0 the way execvp would, in the judge's PATH
// and then env's (searchPath), but among the directories visible
// accepts, so that a program found outside the sandbox first (a pyenv
// shim in the judge's PATH) does not hide the one inside it.
func findProgram(argv0, base string, env []string, visible func(string) bool) (string, error) {
	if strings.Contains(argv0, "/") {
		p := argv0
		if !filepath.IsAbs(p) {
			p = filepath.Join(base, p)
		}
		if !visible(p) {
			return "", fmt.Errorf("sandbox: %s is not shown to the program (add its directory to the read-only paths)", p)
		}
		return p, nil
	}
	var hidden string
	for _, dir := range searchPath(env) {
		p := filepath.Join(dir, argv0)
		st, err := os.Stat(p)
		if err != nil || st.IsDir() || st.Mode()&0o111 == 0 {
			continue
		}
		if visible(p) {
			return p, nil
		}
		if hidden == "" {
			hidden = p
		}
	}
	if hidden != "" {
		return "", fmt.Errorf("sandbox: %s is %s, which the sandbox does not show (add its installation to the read-only paths)", argv0, hidden)
	}
	return "", fmt.Errorf("sandbox: %s: %w", argv0, exec.ErrNotFound)
}

// othersCanRead checks that a program running as nobody can use path.
func othersCanRead(path string) error {
	st, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("sandbox: %w", err)
	}
	need := os.FileMode(0o004)
	if st.IsDir() || st.Mode()&0o111 != 0 {
		need |= 0o001
	}
	if st.Mode().Perm()&need != need {
		return fmt.Errorf("sandbox: %s is %v; as the judge runs as root, programs run as nobody and need it readable by others (chmod o+rX)", path, st.Mode().Perm())
	}
	return nil
}

// withTmp points TMPDIR (and HOME when it is /tmp) at the private tmp.
func withTmp(env []string, tmp string) []string {
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if strings.HasPrefix(kv, "TMPDIR=") || kv == "HOME=/tmp" {
			continue
		}
		out = append(out, kv)
	}
	out = append(out, "TMPDIR="+tmp)
	for _, kv := range env {
		if kv == "HOME=/tmp" {
			out = append(out, "HOME="+tmp)
		}
	}
	return out
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// mountsFor lists the paths shown read-only (ro) and writable (rw) as
// mounts, at the same paths.
func mountsFor(ro, rw []string) ([]wire.Mount, error) {
	var ms []wire.Mount
	for i, list := range [][]string{ro, rw} {
		for _, path := range list {
			if _, err := os.Stat(path); err != nil {
				return nil, fmt.Errorf("sandbox: %w", err)
			}
			ms = append(ms, wire.Mount{FD: -1, Src: path, Dst: path, Write: i == 1})
		}
	}
	return ms, nil
}

// cloneTree clones the mount tree at path for an init when the judge
// runs as root: the init runs as nobody and may not reach path. Nil when
// there is no need, or the clone failed (the init then tries path).
func cloneTree(path string) *os.File {
	if os.Geteuid() != 0 {
		return nil
	}
	fd, err := unix.OpenTree(unix.AT_FDCWD, path, unix.OPEN_TREE_CLONE|unix.OPEN_TREE_CLOEXEC|unix.AT_RECURSIVE)
	if err != nil {
		return nil
	}
	return os.NewFile(uintptr(fd), path)
}

// showNamespaced sets what Landlock lets a program in namespaces read
// (everything it sees) and write (its /tmp, /dev/shm and rw).
func showNamespaced(cfg *wire.Config, rw []string) {
	cfg.RO = []string{"/"}
	cfg.RW = append([]string{"/tmp", "/dev/shm"}, rw...)
}

// protect turns on the Landlock and seccomp the machine has (pr).
func (h *Host) protect(cfg *wire.Config, pr *Report) {
	if pr.landlock >= 1 {
		cfg.Landlock = pr.landlock
	}
	cfg.Seccomp = pr.seccomp && !h.opts.NoSeccomp
}

// initRlimits are the rlimits of a program run by an init, with the
// cgroups cgs (nil for none), in namespaces (ns) or not: what the cgroups
// do not enforce; RLIMIT_NPROC only in a user namespace of the sandbox's
// own, where it counts the init's threads too.
func initRlimits(l Limits, cgs *cgroupSys, ns bool) []wire.Rlimit {
	nproc := ns && (cgs == nil || !cgs.pids)
	if nproc && l.Procs > 0 {
		l.Procs += initThreads
	}
	return rlimitsFor(l, cgs != nil && cgs.memory, nproc)
}
