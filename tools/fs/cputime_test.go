package fs

import (
	"syscall"
	"testing"
	"time"
)

// cpuMeter measures the CPU time of a benchmark's loop.
type cpuMeter struct{ start time.Duration }

// startCPU starts measuring the CPU time the process spends, user and
// system, in every thread (the collector's too).
func startCPU() cpuMeter { return cpuMeter{processCPU()} }

// report reports the CPU time since startCPU per iteration, as
// cpu-ns/op. On a busy machine ns/op counts the waits for a CPU as well,
// and varied by half from run to run here; CPU time does not count them.
func (m cpuMeter) report(b *testing.B) {
	b.ReportMetric(float64(processCPU()-m.start)/float64(b.N), "cpu-ns/op")
}

// processCPU returns the CPU time the process has spent.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
