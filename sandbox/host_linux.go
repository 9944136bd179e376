//go:build linux

package sandbox

import "sync"

// hostSys is what a Host keeps for Linux's sandboxes.
type hostSys struct {
	cgMu sync.Mutex
	cg   *cgroupSys // the cgroups found (cgroups), nil until then

	pool   *slotPool   // the sandboxes kept ready
	reuse  reuseChecks // whether they work here, at each level
	shapes shapeCache  // what prepare worked out for a spec, by the spec

	sweepOnce sync.Once // level Basic's stale tmp directories, removed once

	// bus is whom the judge asks for a scope on cgroup v2 (systemdBus;
	// tests point it at buses of their own).
	bus func() (who string, addrs []busAddr)
}

func (h *Host) initSys() {
	h.pool = newSlotPool(h.opts.SlotFault)
	h.reuse.checks = map[Level]error{}
	h.bus = systemdBus
}
