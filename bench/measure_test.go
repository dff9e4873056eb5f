//go:build !windows

package main

import (
	"context"
	"io"
	"slices"
	"strings"
	"testing"
	"time"
)

// smallOptions are counts small enough for tests.
func smallOptions(measures ...string) Options {
	return Options{
		Measures:    measures,
		Tool:        "calc",
		Args:        `{"expr":"1+1"}`,
		N:           40,
		Warmup:      5,
		Round:       10,
		Cold:        2,
		Calls:       400,
		K:           8,
		Rounds:      2,
		PayloadTool: "read_file",
		PayloadArgs: `{"size":300000}`,
		PayloadN:    6,
		Check:       true,
		Stall:       20 * time.Second,
	}
}

func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func positive(t *testing.T, what string, s Summary, n int) {
	t.Helper()
	if s.N != n || s.Min <= 0 || s.Median < s.Min || s.P90 < s.Median || s.P99 < s.P90 || s.Max < s.P99 {
		t.Errorf("%s: implausible summary %+v (want n=%d)", what, s, n)
	}
}

// TestRunAgainstFakeServer runs every measure on the fake server and the
// echo with small counts and checks that the numbers are sane.
func TestRunAgainstFakeServer(t *testing.T) {
	o := smallOptions(allMeasures()...)
	res, err := run(testContext(t), [2]Spec{fakeSpec("ok"), echoSpec()}, o, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		positive(t, "rtt", res.RTT[i], o.N)
		positive(t, "cold", res.Cold[i], o.Cold)
		positive(t, "payload", res.Payload[i], o.PayloadN)
		if res.CallsPerSec[i] <= 0 || res.PeakRSS[i] <= 0 {
			t.Errorf("target %d: calls/s %v, peak RSS %v", i, res.CallsPerSec[i], res.PeakRSS[i])
		}
	}
	if res.PayloadBytes < 300000 || res.PayloadBytes > 300000+200 {
		t.Errorf("payload response of %d bytes for a 300000-byte file", res.PayloadBytes)
	}
	rs := rows(res, o, true)
	if len(rs) != 8 {
		t.Fatalf("%d rows: %+v", len(rs), rs)
	}
	for _, r := range rs {
		if r.A <= 0 || r.B <= 0 || r.Ratio <= 0 {
			t.Errorf("row %q: %+v", r.Measure, r)
		}
	}
}

// TestPayloadAgainstABaselineServer: with a second server as B (the
// -baseline flag), B gets the same payload call as A, not the echo's
// padding, which a server would not answer.
func TestPayloadAgainstABaselineServer(t *testing.T) {
	o := smallOptions(measurePayload)
	res, err := run(testContext(t), [2]Spec{fakeSpec("ok"), fakeSpec("ok")}, o, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		positive(t, "payload", res.Payload[i], o.PayloadN)
	}
}

// TestNotificationsAreSkipped: a server that sends a notification before
// each answer is measured to the answer.
func TestNotificationsAreSkipped(t *testing.T) {
	o := smallOptions(measureRTT, measureThroughput)
	res, err := run(testContext(t), [2]Spec{fakeSpec("notify"), echoSpec()}, o, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	positive(t, "rtt", res.RTT[0], o.N)
}

// TestGuardRejectsBadResponses: error responses, isError results, wrong ids
// and a missing tool stop the run with a clear message, in the round-trip
// and in the pipelined path alike.
func TestGuardRejectsBadResponses(t *testing.T) {
	cases := []struct {
		mode, measure, want string
	}{
		{"rpcerror", measureRTT, "JSON-RPC error -32603: boom"},
		{"rpcerror", measureThroughput, "JSON-RPC error -32603: boom"},
		{"iserror", measureRTT, "isError: no such file"},
		{"iserror", measureThroughput, "isError: no such file"},
		{"badid", measureRTT, "carries id 999999"},
		{"badid", measureThroughput, "unexpected or repeated response id 999999"},
		{"nocalc", measureRTT, `does not offer tool "calc"`},
		{"noid", measureRTT, "answer without id"},
		{"noid", measureThroughput, "answer without id"},
	}
	for _, c := range cases {
		t.Run(c.mode+"/"+c.measure, func(t *testing.T) {
			_, err := run(testContext(t), [2]Spec{fakeSpec(c.mode), echoSpec()}, smallOptions(c.measure), io.Discard)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want an error with %q", err, c.want)
			}
			if !strings.Contains(err.Error(), "fake-"+c.mode) {
				t.Errorf("error does not name the target: %v", err)
			}
		})
	}
}

