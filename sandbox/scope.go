//go:build linux

package sandbox

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	sd "github.com/coreos/go-systemd/v22/dbus"
	"github.com/godbus/dbus/v5"
)

// A judge started from a shell, a script or make on a cgroup v2 machine
// shares its cgroup with other processes, in which it may not enable
// controllers for its sandboxes (cgroup v2 has no processes in a cgroup
// whose children have controllers): it asks systemd for a scope of its
// own, delegated to it (Delegate=yes), holding itself only. systemd
// moves it there, and the judge then moves itself into a leaf of it
// (setupV2), beside the cgroups of its sandboxes. A normal user asks its
// user manager (systemd --user), root the system manager: each can move
// only processes it may move, so no process leaves a cgroup its user
// could not leave with systemd-run.

// scopeTimeout bounds the whole exchange with systemd.
const scopeTimeout = 10 * time.Second

// systemdBus is whom the judge asks for a scope: systemd's user manager
// for a normal user, the system manager for root, with the addresses
// where each may be reached, tried in turn. (A Host's bus: tests point
// theirs at buses of their own.)
func systemdBus() (who string, addrs []busAddr) {
	if os.Geteuid() == 0 {
		sys := "unix:path=/run/dbus/system_bus_socket"
		if a := os.Getenv("DBUS_SYSTEM_BUS_ADDRESS"); a != "" {
			sys = a
		}
		return "systemd (the system manager)", []busAddr{{sys, false}, {"unix:path=/run/systemd/private", true}}
	}
	if a := os.Getenv("DBUS_SESSION_BUS_ADDRESS"); a != "" {
		addrs = append(addrs, busAddr{a, false})
	}
	// Without the variable (sudo -u, su, cron), the user's runtime
	// directory, where the user manager listens while the user has a
	// session or lingers.
	run := os.Getenv("XDG_RUNTIME_DIR")
	if run == "" {
		run = "/run/user/" + strconv.Itoa(os.Getuid())
	}
	addrs = append(addrs, busAddr{"unix:path=" + filepath.Join(run, "bus"), false},
		busAddr{"unix:path=" + filepath.Join(run, "systemd/private"), true})
	return "systemd's user manager (systemd --user)", addrs
}

// busAddr is a D-Bus address; direct says it is systemd's own socket,
// with no bus daemon between (no Hello).
type busAddr struct {
	addr   string
	direct bool
}

// dialSystemd connects to the first of addrs that answers. On systemd's
// own socket, the connection subscribes to the manager's signals, which
// systemd sends there only to subscribers and to the connection that
// asked for the job (go-systemd listens on another).
func dialSystemd(ctx context.Context, addrs []busAddr) (*sd.Conn, error) {
	var errs []string
	for _, a := range addrs {
		if p, ok := strings.CutPrefix(a.addr, "unix:path="); ok {
			if _, err := os.Stat(p); err != nil {
				errs = append(errs, fmt.Sprintf("%s: %v", p, errors.Unwrap(err)))
				continue
			}
		}
		c, err := sd.NewConnection(func() (*dbus.Conn, error) {
			conn, err := dbus.Dial(a.addr, dbus.WithContext(ctx))
			if err != nil {
				return nil, err
			}
			if err := conn.Auth([]dbus.Auth{dbus.AuthExternal(strconv.Itoa(os.Getuid()))}); err != nil {
				conn.Close()
				return nil, err
			}
			if !a.direct {
				if err := conn.Hello(); err != nil {
					conn.Close()
					return nil, err
				}
			}
			return conn, nil
		})
		if err == nil {
			if a.direct {
				_ = c.Subscribe()
			}
			return c, nil
		}
		errs = append(errs, fmt.Sprintf("%s: %v", a.addr, err))
	}
	return nil, fmt.Errorf("no D-Bus connection to it (%s)", strings.Join(errs, "; "))
}

