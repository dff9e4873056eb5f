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
	ListN       int           `json:"list_n,omitempty"`       // suite: measured listings per target
	WriteN      int           `json:"write_n,omitempty"`      // suite: measured writes and edits per target and size
	MemCalls    int           `json:"mem_calls,omitempty"`    // suite: calls of each memory measure
	// RoundWarm is how long each round of round trips starts with
	// unmeasured calls (the suite's; none otherwise).
	RoundWarm time.Duration `json:"round_warm_ns,omitempty"`
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
		s, err := measureRoundTrips(ctx, specs[:], o)
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
		s, size, err := measurePayloadRun(ctx, specs[:], o)
		if err != nil {
			return nil, fmt.Errorf("payload: %w", err)
		}
		res.Payload, res.PayloadBytes = &[2]Summary{summarize(s[0]), summarize(s[1])}, size
	}
	if o.has(measureCold) {
		fmt.Fprintf(log, "toolbench: cold: %d starts each\n", o.Cold)
		s, _, err := measureColdStarts(ctx, specs[:], o)
		if err != nil {
			return nil, fmt.Errorf("cold: %w", err)
		}
		res.Cold = &[2]Summary{summarize(s[0]), summarize(s[1])}
	}
	return res, nil
}

// settleLimit bounds the wait for a target to go idle after its round.
const settleLimit = 100 * time.Millisecond

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

// interleave calls fn for each of n targets in each of rounds rounds, the
// order turning by one target a round: for two, A B, then B A, then A B, …;
// for three, A B C, B C A, C A B, …. Drift of the machine, warm caches and
// the cost of switching targets fall on all alike. It stops at the first
// error and collects garbage before each round, outside any timing.
func interleave(ctx context.Context, rounds, n int, fn func(round, target int) error) error {
	for r := range rounds {
		if err := ctx.Err(); err != nil {
			return err
		}
		runtime.GC()
		for i := range n {
			if err := fn(r, (r+i)%n); err != nil {
				return err
			}
		}
	}
	return nil
}

// evenRounds returns how many rounds of at most size items cover total,
// rounded up to an even number, so that each of two targets goes first
// equally often.
func evenRounds(total, size int) int { return fairRounds(total, size, 2) }