// TestNoCheckEchoAsServer: with checking off, the echo can stand as A.
func TestNoCheckEchoAsServer(t *testing.T) {
	o := smallOptions(allMeasures()...)
	o.Check = false
	a := echoSpec()
	a.Label, a.Echo = "echo-as-server", false
	res, err := run(testContext(t), [2]Spec{a, echoSpec()}, o, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	positive(t, "rtt", res.RTT[0], o.N)
	positive(t, "rtt", res.RTT[1], o.N)
	// With checking on, an echo is no server: its answer has no result.
	o.Check = true
	o.Measures = []string{measureRTT}
	if _, err := run(testContext(t), [2]Spec{a, echoSpec()}, o, io.Discard); err == nil || !strings.Contains(err.Error(), "echo-as-server") || !strings.Contains(err.Error(), "-check=false") {
		t.Fatalf("echo accepted as a checked server: %v", err)
	}
}

// TestStall: a target that stops answering is given up on after -stall,
// in the handshake (poller mode, deadlines) and in the round trips
// (blocking mode, watchdog).
func TestStall(t *testing.T) {
	mute := Spec{Label: "mute", Argv: []string{"sleep", "30"}}
	for _, a := range []Spec{mute, fakeSpec("hang")} {
		t.Run(a.Label, func(t *testing.T) {
			o := smallOptions(measureRTT)
			o.Stall = 300 * time.Millisecond
			start := time.Now()
			_, err := run(testContext(t), [2]Spec{a, echoSpec()}, o, io.Discard)
			if err == nil || !strings.Contains(err.Error(), "timed out") {
				t.Fatalf("got %v, want a time-out", err)
			}
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("gave up after %v", d)
			}
		})
	}
}

func TestRounds(t *testing.T) {
	for _, c := range []struct{ total, size, want int }{{2000, 100, 20}, {300, 100, 4}, {5, 10, 1}, {0, 10, 0}, {7, 1, 8}} {
		if got := evenRounds(c.total, c.size); got != c.want {
			t.Errorf("evenRounds(%d, %d) = %d, want %d", c.total, c.size, got, c.want)
		}
		sum := 0
		for r := range c.want {
			sum += share(c.total, c.want, r)
		}
		if sum != c.total {
			t.Errorf("shares of %d in %d rounds add up to %d", c.total, c.want, sum)
		}
	}
	for _, c := range []struct{ total, size, n, want int }{{30, 1, 3, 30}, {31, 1, 3, 33}, {1000, 100, 3, 12}, {5, 10, 3, 1}} {
		if got := fairRounds(c.total, c.size, c.n); got != c.want {
			t.Errorf("fairRounds(%d, %d, %d) = %d, want %d", c.total, c.size, c.n, got, c.want)
		}
	}
	for _, c := range []struct {
		rounds, n int
		want      []int
	}{
		{3, 2, []int{0, 1, 1, 0, 0, 1}},
		{3, 3, []int{0, 1, 2, 1, 2, 0, 2, 0, 1}},
	} {
		var order []int
		err := interleave(context.Background(), c.rounds, c.n, func(_, target int) error {
			order = append(order, target)
			return nil
		})
		if err != nil || !slices.Equal(order, c.want) {
			t.Errorf("interleave of %d targets: order %v, %v; want %v", c.n, order, err, c.want)
		}
	}
}

// TestRoundWarmCallsAreNotCounted: with roundWarm, each measured round
// starts with unmeasured calls, and the samples are still exactly n.
func TestRoundWarmCallsAreNotCounted(t *testing.T) {
	o := smallOptions(measureRTT)
	ss, err := openAll(testContext(t), []Spec{fakeSpec("ok"), echoSpec()}, o, "calc")
	if err != nil {
		t.Fatal(err)
	}
	defer closeAll(ss, false)
	tpl, _ := newCallTemplate(o.Tool, o.Args)
	build := []requestFunc{tpl.appendLine, tpl.appendLine}
	samples, err := latencyRounds(testContext(t), ss, build, 0, 20, 10, 2*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range ss {
		if len(samples[i]) != 20 {
			t.Errorf("%s: %d samples, want 20", s.spec.Label, len(samples[i]))
		}
		if calls := s.nextID - firstCallID; calls <= 20 {
			t.Errorf("%s: %d calls in all: no warm-up calls", s.spec.Label, calls)
		}
	}
}

// TestSettleAndCPUTime: a target's CPU time is read from /proc and grows
// as it works, and settle returns soon once it is idle.
func TestSettleAndCPUTime(t *testing.T) {
	p, err := startProcess(testContext(t), echoSpec())
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	before, err := p.cpuTime()
	if err != nil {
		t.Fatal(err)
	}
	line := []byte(strings.Repeat("x", 1<<20) + "\n")
	for range 20 {
		if err := p.write(line); err != nil {
			t.Fatal(err)
		}
		if _, err := p.readLine(); err != nil {
			t.Fatal(err)
		}
	}
	start := time.Now()
	p.settle(time.Second)
	if d := time.Since(start); d > 500*time.Millisecond {
		t.Errorf("settle took %v for an idle echo", d)
	}
	if after, err := p.cpuTime(); err != nil || after <= before {
		t.Errorf("CPU time %v then %v (%v)", before, after, err)
	}
}
