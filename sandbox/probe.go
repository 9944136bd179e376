//go:build linux

package sandbox

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"judge/sandbox/internal/kernel"
	"judge/sandbox/internal/wire"
)

// Report says what protection this machine gives sandboxed programs.
type Report struct {
	Level  Level   // the strongest level available
	Checks []Check // each protection, active or not

	ns       bool
	landlock int // Landlock ABI, 0 without
	seccomp  bool
	cg       *cgroupSys                 // the cgroups the Host found
	bus      func() (string, []busAddr) // whom the Host asks for a scope (systemdBus)
}

// runProbe examines the machine for Probe. It gives up when ctx ends
// while it asks systemd for a scope or tries the namespaces.
func (h *Host) runProbe(ctx context.Context) (*Report, error) {
	r := &Report{bus: h.bus}
	add := func(name string, active bool, detail, advice string) {
		r.Checks = append(r.Checks, Check{Name: name, Active: active, Detail: detail, Advice: advice})
	}

	// Seccomp, as far as the kernel says.
	actions, err := os.ReadFile("/proc/sys/kernel/seccomp/actions_avail")
	r.seccomp = err == nil && strings.Contains(string(actions), "errno") && kernel.AuditArch != 0
	r.landlock = kernel.LandlockABI()

	nsErr := probeNamespaces(ctx, r.seccomp)
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("sandbox: probing the machine: %w", err)
	}
	r.ns = nsErr == nil
	id := "the judge's own user id"
	if os.Geteuid() == 0 {
		id = "uid 65534 (nobody)"
	}
	if r.ns {
		add("user namespace", true, "programs run as "+id+" with no capabilities", "")
		add("pid, mount, network, ipc, uts namespaces", true,
			"a tiny init as PID 1; read-only system directories and bot directory, private /tmp, fresh /proc, minimal /dev; no network but an own loopback", "")
	} else {
		add("user namespace", false, nsErr.Error(),
			"allow unprivileged user namespaces: sysctl kernel.unprivileged_userns_clone=1 and user.max_user_namespaces>0; on Ubuntu 23.10+ also kernel.apparmor_restrict_unprivileged_userns=0 (or an AppArmor profile for the judge); in Docker, --security-opt seccomp=unconfined or a privileged container")
		add("pid, mount, network, ipc, uts namespaces", false, "need the user namespace", "as above")
	}

	cg, err := h.cgroups(ctx)
	if err != nil {
		return nil, err
	}
	r.cg = cg
	where := func(ctrl string) string { return cg.ver.where(ctrl) }
	cgAdvice := "run the judge as root, or in a delegated cgroup v2 subtree: systemd-run --user --scope -p Delegate=yes judge ...; without it memory is bounded by RLIMIT_DATA and processes by RLIMIT_NPROC"
	if cg.pureV2 {
		cgAdvice = v2Advice(h.bus)
	}
	why := strings.Join(cg.notes, "; ")
	if why == "" {
		why = "no usable cgroup"
	}
	// The reason and the advice are the same for every controller: said
	// in full once, then referred to.
	first := ""
	for _, c := range []struct {
		name, ctrl, does string
		on               bool
	}{
		{"cgroup memory", "memory", "real memory is limited; the OOM killer's verdict is read from the cgroup", cg.memory},
		{"cgroup pids", "pids", "processes and threads are limited", cg.pids},
		{"cgroup freezer", "freezer", "programs are frozen while it is not their turn", cg.freezer},
		{"cgroup cpu accounting", "cpuacct", "CPU time of every turn from the cgroup", cg.cpu},
	} {
		switch {
		case c.on:
			add(c.name, true, c.does+" ("+where(c.ctrl)+")", "")
		case first == "":
			first = c.name
			add(c.name, false, why, cgAdvice)
		default:
			add(c.name, false, "as for "+first, "")
		}
	}
	// A bot in namespaces is stopped by its init, which does not stop a
	// process inside a write (a freezer cuts the write short), and costs
	// 2 µs where v1's freezer costs 0.2 ms.
	stopped := "a bot found computing between its turns is stopped then with SIGSTOP, sent by the sandbox's init to its whole PID namespace, but not while a thread is inside a write, which a cgroup freezer would cut short"
	switch {
	case !cg.freezer:
		r.Checks[len(r.Checks)-2].Detail = "frozen with SIGSTOP instead (" + r.Checks[len(r.Checks)-2].Detail + ")"
	case cg.version() == 1:
		r.Checks[len(r.Checks)-2].Detail = "present (" + where("freezer") + "), not used: " + stopped + "; it costs 2 µs where the v1 freezer costs 0.2 ms"
	default:
		r.Checks[len(r.Checks)-2].Detail = "present (" + where("freezer") + "): " + stopped + "; cgroup.freeze freezes programs at level basic, which has no PID namespace"
	}
	if r.landlock > 0 {
		what := "file system access limited to what the program needs"
		if r.landlock >= 4 {
			what += "; no TCP"
		}
		if r.landlock >= 6 {
			what += "; no abstract unix sockets or signals out of the sandbox"
		} else {
			// What the namespaces and the seccomp filter do instead
			// (docs/sandbox.md, Older kernels).
			what += "; abstract unix sockets and signals are not scoped (ABI 6): the namespaces keep them in at levels full and namespaces; " +
				"at basic the seccomp filter refuses connect, bind, datagram sockets and kill of a group or of every process, " +
				"but a bot can signal a process of its user named by its pid"
		}
		add("landlock", true, fmt.Sprintf("ABI %d: %s", r.landlock, what), "")
	} else {
		add("landlock", false, "the kernel has no Landlock (Linux 5.13+, lsm=landlock on the kernel command line)", "add landlock to the kernel's lsm= boot parameter")
	}
	if r.seccomp {
		add("seccomp", true, "a filter denies sockets other than AF_UNIX, ptrace, keyctl, io_uring, bpf, perf, mount, unshare, TIOCSTI and more", "")
	} else {
		add("seccomp", false, "seccomp filters are not available on this kernel or architecture", "")
	}
	add("no_new_privs", true, "set-user-id programs cannot gain privileges", "")
	if f, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0); err == nil {
		f.Close()
		add("pty", true, "pseudo-terminals, so that C and Python flush every line of a bot that no line buffering of a pipe reaches (a static program), or of every bot with io = pty", "")
	} else {
		add("pty", false, err.Error(), "mount devpts (/dev/pts) or run bots with io = pipe")
	}

	switch {
	case r.ns && cg.memory && cg.pids:
		r.Level = Full
	case r.ns:
		r.Level = Namespaces
	default:
		r.Level = Basic
	}
	return r, nil
}

