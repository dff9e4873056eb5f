//go:build !windows

package main

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// The goals of the HTTP suite, toolserver against go-sdk.
const (
	httpGoalP50  = 0.5 // round-trip p50 at most this times go-sdk's
	httpGoalRate = 6.0 // calls/s at least this times go-sdk's
)

// httpRows turns the HTTP suite's figures into its table: the round
// trip's percentiles, the calls/s and the peak RSS, with the goals, and
// notes on where the floor leaves them.
func httpRows(f *HTTPFigures, o Options) []SuiteRow {
	pick := func(p func(Summary) time.Duration) map[string]float64 {
		m := make(map[string]float64, len(f.Read1K))
		for label, s := range f.Read1K {
			m[label] = micros(p(s))
		}
		return m
	}
	const read = "read_file 1 KiB over HTTP, "
	p50 := suiteRow(read+"round trip p50", unitMicros, labelFloor, pick(func(s Summary) time.Duration { return s.Median }),
		bound{against: labelSDK, atMost: true, limit: httpGoalP50})
	p50.Note = httpP50Note(p50.Figures)
	rate := suiteRow(fmt.Sprintf(read+"calls/s with %d in flight", o.K), unitRate, labelFloor, f.CallsPerSec,
		bound{against: labelSDK, limit: httpGoalRate})
	rate.Note = httpRateNote(rate.Figures)
	return []SuiteRow{
		p50,
		suiteRow(read+"round trip p90", unitMicros, labelFloor, pick(func(s Summary) time.Duration { return s.P90 })),
		suiteRow(read+"round trip p99", unitMicros, labelFloor, pick(func(s Summary) time.Duration { return s.P99 })),
		rate,
		suiteRow(fmt.Sprintf("server CPU time a call, %d in flight", o.K), unitMicros, labelFloor, f.CPUPerCall),
		suiteRow("peak RSS after the calls", unitMiB, labelFloor, f.PeakRSSMiB),
	}
}

// httpP50Note says where the p50 goal stands against the floor, the
// round trip of a bare net/http handler: a goal below it is one no
// server on net/http can meet on this machine. Above the floor is what
// each server adds to the round trip, its own work.
func httpP50Note(m map[string]float64) string {
	ts, sdk, floor := m[labelServer], m[labelSDK], m[labelFloor]
	if sdk == 0 || floor == 0 {
		return ""
	}
	goal := httpGoalP50 * sdk
	us := func(v float64) string { return formatValue(unitMicros, v) }
	above := fmt.Sprintf("above the floor, toolserver adds %s and go-sdk %s", us(ts-floor), us(sdk-floor))
	if sdk > floor {
		above += fmt.Sprintf(" (%.2fx)", (ts-floor)/(sdk-floor))
	}
	if goal <= floor {
		return fmt.Sprintf("the goal, ≤%s (%gx go-sdk's %s), is below the floor's %s, what a bare net/http round trip costs here: no server can meet it on this machine; %s",
			us(goal), httpGoalP50, us(sdk), us(floor), above)
	}
	return fmt.Sprintf("the goal, ≤%s (%gx go-sdk's %s), leaves %s above the floor's %s for a server's own work; %s",
		us(goal), httpGoalP50, us(sdk), us(goal-floor), us(floor), above)
}

// httpRateNote says where the calls/s goal stands against the floor's
// rate, and what each call of each server costs beyond the floor's (the
// inverse rates; with everything pinned to one CPU, CPU time a call).
func httpRateNote(m map[string]float64) string {
	ts, sdk, floor := m[labelServer], m[labelSDK], m[labelFloor]
	if ts == 0 || sdk == 0 || floor == 0 {
		return ""
	}
	rate := func(v float64) string { return formatValue(unitRate, v) }
	us := func(r float64) string { return formatValue(unitMicros, 1e6/r-1e6/floor) }
	beyond := fmt.Sprintf("time a call beyond the floor's: toolserver %s, go-sdk %s", us(ts), us(sdk))
	goal := httpGoalRate * sdk
	if goal > floor {
		return fmt.Sprintf("the goal, ≥%s calls/s (%gx go-sdk's %s), is above the floor's %s: no server can meet it on this machine; %s",
			rate(goal), httpGoalRate, rate(sdk), rate(floor), beyond)
	}
	return fmt.Sprintf("the floor makes %s calls/s, %.1fx go-sdk's; the goal, ≥%s, is %.2f of the floor's; %s",
		rate(floor), floor/sdk, rate(goal), goal/floor, beyond)
}

// writeHTTPTable prints the HTTP suite's table: each figure of the three
// targets, the ratios toolserver/go-sdk and each one's to the floor, the
// goals, the notes, and lines on the setup.
func writeHTTPTable(w io.Writer, rep SuiteReport) error {
	cells := [][]string{{"measure", labelServer, labelSDK, labelFloor, "÷ go-sdk", "÷ floor", "go-sdk ÷ floor", "goal", "result"}}
	for _, r := range rep.Rows {
		goals, results := checkCells(r)
		cells = append(cells, []string{r.Measure, figureCell(r, labelServer), figureCell(r, labelSDK), figureCell(r, labelFloor),
			ratioCell(r, labelServer, labelSDK), ratioCell(r, labelServer, labelFloor), ratioCell(r, labelSDK, labelFloor), goals, results})
	}
	if err := writeColumns(w, cells, func(col int) bool { return col == 0 || col >= 7 }); err != nil {
		return err
	}
	if err := writeNotes(w, rep.Rows); err != nil {
		return err
	}
	var setup strings.Builder
	for _, label := range []string{labelServer, labelSDK, labelFloor} {
		fmt.Fprintf(&setup, "# %s: %s", label, rep.Argv[label])
		if f := rep.HTTP; f != nil {
			fmt.Fprintf(&setup, " (%s, answers of %d bytes, %s of them checked)", f.URL[label], f.AnswerBytes[label], thousands(int(f.Answers[label])))
		}
		setup.WriteString("\n")
	}
	pinned := "not pinned"
	if rep.Pinned {
		pinned = "pinned"
	}
	o := rep.Options
	fmt.Fprintf(&setup, "# root %s, cpus %s (%s); round trips n=%d; calls=%d k=%d rounds=%d (median of the rounds)\n",
		rep.Root, rep.CPUs, pinned, o.N, o.Calls, o.K, o.Rounds)
	_, err := io.WriteString(w, setup.String())
	return err
}
