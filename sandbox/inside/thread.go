//go:build linux

package inside

import (
	"runtime"

	"golang.org/x/sys/unix"
)

// goOffMain runs f in a new goroutine locked, for good, to a thread that
// is not the process's main thread, so that f may restrict its thread
// (Landlock, seccomp, namespaces, capabilities: all per thread) and leave
// it spoiled. The main thread is the thread group's leader, which the
// kernel asks for the process: a signal sent to the init is let through
// or not by the leader's Landlock domain, so a restricted leader would
// share its domain with the programs forked from it, and they could
// signal the init. A new goroutine may run on the main thread when the
// main goroutine waits (one P: the thread that waits takes the next
// goroutine); then it holds the main thread, where no other goroutine can
// run meanwhile, starts f's goroutine again, which another thread takes,
// and lets the main thread go once that one is locked.
func goOffMain(f func()) {
	go func() {
		runtime.LockOSThread()
		if unix.Gettid() != unix.Getpid() {
			f()
			return // the goroutine ends locked: its thread ends with it
		}
		moved := make(chan struct{})
		goOffMain(func() {
			close(moved)
			f()
		})
		<-moved
		runtime.UnlockOSThread()
	}()
}
