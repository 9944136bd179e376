//go:build linux

package inside

import (
	"errors"
	"os"
	"os/exec"
	"runtime"
	"testing"

	"golang.org/x/sys/unix"
)

// The main goroutine stays on the main thread until TestMain, as the
// init's main loop is when it starts a ready thread.
func init() { runtime.LockOSThread() }

// offMainEnv makes the test binary a child of TestGoOffMain: it starts
// one goroutine from the main goroutine on the main thread with one P,
// as the init starts its ready threads, plainly ("plain") or through
// goOffMain ("offmain"), and exits with onMainExit if the goroutine locked
// the main thread.
const (
	offMainEnv = "JUDGE_TEST_OFF_MAIN"
	onMainExit = 3
)

func TestMain(m *testing.M) {
	how := os.Getenv(offMainEnv)
	runtime.UnlockOSThread()
	if how == "" {
		os.Exit(m.Run())
	}
	runtime.GOMAXPROCS(1)
	ch := make(chan bool)
	isMain := func() bool { return unix.Gettid() == unix.Getpid() }
	if how == "plain" {
		go func() {
			runtime.LockOSThread()
			ch <- isMain()
		}()
	} else {
		goOffMain(func() { ch <- isMain() })
	}
	if <-ch {
		os.Exit(onMainExit)
	}
	os.Exit(0)
}

// TestGoOffMain: a goroutine that will restrict its thread never gets
// the main thread, where a plain goroutine started the same way mostly
// does (the log says how often: the hazard this guards against).
func TestGoOffMain(t *testing.T) {
	count := func(how string, tries int) int {
		n := 0
		for range tries {
			cmd := exec.Command(os.Args[0], "-test.run", "^$")
			cmd.Env = append(os.Environ(), offMainEnv+"="+how, "GORACE=atexit_sleep_ms=0")
			err := cmd.Run()
			var ee *exec.ExitError
			switch {
			case errors.As(err, &ee) && ee.ExitCode() == onMainExit:
				n++
			case err != nil:
				t.Fatalf("%s: %v", how, err)
			}
		}
		return n
	}
	const plainTries, offTries = 5, 10
	plain, off := count("plain", plainTries), count("offmain", offTries)
	t.Logf("goroutines started from the main thread that ran on it: %d of %d plain ones, %d of %d through goOffMain",
		plain, plainTries, off, offTries)
	if off > 0 {
		t.Errorf("%d of %d goroutines started through goOffMain ran on the main thread", off, offTries)
	}
}
