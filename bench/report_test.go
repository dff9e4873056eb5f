//go:build !windows

package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func sampleResults() *Results {
	return &Results{
		RTT:          &[2]Summary{{N: 9, Min: 10 * time.Microsecond, Median: 12100 * time.Nanosecond, P90: 15 * time.Microsecond, P99: 30 * time.Microsecond}, {N: 9, Min: 8 * time.Microsecond, Median: 8900 * time.Nanosecond, P90: 10 * time.Microsecond, P99: 20 * time.Microsecond}},
		Cold:         &[2]Summary{{N: 3, Median: 2100 * time.Microsecond}, {N: 3, Median: 1400 * time.Microsecond}},
		CallsPerSec:  &[2]float64{95000, 133000},
		PeakRSS:      &[2]int64{98 << 20 / 10, 21 << 20 / 10},
		Payload:      &[2]Summary{{N: 2, Median: 3 * time.Millisecond, P90: 4 * time.Millisecond}, {N: 2, Median: time.Millisecond, P90: 2 * time.Millisecond}},
		PayloadBytes: 1 << 20,
	}
}

func TestTable(t *testing.T) {
	o := Options{K: 16, N: 9, Cold: 3, Calls: 100, Rounds: 2, PayloadN: 2, Measures: allMeasures()}
	rep := Report{Targets: [2]string{"toolserver", "echo"}, Server: []string{"toolserver", "--root", "x"}, CPUs: "0", Pinned: true, Options: o, Rows: rows(sampleResults(), o, true)}
	var b bytes.Buffer
	if err := writeTable(&b, rep); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"measure ", "toolserver", "echo",
		"rtt median", "12.1µs", "8.9µs", "1.36x", "≤1.5x ok",
		"cold median", "2.10ms", "1.40ms", "1.50x", "≤2x ok",
		"calls/s (K=16)", "95.0k", "133.0k", "0.71", "≥0.5 ok",
		"max RSS", "9.8MiB", "2.1MiB",
		"payload 1.0MiB median", "3.00ms",
		"cpus 0 (pinned)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 10 {
		t.Errorf("%d lines:\n%s", len(lines), out)
	}
	// Value columns are right-aligned: the ratio column ends in one place.
	ratioEnd := strings.Index(lines[0], "ratio") + len("ratio")
	for _, l := range lines[1:9] {
		if r := []rune(l); len(r) < ratioEnd || r[ratioEnd-1] == ' ' {
			t.Errorf("misaligned: %q", l)
		}
	}

	res := sampleResults()
	res.CallsPerSec = &[2]float64{40000, 133000}
	rep.Rows = rows(res, o, true)
	b.Reset()
	if err := writeTable(&b, rep); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "≥0.5 not met") {
		t.Errorf("unmet goal not shown:\n%s", b.String())
	}
}

func TestJSONReport(t *testing.T) {
	o := Options{K: 16, Measures: allMeasures()}
	rep := Report{Targets: [2]string{"toolserver", "echo"}, Options: o, Rows: rows(sampleResults(), o, true), Results: sampleResults()}
	var b bytes.Buffer
	if err := writeJSON(&b, rep); err != nil {
		t.Fatal(err)
	}
	var back struct {
		Rows    []Row `json:"rows"`
		Results struct {
			RTT [2]struct {
				Median int64 `json:"median_ns"`
			} `json:"rtt"`
		} `json:"results"`
	}
	if err := json.Unmarshal(b.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if len(back.Rows) != 8 || back.Rows[0].Measure != "rtt median" || back.Rows[0].Unit != "us" || back.Rows[0].A != 12.1 {
		t.Errorf("rows: %+v", back.Rows)
	}
	if back.Rows[0].Met == nil || !*back.Rows[0].Met || back.Rows[0].Goal != "<=1.5x" {
		t.Errorf("goal: %+v", back.Rows[0])
	}
	if back.Results.RTT[0].Median != 12100 {
		t.Errorf("raw results: %+v", back.Results)
	}
}

func TestStats(t *testing.T) {
	var d []time.Duration
	for i := 100; i >= 1; i-- {
		d = append(d, time.Duration(i))
	}
	s := summarize(d)
	if s.N != 100 || s.Min != 1 || s.Median != 50 || s.P90 != 90 || s.P99 != 99 || s.Max != 100 {
		t.Errorf("summary %+v", s)
	}
	if d[0] != 100 {
		t.Error("summarize sorted its input")
	}
	if (summarize(nil) != Summary{}) {
		t.Error("summary of nothing")
	}
	if m := median([]float64{4, 1, 3, 2}); m != 2.5 {
		t.Errorf("median = %v", m)
	}
	if m := median([]float64{3, 1, 2}); m != 2 {
		t.Errorf("median = %v", m)
	}
}

func TestRowsAgainstABaselineHaveNoGoals(t *testing.T) {
	for _, r := range rows(sampleResults(), Options{K: 16}, false) {
		if r.Goal != "" {
			t.Errorf("%s has goal %q against a baseline server", r.Measure, r.Goal)
		}
	}
}
