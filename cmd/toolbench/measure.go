//go:build !windows

package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"slices"
	"time"
)

// The measures, as named by -only.
const (
	measureRTT        = "rtt"
	measureCold       = "cold"
	measureThroughput = "throughput"
	measurePayload    = "payload"
)

// allMeasures lists the measures in the order they run.
func allMeasures() []string {
	return []string{measureRTT, measureThroughput, measurePayload, measureCold}
}

// Options are the knobs of one benchmark run; the flags set them.
type Options struct {
	Measures    []string      `json:"measures"`               // measures to run, in run order
	Tool        string        `json:"tool"`                   // tool called by rtt and throughput
	Args        string        `json:"args"`                   // its JSON arguments
	N           int           `json:"n"`                      // rtt: measured round trips per target
	Warmup      int           `json:"warmup"`                 // rtt and throughput: unmeasured calls first
	Round       int           `json:"round"`                  // rtt: at most this many calls per target per round
	Cold        int           `json:"cold"`                   // cold: measured starts per target
	Calls       int           `json:"calls"`                  // throughput: measured calls per target
	K           int           `json:"k"`                      // throughput: requests in flight
	Rounds      int           `json:"rounds"`                 // throughput: rounds the calls are split into
	PayloadTool string        `json:"payload_tool,omitempty"` // payload: tool with a big response
	PayloadArgs string        `json:"payload_args,omitempty"` // payload: its JSON arguments
	PayloadN    int           `json:"payload_n,omitempty"`    // payload: measured calls per target
	Check       bool          `json:"check"`                  // check whole responses, not only ids
	Stall       time.Duration `json:"stall_ns"`               // give up on a round or start after this
}

// has reports whether measure m was asked for.
func (o Options) has(m string) bool { return slices.Contains(o.Measures, m) }

// Results are the outcome of one run; index 0 is A (the server), 1 is B
// (the echo). A nil field is a measure that did not run.
type Results struct {
	RTT          *[2]Summary `json:"rtt,omitempty"`            // round trips
	Cold         *[2]Summary `json:"cold,omitempty"`           // spawn to tools/list answer
	CallsPerSec  *[2]float64 `json:"calls_per_sec,omitempty"`  // median over the throughput rounds
	PeakRSS      *[2]int64   `json:"peak_rss_bytes,omitempty"` // VmHWM after the throughput run
	Payload      *[2]Summary `json:"payload,omitempty"`        // round trips of the payload call
	PayloadBytes int         `json:"payload_bytes,omitempty"`  // length of the server's payload answer
}

// run performs the measures of o on A = specs[0] and B = specs[1], logging
// progress to log.
func run(ctx context.Context, specs [2]Spec, o Options, log io.Writer) (*Results, error) {
	defer quietGC()()
	res := &Results{}
	if o.has(measureRTT) {
		fmt.Fprintf(log, "toolbench: rtt: %d round trips each (after %d warm-up)\n", o.N, o.Warmup)
		s, err := measureRoundTrips(ctx, specs, o)
		if err != nil {
			return nil, fmt.Errorf("rtt: %w", err)
		}
		res.RTT = &[2]Summary{summarize(s[0]), summarize(s[1])}
	}
	if o.has(measureThroughput) {
		fmt.Fprintf(log, "toolbench: throughput: %d calls each, %d in flight, %d rounds\n", o.Calls, o.K, o.Rounds)
		cps, rss, err := measureThroughputRun(ctx, specs, o)
		if err != nil {
			return nil, fmt.Errorf("throughput: %w", err)
		}
		res.CallsPerSec, res.PeakRSS = &cps, &rss
	}
	if o.has(measurePayload) {
		fmt.Fprintf(log, "toolbench: payload: %d calls of %s each\n", o.PayloadN, o.PayloadTool)
		s, size, err := measurePayloadRun(ctx, specs, o)
		if err != nil {
			return nil, fmt.Errorf("payload: %w", err)
		}
		res.Payload, res.PayloadBytes = &[2]Summary{summarize(s[0]), summarize(s[1])}, size
	}
	if o.has(measureCold) {
		fmt.Fprintf(log, "toolbench: cold: %d starts each\n", o.Cold)
		s, err := measureColdStarts(ctx, specs, o)
		if err != nil {
			return nil, fmt.Errorf("cold: %w", err)
		}
		res.Cold = &[2]Summary{summarize(s[0]), summarize(s[1])}
	}
	return res, nil
}

