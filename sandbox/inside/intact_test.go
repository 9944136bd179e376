//go:build linux

package inside

import "testing"

// BenchmarkCheck measures the check a reused sandbox's init makes of
// itself before each program (here of the test's process, which has more
// threads than an init).
func BenchmarkCheck(b *testing.B) {
	s, err := captureState()
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < b.N; i++ {
		if err := s.check(); err != nil {
			b.Fatal(err)
		}
	}
}
