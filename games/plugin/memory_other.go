//go:build !unix

package plugin

import "github.com/tetratelabs/wazero/experimental"

// memoryAllocator is wazero's own here: linear memories in the Go heap.
func memoryAllocator() experimental.MemoryAllocator { return nil }
