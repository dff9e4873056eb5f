//go:build !windows

package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"
)

// Units of a Row.
const (
	unitMicros = "us"
	unitRate   = "calls/s"
	unitMiB    = "MiB"
)

// Row is one line of the report: one measure for A and B and the ratio A/B.
type Row struct {
	Measure string  `json:"measure"` // what is measured, e.g. "rtt median"
	Unit    string  `json:"unit"`    // "us", "calls/s" or "MiB"
	A       float64 `json:"a"`       // the server's figure
	B       float64 `json:"b"`       // the echo's figure
	Ratio   float64 `json:"ratio"`   // A/B
	// Goal is the bound the ratio is held to, such as "<=1.5x"; Met says
	// whether it holds. Both are absent for rows without a goal.
	Goal string `json:"goal,omitempty"`
	Met  *bool  `json:"met,omitempty"`
}

// Report is everything one run found, the -json output.
type Report struct {
	Targets [2]string `json:"targets"` // labels of A and B
	Server  []string  `json:"server"`  // A's command line
	// Baseline is B's command line when B is a server, not the echo.
	Baseline []string `json:"baseline,omitempty"`
	CPUs     string   `json:"cpus"`   // the CPUs toolbench and the targets ran on
	Pinned   bool     `json:"pinned"` // whether that is exactly one CPU
	Options  Options  `json:"options"`
	Rows     []Row    `json:"rows"`
	Results  *Results `json:"results"` // the raw summaries behind the rows, in ns
}

// goal bounds a ratio from above (atMost) or below.
type goal struct {
	atMost bool
	limit  float64
}

// newRow fills a row and judges its goal, if any.
func newRow(measure, unit string, a, b float64, g *goal) Row {
	r := Row{Measure: measure, Unit: unit, A: a, B: b}
	if b != 0 {
		r.Ratio = a / b
	}
	if g != nil {
		met := r.Ratio >= g.limit
		r.Goal = fmt.Sprintf(">=%gx", g.limit)
		if g.atMost {
			met = r.Ratio <= g.limit
			r.Goal = fmt.Sprintf("<=%gx", g.limit)
		}
		r.Met = &met
	}
	return r
}

func micros(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }

// rows turns results into report rows, with the project's goals: an rtt
// median within 1.5x and a cold start within 2x of the echo, and at least
// half the echo's calls/s.
func rows(res *Results, o Options, goals bool) []Row {
	var out []Row
	g := func(atMost bool, limit float64) *goal {
		if !goals {
			return nil // the goals are ratios to the echo floor
		}
		return &goal{atMost: atMost, limit: limit}
	}
	if s := res.RTT; s != nil {
		out = append(out,
			newRow("rtt median", unitMicros, micros(s[0].Median), micros(s[1].Median), g(true, 1.5)),
			newRow("rtt p90", unitMicros, micros(s[0].P90), micros(s[1].P90), nil),
			newRow("rtt p99", unitMicros, micros(s[0].P99), micros(s[1].P99), nil))
	}
	if s := res.Payload; s != nil {
		name := "payload " + formatValue(unitMiB, float64(res.PayloadBytes)/(1<<20))
		out = append(out,
			newRow(name+" median", unitMicros, micros(s[0].Median), micros(s[1].Median), nil),
			newRow(name+" p90", unitMicros, micros(s[0].P90), micros(s[1].P90), nil))
	}
	if s := res.Cold; s != nil {
		out = append(out, newRow("cold median", unitMicros, micros(s[0].Median), micros(s[1].Median), g(true, 2)))
	}
	if c := res.CallsPerSec; c != nil {
		out = append(out, newRow(fmt.Sprintf("calls/s (K=%d)", o.K), unitRate, c[0], c[1], g(false, 0.5)))
	}
	if m := res.PeakRSS; m != nil {
		out = append(out, newRow("max RSS", unitMiB, float64(m[0])/(1<<20), float64(m[1])/(1<<20), nil))
	}
	return out
}

