//go:build linux

package procbot

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestPinCatchesThreadsMadeMeanwhile: a bot's threads are pinned to its
// match's CPU (setAffinity) while they make more threads; a thread made
// by one not yet moved takes the old affinity. Once the 41 threads of
// threadchain.c are there, every one of them is on the CPU.
func TestPinCatchesThreadsMadeMeanwhile(t *testing.T) {
	t.Parallel()
	var all unix.CPUSet
	if err := unix.SchedGetaffinity(0, &all); err != nil {
		t.Fatal(err)
	}
	if all.Count() < 2 {
		t.Skip("one CPU: every thread is on it anyway")
	}
	cpu := 0
	for !all.IsSet(cpu) {
		cpu++
	}
	bin := filepath.Join(t.TempDir(), "threadchain")
	if out, err := exec.Command("gcc", "-O2", "-pthread", "-o", bin, "testdata/threadchain.c").CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s", err, out)
	}
	for round := 0; round < 5; round++ {
		cmd := exec.Command(bin)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		pid := cmd.Process.Pid
		var one unix.CPUSet
		one.Set(cpu)
		setAffinity(pid, &one)
		dir := "/proc/" + strconv.Itoa(pid) + "/task"
		var tasks []os.DirEntry
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
			if tasks, _ = os.ReadDir(dir); len(tasks) >= 41 {
				break
			}
		}
		var astray []string
		for _, task := range tasks {
			tid, _ := strconv.Atoi(task.Name())
			var set unix.CPUSet
			if err := unix.SchedGetaffinity(tid, &set); err == nil && set != one {
				astray = append(astray, task.Name())
			}
		}
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		if len(tasks) < 41 {
			t.Fatalf("round %d: %d threads, want 41", round, len(tasks))
		}
		if len(astray) > 0 {
			t.Fatalf("round %d: threads %v of %d are not on CPU %d", round, astray, len(tasks), cpu)
		}
	}
}
