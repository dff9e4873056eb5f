// Package cpumeter reports the CPU time a benchmark's loop spends, as
// cpu-ns/op beside ns/op. On a machine shared with other work a benchmark
// is descheduled for part of its time, which ns/op counts and CPU time
// does not; the benchmarks of several packages report both.
package cpumeter

import (
	"testing"
	"time"
)

// Meter measures the CPU time the process spends from Start on.
type Meter struct{ start time.Duration }

// Start starts measuring.
func Start() Meter { return Meter{start: Process()} }

// Report reports the CPU time since Start per iteration of b, as
// cpu-ns/op. Call it after the loop.
func (m Meter) Report(b *testing.B) {
	b.ReportMetric(float64(Process()-m.start)/float64(b.N), "cpu-ns/op")
}