// probeNamespaces starts an init in fresh namespaces that sets up a root
// file system, and reports what went wrong, if anything.
func probeNamespaces(ctx context.Context, seccomp bool) error {
	if !initCalled.Load() {
		return fmt.Errorf("sandbox.Init is not called at the start of main")
	}
	id, gid := initIDs()
	ctlR, ctlW, err := os.Pipe()
	if err != nil {
		return err
	}
	defer ctlW.Close()
	stR, stW, err := os.Pipe()
	if err != nil {
		ctlR.Close()
		return err
	}
	defer stR.Close()
	cmd := &exec.Cmd{
		Path:        "/proc/self/exe",
		Args:        []string{wire.InitName},
		Env:         []string{"GOMAXPROCS=1", "GORACE=atexit_sleep_ms=0"},
		ExtraFiles:  []*os.File{ctlR, stW},
		SysProcAttr: initAttr(nsCloneFlags, id, gid),
	}
	err = cmd.Start()
	ctlR.Close()
	stW.Close()
	if err != nil {
		return fmt.Errorf("cannot create namespaces: %w", err)
	}
	b, _ := json.Marshal(wire.Config{Mode: wire.ModeProbe, Seccomp: seccomp, Uid: -1, Gid: -1})
	_, _ = ctlW.Write(append(b, '\n'))
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	stop := context.AfterFunc(ctx, func() { _ = cmd.Process.Kill() })
	defer stop()
	line, rerr := bufio.NewReader(stR).ReadBytes('\n')
	_ = cmd.Wait()
	var m wire.Message
	if rerr != nil || json.Unmarshal(line, &m) != nil {
		return fmt.Errorf("the probe sandbox ended early (%v)", cmd.ProcessState)
	}
	if m.Err != "" {
		return fmt.Errorf("namespaces work, but not the sandbox's file system: %s", m.Err)
	}
	return nil
}

// String prints the report for a person, one protection a line.
func (r *Report) String() string {
	var b strings.Builder
	writeChecks(&b, r.Level, r.Checks)
	b.WriteString(r.starts(r.cg))
	switch r.Level {
	case Namespaces:
		b.WriteString("memory and processes are bounded by rlimits only (RLIMIT_DATA, RLIMIT_NPROC); out-of-memory shows as a crash\n")
	case Basic:
		b.WriteString("WARNING: no namespaces: bots see the machine's processes and file system names; only rlimits, Landlock and seccomp protect it\n")
	}
	return b.String()
}

