//go:build unix

package plugin

import (
	"syscall"

	"github.com/tetratelabs/wazero/experimental"
)

// mappedMemory is an instance's linear memory outside the Go heap: its
// largest size mapped at once, each page costing only once the module
// touches it, so that growing never copies and the judge's heap never
// holds an instance's memory (nor, while it grows, two).
type mappedMemory struct {
	max uint64
	buf []byte
}

// memoryAllocator is how the memory of a module with the judge's stop
// checks is allocated: mapped. wazero frees a memory when its module is
// closed, which such a module is only once its _start has returned (a
// module that wazero itself may close while it runs keeps wazero's own
// memory).
func memoryAllocator() experimental.MemoryAllocator {
	return experimental.MemoryAllocatorFunc(func(_, max uint64) experimental.LinearMemory {
		return &mappedMemory{max: max}
	})
}

// Reallocate implements experimental.LinearMemory; nil when the memory
// cannot be mapped or would pass its largest size.
func (m *mappedMemory) Reallocate(size uint64) []byte {
	if m.buf == nil {
		if m.max == 0 || m.max > 1<<32 {
			return nil
		}
		b, err := syscall.Mmap(-1, 0, int(m.max), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
		if err != nil {
			return nil
		}
		m.buf = b
	}
	if size > uint64(len(m.buf)) {
		return nil
	}
	return m.buf[:size]
}

// Free implements experimental.LinearMemory.
func (m *mappedMemory) Free() {
	if m.buf != nil {
		_ = syscall.Munmap(m.buf)
		m.buf = nil
	}
}
