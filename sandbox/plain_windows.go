package sandbox

import (
	"errors"
	"fmt"
	"os/exec"
	"sync"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"
)

// plainDoes is what level None does on Windows.
const plainDoes = "a job object, killed whole, that bounds memory and processes; no other limits but the wall-clock one"

// ptyCheck is the pseudo-terminal line of judge doctor.
var ptyCheck = Check{Name: "pty", Detail: "Windows has no pseudo-terminals: bots write to a pipe", Advice: "flush stdout after every line (fflush(stdout), print(..., flush=True), System.out.flush())"}

// killCode is the exit code of the processes of a job the judge kills.
const killCode = 137

// plainProc is a program run with no sandbox: in a job object of its
// own, which the judge closes (killing what is left in it) once the
// program has ended. Were the judge to end first, Windows would close
// the job and kill them then.
type plainProc struct {
	p   *Process
	cmd *exec.Cmd
	pid int

	mu  sync.Mutex
	job windows.Handle // 0 once closed
}

// startPlain runs spec.Argv in a job object of its own, at level None.
// The program is started suspended and put in the job before it runs,
// so that everything it starts is in the job too. Of spec.Limits, Memory
// (the job's committed memory), Procs (its processes) and Wall bind.
func startPlain(spec Spec) (*Process, error) {
	// A process group of its own: the console's Ctrl-C is the judge's,
	// which then stops the bots.
	cmd, err := plainCmd(spec, &syscall.SysProcAttr{CreationFlags: windows.CREATE_SUSPENDED | windows.CREATE_NEW_PROCESS_GROUP})
	if err != nil {
		return nil, err
	}
	job, err := newJob(spec.Limits)
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		windows.CloseHandle(job)
		return nil, fmt.Errorf("sandbox: start %s: %w", spec.Argv[0], err)
	}
	pp := &plainProc{cmd: cmd, pid: cmd.Process.Pid, job: job}
	if err := pp.enter(); err != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		windows.CloseHandle(job)
		return nil, err
	}
	p := &Process{pid: pp.pid, level: None, desc: noneSummary, done: make(chan struct{}), b: pp}
	pp.p = p
	go pp.wait()
	p.wallTimer(spec.Limits.Wall)
	return p, nil
}

// newJob makes a job object that kills its processes once closed, with
// the limits of l it can enforce.
func newJob(l Limits) (windows.Handle, error) {
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return 0, fmt.Errorf("sandbox: job object: %w", err)
	}
	var info windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION
	info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
	if l.Memory > 0 {
		info.BasicLimitInformation.LimitFlags |= windows.JOB_OBJECT_LIMIT_JOB_MEMORY
		info.JobMemoryLimit = uintptr(l.Memory)
	}
	if l.Procs > 0 {
		info.BasicLimitInformation.LimitFlags |= windows.JOB_OBJECT_LIMIT_ACTIVE_PROCESS
		info.BasicLimitInformation.ActiveProcessLimit = uint32(l.Procs)
	}
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		windows.CloseHandle(job)
		return 0, fmt.Errorf("sandbox: job object limits: %w", err)
	}
	return job, nil
}

// enter puts the suspended program in its job, then lets it run.
func (pp *plainProc) enter() error {
	h, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, uint32(pp.pid))
	if err != nil {
		return fmt.Errorf("sandbox: open process %d: %w", pp.pid, err)
	}
	err = windows.AssignProcessToJobObject(pp.job, h)
	windows.CloseHandle(h)
	if err != nil {
		return fmt.Errorf("sandbox: job object: %w", err)
	}
	return resume(pp.pid)
}

