// Command gochurn keeps 100 MiB and builds lists of 64 MiB, one after
// another, as a search that keeps its tree for one turn does; then it says
// on stderr how much memory it mapped, and ends its turn. Go's collector,
// left to its defaults, lets the heap grow to twice what is live.
package main

import (
	"fmt"
	"os"
	"strings"
)

type node struct {
	n    int64
	next *node
	_    [48]byte
}

func list(bytes int) *node {
	var l *node
	for i := 0; i < bytes/64; i++ {
		l = &node{n: int64(i), next: l}
	}
	return l
}

func main() {
	kept := list(100 << 20)
	sum := kept.n
	for range 20 {
		sum += list(64 << 20).n
	}
	status, _ := os.ReadFile("/proc/self/status")
	for _, l := range strings.Split(string(status), "\n") {
		if strings.HasPrefix(l, "VmData") {
			fmt.Fprintln(os.Stderr, strings.Join(strings.Fields(l), " "), sum)
		}
	}
	fmt.Println("#END")
}