// quietGC turns the collector off, so that it cannot run inside a timed
// region; interleave collects between rounds instead. A memory limit keeps
// the heap bounded should a round allocate much. It returns the undo.
func quietGC() (restore func()) {
	percent := debug.SetGCPercent(-1)
	limit := debug.SetMemoryLimit(1 << 30)
	return func() {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	}
}

// interleave calls fn for both targets in each of rounds rounds, in the
// order A B, then B A, then A B, …: drift of the machine, warm caches and
// the cost of switching targets fall on both alike. It stops at the first
// error and collects garbage before each round, outside any timing.
func interleave(ctx context.Context, rounds int, fn func(round, target int) error) error {
	for r := range rounds {
		if err := ctx.Err(); err != nil {
			return err
		}
		runtime.GC()
		order := [2]int{0, 1}
		if r%2 == 1 {
			order = [2]int{1, 0}
		}
		for _, t := range order {
			if err := fn(r, t); err != nil {
				return err
			}
		}
	}
	return nil
}

// evenRounds returns how many rounds of at most size items cover total,
// rounded up to an even number, so that each target goes first equally
// often.
func evenRounds(total, size int) int {
	r := (total + size - 1) / size
	if r > 1 && r%2 == 1 {
		r++
	}
	return r
}

// share returns how many of total items round r of rounds holds: the items
// are spread evenly, the shares differing by one at most.
func share(total, rounds, r int) int { return total*(r+1)/rounds - total*r/rounds }

// session is a started and initialized target, kept for the warm measures.
type session struct {
	spec   Spec
	p      *Process
	check  bool
	stall  time.Duration
	nextID int64
	req    []byte
}

// openSession starts spec and performs the MCP handshake. With checking on,
// the server must offer every tool in need.
func openSession(ctx context.Context, spec Spec, o Options, need ...string) (*session, error) {
	p, err := startProcess(ctx, spec)
	if err != nil {
		return nil, err
	}
	p.setDeadline(o.Stall)
	names, _, err := handshake(p, o.Check)
	if err == nil && o.Check && !spec.Echo {
		for _, tool := range need {
			if !slices.Contains(names, tool) {
				err = fmt.Errorf("%s: tools/list does not offer tool %q (it offers %q)", spec.Label, tool, names)
			}
		}
	}
	if err != nil {
		p.kill()
		return nil, err
	}
	return &session{spec: spec, p: p, check: o.Check, stall: o.Stall, nextID: firstCallID}, nil
}

// openPair opens a session on each target.
func openPair(ctx context.Context, specs [2]Spec, o Options, need ...string) ([2]*session, error) {
	var ss [2]*session
	for i, spec := range specs {
		s, err := openSession(ctx, spec, o, need...)
		if err != nil {
			if i == 1 {
				ss[0].p.kill()
			}
			return ss, err
		}
		ss[i] = s
	}
	return ss, nil
}

// closePair ends both sessions: a clean close when the measure succeeded
// (and its error, if any, is the result), a kill when it failed.
func closePair(ss [2]*session, failed bool) error {
	var errs []error
	for _, s := range ss {
		if failed {
			s.p.kill()
			continue
		}
		errs = append(errs, s.p.Close())
	}
	return errors.Join(errs...)
}