// scopeName is the name of the scope made for the judge of pid.
func scopeName(pid int) string { return fmt.Sprintf("judge-%d.scope", pid) }

// startScope asks systemd for a scope named name, delegated, that holds
// process pid, and waits until systemd has moved it there. A unit that
// failed is collected at once (CollectMode), so that nothing is left.
func startScope(ctx context.Context, addrs []busAddr, name string, pid int) error {
	ctx, cancel := context.WithTimeout(ctx, scopeTimeout)
	defer cancel()
	c, err := dialSystemd(ctx, addrs)
	if err != nil {
		if ctx.Err() != nil {
			// The bus did not answer before ctx ended.
			return fmt.Errorf("%v: %w", err, ctx.Err())
		}
		return err
	}
	defer c.Close()
	props := []sd.Property{
		sd.PropDescription("judge " + strconv.Itoa(pid) + " and its sandboxes"),
		sd.PropPids(uint32(pid)),
		{Name: "Delegate", Value: dbus.MakeVariant(true)},
		{Name: "CollectMode", Value: dbus.MakeVariant("inactive-or-failed")},
	}
	done := make(chan string, 1)
	if _, err := c.StartTransientUnitContext(ctx, name, "fail", props, done); err != nil {
		if ctx.Err() != nil && !errors.Is(err, ctx.Err()) {
			return fmt.Errorf("StartTransientUnit %s: %v: %w", name, err, ctx.Err())
		}
		return fmt.Errorf("StartTransientUnit %s: %w", name, err)
	}
	// The job's end is signalled; the judge's move into the scope, which
	// is what is waited for, is also seen in /proc, should the signal
	// not come.
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case r := <-done:
			if r != "done" {
				return fmt.Errorf("starting %s: the job ended %q", name, r)
			}
			return nil
		case <-tick.C:
			if p, ok := cgroupOf(pid); ok && filepath.Base(p) == name {
				return nil
			}
		case <-ctx.Done():
			return fmt.Errorf("starting %s: no answer from systemd: %w", name, ctx.Err())
		}
	}
}

// systemdReachable says whether systemd answers on addrs, for doctor.
func systemdReachable(addrs []busAddr) error {
	ctx, cancel := context.WithTimeout(context.Background(), scopeTimeout)
	defer cancel()
	c, err := dialSystemd(ctx, addrs)
	if err != nil {
		return err
	}
	defer c.Close()
	if _, err := c.GetManagerProperty("Version"); err != nil {
		return fmt.Errorf("systemd does not answer: %w", err)
	}
	return nil
}

// ownScope gets the judge (process pid, in cgroup own of the v2 mount
// m) a scope of its own from systemd at addrs, giving up when ctx ends,
// and prepares it for sandboxes
// (setupV2); it returns the scope's directory. When that fails, the
// judge goes back to the cgroup it came from where it may, so that
// systemd removes the empty scope at once; where it may not, the scope
// goes with the judge.
func ownScope(ctx context.Context, addrs []busAddr, m mountInfo, own string, pid int, ctrls []string) (dir, scope string, err error) {
	name := scopeName(pid)
	if err := startScope(ctx, addrs, name, pid); err != nil {
		return "", "", err
	}
	p, ok := cgroupOf(pid)
	if !ok || filepath.Base(p) != name {
		return "", "", fmt.Errorf("systemd started %s, but the judge is in %q", name, p)
	}
	dir = dirOf(m, p)
	if _, err := setupV2(dir, pid, ctrls, false); err != nil {
		_ = writeFile(filepath.Join(dirOf(m, own), "cgroup.procs"), int64(pid))
		return "", "", fmt.Errorf("in %s: %w", name, err)
	}
	return dir, name, nil
}

// cgroupOf is the v2 cgroup of process pid.
func cgroupOf(pid int) (string, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cgroup")
	if err != nil {
		return "", false
	}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if p, ok := strings.CutPrefix(line, "0::"); ok {
			return p, true
		}
	}
	return "", false
}
