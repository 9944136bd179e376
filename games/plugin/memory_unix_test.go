//go:build unix

package plugin

import (
	"bytes"
	"testing"
)

// TestMappedMemory: an instance's memory grows to its largest size
// keeping what it holds, with new bytes zero, mapped (never moved) or,
// where the mapping is refused, in the Go heap.
func TestMappedMemory(t *testing.T) {
	for _, tc := range []struct {
		name   string
		max    uint64
		mapped bool
	}{
		{"mapped", 4 << 20, true},
		{"refused", 1<<32 + 1<<16, false}, // past what the judge maps
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := &mappedMemory{max: tc.max}
			defer m.Free()
			a := m.Reallocate(1 << 16)
			if len(a) != 1<<16 {
				t.Fatalf("len %d, want %d", len(a), 1<<16)
			}
			copy(a, "kept")
			b := m.Reallocate(3 << 16)
			if len(b) != 3<<16 || !bytes.HasPrefix(b, []byte("kept")) {
				t.Fatalf("grown: len %d, starts %q", len(b), b[:4])
			}
			if bytes.ContainsFunc(b[4:], func(r rune) bool { return r != 0 }) {
				t.Error("grown: bytes not zero")
			}
			if moved := &a[0] != &b[0]; moved == tc.mapped {
				t.Errorf("moved %v, mapped %v", moved, m.mapped)
			}
			if m.mapped != tc.mapped {
				t.Errorf("mapped %v, want %v", m.mapped, tc.mapped)
			}
			if m.Reallocate(tc.max+1) != nil {
				t.Error("grown past its largest size")
			}
		})
	}
}