// fairRounds returns how many rounds of at most size items cover total,
// rounded up to a multiple of n, so that each of n targets goes first
// equally often.
func fairRounds(total, size, n int) int {
	r := (total + size - 1) / size
	if r > 1 && r%n != 0 {
		r += n - r%n
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

// openSession starts spec and performs the MCP handshake (a floor has
// none). With checking on, the server must offer every tool in need.
func openSession(ctx context.Context, spec Spec, o Options, need ...string) (*session, error) {
	p, err := startProcess(ctx, spec)
	if err != nil {
		return nil, err
	}
	p.setDeadline(o.Stall)
	if spec.Floor {
		return &session{spec: spec, p: p, check: o.Check, stall: o.Stall, nextID: firstCallID}, nil
	}
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

// openAll opens a session on each target.
func openAll(ctx context.Context, specs []Spec, o Options, need ...string) ([]*session, error) {
	ss := make([]*session, 0, len(specs))
	for _, spec := range specs {
		s, err := openSession(ctx, spec, o, need...)
		if err != nil {
			_ = closeAll(ss, true)
			return nil, err
		}
		ss = append(ss, s)
	}
	return ss, nil
}

// closeAll ends the sessions: a clean close when the measure succeeded
// (and its error, if any, is the result), a kill when it failed.
func closeAll(ss []*session, failed bool) error {
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
	case s.spec.Floor:
		err = checkFloorAnswer(line)
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
	d, line, err := s.exchange(build, method)
	return d, len(line), err
}

// exchange is call, returning the checked answer line itself, which is
// valid until the next read.
func (s *session) exchange(build requestFunc, method string) (time.Duration, []byte, error) {
	id := s.nextID
	s.nextID++
	s.req = build(s.req[:0], id)
	start := time.Now()
	if err := s.p.write(s.req); err != nil {
		return 0, nil, err
	}
	for {
		line, err := s.p.readLine()
		end := time.Now()
		if err != nil {
			return 0, nil, err
		}
		if !s.spec.Floor { // a floor's answer is no JSON-RPC message
			_, skip, err := answerID(line)
			if err != nil {
				return 0, nil, fmt.Errorf("%s: call id %d: %w", s.spec.Label, id, err)
			}
			if skip {
				continue // a notification; the answer is still to come
			}
		}
		if err := s.verify(line, s.req, id, method); err != nil {
			return 0, nil, err
		}
		return end.Sub(start), line, nil
	}
}

// latencyRounds times warmup and then n calls of each session's request,
// in interleaved rounds (timedRounds), with the pipes in blocking mode.
func latencyRounds(ctx context.Context, ss []*session, build []requestFunc, warmup, n, round int, roundWarm time.Duration) (samples [][]time.Duration, err error) {
	ts := make([]roundTripper, len(ss))
	for t, s := range ss {
		if err := s.p.setBlocking(true); err != nil {
			return nil, err
		}
		defer func() {
			if err == nil {
				err = s.p.setBlocking(false)
			}
		}()
		ts[t] = sessionCalls{s, build[t]}
	}
	return timedRounds(ctx, ts, warmup, n, round, roundWarm)
}

// roundTripper is a target whose round trips timedRounds times, one call
// at a time.
type roundTripper interface {
	// call makes one call and returns the time from sending it to the
	// arrival of its answer, taken before the answer is checked.
	call(ctx context.Context) (time.Duration, error)
	// round runs calls as one round of the target's: bounded by the stall
	// limit, and, when it succeeds, followed by a wait for the target to
	// go idle (settlePid).
	round(ctx context.Context, calls func(ctx context.Context) error) error
}

// sessionCalls are the calls of a session, each built by build.
type sessionCalls struct {
	s     *session
	build requestFunc
}

func (c sessionCalls) call(context.Context) (time.Duration, error) {
	d, _, err := c.s.call(c.build, "tools/call")
	return d, err
}

// round bounds the round with a watchdog, since deadlines do not apply to
// the pipes in blocking mode.
func (c sessionCalls) round(ctx context.Context, calls func(context.Context) error) error {
	defer c.s.p.watchdog(c.s.stall)()
	if err := calls(ctx); err != nil {
		return err
	}
	c.s.p.settle(settleLimit)
	return nil
}

// timedRounds runs warmup and then n calls on each target, interleaved in
// rounds of round calls, and returns the n timings of each. With
// roundWarm, each measured round starts with unmeasured calls for that
// long: a server that sat idle through the other targets' rounds is slow
// for a few milliseconds after (measured on one CPU: toolserver's and the
// go-sdk peer's 1 KiB round trips 1.5 to 2x slower for the first 4 ms or
// so after the other's round of 25 ms), and with a slow peer in the
// rotation that would be charged to every round. After each round, the
// target is given time to go idle.
func timedRounds(ctx context.Context, ts []roundTripper, warmup, n, round int, roundWarm time.Duration) ([][]time.Duration, error) {
	samples := make([][]time.Duration, len(ts))
	do := func(total int, keep bool) error {
		rounds := fairRounds(total, round, len(ts))
		return interleave(ctx, rounds, len(ts), func(r, t int) error {
			return ts[t].round(ctx, func(ctx context.Context) error {
				if keep && roundWarm > 0 {
					for end := time.Now().Add(roundWarm); time.Now().Before(end); {
						if _, err := ts[t].call(ctx); err != nil {
							return err
						}
					}
				}
				for range share(total, rounds, r) {
					d, err := ts[t].call(ctx)
					if err != nil {
						return err
					}
					if keep {
						samples[t] = append(samples[t], d)
					}
				}
				return nil
			})
		})
	}
	if err := do(warmup, false); err != nil {
		return samples, err
	}
	for t := range samples {
		samples[t] = make([]time.Duration, 0, n)
	}
	return samples, do(n, true)
}

// measureRoundTrips is the rtt measure: the same tools/call line to all.
func measureRoundTrips(ctx context.Context, specs []Spec, o Options) (samples [][]time.Duration, err error) {
	tpl, err := newCallTemplate(o.Tool, o.Args)
	if err != nil {
		return nil, err
	}
	ss, err := openAll(ctx, specs, o, o.Tool)
	if err != nil {
		return nil, err
	}
	defer func() { err = errors.Join(err, closeAll(ss, err != nil)) }()
	build := make([]requestFunc, len(ss))
	for t := range build {
		build[t] = tpl.appendLine
	}
	return latencyRounds(ctx, ss, build, o.Warmup, o.N, o.Round, o.RoundWarm)
}

// measurePayloadRun is the payload measure: each server gets the payload
// call, and the echo a padded line as long as the first server's answer to
// it (the size returned).
func measurePayloadRun(ctx context.Context, specs []Spec, o Options) (samples [][]time.Duration, size int, err error) {
	tpl, err := newCallTemplate(o.PayloadTool, o.PayloadArgs)
	if err != nil {
		return nil, 0, err
	}
	ss, err := openAll(ctx, specs, o, o.PayloadTool)
	if err != nil {
		return nil, 0, err
	}
	defer func() { err = errors.Join(err, closeAll(ss, err != nil)) }()
	if size, err = answerSize(ss, tpl.appendLine, o.Stall); err != nil {
		return nil, 0, err
	}
	build := make([]requestFunc, len(ss))
	for t, s := range ss {
		build[t] = tpl.appendLine // a baseline server gets the same call, not the echo's padding
		if s.spec.Echo {
			build[t] = func(dst []byte, id int64) []byte { return appendPadLine(dst, id, size) }
		}
	}
	round := max(1, min(o.Round, o.PayloadN/10))
	samples, err = latencyRounds(ctx, ss, build, max(1, o.PayloadN/10), o.PayloadN, round, o.RoundWarm)
	return samples, size, err
}

// answerSize calls the first server of ss once with build and returns the
// length of its answer, which the echo's padded lines then match. With no
// server (the echo against itself) it is the request's length.
func answerSize(ss []*session, build requestFunc, stall time.Duration) (int, error) {
	for _, s := range ss {
		if s.spec.Echo || s.spec.Floor {
			continue
		}
		s.p.setDeadline(stall)
		_, size, err := s.call(build, "tools/call")
		return size, err
	}
	return len(build(nil, firstCallID)) - 1, nil
}

// pipelined sends count requests with up to k in flight: a writer goroutine
// takes a slot of the semaphore before each write and the reader gives one
// back for each answer. It returns the time from the first write to the last
// answer. With checking on, the first keep answers are kept and checked
// after the clock stops, so that checking does not compete with the target
// for the CPU; any others, which a memory measure would otherwise have to
// hold, get only the quick check of quickCheck as they arrive.
func (s *session) pipelined(k, count int, build requestFunc, keep int) (time.Duration, error) {
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
		id := first + int64(got) // a floor answers in order, without ids
		if !s.spec.Floor {
			raw, skip, err := answerID(line)
			if err != nil {
				return fail(fmt.Errorf("%s: %w", s.spec.Label, err))
			}
			if skip {
				continue // a notification
			}
			var ok bool
			id, ok = parseID(raw)
			if !ok || id < first || id >= first+int64(count) || seen[id-first] {
				return fail(fmt.Errorf("%s: unexpected or repeated response id %s: %s", s.spec.Label, raw, snippet(line)))
			}
		}
		seen[id-first] = true
		switch {
		case !s.check:
		case len(ids) < keep:
			kept = append(kept, line...)
			ends = append(ends, len(kept))
			ids = append(ids, id)
		case s.spec.Floor:
			if err := checkFloorAnswer(line); err != nil {
				return fail(fmt.Errorf("%s: answer %d: %w", s.spec.Label, id, err))
			}
		case !s.spec.Echo:
			if err := quickCheck(line); err != nil {
				return fail(fmt.Errorf("%s: id %d: %w", s.spec.Label, id, err))
			}
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
	ss, err := openAll(ctx, specs[:], o, o.Tool)
	if err != nil {
		return cps, rss, err
	}
	defer func() { err = errors.Join(err, closeAll(ss, err != nil)) }()
	rates, err := throughputRounds(ctx, ss, []requestFunc{tpl.appendLine, tpl.appendLine}, o)
	if err != nil {
		return cps, rss, err
	}
	for t, s := range ss {
		cps[t] = rates[t]
		if rss[t], err = s.p.peakRSS(); err != nil {
			return cps, rss, fmt.Errorf("%s: peak RSS: %w", s.spec.Label, err)
		}
	}
	return cps, rss, nil
}

// throughputRounds sends each session o.Calls pipelined requests built by
// its build, o.K in flight, after o.Warmup unmeasured ones, in rounds
// interleaved between the sessions (rateRounds), and returns each one's
// median calls/s over the rounds.
func throughputRounds(ctx context.Context, ss []*session, build []requestFunc, o Options) ([]float64, error) {
	return rateRounds(ctx, len(ss), o, func(t, calls int, _ bool) (time.Duration, error) {
		ss[t].p.setDeadline(o.Stall)
		d, err := ss[t].pipelined(o.K, calls, build[t], calls)
		ss[t].p.settle(settleLimit)
		return d, err
	})
}

// rateRounds makes burst send o.Calls calls to each of targets targets,
// after o.Warmup unmeasured ones, in o.Rounds rounds interleaved between
// them, and returns each one's median calls/s over the rounds. burst(t,
// calls, measured) sends calls calls to target t, o.K in flight, returns
// the time they took, and lets the target go idle after; measured is
// false for the warm-up.
func rateRounds(ctx context.Context, targets int, o Options, burst func(t, calls int, measured bool) (time.Duration, error)) ([]float64, error) {
	rounds := fairRounds(min(o.Rounds, o.Calls), 1, targets)
	rates := make([][]float64, targets)
	run := func(calls func(round int) int, keep bool) func(r, t int) error {
		return func(r, t int) error {
			n := calls(r)
			d, err := burst(t, n, keep)
			if err == nil && keep {
				rates[t] = append(rates[t], float64(n)/d.Seconds())
			}
			return err
		}
	}
	warm := func(int) int { return min(o.Warmup, o.Calls) }
	if err := interleave(ctx, 1, targets, run(warm, false)); err != nil {
		return nil, err
	}
	measured := func(r int) int { return share(o.Calls, rounds, r) }
	if err := interleave(ctx, rounds, targets, run(measured, true)); err != nil {
		return nil, err
	}
	cps := make([]float64, targets)
	for t := range cps {
		cps[t] = median(rates[t])
	}
	return cps, nil
}

// coldStart times one start of spec: from spawning to the arrival of the
// tools/list response. It also returns the process's peak RSS (VmHWM) read
// just after that answer. The process must then exit when its stdin closes.
func coldStart(ctx context.Context, spec Spec, o Options) (time.Duration, int64, error) {
	start := time.Now()
	p, err := startProcess(ctx, spec)
	if err != nil {
		return 0, 0, err
	}
	p.setDeadline(o.Stall)
	_, arrived, err := handshake(p, o.Check)
	var rss int64
	if err == nil {
		if rss, err = p.peakRSS(); err != nil {
			err = fmt.Errorf("%s: peak RSS: %w", spec.Label, err)
		}
	}
	if err != nil {
		p.kill()
		return 0, 0, err
	}
	if err := p.Close(); err != nil {
		return 0, 0, err
	}
	return arrived.Sub(start), rss, nil
}

// measureColdStarts is the cold measure: o.Cold starts of each target,
// interleaved, after one discarded start each that warms the page cache.
// It returns the times and the peak RSS at start of each.
func measureColdStarts(ctx context.Context, specs []Spec, o Options) (samples [][]time.Duration, rss [][]int64, err error) {
	samples, rss = make([][]time.Duration, len(specs)), make([][]int64, len(specs))
	start := func(keep bool) func(r, t int) error {
		return func(_, t int) error {
			d, m, err := coldStart(ctx, specs[t], o)
			if err == nil && keep {
				samples[t] = append(samples[t], d)
				rss[t] = append(rss[t], m)
			}
			return err
		}
	}
	if err := interleave(ctx, 1, len(specs), start(false)); err != nil {
		return nil, nil, err
	}
	return samples, rss, interleave(ctx, o.Cold, len(specs), start(true))
}