// handshake writes the pipelined session opening to p and reads until the
// tools/list response (id 2) arrives; it returns that arrival time, taken
// before anything is checked. For the echo both answers must be the request
// lines; for a server they must be valid responses (check) or carry the
// right ids (no check). names lists the tools when checked.
func handshake(p *Process, check bool) (names []string, arrived time.Time, err error) {
	if err := p.write([]byte(handshakeLines)); err != nil {
		return nil, time.Time{}, err
	}
	var initLine, listLine []byte
	for listLine == nil {
		line, err := p.readLine()
		now := time.Now()
		if err != nil {
			return nil, time.Time{}, err
		}
		raw, skip, err := answerID(line)
		if err != nil {
			return nil, time.Time{}, fmt.Errorf("%s: handshake: %w", p.spec.Label, err)
		}
		if skip {
			continue // a notification, or the echo of ours
		}
		switch id, _ := parseID(raw); id {
		case idInitialize:
			initLine = append(initLine[:0], line...)
		case idToolsList:
			listLine, arrived = line, now
		default:
			return nil, time.Time{}, fmt.Errorf("%s: handshake: unexpected response id %s: %s", p.spec.Label, raw, snippet(line))
		}
	}
	if initLine == nil {
		return nil, time.Time{}, fmt.Errorf("%s: handshake: tools/list answered before initialize", p.spec.Label)
	}
	switch {
	case p.spec.Echo:
		if string(initLine) != initializeLine || string(listLine) != toolsListLine {
			err = fmt.Errorf("echo changed the handshake: %s / %s", snippet(initLine), snippet(listLine))
		}
	case check:
		if _, err = checkResponse(initLine, idInitialize, "initialize"); err == nil {
			var result []byte
			if result, err = checkResponse(listLine, idToolsList, "tools/list"); err == nil {
				names, err = toolNames(result)
			}
		}
	}
	if err != nil {
		return nil, time.Time{}, fmt.Errorf("%s: handshake: %w", p.spec.Label, err)
	}
	return names, arrived, nil
}

// verify checks the answer line to request req (with id) of the given method.
func (s *session) verify(line, req []byte, id int64, method string) error {
	var err error
	switch {
	case s.spec.Echo:
		if !bytes.Equal(line, bytes.TrimSuffix(req, []byte("\n"))) {
			err = fmt.Errorf("echo answered id %d with a different line: %s", id, snippet(line))
		}
	case s.check:
		_, err = checkResponse(line, id, method)
	default:
		err = checkID(line, id)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", s.spec.Label, err)
	}
	return nil
}

// call sends the next request built by build and waits for its answer,
// skipping notifications. It returns the time from the start of the write
// to the arrival of the answer, taken before the answer is checked, and the
// answer's length.
func (s *session) call(build requestFunc, method string) (time.Duration, int, error) {
	id := s.nextID
	s.nextID++
	s.req = build(s.req[:0], id)
	start := time.Now()
	if err := s.p.write(s.req); err != nil {
		return 0, 0, err
	}
	for {
		line, err := s.p.readLine()
		end := time.Now()
		if err != nil {
			return 0, 0, err
		}
		_, skip, err := answerID(line)
		if err != nil {
			return 0, 0, fmt.Errorf("%s: call id %d: %w", s.spec.Label, id, err)
		}
		if skip {
			continue // a notification; the answer is still to come
		}
		if err := s.verify(line, s.req, id, method); err != nil {
			return 0, 0, err
		}
		return end.Sub(start), len(line), nil
	}
}

