//go:build unix

package plugin

import (
	"syscall"

	"github.com/tetratelabs/wazero/experimental"
)

// mappedMemory is an instance's linear memory outside the Go heap: its
// largest size mapped at once, each page costing only once the module
// touches it, so that growing never copies and the judge's heap never
// holds an instance's memory (nor, while it grows, two). Where the
// mapping is refused (a largest size past what the system lets one
// map), it lives in the Go heap, grown as wazero grows its own.
type mappedMemory struct {
	max    uint64
	buf    []byte
	mapped bool // buf is the mapping
	tried  bool // the mapping was tried
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

// Reallocate implements experimental.LinearMemory: the memory at size
// bytes, nil past its largest size.
func (m *mappedMemory) Reallocate(size uint64) []byte {
	if size > m.max {
		return nil
	}
	if !m.tried {
		m.tried = true
		if m.max > 0 && m.max <= 1<<32 {
			b, err := syscall.Mmap(-1, 0, int(m.max), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
			if err == nil {
				m.buf, m.mapped = b, true
			}
		}
	}
	if !m.mapped && size > uint64(cap(m.buf)) {
		b := make([]byte, size, min(m.max, max(size, 2*uint64(cap(m.buf)))))
		copy(b, m.buf)
		m.buf = b
	}
	return m.buf[:size]
}

// Free implements experimental.LinearMemory.
func (m *mappedMemory) Free() {
	if m.mapped {
		_ = syscall.Munmap(m.buf)
	}
	m.buf, m.mapped = nil, false
}
