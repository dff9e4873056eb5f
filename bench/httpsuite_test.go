//go:build !windows

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// smallHTTPSuite returns an HTTP suite run on the fake HTTP server (as
// toolserver and as the go-sdk peer) and the floor of the test binary,
// with tiny counts, and the two servers' addresses.
func smallHTTPSuite(t *testing.T) (config, [2]string) {
	t.Helper()
	root := filepath.Join(t.TempDir(), "suite")
	t.Setenv(fakeEnv, fakeHTTP) // the floor child ignores it: its subcommand comes first
	t.Setenv(fakeRootEnv, root)
	k, v, _ := strings.Cut(quickExit(), "=")
	t.Setenv(k, v)
	var addrs [2]string
	for i := range addrs {
		a, err := freeLoopbackAddr()
		if err != nil {
			t.Fatal(err)
		}
		addrs[i] = a
	}
	cfg, err := parseConfig([]string{"-suite", suiteHTTP, "-root", root,
		"-server", os.Args[0] + " --root " + root + " -http " + addrs[0] + " --max-repeats -1",
		"-sdk", os.Args[0] + " -root " + root + " -http " + addrs[1],
		"-n", "20", "-warmup", "2", "-round", "5", "-calls", "64", "-k", "4", "-rounds", "2", "-stall", "20s"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	return cfg, addrs
}

// listening reports whether something accepts connections at addr.
func listening(addr string) bool {
	c, err := net.DialTimeout("tcp", addr, time.Second)
	if err == nil {
		c.Close()
	}
	return err == nil
}

// TestHTTPSuiteMeasuresTheThreeServers runs the HTTP suite once, small,
// and checks that each measure has the figures of the three targets, that
// the JSON and the table come out, and that the servers are gone after.
func TestHTTPSuiteMeasuresTheThreeServers(t *testing.T) {
	cfg, addrs := smallHTTPSuite(t)
	cfg.json = true
	cfg.opts.RoundWarm = 0 // so that the calls can be counted
	var out, errOut bytes.Buffer
	if code := suiteMain(cfg, os.Args[0], "0", true, &out, &errOut); code != 0 {
		t.Fatalf("exit %d, stderr: %s", code, errOut.String())
	}
	var rep SuiteReport
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	f := rep.HTTP
	if f == nil || rep.Figures != nil {
		t.Fatalf("figures %+v, HTTP figures %+v", rep.Figures, f)
	}
	labels := []string{labelServer, labelSDK, labelFloor}
	for _, label := range labels {
		if s := f.Read1K[label]; s.N != 20 || s.Median <= 0 || s.P90 < s.Median || s.P99 < s.P90 {
			t.Errorf("round trips of %s: %+v", label, s)
		}
		if f.CallsPerSec[label] <= 0 || f.CPUPerCall[label] <= 0 || f.PeakRSSMiB[label] <= 0 || f.AnswerBytes[label] <= 1<<10 {
			t.Errorf("%s: %.0f calls/s, %.1f µs of CPU a call, %.1f MiB, answers of %d bytes",
				label, f.CallsPerSec[label], f.CPUPerCall[label], f.PeakRSSMiB[label], f.AnswerBytes[label])
		}
		// The probe, the warm-up calls and the round trips, and the
		// warm-up calls and the calls in flight.
		if want := int64(1 + 2 + 20 + 2 + 64); f.Answers[label] != want {
			t.Errorf("%s answered %d calls, want %d", label, f.Answers[label], want)
		}
	}
	if f.URL[labelServer] != "http://"+addrs[0]+"/mcp" || f.URL[labelSDK] != "http://"+addrs[1]+"/mcp" || !strings.HasPrefix(f.URL[labelFloor], "http://127.0.0.1:") {
		t.Errorf("urls %v", f.URL)
	}
	if len(rep.Rows) != 6 || len(rep.Rows[0].Checks) != 1 || len(rep.Rows[3].Checks) != 1 {
		t.Errorf("rows %+v", rep.Rows)
	}
	for _, addr := range append(addrs[:], strings.TrimSuffix(strings.TrimPrefix(f.URL[labelFloor], "http://"), "/mcp")) {
		if listening(addr) {
			t.Errorf("a server still listens at %s", addr)
		}
	}

	out.Reset()
	if err := writeHTTPTable(&out, rep); err != nil {
		t.Fatal(err)
	}
	table := out.String()
	for _, want := range []string{"read_file 1 KiB over HTTP, round trip p50", "round trip p99", "calls/s with 4 in flight", "server CPU time a call, 4 in flight", "go-sdk ÷ floor",
		"≤0.5x go-sdk", "≥6x go-sdk", "# floor: " + os.Args[0] + " httpfloor (http://127.0.0.1:", "calls=64 k=4 rounds=2"} {
		if !strings.Contains(table, want) {
			t.Errorf("table lacks %q:\n%s", want, table)
		}
	}
}

// TestHTTPSuiteStopsOnAWrongAnswer: servers given another root than the
// suite's cannot read its file, and the run says so and stops them.
func TestHTTPSuiteStopsOnAWrongAnswer(t *testing.T) {
	cfg, addrs := smallHTTPSuite(t)
	t.Setenv(fakeRootEnv, t.TempDir())
	var out, errOut bytes.Buffer
	if code := suiteMain(cfg, os.Args[0], "0", true, &out, &errOut); code != 1 || !strings.Contains(errOut.String(), "no such file") {
		t.Errorf("exit %d, stderr: %s", code, errOut.String())
	}
	for _, addr := range addrs {
		if listening(addr) {
			t.Errorf("a server still listens at %s", addr)
		}
	}
}

// TestHTTPSuiteRefusesABusyPort: with something listening at a server's
// address already, toolbench would measure that, so it stops.
func TestHTTPSuiteRefusesABusyPort(t *testing.T) {
	cfg, addrs := smallHTTPSuite(t)
	ln, err := net.Listen("tcp", addrs[1])
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var out, errOut bytes.Buffer
	if code := suiteMain(cfg, os.Args[0], "0", true, &out, &errOut); code != 1 || !strings.Contains(errOut.String(), "already listens at "+addrs[1]) {
		t.Errorf("exit %d, stderr: %s", code, errOut.String())
	}
	if listening(addrs[0]) {
		t.Errorf("toolserver still listens at %s", addrs[0])
	}
}

// TestHTTPTargetThatExitsAtStart: a server that fails before it listens
// is reported with what it said.
func TestHTTPTargetThatExitsAtStart(t *testing.T) {
	addr, err := freeLoopbackAddr()
	if err != nil {
		t.Fatal(err)
	}
	spec := Spec{Label: labelServer, Argv: []string{"sh", "-c", "echo cannot serve >&2; exit 3"}}
	_, err = startHTTPTarget(context.Background(), spec, addr, httpReadName, []byte("x"), 1, 20*time.Second)
	if err == nil || !strings.Contains(err.Error(), "exited before it listened") || !strings.Contains(err.Error(), "cannot serve") {
		t.Errorf("error %v", err)
	}
}

func TestHTTPAddrOf(t *testing.T) {
	for _, tc := range []struct {
		argv []string
		want string // "" for an error
	}{
		{[]string{"ts", "--root", "d", "--http", "127.0.0.1:8090", "--max-repeats", "-1"}, "127.0.0.1:8090"},
		{[]string{"sdk", "-root", "d", "-http=[::1]:8091"}, "[::1]:8091"},
		{[]string{"ts", "--http", "127.0.0.1:1", "--http", "localhost:2"}, "localhost:2"}, // the last wins, as in package flag
		{[]string{"ts", "--root", "d"}, ""},
		{[]string{"ts", "--http"}, ""},
		{[]string{"ts", "--http", "127.0.0.1:0"}, ""},
		{[]string{"ts", "--http", ":8090"}, ""},
		{[]string{"ts", "--http", "localhost"}, ""},
		{[]string{"ts", "http", "127.0.0.1:8090"}, ""},
		{[]string{"--http", "127.0.0.1:8090"}, ""}, // the program's name is no flag
	} {
		got, err := httpAddrOf(tc.argv)
		if got != tc.want || (err == nil) != (tc.want != "") {
			t.Errorf("%q: %q, %v; want %q", tc.argv, got, err, tc.want)
		}
	}
}

func TestParseHTTPSuiteConfig(t *testing.T) {
	base := []string{"-suite", "http", "-root", "d"}
	server, sdk := "ts --root d --http 127.0.0.1:8090", "sdk -root d -http 127.0.0.1:8091"
	cfg, err := parseConfig(append(base, "-server", server, "-sdk", sdk), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.suite != suiteHTTP || cfg.opts.RoundWarm != suiteRoundWarm || cfg.opts.K != defaultK {
		t.Errorf("config %+v", cfg)
	}
	for _, bad := range [][]string{
		append(base, "-server", "ts --root d", "-sdk", sdk),
		append(base, "-server", server, "-sdk", "sdk -root d"),
		append(base, "-server", server, "-sdk", "sdk -http 127.0.0.1:8090"),
		append(base, "-server", "ts --http 127.0.0.1:0", "-sdk", sdk),
		append(base, "-server", server),
		append(base, "-server", server, "-sdk", sdk, "-cold", "3"),
		append(base, "-server", server, "-sdk", sdk, "-list-n", "3"),
		append(base, "-server", server, "-sdk", sdk, "-tool", "calc"),
		{"-suite", "http", "-server", server, "-sdk", sdk},
	} {
		if _, err := parseConfig(bad, io.Discard); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	_, err = parseConfig([]string{"-suite", "nope", "-root", "d", "-server", server, "-sdk", sdk}, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "peers or http") {
		t.Errorf("unknown suite: %v", err)
	}
}

// TestHTTPFloorAnswersTheText posts to the floor's handler and reads back
// the text, escaped and all, as a tools/call result.
func TestHTTPFloorAnswersTheText(t *testing.T) {
	text := "line \"one\"\n\ttab \\ é \u2028 end\n"
	ts := httptest.NewServer(httpFloorHandler([]byte(text)))
	defer ts.Close()
	for range 2 { // on one connection
		resp, err := ts.Client().Post(ts.URL, "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":9}`))
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/json" || resp.ContentLength != int64(len(body)) {
			t.Fatalf("status %d, %v, %v: %s", resp.StatusCode, resp.Header, err, body)
		}
		if got, err := resultText(body, false); err != nil || got != text {
			t.Errorf("text %q, %v", got, err)
		}
	}
}

// TestCheckAnswer holds the check of every answer to its cases: only a
// 200 carrying the text, and from a server the call's id, a result and no
// error, passes.
func TestCheckAnswer(t *testing.T) {
	text := []byte("the \"text\"\n")
	server := &httpTarget{spec: Spec{Label: labelServer}, want: []byte(`the \"text\"\n`)}
	floor := &httpTarget{spec: Spec{Label: labelFloor, Floor: true}, want: server.want}
	answer := func(id, result string) []byte {
		return []byte(`{"jsonrpc":"2.0","id":` + id + `,"result":` + result + `}`)
	}
	good := `{"content":[{"type":"text","text":` + string(appendJSONString(nil, text)) + `}]}`
	for _, tc := range []struct {
		name   string
		h      *httpTarget
		status int
		body   []byte
		ok     bool
	}{
		{"the answer", server, 200, answer("7", good), true},
		{"another status", server, 500, answer("7", good), false},
		{"another id", server, 200, answer("8", good), false},
		{"no id", server, 200, []byte(`{"jsonrpc":"2.0","result":` + good + `}`), false},
		{"a tool error", server, 200, answer("7", `{"isError":true,"content":[{"type":"text","text":"the \"text\"\n"}]}`), false},
		{"a JSON-RPC error", server, 200, []byte(`{"jsonrpc":"2.0","id":7,"error":{"code":-32603,"message":"the \"text\"\n"}}`), false},
		{"no text", server, 200, answer("7", `{"content":[{"type":"text","text":"other"}]}`), false},
		{"the floor's fixed id", floor, 200, answer("1", good), true},
		{"the floor without the text", floor, 200, answer("1", `{}`), false},
	} {
		if err := tc.h.checkAnswer(tc.status, tc.body, 7); (err == nil) != tc.ok {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
}

// TestHTTPRowsJudgeTheGoals holds the table to the goals on figures made
// up for it, and its notes to where the floor leaves each goal.
func TestHTTPRowsJudgeTheGoals(t *testing.T) {
	us := func(p50, p90 float64) Summary {
		return Summary{N: 1, Median: time.Duration(p50 * 1e3), P90: time.Duration(p90 * 1e3), P99: time.Duration(2 * p90 * 1e3)}
	}
	for _, tc := range []struct {
		name              string
		read              map[string]Summary
		rate              map[string]float64
		met               []bool
		p50Note, rateNote string
	}{
		{"the goals within reach, met",
			map[string]Summary{labelServer: us(40, 50), labelSDK: us(100, 150), labelFloor: us(30, 35)},
			map[string]float64{labelServer: 60e3, labelSDK: 10e3, labelFloor: 90e3},
			[]bool{true, true},
			"leaves 20.0µs above the floor's 30.0µs for a server's own work; above the floor, toolserver adds 10.0µs and go-sdk 70.0µs (0.14x)",
			"the floor makes 90.0k calls/s, 9.0x go-sdk's; the goal, ≥60.0k, is 0.67 of the floor's"},
		{"the goals beyond the floor, not met",
			map[string]Summary{labelServer: us(70, 80), labelSDK: us(100, 150), labelFloor: us(60, 65)},
			map[string]float64{labelServer: 40e3, labelSDK: 10e3, labelFloor: 50e3},
			[]bool{false, false},
			"the goal, ≤50.0µs (0.5x go-sdk's 100.0µs), is below the floor's 60.0µs, what a bare net/http round trip costs here: no server can meet it on this machine",
			"the goal, ≥60.0k calls/s (6x go-sdk's 10.0k), is above the floor's 50.0k: no server can meet it on this machine; time a call beyond the floor's: toolserver 5.0µs, go-sdk 80.0µs"},
	} {
		f := &HTTPFigures{Read1K: tc.read, CallsPerSec: tc.rate,
			CPUPerCall: map[string]float64{labelServer: 30, labelSDK: 120, labelFloor: 10},
			PeakRSSMiB: map[string]float64{labelServer: 12, labelSDK: 14, labelFloor: 8}}
		rows := httpRows(f, Options{K: 16})
		var met []bool
		for _, r := range rows {
			for _, c := range r.Checks {
				met = append(met, c.Met)
			}
		}
		if !slices.Equal(met, tc.met) {
			t.Errorf("%s: met %v, want %v", tc.name, met, tc.met)
		}
		if !strings.Contains(rows[0].Note, tc.p50Note) || !strings.Contains(rows[3].Note, tc.rateNote) {
			t.Errorf("%s: notes\n%s\n%s", tc.name, rows[0].Note, rows[3].Note)
		}
		var out bytes.Buffer
		if err := writeHTTPTable(&out, SuiteReport{Rows: rows, Options: Options{K: 16}}); err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"round trip p90", "calls/s with 16 in flight", "peak RSS after the calls", "12.0MiB", "go-sdk ÷ floor",
			"server CPU time a call, 16 in flight 30.0µs 120.0µs 10.0µs 0.25x 3.00x 12.00x"} {
			if !strings.Contains(strings.Join(strings.Fields(out.String()), " "), want) {
				t.Errorf("%s: table lacks %q:\n%s", tc.name, want, out.String())
			}
		}
	}
}