// latencyRounds runs warmup and then n calls on each session, interleaved
// in rounds of round calls, and returns the n timings of each. The pipes
// are in blocking mode meanwhile.
func latencyRounds(ctx context.Context, ss [2]*session, build [2]requestFunc, warmup, n, round int) (samples [2][]time.Duration, err error) {
	for _, s := range ss {
		if err := s.p.setBlocking(true); err != nil {
			return samples, err
		}
		defer func() {
			if err == nil {
				err = s.p.setBlocking(false)
			}
		}()
	}
	do := func(total int, keep bool) error {
		rounds := evenRounds(total, round)
		return interleave(ctx, rounds, func(r, t int) error {
			defer ss[t].p.watchdog(ss[t].stall)()
			for range share(total, rounds, r) {
				d, _, err := ss[t].call(build[t], "tools/call")
				if err != nil {
					return err
				}
				if keep {
					samples[t] = append(samples[t], d)
				}
			}
			return nil
		})
	}
	if err := do(warmup, false); err != nil {
		return samples, err
	}
	samples[0] = make([]time.Duration, 0, n)
	samples[1] = make([]time.Duration, 0, n)
	return samples, do(n, true)
}

// measureRoundTrips is the rtt measure: the same tools/call line to both.
func measureRoundTrips(ctx context.Context, specs [2]Spec, o Options) (samples [2][]time.Duration, err error) {
	tpl, err := newCallTemplate(o.Tool, o.Args)
	if err != nil {
		return samples, err
	}
	ss, err := openPair(ctx, specs, o, o.Tool)
	if err != nil {
		return samples, err
	}
	defer func() { err = errors.Join(err, closePair(ss, err != nil)) }()
	build := tpl.appendLine
	return latencyRounds(ctx, ss, [2]requestFunc{build, build}, o.Warmup, o.N, o.Round)
}

// measurePayloadRun is the payload measure: the server gets the payload
// call, and the echo a padded line as long as the server's answer to it.
func measurePayloadRun(ctx context.Context, specs [2]Spec, o Options) (samples [2][]time.Duration, size int, err error) {
	tpl, err := newCallTemplate(o.PayloadTool, o.PayloadArgs)
	if err != nil {
		return samples, 0, err
	}
	ss, err := openPair(ctx, specs, o, o.PayloadTool)
	if err != nil {
		return samples, 0, err
	}
	defer func() { err = errors.Join(err, closePair(ss, err != nil)) }()
	ss[0].p.setDeadline(o.Stall)
	if _, size, err = ss[0].call(tpl.appendLine, "tools/call"); err != nil {
		return samples, 0, err
	}
	pad := func(dst []byte, id int64) []byte { return appendPadLine(dst, id, size) }
	build := [2]requestFunc{tpl.appendLine, pad}
	if specs[0].Echo {
		build[0] = pad
	}
	if !specs[1].Echo {
		build[1] = tpl.appendLine // a baseline server gets the same call, not the echo's padding
	}
	round := max(1, min(o.Round, o.PayloadN/10))
	samples, err = latencyRounds(ctx, ss, build, max(1, o.PayloadN/10), o.PayloadN, round)
	return samples, size, err
}

// pipelined sends count requests with up to k in flight: a writer goroutine
// takes a slot of the semaphore before each write and the reader gives one
// back for each answer. It returns the time from the first write to the last
// answer. With checking on, answers are kept and checked after the clock
// stops, so that checking does not compete with the target for the CPU.
func (s *session) pipelined(k, count int, build requestFunc) (time.Duration, error) {
	first := s.nextID
	s.nextID += int64(count)
	sem := make(chan struct{}, k)
	stop := make(chan struct{})
	wrote := make(chan error, 1)
	start := time.Now()
	go func() {
		var buf []byte
		for i := range int64(count) {
			select {
			case sem <- struct{}{}:
			case <-stop:
				wrote <- nil
				return
			}
			buf = build(buf[:0], first+i)
			if err := s.p.write(buf); err != nil {
				wrote <- err
				return
			}
		}
		wrote <- nil
	}()

	seen := make([]bool, count)
	var kept []byte
	var ends []int
	var ids []int64
	fail := func(err error) (time.Duration, error) {
		close(stop)
		s.p.kill() // unblocks a writer stuck in write
		<-wrote    // whose error, if any, is only the echo of err
		return 0, err
	}
	for got := 0; got < count; {
		line, err := s.p.readLine()
		if err != nil {
			return fail(err)
		}
		raw, skip, err := answerID(line)
		if err != nil {
			return fail(fmt.Errorf("%s: %w", s.spec.Label, err))
		}
		if skip {
			continue // a notification
		}
		id, ok := parseID(raw)
		if !ok || id < first || id >= first+int64(count) || seen[id-first] {
			return fail(fmt.Errorf("%s: unexpected or repeated response id %s: %s", s.spec.Label, raw, snippet(line)))
		}
		seen[id-first] = true
		if s.check {
			kept = append(kept, line...)
			ends = append(ends, len(kept))
			ids = append(ids, id)
		}
		<-sem
		got++
	}
	elapsed := time.Since(start)
	if err := <-wrote; err != nil {
		return 0, err
	}
	var req []byte
	from := 0
	for i, id := range ids {
		req = build(req[:0], id)
		if err := s.verify(kept[from:ends[i]], req, id, "tools/call"); err != nil {
			return 0, err
		}
		from = ends[i]
	}
	return elapsed, nil
}

