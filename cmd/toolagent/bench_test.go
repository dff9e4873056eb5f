package main

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkTurn measures the wall time of one turn of five reads of 0.5 s
// and then two writes of 0.3 s, from the request that asks the model to
// the request that brings it the seven answers: the scripted reply
// streams, the calls are parsed, checked, scheduled and made over MCP
// (the slow test server), and the answers gathered.
//
// The turn's critical path is the longest read and then each write,
// 1.1 s; one call after another it is 3.1 s. It reports the turn's time
// (s/turn) and its ratio to that critical path (x-critical) under four
// bounds:
//
//   - --parallel 1, the calls one after another: the baseline;
//   - --parallel 4: five reads need two rounds of 0.5 s, so the best this
//     bound allows is 1.6 s, 1.45x the critical path;
//   - --parallel 5, the least bound under which the five reads run
//     together;
//   - --parallel 10, the default, a bound with room to spare, which must
//     time as 5.
//
// The figures in docs/performance.md come from
//
//	go test ./cmd/toolagent -run '^$' -bench Turn -benchtime 3x -count 3
func BenchmarkTurn(b *testing.B) {
	self, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	var calls []string
	for i := 1; i <= 5; i++ {
		calls = append(calls, slow("read", fmt.Sprintf("r%d", i), 500))
	}
	calls = append(calls, slow("write", "w1", 300), slow("write", "w2", 300))
	steps := `[` + turnOf(calls...) + `, {"content": "done"}]`
	const critical = 1100 * time.Millisecond
	for _, parallel := range []int{1, 4, 5, defaultParallel} {
		b.Run(fmt.Sprintf("parallel=%d", parallel), func(b *testing.B) {
			var total time.Duration
			n := 0
			for b.Loop() {
				log := filepath.Join(b.TempDir(), "calls.log")
				o := runAgent(b, 64, steps, self+" -slowtools "+log, "--parallel", fmt.Sprint(parallel))
				if o.code != exitOK || len(o.received) != 2 {
					b.Fatalf("exit %d, %d requests; stderr:\n%s", o.code, len(o.received), o.stderr)
				}
				total += o.received[1].Sub(o.received[0])
				n++
			}
			turn := total / time.Duration(n)
			b.ReportMetric(turn.Seconds(), "s/turn")
			b.ReportMetric(float64(turn)/float64(critical), "x-critical")
		})
	}
}
