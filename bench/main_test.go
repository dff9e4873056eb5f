//go:build !windows

package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"slices"
	"strings"
	"testing"
)

func TestParseConfig(t *testing.T) {
	cfg, err := parseConfig([]string{"-server", "toolserver  --root testdata/playground"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(cfg.server, []string{"toolserver", "--root", "testdata/playground"}) {
		t.Errorf("server %q", cfg.server)
	}
	if !slices.Equal(cfg.opts.Measures, []string{measureRTT, measureThroughput, measureCold}) {
		t.Errorf("default measures %v", cfg.opts.Measures)
	}
	if o := cfg.opts; o.N != defaultN || o.Warmup != defaultWarmup || o.Cold != defaultCold || o.Calls != defaultCalls || o.K != defaultK || !o.Check || o.Tool != "calc" {
		t.Errorf("defaults %+v", o)
	}

	cfg, err = parseConfig([]string{"-only", "cold,rtt", "-payload-args", `{"path":"big"}`, "-k", "4", "--", "srv", "-x", "y z"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(cfg.server, []string{"srv", "-x", "y z"}) || !slices.Equal(cfg.opts.Measures, []string{measureRTT, measureCold}) || cfg.opts.K != 4 {
		t.Errorf("got %q %v %d", cfg.server, cfg.opts.Measures, cfg.opts.K)
	}
	cfg, err = parseConfig([]string{"-payload-args", `{"path":"big"}`, "-server", "srv"}, io.Discard)
	if err != nil || !cfg.opts.has(measurePayload) {
		t.Errorf("payload not measured with -payload-args: %v %v", cfg.opts.Measures, err)
	}

	for _, bad := range [][]string{
		{},
		{"-server", "a", "--", "b"},
		{"-server", "a", "-only", "rtt,bogus"},
		{"-server", "a", "-only", "payload"},
		{"-server", "a", "-n", "0"},
		{"-server", "a", "-k", "0"},
		{"-server", "a", "-args", "[1]"},
		{"-server", "a", "-cpu", "x"},
		{"-nosuchflag"},
	} {
		if _, err := parseConfig(bad, io.Discard); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestParseCPUList(t *testing.T) {
	for list, want := range map[string][]int{"0": {0}, "0-2,5": {0, 1, 2, 5}, "3,1,1": {1, 3}} {
		got, err := parseCPUList(list)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("%q: %v %v", list, got, err)
		}
	}
	for _, bad := range []string{"", "a", "2-1", "-1", "1,"} {
		if _, err := parseCPUList(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	cpus, list, err := pin("", nil)
	if err != nil || len(cpus) == 0 || list == "" {
		t.Errorf("pin without -cpu: %v %q %v", cpus, list, err)
	}
}

// TestRealMain runs the command end to end on the fake server, with the
// table and with -json, and with a bad command line.
func TestRealMain(t *testing.T) {
	t.Setenv(fakeEnv, "ok") // the echo child ignores it: "echo" comes first
	k, v, _ := strings.Cut(quickExit(), "=")
	t.Setenv(k, v)
	args := []string{"-q", "-n", "20", "-warmup", "2", "-round", "5", "-cold", "2", "-calls", "100", "-k", "4", "-rounds", "2", "--", os.Args[0]}
	var out, errOut bytes.Buffer
	if code := realMain(args, &out, &errOut); code != 0 {
		t.Fatalf("exit %d, stderr: %s", code, errOut.String())
	}
	for _, want := range []string{"rtt median", "cold median", "calls/s (K=4)", "max RSS"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}

	out.Reset()
	if code := realMain(append([]string{"-json", "-only", "rtt"}, args...), &out, &errOut); code != 0 {
		t.Fatalf("exit %d, stderr: %s", code, errOut.String())
	}
	var rep Report
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	if len(rep.Rows) != 3 || rep.Results.RTT == nil || rep.Targets[1] != "echo" {
		t.Errorf("report %+v", rep)
	}

	errOut.Reset()
	if code := realMain([]string{"-n", "x"}, &out, &errOut); code != 2 || !strings.Contains(errOut.String(), "Usage") {
		t.Errorf("bad flag: exit %d, stderr %s", code, errOut.String())
	}
	if code := realMain([]string{"-h"}, &out, io.Discard); code != 0 {
		t.Errorf("-h: exit %d", code)
	}
}
