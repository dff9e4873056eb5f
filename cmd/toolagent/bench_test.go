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
// (s/turn) and its ratio to the critical path (x-critical), for the
// calls one at a time (--parallel 1), for the default bound (4, under
// which five reads need two rounds: 1.6 s at best), and for a bound that
// lets every read run at once (8).
//
//	go test ./cmd/toolagent -run '^$' -bench Turn -benchtime 3x
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
	for _, parallel := range []int{1, 4, 8} {
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