// formatValue prints v in unit for the table.
func formatValue(unit string, v float64) string {
	switch unit {
	case unitMicros:
		switch {
		case v < 1000:
			return fmt.Sprintf("%.1fµs", v)
		case v < 1e6:
			return fmt.Sprintf("%.2fms", v/1e3)
		default:
			return fmt.Sprintf("%.2fs", v/1e6)
		}
	case unitRate:
		switch {
		case v >= 1e6:
			return fmt.Sprintf("%.2fM", v/1e6)
		case v >= 1e3:
			return fmt.Sprintf("%.1fk", v/1e3)
		default:
			return fmt.Sprintf("%.0f", v)
		}
	case unitMiB:
		return fmt.Sprintf("%.1fMiB", v)
	}
	return fmt.Sprintf("%g", v)
}

// formatRatio prints a ratio: times for costs, a plain fraction for rates.
func formatRatio(r Row) string {
	if r.Unit == unitRate {
		return fmt.Sprintf("%.2f", r.Ratio)
	}
	return fmt.Sprintf("%.2fx", r.Ratio)
}

// formatGoal prints the goal column: the bound and whether it is met.
func formatGoal(r Row) string {
	if r.Met == nil {
		return ""
	}
	g := strings.NewReplacer("<=", "≤", ">=", "≥").Replace(r.Goal)
	if r.Unit == unitRate {
		g = strings.TrimSuffix(g, "x")
	}
	if *r.Met {
		return g + " ok"
	}
	return g + " not met"
}

// writeTable prints the report as an aligned table and a line on the setup.
func writeTable(w io.Writer, rep Report) error {
	cells := [][]string{{"measure", rep.Targets[0], rep.Targets[1], "ratio", "goal"}}
	for _, r := range rep.Rows {
		cells = append(cells, []string{r.Measure, formatValue(r.Unit, r.A), formatValue(r.Unit, r.B), formatRatio(r), formatGoal(r)})
	}
	// The measure and the goal to the left, the figures to the right.
	if err := writeColumns(w, cells, func(col int) bool { return col == 0 || col == len(cells[0])-1 }); err != nil {
		return err
	}
	pinned := "not pinned"
	if rep.Pinned {
		pinned = "pinned"
	}
	baseline := "echo"
	if len(rep.Baseline) > 0 {
		baseline = strings.Join(rep.Baseline, " ")
	}
	_, err := fmt.Fprintf(w, "# A: %s   B: %s   cpus %s (%s)   %s\n",
		strings.Join(rep.Server, " "), baseline, rep.CPUs, pinned, counts(rep.Options))
	return err
}

// counts sums up the sample sizes of the measures that ran.
func counts(o Options) string {
	var parts []string
	for _, m := range o.Measures {
		switch m {
		case measureRTT:
			parts = append(parts, fmt.Sprintf("rtt n=%d", o.N))
		case measureCold:
			parts = append(parts, fmt.Sprintf("cold n=%d", o.Cold))
		case measureThroughput:
			parts = append(parts, fmt.Sprintf("calls=%d k=%d rounds=%d", o.Calls, o.K, o.Rounds))
		case measurePayload:
			parts = append(parts, fmt.Sprintf("payload n=%d", o.PayloadN))
		}
	}
	return strings.Join(parts, ", ")
}

// writeJSON prints the report as one indented JSON object.
func writeJSON(w io.Writer, rep Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(rep)
}

// writeColumns writes cells as columns three spaces apart, each as wide as
// its widest cell, aligned to the left where left says so and to the right
// otherwise, without trailing spaces.
func writeColumns(w io.Writer, cells [][]string, left func(col int) bool) error {
	width := make([]int, len(cells[0]))
	for _, row := range cells {
		for i, c := range row {
			width[i] = max(width[i], utf8.RuneCountInString(c))
		}
	}
	var b strings.Builder
	for _, row := range cells {
		for i, c := range row {
			pad := strings.Repeat(" ", width[i]-utf8.RuneCountInString(c))
			if left(i) {
				b.WriteString(c + pad + "   ")
			} else {
				b.WriteString(pad + c + "   ")
			}
		}
		if _, err := fmt.Fprintln(w, strings.TrimRight(b.String(), " ")); err != nil {
			return err
		}
		b.Reset()
	}
	return nil
}