// resume lets every thread of the suspended process pid run: its one.
func resume(pid int) error {
	snap, err := windows.CreateToolhelp32Snapshot(windows.TH32CS_SNAPTHREAD, 0)
	if err != nil {
		return fmt.Errorf("sandbox: resume %d: %w", pid, err)
	}
	defer windows.CloseHandle(snap)
	n := 0
	t := windows.ThreadEntry32{Size: uint32(unsafe.Sizeof(windows.ThreadEntry32{}))}
	for err = windows.Thread32First(snap, &t); err == nil; err = windows.Thread32Next(snap, &t) {
		if t.OwnerProcessID != uint32(pid) {
			continue
		}
		th, err := windows.OpenThread(windows.THREAD_SUSPEND_RESUME, false, t.ThreadID)
		if err != nil {
			return fmt.Errorf("sandbox: resume %d: %w", pid, err)
		}
		_, err = windows.ResumeThread(th)
		windows.CloseHandle(th)
		if err != nil {
			return fmt.Errorf("sandbox: resume %d: %w", pid, err)
		}
		n++
	}
	if n == 0 {
		return fmt.Errorf("sandbox: resume %d: no thread found", pid)
	}
	return nil
}

// jobAccounting is JOBOBJECT_BASIC_ACCOUNTING_INFORMATION: times in
// units of 100 ns.
type jobAccounting struct {
	TotalUserTime, TotalKernelTime                     int64
	ThisPeriodTotalUserTime, ThisPeriodTotalKernelTime int64
	TotalPageFaultCount, TotalProcesses                uint32
	ActiveProcesses, TotalTerminatedProcesses          uint32
}

func (pp *plainProc) wait() {
	_ = pp.cmd.Wait()
	p := pp.p
	e := Exit{Code: -1}
	if ps := pp.cmd.ProcessState; ps != nil {
		e.Code = ps.ExitCode()
		e.CPU = ps.UserTime() + ps.SystemTime()
	}
	p.mu.Lock()
	killed := p.killed
	p.mu.Unlock()
	if killed && e.Code == killCode {
		e.Code, e.Signal = -1, syscall.SIGKILL
	}
	if d, ok := pp.cpuTime(); ok {
		e.CPU = max(e.CPU, d)
	}
	var info windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION
	pp.mu.Lock()
	if windows.QueryInformationJobObject(pp.job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info)), nil) == nil {
		e.MaxRSS = int64(info.PeakJobMemoryUsed)
	}
	// What the program started and left is ended with the job.
	_ = windows.TerminateJobObject(pp.job, killCode)
	windows.CloseHandle(pp.job)
	pp.job = 0
	pp.mu.Unlock()
	p.finish(e)
}

func (pp *plainProc) kill() {
	pp.mu.Lock()
	defer pp.mu.Unlock()
	if pp.job != 0 {
		_ = windows.TerminateJobObject(pp.job, killCode)
	}
}

// freeze does nothing: Windows has no way to stop a job's processes
// that the judge could rely on, and level None does not freeze.
func (pp *plainProc) freeze(bool) error { return nil }

// cpuTime is the CPU time of every process of the job so far.
func (pp *plainProc) cpuTime() (time.Duration, bool) {
	pp.mu.Lock()
	defer pp.mu.Unlock()
	if pp.job == 0 {
		return 0, false
	}
	var a jobAccounting
	if windows.QueryInformationJobObject(pp.job, windows.JobObjectBasicAccountingInformation,
		uintptr(unsafe.Pointer(&a)), uint32(unsafe.Sizeof(a)), nil) != nil {
		return 0, false
	}
	return time.Duration(a.TotalUserTime+a.TotalKernelTime) * 100, true
}

func (pp *plainProc) countsAll() bool { return true }

func (pp *plainProc) pids() []int { return []int{pp.pid} }

func (pp *plainProc) leftovers() []string { return nil }

// signalName is the name of sig: on Windows only the judge's kill is
// told as a signal.
func signalName(sig syscall.Signal) string {
	if sig == syscall.SIGKILL {
		return "SIGKILL"
	}
	return ""
}

// processCPU is not needed: the job counts every process's CPU time.
func processCPU(int) (time.Duration, error) {
	return 0, errors.New("sandbox: no CPU time of the program")
}
