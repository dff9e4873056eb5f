//go:build !windows

package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// smallSuite returns a suite run on the fake server (as toolserver and as
// the go-sdk peer), the echo and the floor of the test binary, with tiny
// counts and a "MiB" of 16 KiB.
func smallSuite(t *testing.T) config {
	t.Helper()
	root := filepath.Join(t.TempDir(), "suite")
	t.Setenv(fakeEnv, "files") // the echo and floor children ignore it: their subcommand comes first
	t.Setenv(fakeRootEnv, root)
	k, v, _ := strings.Cut(quickExit(), "=")
	t.Setenv(k, v)
	cfg, err := parseConfig([]string{"-suite", suitePeers, "-root", root, "-sdk", os.Args[0], "-server", os.Args[0],
		"-n", "10", "-warmup", "1", "-round", "5", "-cold", "3", "-calls", "64", "-k", "4", "-rounds", "2",
		"-payload-n", "4", "-list-n", "4", "-write-n", "1", "-mem-calls", "8", "-stall", "20s"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	cfg.plan = suitePlan{mib: 16 << 10, many: 20}
	return cfg
}

// TestSuiteRunsEveryMeasure runs the whole suite once, small, and checks
// that every measure has its figures, that the refused edit is reported
// as such, and that the JSON and the table come out.
func TestSuiteRunsEveryMeasure(t *testing.T) {
	cfg := smallSuite(t)
	cfg.json = true
	var out, errOut bytes.Buffer
	if code := suiteMain(cfg, os.Args[0], "0", true, &out, &errOut); code != 0 {
		t.Fatalf("exit %d, stderr: %s", code, errOut.String())
	}
	var rep SuiteReport
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	f := rep.Figures
	for what, m := range map[string]map[string]Summary{"cold": f.Cold, "read 1k": f.Read1K, "read 1m": f.Read1M, "list": f.List} {
		want := 3
		if strings.HasPrefix(what, "read") {
			want = 4 // toolserver, go-sdk, echo and the read floor
		}
		if len(m) != want {
			t.Errorf("%s: figures of %d targets, want %d: %v", what, len(m), want, m)
		}
		for label, s := range m {
			if s.N == 0 || s.Median <= 0 {
				t.Errorf("%s of %s: %+v", what, label, s)
			}
		}
	}
	for what, m := range map[string]map[string]Summary{"write 1m": f.Write1M, "write 8m": f.Write8M, "edit 1m": f.Edit1M} {
		if len(m) != 2 || m[labelServer].Median <= 0 || m[labelFloor].Median <= 0 {
			t.Errorf("%s: %v", what, m)
		}
	}
	for what, m := range map[string]map[string]float64{"start RSS": f.StartRSSMiB, "RSS 1m": f.RSS1MMiB, "RSS 16m": f.RSS16MMiB, "calls/s": f.CallsPerSec} {
		if len(m) < 2 || m[labelServer] <= 0 || m[labelEcho] <= 0 {
			t.Errorf("%s: %v", what, m)
		}
	}
	if len(f.Edit8M) != 0 || len(f.Refused) != 1 || f.Refused["edit_8m"] != "too large to edit" {
		t.Errorf("edit 8m: %v, refused %v", f.Edit8M, f.Refused)
	}
	if len(rep.Rows) != 13 {
		t.Errorf("%d rows", len(rep.Rows))
	}

	out.Reset()
	if err := writeSuiteTable(&out, rep); err != nil {
		t.Fatal(err)
	}
	table := out.String()
	for _, want := range []string{"spawn → tools/list answer", "peak RSS, 4 pipelined 4 MiB reads of 16 MiB", "list_directory 20 entries",
		"not met (refused)", "# edit_file 8 MiB (one line): toolserver refused: too large to edit", "≥1.4x faster than go-sdk",
		"# toolserver: " + os.Args[0]} {
		if !strings.Contains(table, want) {
			t.Errorf("table lacks %q:\n%s", want, table)
		}
	}
}

// TestSuiteStopsOnAWrongRoot: a server given another root than the
// suite's cannot read the suite's files, and the run says so.
func TestSuiteStopsOnAWrongRoot(t *testing.T) {
	cfg := smallSuite(t)
	t.Setenv(fakeRootEnv, t.TempDir())
	var out, errOut bytes.Buffer
	if code := suiteMain(cfg, os.Args[0], "0", true, &out, &errOut); code != 1 || !strings.Contains(errOut.String(), "no such file") {
		t.Errorf("exit %d, stderr: %s", code, errOut.String())
	}
}

func TestParseSuiteConfig(t *testing.T) {
	base := []string{"-suite", "peers", "-server", "ts --root d"}
	cfg, err := parseConfig(append(base, "-root", "d", "-sdk", "sdk -root d"), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.root != "d" || strings.Join(cfg.sdk, " ") != "sdk -root d" || cfg.opts.ListN != defaultListN || cfg.opts.WriteN != defaultWriteN || cfg.opts.MemCalls != defaultMemCalls {
		t.Errorf("config %+v", cfg)
	}
	for _, bad := range [][]string{
		append(base, "-sdk", "x"),
		append(base, "-root", "d"),
		append(base, "-root", "d", "-sdk", "x", "-only", "rtt"),
		append(base, "-root", "d", "-sdk", "x", "-baseline", "y"),
		append(base, "-root", "d", "-sdk", "x", "-write-n", "0"),
		{"-suite", "nope", "-server", "x", "-root", "d", "-sdk", "x"},
	} {
		if _, err := parseConfig(bad, io.Discard); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// TestPrepareRoot: a new folder is filled, a prepared one is prepared
// again (and its folder to list put right), and a folder of the user's is
// refused untouched.
func TestPrepareRoot(t *testing.T) {
	p := suitePlan{root: filepath.Join(t.TempDir(), "new"), mib: 1 << 10, many: 30}
	for range 2 {
		if err := prepareRoot(p); err != nil {
			t.Fatal(err)
		}
	}
	for name, size := range map[string]int{"1k.txt": 1 << 10, "1m.txt": p.mib, "16m.txt": 16 * p.mib, editName(8): 8 * p.mib} {
		if fi, err := os.Stat(filepath.Join(p.root, name)); err != nil || fi.Size() != int64(size) {
			t.Errorf("%s: %v, want %d bytes", name, err, size)
		}
	}
	if err := os.WriteFile(filepath.Join(p.root, manyDir, "extra"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := prepareRoot(p); err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(filepath.Join(p.root, manyDir)); len(entries) != p.many || entries[0].Name() != "file-0000.txt" {
		t.Errorf("%s has %d entries", manyDir, len(entries))
	}

	mine := t.TempDir()
	if err := os.WriteFile(filepath.Join(mine, "notes.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := prepareRoot(suitePlan{root: mine, mib: 1 << 10, many: 30}); err == nil || !strings.Contains(err.Error(), suiteMark) {
		t.Errorf("a folder of the user's was accepted: %v", err)
	}
	if entries, _ := os.ReadDir(mine); len(entries) != 1 {
		t.Errorf("the user's folder was changed: %d entries", len(entries))
	}
}

func TestSuiteTexts(t *testing.T) {
	text := suiteText(1 << 12)
	lines := strings.SplitAfter(string(text), "\n")
	if len(text) != 1<<12 || len(lines) != 1<<12/suiteLine+1 || lines[len(lines)-1] != "" {
		t.Fatalf("%d bytes in %d lines", len(text), len(lines))
	}
	seen := map[string]bool{}
	for _, l := range lines[:len(lines)-1] {
		if len(l) != suiteLine || seen[l] {
			t.Fatalf("line %q: %d bytes, seen before %v", l, len(l), seen[l])
		}
		seen[l] = true
	}
	edit := string(editText(1 << 12))
	if len(edit) != 1<<12 || strings.Count(edit, markerA) != 1 || strings.Contains(edit, markerB) || !strings.Contains(edit, "\n"+markerA+"\n") {
		t.Errorf("edit text: %d bytes, %d markers", len(edit), strings.Count(edit, markerA))
	}
	p := suitePlan{mib: 1 << 20}
	if p.quarterLines() != 65536 {
		t.Errorf("a quarter of 16 MiB is %d lines", p.quarterLines())
	}
	var req struct {
		Params struct {
			Arguments struct {
				Offset, Limit int
			}
		}
	}
	if err := json.Unmarshal(p.quarterReads(nil, 6), &req); err != nil || req.Params.Arguments.Offset != 1+2*65536 || req.Params.Arguments.Limit != 65536 {
		t.Errorf("quarter read of id 6: %+v, %v", req, err)
	}
}

// TestSuiteRowsJudgeTheGoals holds the table to its goals on
// figures made up for it.
func TestSuiteRowsJudgeTheGoals(t *testing.T) {
	ms := func(m map[string]float64) map[string]Summary {
		out := map[string]Summary{}
		for k, v := range m {
			out[k] = Summary{N: 1, Median: time.Duration(v * float64(time.Millisecond))}
		}
		return out
	}
	f := &SuiteFigures{
		BinaryMiB:   map[string]float64{labelServer: 16, labelSDK: 11},
		Cold:        ms(map[string]float64{labelServer: 4, labelSDK: 5, labelEcho: 1}),
		StartRSSMiB: map[string]float64{labelServer: 9, labelSDK: 10, labelEcho: 2},
		Read1K:      ms(map[string]float64{labelServer: 0.02, labelSDK: 0.1, labelEcho: 0.01}),
		CallsPerSec: map[string]float64{labelServer: 60, labelEcho: 100},
		Read1M:      ms(map[string]float64{labelServer: 2, labelSDK: 20, labelEcho: 1}),
		ListEntries: 1000,
		RSS1MMiB:    map[string]float64{labelServer: 30, labelSDK: 90, labelEcho: 10},
		RSS16MMiB:   map[string]float64{labelServer: 81, labelEcho: 20},
		List:        ms(map[string]float64{labelServer: 0.5, labelSDK: 0.7, labelFloor: 0.4}),
		Write1M:     ms(map[string]float64{labelServer: 8, labelFloor: 4}),
		Write8M:     ms(map[string]float64{labelServer: 61, labelFloor: 30}),
		Edit1M:      ms(map[string]float64{labelServer: 5, labelFloor: 4}),
		Refused:     map[string]string{"edit_8m": "too large"},
	}
	rows := suiteRows(f, Options{K: 16})
	want := map[string][]bool{
		"spawn → tools/list answer":                    {true, false},
		"peak RSS at start":                            {true},
		"read_file 1 KiB, round trip":                  {true},
		"read_file 1 KiB, calls/s with 16 in flight":   {true},
		"read_file 1 MiB, round trip":                  {false},
		"peak RSS, 16 concurrent 1 MiB reads":          {false},
		"peak RSS, 16 pipelined 4 MiB reads of 16 MiB": {false},
		"list_directory 1,000 entries":                 {true, true},
		"write_file 1 MiB":                             {true},
		"write_file 8 MiB":                             {false},
		"edit_file 1 MiB (one line)":                   {true},
		"edit_file 8 MiB (one line)":                   {false},
		"binary size":                                  nil,
	}
	if len(rows) != len(want) {
		t.Fatalf("%d rows, want %d", len(rows), len(want))
	}
	for _, r := range rows {
		w, ok := want[r.Measure]
		if !ok {
			t.Errorf("unexpected row %q", r.Measure)
			continue
		}
		var got []bool
		for _, c := range r.Checks {
			got = append(got, c.Met)
		}
		if !slices.Equal(got, w) {
			t.Errorf("%s: met %v, want %v (%+v)", r.Measure, got, w, r.Checks)
		}
	}
	var out bytes.Buffer
	if err := writeSuiteTable(&out, SuiteReport{Rows: rows, Options: Options{K: 16}}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"0.80x", "4.00x", "≤0.8x go-sdk, ≤2.5x echo", "ok, not met", "0.60", "≤80MiB", "81.0MiB", "refused", "30.00ms floor"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, out.String())
		}
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 1234567: "1,234,567", -1000: "-1,000"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %q, want %q", n, got, want)
		}
	}
}