// Summary is the level and its protections in one line, as stored in
// replays.
func (r *Report) Summary() string { return describe(r.Level, r, r.cg) }

// describe says in one line what a sandbox at level enforces.
func describe(level Level, r *Report, cg *cgroupSys) string {
	if level == None {
		return "none: NOT SANDBOXED (process group and rlimits only)"
	}
	var parts []string
	if level.rank() >= Namespaces.rank() {
		parts = append(parts, "namespaces (user, pid, mount, net, ipc, uts)")
	}
	if cg != nil && (level == Full || level == Basic) && cg.version() > 0 {
		var ctrls []string
		for _, c := range []struct {
			name string
			on   bool
		}{{"memory", cg.memory}, {"pids", cg.pids}, {"freezer", cg.freezer}, {"cpu", cg.cpu}} {
			if c.on {
				ctrls = append(ctrls, c.name)
			}
		}
		parts = append(parts, fmt.Sprintf("cgroup v%d (%s)", cg.version(), strings.Join(ctrls, ", ")))
	} else {
		parts = append(parts, "rlimits")
	}
	if r != nil && r.landlock > 0 {
		parts = append(parts, fmt.Sprintf("landlock v%d", r.landlock))
	}
	if r != nil && r.seccomp {
		parts = append(parts, "seccomp")
	}
	parts = append(parts, "no_new_privs")
	return string(level) + ": " + strings.Join(parts, ", ")
}

func durationUS(us int64) time.Duration { return time.Duration(us) * time.Microsecond }

// systemdRun is the command that starts the judge in a delegated scope.
func systemdRun() string {
	if os.Geteuid() == 0 {
		return "systemd-run --scope -p Delegate=yes judge ..."
	}
	return "systemd-run --user --scope -p Delegate=yes judge ..."
}

// v2Advice is what to do on a cgroup v2 machine where the judge got no
// cgroup: what it asks of systemd is what systemd-run asks too.
func v2Advice(bus func() (string, []busAddr)) string {
	who, _ := bus()
	if os.Geteuid() == 0 {
		return "the judge asks " + who + " for a delegated scope of its own: run it where systemd is PID 1 and answers on the system bus or /run/systemd/private; without it memory is bounded by RLIMIT_DATA and processes by RLIMIT_NPROC"
	}
	return "the judge asks " + who + " for a delegated scope of its own, as " + systemdRun() + " would: run it in a login session (or after loginctl enable-linger USER, with XDG_RUNTIME_DIR=/run/user/UID), with a systemd that delegates memory and pids to users (244+); without it memory is bounded by RLIMIT_DATA and processes by RLIMIT_NPROC"
}

// starts says, for a person, which level the judge gets as it is
// started: from a shell, a script or make, and from systemd-run.
func (r *Report) starts(cg *cgroupSys) string {
	with, without := Full, Namespaces
	if !r.ns {
		with, without = Basic, Basic
	}
	if cg == nil || !cg.pureV2 {
		lvl := without
		if cg != nil && cg.memory && cg.pids {
			lvl = with
		}
		return fmt.Sprintf("however the judge is started (from a shell, a script, make or systemd-run): %s; cgroups are delegated on cgroup v2 only\n", lvl)
	}
	who, addrs := r.bus()
	var shell, run string
	switch {
	case cg.scope != "":
		shell = fmt.Sprintf("%s: it asks %s for a delegated scope of its own (this judge got %s)", with, who, cg.scope)
		run = fmt.Sprintf("%s: the scope it is started in is its own", with)
	case cg.version() == 2:
		if err := systemdReachable(addrs); err != nil {
			shell = fmt.Sprintf("%s, unless its cgroup is delegated to it and its own: it cannot ask %s for a scope: %v", without, who, err)
		} else {
			shell = fmt.Sprintf("%s: it asks %s for a delegated scope of its own", with, who)
		}
		run = fmt.Sprintf("%s: the judge alone in its delegated scope (as now)", with)
	default:
		shell = fmt.Sprintf("%s: %v", without, cg.scopeErr)
		run = fmt.Sprintf("%s as well: systemd-run asks the same manager", without)
	}
	return fmt.Sprintf("the level as the judge is started:\n  from a shell, a script or make:  %s\n  with %s:  %s\n", shell, systemdRun(), run)
}
