//go:build !windows

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"time"
)

// suiteHTTP names the suite that measures read_file of 1 KiB over
// Streamable HTTP: toolserver, the go-sdk peer and the floor of an HTTP
// round trip, side by side in one run.
const suiteHTTP = "http"

// httpReadName is the file the HTTP suite reads, of 1 KiB.
const httpReadName = "1k.txt"

// HTTPFigures are what one run of the HTTP suite measured, for each
// target by label.
type HTTPFigures struct {
	URL map[string]string `json:"url"`
	// AnswerBytes is the size of the body of each one's answer.
	AnswerBytes map[string]int `json:"answer_bytes"`
	// Answers is how many calls each one answered, every answer checked.
	Answers     map[string]int64   `json:"answers"`
	Read1K      map[string]Summary `json:"read_1k"`       // round trips, one at a time
	CallsPerSec map[string]float64 `json:"calls_per_sec"` // K in flight, median of the rounds
	// CPUPerCall is the CPU time each server process used a call (all its
	// threads, until it went idle after the round) under the calls in
	// flight, in µs, median of the rounds: its own work, without the
	// client's, which is in every round trip and rate.
	CPUPerCall map[string]float64 `json:"cpu_us_per_call"`
	PeakRSSMiB map[string]float64 `json:"peak_rss_mib"` // VmHWM after all the calls
}

// httpSuiteSpecs are the three programs of an HTTP suite run and the
// addresses they listen at: toolserver, the go-sdk peer and the floor
// ("toolbench httpfloor") at floorAddr, serving text.
func httpSuiteSpecs(cfg config, self, floorAddr string) ([]Spec, []string, error) {
	serverAddr, err := httpAddrOf(cfg.server)
	if err != nil {
		return nil, nil, err
	}
	sdkAddr, err := httpAddrOf(cfg.sdk)
	if err != nil {
		return nil, nil, err
	}
	specs := []Spec{
		{Label: labelServer, Argv: cfg.server},
		{Label: labelSDK, Argv: cfg.sdk},
		{Label: labelFloor, Argv: []string{self, "httpfloor", "-addr", floorAddr, "-text", filepath.Join(cfg.root, httpReadName)}, Floor: true},
	}
	return specs, []string{serverAddr, sdkAddr, floorAddr}, nil
}

// runHTTPSuite prepares cfg.root, starts the three servers and measures
// them: round trips one at a time, calls/s with K in flight, both
// interleaved, and then the peak RSS of each.
func runHTTPSuite(ctx context.Context, cfg config, self string, log io.Writer) (_ *HTTPFigures, err error) {
	defer quietGC()()
	o := cfg.opts
	text := suiteText(1 << 10)
	if err := prepareFolder(cfg.root, suiteHTTP, map[string][]byte{httpReadName: text}); err != nil {
		return nil, err
	}
	floorAddr, err := freeLoopbackAddr()
	if err != nil {
		return nil, err
	}
	specs, addrs, err := httpSuiteSpecs(cfg, self, floorAddr)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(log, "toolbench: starting %s at %s, %s at %s, %s at %s\n", labelServer, addrs[0], labelSDK, addrs[1], labelFloor, addrs[2])
	ts := make([]*httpTarget, 0, len(specs))
	defer func() {
		for _, h := range ts {
			if err != nil {
				h.kill()
				continue
			}
			err = errors.Join(err, h.stop())
		}
	}()
	for i, spec := range specs {
		h, err := startHTTPTarget(ctx, spec, addrs[i], httpReadName, text, o.K, o.Stall)
		if err != nil {
			return nil, err
		}
		ts = append(ts, h)
	}

	f := &HTTPFigures{URL: map[string]string{}, AnswerBytes: map[string]int{}, Answers: map[string]int64{}, PeakRSSMiB: map[string]float64{}}
	rts := make([]roundTripper, len(ts))
	for i, h := range ts {
		f.URL[h.spec.Label] = h.url
		if f.AnswerBytes[h.spec.Label], err = h.probe(ctx, text); err != nil {
			return nil, err
		}
		rts[i] = h
	}

	fmt.Fprintf(log, "toolbench: read_file %s over HTTP: %d round trips each\n", httpReadName, o.N)
	samples, err := timedRounds(ctx, rts, max(1, min(o.Warmup, o.N/10)), o.N, max(1, min(o.Round, o.N/10)), o.RoundWarm)
	if err != nil {
		return nil, fmt.Errorf("round trips: %w", err)
	}
	f.Read1K = summaries(specs, samples)

	fmt.Fprintf(log, "toolbench: read_file %s over HTTP: %d calls each, %d in flight\n", httpReadName, o.Calls, o.K)
	cpu := make([][]float64, len(ts))
	cps, err := rateRounds(ctx, len(ts), o, func(t, calls int, measured bool) (time.Duration, error) {
		pid := ts[t].cmd.Process.Pid
		before, cpuErr := cpuTimeOf(pid)
		d, err := ts[t].burst(ctx, o.K, calls)
		settlePid(pid, settleLimit)
		if after, err2 := cpuTimeOf(pid); measured && err == nil && cpuErr == nil && err2 == nil {
			cpu[t] = append(cpu[t], micros(after-before)/float64(calls))
		}
		return d, err
	})
	if err != nil {
		return nil, fmt.Errorf("calls/s: %w", err)
	}
	f.CallsPerSec, f.CPUPerCall = map[string]float64{}, map[string]float64{}
	for t, h := range ts {
		f.CallsPerSec[h.spec.Label] = cps[t]
		f.CPUPerCall[h.spec.Label] = median(cpu[t])
		f.Answers[h.spec.Label] = h.nextID.Load()
		rss, err := h.peakRSS()
		if err != nil {
			return nil, err
		}
		f.PeakRSSMiB[h.spec.Label] = float64(rss) / (1 << 20)
	}
	return f, nil
}
