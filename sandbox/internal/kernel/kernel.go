//go:build linux

// Package kernel reads and asks the kernel what both sides of the
// sandbox need: the processes and threads of /proc, resource limits, and
// what the kernel offers (Landlock, seccomp).
package kernel

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// Children lists the child processes of pid (of all its threads).
func Children(pid int) []int {
	var out []int
	for _, tid := range Tasks(pid, nil) {
		out = TaskChildren(pid, tid, out)
	}
	return out
}

// TaskChildren appends the child processes of thread tid of process pid
// to out.
func TaskChildren(pid, tid int, out []int) []int {
	var buf [4096]byte
	fd, err := unix.Open(fmt.Sprintf("/proc/%d/task/%d/children", pid, tid), unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return out
	}
	var b []byte
	for {
		n, err := unix.Read(fd, buf[:])
		if err != nil || n <= 0 {
			break
		}
		b = append(b, buf[:n]...)
	}
	unix.Close(fd)
	for _, f := range strings.Fields(string(b)) {
		if n, err := strconv.Atoi(f); err == nil {
			out = append(out, n)
		}
	}
	return out
}

// Tasks appends the thread ids of process pid to out (none once it has
// ended), with raw system calls.
func Tasks(pid int, out []int) []int {
	fd, err := unix.Open(fmt.Sprintf("/proc/%d/task", pid), unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return out
	}
	defer unix.Close(fd)
	var buf [4096]byte
	for {
		n, err := unix.Getdents(fd, buf[:])
		if err != nil || n <= 0 {
			break
		}
		out = AppendDirentNumbers(out, buf[:n])
	}
	return out
}

// AppendDirentNumbers appends to out the names that are decimal numbers
// (as a task or process directory of /proc lists them) of the directory
// entries in buf, as getdents64 returns them, and stops at a record that
// does not fit. It allocates nothing but out's growth.
func AppendDirentNumbers(out []int, buf []byte) []int {
	const nameAt = 19 // d_ino 8, d_off 8, d_reclen 2, d_type 1
	for len(buf) >= nameAt {
		reclen := int(binary.NativeEndian.Uint16(buf[16:18]))
		if reclen < nameAt || reclen > len(buf) {
			break
		}
		name := buf[nameAt:reclen]
		if i := bytes.IndexByte(name, 0); i >= 0 {
			name = name[:i]
		}
		ino := binary.NativeEndian.Uint64(buf[:8])
		buf = buf[reclen:]
		if ino == 0 || len(name) == 0 || len(name) > 9 {
			continue // not a number, or not a pid's
		}
		n := 0
		for _, c := range name {
			if c < '0' || c > '9' {
				n = -1
				break
			}
			n = n*10 + int(c-'0')
		}
		if n >= 0 {
			out = append(out, n)
		}
	}
	return out
}

// ReadInto reads a small file into buf.
func ReadInto(path string, buf []byte) []byte {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil
	}
	n, _ := unix.Read(fd, buf)
	unix.Close(fd)
	if n < 0 {
		n = 0
	}
	return buf[:n]
}

// ProcState is the state letter of a stat file of /proc, or 0.
func ProcState(path string, buf []byte) byte {
	b := ReadInto(path, buf)
	i := bytes.LastIndexByte(b, ')')
	if i < 0 || i+2 >= len(b) {
		return 0
	}
	return b[i+2]
}

// ParseStat reads, from the text of a stat file of /proc, the CPU time
// of the children the process has reaped (cutime and cstime, in clock
// ticks, which Linux counts in hundredths of a second for every program)
// and its number of threads.
// It allocates nothing: the judge reads it at every turn of a bot.
func ParseStat(b []byte) (reaped time.Duration, threads int, ok bool) {
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, 0, false
	}
	// After the name: state (field 3) ... cutime (16), cstime (17), ...,
	// num_threads (20): the 14th, 15th and 18th fields after it.
	var cu, cs, n int64
	b = b[i+1:]
	for k := 1; k <= 18; k++ {
		for len(b) > 0 && isSpace(b[0]) {
			b = b[1:]
		}
		end := 0
		for end < len(b) && !isSpace(b[end]) {
			end++
		}
		if end == 0 {
			return 0, 0, false
		}
		field := b[:end]
		b = b[end:]
		var v *int64
		switch k {
		case 14:
			v = &cu
		case 15:
			v = &cs
		case 18:
			v = &n
		default:
			continue
		}
		x, ok := parseDecimal(field)
		if !ok {
			return 0, 0, false
		}
		*v = x
	}
	if n != int64(int(n)) {
		return 0, 0, false
	}
	return time.Duration(cu+cs) * (time.Second / userHZ), int(n), true
}

// isSpace is what bytes.Fields splits on, in the ASCII a stat file holds.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

// parseDecimal is strconv.ParseInt(string(b), 10, 64) without the
// string: an optional sign, then digits, within int64.
func parseDecimal(b []byte) (int64, bool) {
	neg := false
	if len(b) > 0 && (b[0] == '+' || b[0] == '-') {
		neg = b[0] == '-'
		b = b[1:]
	}
	if len(b) == 0 {
		return 0, false
	}
	var u uint64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		if u > (1<<63)/10 {
			return 0, false
		}
		u = u*10 + uint64(c-'0')
		if u > 1<<63 {
			return 0, false
		}
	}
	if !neg && u == 1<<63 {
		return 0, false
	}
	if neg {
		return -int64(u), true
	}
	return int64(u), true
}

// userHZ is the unit of the times of /proc's stat files (USER_HZ).
const userHZ = 100
