//go:build !windows

package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// SuiteRow is one measure of the suite: the figures of toolserver, the
// go-sdk peer and the floor it is held to, and the goals it is judged by.
type SuiteRow struct {
	Measure string `json:"measure"`
	Unit    string `json:"unit"` // "us", "calls/s" or "MiB"
	// Figures holds the figure of each target measured, by label.
	Figures map[string]float64 `json:"figures"`
	// Floor labels the floor of this measure (echo or floor), if any.
	Floor  string       `json:"floor,omitempty"`
	Checks []SuiteCheck `json:"checks,omitempty"`
	// Refused is what toolserver answered when it refused the call.
	Refused string `json:"refused,omitempty"`
	// Note says more about the figures, such as where the floor of the
	// work stands against the goal; it is printed under the table.
	Note string `json:"note,omitempty"`
}

// SuiteCheck is one goal applied to a row. A goal that could
// not be judged because toolserver refused the call is not met.
type SuiteCheck struct {
	Goal string `json:"goal"` // as the table prints it, e.g. "≤0.8x go-sdk"
	// Value is the ratio toolserver/Against, or toolserver's own figure
	// when Against is empty (an absolute bound).
	Against string  `json:"against,omitempty"`
	Value   float64 `json:"value"`
	Met     bool    `json:"met"`
}

// SuiteReport is what a suite run prints, the -json output.
type SuiteReport struct {
	Suite   string            `json:"suite"`
	Root    string            `json:"root"`
	Argv    map[string]string `json:"argv"` // the command line of each target
	CPUs    string            `json:"cpus"`
	Pinned  bool              `json:"pinned"`
	Options Options           `json:"options"`
	Rows    []SuiteRow        `json:"rows"`
	// The figures behind the rows, times in ns: Figures for peers, HTTP
	// for http.
	Figures *SuiteFigures `json:"figures,omitempty"`
	HTTP    *HTTPFigures  `json:"http,omitempty"`
}

// bound is a goal: toolserver's figure over against's at
// most (atMost) or at least limit, or, with no against, toolserver's
// figure itself. text overrides the goal's printed form.
type bound struct {
	against string
	atMost  bool
	limit   float64
	text    string
}

// check judges b on the figures of a row.
func (b bound) check(figures map[string]float64) (SuiteCheck, bool) {
	v, ok := figures[labelServer]
	if !ok {
		return SuiteCheck{}, false
	}
	if b.against != "" {
		w, ok := figures[b.against]
		if !ok || w == 0 {
			return SuiteCheck{}, false
		}
		v /= w
	}
	c := SuiteCheck{Against: b.against, Value: v, Met: v >= b.limit}
	if b.atMost {
		c.Met = v <= b.limit
	}
	c.Goal = b.text
	if c.Goal == "" {
		op := "≥"
		if b.atMost {
			op = "≤"
		}
		c.Goal = fmt.Sprintf("%s%gx %s", op, b.limit, b.against)
	}
	return c, true
}

// suiteRow builds a row and judges its bounds.
func suiteRow(measure, unit, floor string, figures map[string]float64, bounds ...bound) SuiteRow {
	r := SuiteRow{Measure: measure, Unit: unit, Figures: figures, Floor: floor}
	for _, b := range bounds {
		if c, ok := b.check(figures); ok {
			r.Checks = append(r.Checks, c)
		}
	}
	return r
}

// writeRow is the row of a write or an edit, which toolserver may have
// refused (f.Refused[key]): then the floor's figure comes from the write
// of the same size, and the goal is not met.
func writeRow(measure, key string, m map[string]Summary, f *SuiteFigures, sameWrite map[string]Summary) SuiteRow {
	goal := bound{against: labelFloor, atMost: true, limit: 2}
	msg, refused := f.Refused[key]
	if !refused {
		return suiteRow(measure, unitMicros, labelFloor, medians(m), goal)
	}
	figures := map[string]float64{}
	if s, ok := sameWrite[labelFloor]; ok {
		figures[labelFloor] = micros(s.Median)
	}
	r := suiteRow(measure, unitMicros, labelFloor, figures)
	r.Refused = msg
	r.Checks = []SuiteCheck{{Goal: fmt.Sprintf("≤%gx %s", goal.limit, goal.against), Against: labelFloor}}
	return r
}

func medians(m map[string]Summary) map[string]float64 {
	out := make(map[string]float64, len(m))
	for label, s := range m {
		out[label] = micros(s.Median)
	}
	return out
}