// measureThroughputRun is the throughput measure. It returns the median
// calls/s of the rounds and the peak RSS of each process over the run.
func measureThroughputRun(ctx context.Context, specs [2]Spec, o Options) (cps [2]float64, rss [2]int64, err error) {
	tpl, err := newCallTemplate(o.Tool, o.Args)
	if err != nil {
		return cps, rss, err
	}
	ss, err := openPair(ctx, specs, o, o.Tool)
	if err != nil {
		return cps, rss, err
	}
	defer func() { err = errors.Join(err, closePair(ss, err != nil)) }()
	rounds := evenRounds(min(o.Rounds, o.Calls), 1)
	var rates [2][]float64
	pipe := func(calls func(round int) int, keep bool) func(r, t int) error {
		return func(r, t int) error {
			ss[t].p.setDeadline(o.Stall)
			n := calls(r)
			d, err := ss[t].pipelined(o.K, n, tpl.appendLine)
			if err == nil && keep {
				rates[t] = append(rates[t], float64(n)/d.Seconds())
			}
			return err
		}
	}
	warm := func(int) int { return min(o.Warmup, o.Calls) }
	if err := interleave(ctx, 1, pipe(warm, false)); err != nil {
		return cps, rss, err
	}
	measured := func(r int) int { return share(o.Calls, rounds, r) }
	if err := interleave(ctx, rounds, pipe(measured, true)); err != nil {
		return cps, rss, err
	}
	for t, s := range ss {
		cps[t] = median(rates[t])
		if rss[t], err = s.p.peakRSS(); err != nil {
			return cps, rss, fmt.Errorf("%s: peak RSS: %w", s.spec.Label, err)
		}
	}
	return cps, rss, nil
}

// coldStart times one start of spec: from spawning to the arrival of the
// tools/list response. The process must then exit when its stdin closes.
func coldStart(ctx context.Context, spec Spec, o Options) (time.Duration, error) {
	start := time.Now()
	p, err := startProcess(ctx, spec)
	if err != nil {
		return 0, err
	}
	p.setDeadline(o.Stall)
	_, arrived, err := handshake(p, o.Check)
	if err != nil {
		p.kill()
		return 0, err
	}
	if err := p.Close(); err != nil {
		return 0, err
	}
	return arrived.Sub(start), nil
}

// measureColdStarts is the cold measure: o.Cold starts of each target,
// interleaved, after one discarded start each that warms the page cache.
func measureColdStarts(ctx context.Context, specs [2]Spec, o Options) ([2][]time.Duration, error) {
	var samples [2][]time.Duration
	start := func(keep bool) func(r, t int) error {
		return func(_, t int) error {
			d, err := coldStart(ctx, specs[t], o)
			if err == nil && keep {
				samples[t] = append(samples[t], d)
			}
			return err
		}
	}
	if err := interleave(ctx, 1, start(false)); err != nil {
		return samples, err
	}
	return samples, interleave(ctx, o.Cold, start(true))
}
