package cpumeter_test

import (
	"runtime"
	"testing"

	"github.com/stdiotools/toolserver/internal/cpumeter"
)

func TestProcessGrowsWithWork(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("the CPU time of the process is not read here")
	}
	before := cpumeter.Process()
	x := 0
	for i := range 50_000_000 {
		x += i ^ x
	}
	if after := cpumeter.Process(); after <= before {
		t.Errorf("CPU time went from %v to %v over a busy loop (%d)", before, after, x)
	}
}

func BenchmarkReport(b *testing.B) {
	cpu := cpumeter.Start()
	for b.Loop() {
		_ = cpumeter.Process()
	}
	cpu.Report(b)
}