// suiteRows turns the figures into the table, with the goals of each measure.
func suiteRows(f *SuiteFigures, o Options) []SuiteRow {
	faster := 1 / 1.4
	return []SuiteRow{
		suiteRow("spawn → tools/list answer", unitMicros, labelEcho, medians(f.Cold),
			bound{against: labelSDK, atMost: true, limit: 0.8}, bound{against: labelEcho, atMost: true, limit: 2.5}),
		suiteRow("peak RSS at start", unitMiB, labelEcho, f.StartRSSMiB,
			bound{against: labelSDK, atMost: true, limit: 1}),
		readFloorNote(suiteRow("read_file 1 KiB, round trip", unitMicros, labelEcho, medians(f.Read1K),
			bound{against: labelEcho, atMost: true, limit: 2})),
		readFloorNote(suiteRow(fmt.Sprintf("read_file 1 KiB, calls/s with %d in flight", o.K), unitRate, labelEcho, f.CallsPerSec,
			bound{against: labelEcho, limit: 0.6, text: "≥0.6 of echo"})),
		readFloorNote(suiteRow("read_file 1 MiB, round trip", unitMicros, labelEcho, medians(f.Read1M),
			bound{against: labelEcho, atMost: true, limit: 1.4})),
		suiteRow(fmt.Sprintf("peak RSS, %d concurrent 1 MiB reads", o.K), unitMiB, labelEcho, f.RSS1MMiB,
			bound{against: labelEcho, atMost: true, limit: 2}),
		suiteRow(fmt.Sprintf("peak RSS, %d pipelined 4 MiB reads of 16 MiB", o.K), unitMiB, labelEcho, f.RSS16MMiB,
			bound{atMost: true, limit: 80, text: "≤80MiB"}),
		suiteRow("list_directory "+thousands(f.ListEntries)+" entries", unitMicros, labelFloor, medians(f.List),
			bound{against: labelFloor, atMost: true, limit: 1.3},
			bound{against: labelSDK, atMost: true, limit: faster, text: "≥1.4x faster than go-sdk"}),
		writeRow("write_file 1 MiB", "write_1m", f.Write1M, f, nil),
		writeRow("write_file 8 MiB", "write_8m", f.Write8M, f, nil),
		writeRow("edit_file 1 MiB (one line)", "edit_1m", f.Edit1M, f, f.Write1M),
		writeRow("edit_file 8 MiB (one line)", "edit_8m", f.Edit8M, f, f.Write8M),
		suiteRow("binary size", unitMiB, "", f.BinaryMiB),
	}
}

// readFloorNote notes, on a read's row held to the echo, where the floor
// of the work (the same read with no protocol) stands: a goal below the
// floor's own ratio is one no server can meet.
func readFloorNote(r SuiteRow) SuiteRow {
	v, ok := r.Figures[labelServer]
	w, ok2 := r.Figures[labelFloor]
	e, ok3 := r.Figures[labelEcho]
	if !ok || !ok2 || !ok3 || w == 0 || e == 0 {
		return r
	}
	verb, x := "takes", "x"
	if r.Unit == unitRate {
		verb, x = "makes", ""
	}
	r.Note = fmt.Sprintf("the read floor (open through os.Root, fstat, read, close, escape, one line; no protocol) %s %s, %.2f%s the echo's; toolserver %s %.2f%s the read floor's",
		verb, formatValue(r.Unit, w), w/e, x, verb, v/w, x)
	return r
}

// thousands prints n with commas between the groups of three digits.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// ratioCell prints num's figure over den's, if both are there.
func ratioCell(r SuiteRow, num, den string) string {
	v, ok := r.Figures[num]
	w, ok2 := r.Figures[den]
	if !ok || !ok2 || w == 0 {
		return ""
	}
	if r.Unit == unitRate {
		return fmt.Sprintf("%.2f", v/w)
	}
	return fmt.Sprintf("%.2fx", v/w)
}

// checkCells prints the goals of a row and whether each is met.
func checkCells(r SuiteRow) (goals, results string) {
	var g, res []string
	for _, c := range r.Checks {
		g = append(g, c.Goal)
		switch {
		case c.Met:
			res = append(res, "ok")
		case r.Refused != "":
			res = append(res, "not met (refused)")
		default:
			res = append(res, "not met")
		}
	}
	return strings.Join(g, ", "), strings.Join(res, ", ")
}

// writeNotes prints, under a table, what toolserver refused and the notes
// of its rows.
func writeNotes(w io.Writer, rows []SuiteRow) error {
	for _, r := range rows {
		if r.Refused != "" {
			if _, err := fmt.Fprintf(w, "# %s: toolserver refused: %s\n", r.Measure, r.Refused); err != nil {
				return err
			}
		}
		if r.Note != "" {
			if _, err := fmt.Fprintf(w, "# %s: %s\n", r.Measure, r.Note); err != nil {
				return err
			}
		}
	}
	return nil
}

func figureCell(r SuiteRow, label string) string {
	v, ok := r.Figures[label]
	if !ok && label == labelServer && r.Refused != "" {
		return "refused"
	}
	if !ok {
		return "–"
	}
	return formatValue(r.Unit, v)
}

// writeSuiteTable prints the suite's table and a line on the setup.
func writeSuiteTable(w io.Writer, rep SuiteReport) error {
	cells := [][]string{{"measure", labelServer, labelSDK, "floor", "÷ go-sdk", "÷ floor", "goal", "result"}}
	for _, r := range rep.Rows {
		floor := "–"
		if r.Floor != "" {
			floor = figureCell(r, r.Floor) + " " + r.Floor
		}
		goals, results := checkCells(r)
		cells = append(cells, []string{r.Measure, figureCell(r, labelServer), figureCell(r, labelSDK), floor,
			ratioCell(r, labelServer, labelSDK), ratioCell(r, labelServer, r.Floor), goals, results})
	}
	// The measure, the goals and the results to the left, the figures to
	// the right.
	if err := writeColumns(w, cells, func(col int) bool { return col == 0 || col >= 6 }); err != nil {
		return err
	}
	if err := writeNotes(w, rep.Rows); err != nil {
		return err
	}
	pinned := "not pinned"
	if rep.Pinned {
		pinned = "pinned"
	}
	o := rep.Options
	_, err := fmt.Fprintf(w, "# toolserver: %s\n# go-sdk: %s\n# root %s, cpus %s (%s); medians of cold n=%d, 1 KiB n=%d, 1 MiB n=%d, list n=%d, writes n=%d; calls=%d k=%d; memory: %d calls\n",
		rep.Argv[labelServer], rep.Argv[labelSDK], rep.Root, rep.CPUs, pinned,
		o.Cold, o.N, o.PayloadN, o.ListN, o.WriteN, o.Calls, o.K, o.MemCalls)
	return err
}
