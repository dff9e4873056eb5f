package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// runSlow runs the agent against the slow test server; it returns the
// outcome and when each call ran, by the call's name.
func runSlow(t *testing.T, chunk int, steps string, extra ...string) (outcome, map[string]*span) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(t.TempDir(), "calls.log")
	o := runAgent(t, chunk, steps, self+" -slowtools "+log, extra...)
	return o, spans(slowLog(t, log))
}

// slow writes a scripted call of a slow tool.
func slow(tool, name string, ms int, more ...string) string {
	extra := ""
	for _, m := range more {
		extra += ", " + m
	}
	return fmt.Sprintf(`{"name": "slow_%s", "arguments": {"name": %q, "ms": %d%s}}`, tool, name, ms, extra)
}

// turnOf is a script step holding calls.
func turnOf(calls ...string) string {
	return `{"tool_calls": [` + strings.Join(calls, ", ") + `]}`
}

// toolAnswers returns the tool messages that answer the assistant message
// at index i of the request, checking that they answer its calls in order.
func toolAnswers(t *testing.T, req chatRequest, i int) []string {
	t.Helper()
	asked := req.Messages[i]
	var out []string
	for k, c := range asked.ToolCalls {
		m := req.Messages[i+1+k]
		if m.Role != "tool" || m.ToolCallID != c.ID {
			t.Fatalf("message %d answers %q (%s), want call %q", i+1+k, m.ToolCallID, m.Role, c.ID)
		}
		out = append(out, content(m))
	}
	return out
}

func TestReadsRunTogetherAndWritesOneAtATimeInOrder(t *testing.T) {
	forEachChunkSize(t, func(t *testing.T, chunk int) {
		o, runs := runSlow(t, chunk, `[`+turnOf(slow("read", "r1", 400), slow("read", "r2", 400), slow("read", "r3", 400),
			slow("write", "w1", 200), slow("read", "r4", 300), slow("write", "w2", 200))+`, {"content": "done"}]`)
		if o.code != exitOK {
			t.Fatalf("exit %d; stderr:\n%s", o.code, o.stderr)
		}
		for _, name := range []string{"r1", "r2", "r3", "w1", "r4", "w2"} {
			if runs[name] == nil || runs[name].runs != 1 {
				t.Fatalf("%s did not run exactly once: %+v", name, runs[name])
			}
		}
		r1, r2, r3, w1, r4, w2 := runs["r1"], runs["r2"], runs["r3"], runs["w1"], runs["r4"], runs["w2"]
		// The three reads overlap: each started before any ended.
		latestStart := maxTime(r1.start, r2.start, r3.start)
		if !latestStart.Before(minTime(r1.stop, r2.stop, r3.stop)) {
			t.Errorf("the reads did not run together: %v", describe(runs, "r1", "r2", "r3"))
		}
		// The first write waits for every call before it; what follows it
		// waits for it; the second write waits for the read between.
		if w1.start.Before(maxTime(r1.stop, r2.stop, r3.stop)) || r4.start.Before(w1.stop) || w2.start.Before(r4.stop) {
			t.Errorf("the writes are not barriers: %v", describe(runs, "r1", "r2", "r3", "w1", "r4", "w2"))
		}
		answers := toolAnswers(t, o.requests[1], 1)
		for i, name := range []string{"r1", "r2", "r3", "w1", "r4", "w2"} {
			if !strings.Contains(answers[i], `"name":"`+name+`"`) {
				t.Errorf("answer %d is %q, want %s's", i+1, answers[i], name)
			}
		}
	})
}

func maxTime(ts ...time.Time) time.Time {
	m := ts[0]
	for _, t := range ts[1:] {
		if t.After(m) {
			m = t
		}
	}
	return m
}

func minTime(ts ...time.Time) time.Time {
	m := ts[0]
	for _, t := range ts[1:] {
		if t.Before(m) {
			m = t
		}
	}
	return m
}

// describe writes when the named calls ran, relative to the first start.
func describe(runs map[string]*span, names ...string) string {
	var t0 time.Time
	for _, n := range names {
		if s := runs[n]; s != nil && (t0.IsZero() || s.start.Before(t0)) {
			t0 = s.start
		}
	}
	var parts []string
	for _, n := range names {
		if s := runs[n]; s != nil {
			parts = append(parts, fmt.Sprintf("%s %v–%v", n, s.start.Sub(t0).Round(time.Millisecond), s.stop.Sub(t0).Round(time.Millisecond)))
		}
	}
	return strings.Join(parts, ", ")
}

func TestAnswersComeBackInTheModelsOrderWhateverOrderTheyFinishIn(t *testing.T) {
	o, runs := runSlow(t, 64, `[`+turnOf(slow("read", "slowest", 600), slow("read", "middle", 300), slow("read", "fastest", 0))+`, {"content": "done"}]`)
	if o.code != exitOK {
		t.Fatalf("exit %d; stderr:\n%s", o.code, o.stderr)
	}
	if !runs["fastest"].stop.Before(runs["slowest"].stop) {
		t.Logf("the calls finished in the model's order this time: %v", describe(runs, "slowest", "middle", "fastest"))
	}
	answers := toolAnswers(t, o.requests[1], 1)
	for i, name := range []string{"slowest", "middle", "fastest"} {
		if !strings.Contains(answers[i], `"name":"`+name+`"`) {
			t.Errorf("answer %d is %q, want %s's", i+1, answers[i], name)
		}
	}
}

func TestIdenticalCallsInOneTurnRunOnce(t *testing.T) {
	forEachChunkSize(t, func(t *testing.T, chunk int) {
		o, runs := runSlow(t, chunk, `[`+turnOf(
			slow("read", "a", 100),
			`{"name": "slow_read", "arguments": {"ms": 100, "name": "a"}}`, // the same, written otherwise
			slow("write", "w", 100),
			slow("write", "w", 100),
			slow("read", "a", 100), // a write came between: it runs again
		)+`, {"content": "done"}]`)
		if o.code != exitOK {
			t.Fatalf("exit %d; stderr:\n%s", o.code, o.stderr)
		}
		if runs["a"].runs != 2 || runs["w"].runs != 1 {
			t.Errorf("a ran %d times (want 2: before and after the write), w %d (want 1)", runs["a"].runs, runs["w"].runs)
		}
		answers := toolAnswers(t, o.requests[1], 1)
		ids := o.requests[1].Messages[1].ToolCalls
		if !strings.HasPrefix(answers[1], "Same call as "+ids[0].ID+", run once; its result:\n") || !strings.Contains(answers[1], `"name":"a"`) {
			t.Errorf("the repeat's answer: %q", answers[1])
		}
		if !strings.HasPrefix(answers[3], "Same call as "+ids[2].ID) || strings.HasPrefix(answers[4], "Same call") {
			t.Errorf("answers: %q", answers)
		}
		if !strings.Contains(o.stderr, "[2] = slow_read(") || !strings.Contains(o.stderr, "repeat of [1]") {
			t.Errorf("the repeat is not shown:\n%s", o.stderr)
		}
	})
}

func TestAFailingCallDoesNotStopTheOthers(t *testing.T) {
	o, runs := runSlow(t, 7, `[`+turnOf(slow("read", "a", 200), slow("read", "b", 100, `"fail": true`), slow("write", "w", 100), slow("read", "c", 100))+`, {"content": "done"}]`)
	if o.code != exitOK {
		t.Fatalf("exit %d; stderr:\n%s", o.code, o.stderr)
	}
	for _, name := range []string{"a", "b", "w", "c"} {
		if runs[name] == nil || runs[name].runs != 1 {
			t.Errorf("%s did not run once", name)
		}
	}
	answers := toolAnswers(t, o.requests[1], 1)
	if !strings.HasPrefix(answers[1], "Error: ") || !strings.Contains(answers[1], "b failed, as asked") {
		t.Errorf("the failure reads %q", answers[1])
	}
	for _, i := range []int{0, 2, 3} {
		if strings.HasPrefix(answers[i], "Error") {
			t.Errorf("answer %d: %q", i+1, answers[i])
		}
	}
	if !strings.Contains(o.stderr, "[2] ✗ b failed, as asked") {
		t.Errorf("the failure is not shown:\n%s", o.stderr)
	}
}

func TestACutInTheThirdOfFourCallsKeepsTheFirstTwo(t *testing.T) {
	forEachChunkSize(t, func(t *testing.T, chunk int) {
		o, runs := runSlow(t, chunk, `[
			{"tool_calls": [`+slow("read", "a", 100)+`, `+slow("write", "b", 100)+`, `+slow("read", "c", 100)+`, `+slow("read", "d", 100)+`], "cut_in_call": 3},
			`+turnOf(slow("read", "c", 100), slow("read", "d", 100))+`,
			{"content": "done"}]`)
		if o.code != exitOK {
			t.Fatalf("exit %d; stderr:\n%s", o.code, o.stderr)
		}
		for _, name := range []string{"a", "b", "c", "d"} {
			if runs[name] == nil || runs[name].runs != 1 {
				t.Fatalf("%s did not run exactly once: %v", name, describe(runs, "a", "b", "c", "d"))
			}
		}
		// a and b ran in the first turn, c and d only after the model sent
		// them again.
		if !runs["c"].start.After(runs["b"].stop) || !runs["c"].start.After(o.ended[0]) {
			t.Errorf("c ran before it was sent again: %v", describe(runs, "a", "b", "c", "d"))
		}
		msgs := o.requests[1].Messages
		if len(msgs) != 5 || len(msgs[1].ToolCalls) != 2 {
			t.Fatalf("the second request holds %d messages, the assistant's turn %d calls", len(msgs), len(msgs[1].ToolCalls))
		}
		answers := toolAnswers(t, o.requests[1], 1)
		if !strings.Contains(answers[0], `"name":"a"`) || !strings.Contains(answers[1], `"name":"b"`) {
			t.Errorf("answers %q", answers)
		}
		notice := content(msgs[4])
		want := `Your call 3 (slow_read) did not run: it was cut off at /name. Send it again, whole, with any calls meant to follow it. Its arguments so far were: {"name":"c`
		if msgs[4].Role != "user" || !strings.HasPrefix(notice, want) || !strings.HasSuffix(notice, "\nYour other calls were answered above.") {
			t.Errorf("the notice reads %q, want it to begin %q", notice, want)
		}
	})
}

func TestATypeMismatchIsShownWhileTheCallStreams(t *testing.T) {
	forEachChunkSize(t, func(t *testing.T, chunk int) {
		o, runs := runSlow(t, chunk, `[`+turnOf(slow("read", "a", 100), `{"name": "slow_read", "arguments": {"name": "b", "ms": "ten", "fail": false}}`, slow("read", "c", 100))+`, {"content": "done"}]`)
		if o.code != exitOK {
			t.Fatalf("exit %d; stderr:\n%s", o.code, o.stderr)
		}
		if runs["b"] != nil || runs["a"] == nil || runs["c"] == nil {
			t.Errorf("b must not run, a and c must: %v", describe(runs, "a", "b", "c"))
		}
		note := "· call 2, slow_read: /ms: a string was given where an integer is required."
		i, refused, third := strings.Index(o.stderr, note), strings.Index(o.stderr, "[2] ✗"), strings.Index(o.stderr, "[3] → slow_read")
		if i < 0 || refused < 0 || third < 0 || i > refused || i > third || strings.Count(o.stderr, note) != 1 {
			t.Errorf("the mismatch must be shown once, before the call closes and the next starts:\n%s", o.stderr)
		}
		answers := toolAnswers(t, o.requests[1], 1)
		if !strings.HasPrefix(answers[1], "Not run: the arguments do not match the schema of slow_read. /ms: a string was given where an integer is required.") {
			t.Errorf("the refusal reads %q", answers[1])
		}
	})
}

func TestWithCheckWarnAMismatchIsShownAndTheServerDecides(t *testing.T) {
	o := runScript(t, 7, `[
		{"tool_calls": [{"name": "read_file", "arguments": {"path": "notes/todo.txt", "head": "1"}}]},
		{"content": "done"}]`, "--check", "warn")
	if o.code != exitOK {
		t.Fatalf("exit %d; stderr:\n%s", o.code, o.stderr)
	}
	if !strings.Contains(o.stderr, "· call 1, read_file: /head: a string was given where an integer is required.") {
		t.Errorf("the mismatch is not shown:\n%s", o.stderr)
	}
	// toolserver turns "1" into 1: the first line of the file comes back.
	if answers := toolAnswers(t, o.requests[1], 1); !strings.Contains(answers[0], "buy milk") || strings.Contains(answers[0], "fence") {
		t.Errorf("the call's answer: %q", answers[0])
	}
}

func TestReadsStartWhileTheModelIsStillTalkingAndWritesWaitForItsEnd(t *testing.T) {
	pause := func(call string) string { return strings.TrimSuffix(call, "}") + `, "pause_ms": 600}` }
	o, runs := runSlow(t, 64, `[`+turnOf(pause(slow("read", "early", 100)), pause(slow("write", "w", 100)), slow("read", "after", 100))+`, {"content": "done"}]`)
	if o.code != exitOK {
		t.Fatalf("exit %d; stderr:\n%s", o.code, o.stderr)
	}
	end := o.ended[0]
	if !runs["early"].stop.Before(end) {
		t.Errorf("the first read must be done before the reply ends (600 ms after it), it ran %v–%v before the end",
			end.Sub(runs["early"].start), end.Sub(runs["early"].stop))
	}
	if runs["w"].start.Before(end) || runs["after"].start.Before(runs["w"].stop) {
		t.Errorf("the write must wait for the reply's end, and the read after it for the write: %v", describe(runs, "early", "w", "after"))
	}
}

func TestSafeToolsNamedByTheUserRunInParallel(t *testing.T) {
	o, runs := runSlow(t, 64, `[`+turnOf(slow("write", "w1", 400), slow("write", "w2", 400))+`, {"content": "done"}]`, "--safe-tools", "slow_write,other")
	if o.code != exitOK {
		t.Fatalf("exit %d; stderr:\n%s", o.code, o.stderr)
	}
	if !maxTime(runs["w1"].start, runs["w2"].start).Before(minTime(runs["w1"].stop, runs["w2"].stop)) {
		t.Errorf("the writes the user made safe did not run together: %v", describe(runs, "w1", "w2"))
	}
}

func TestTheReadToolsOfToolserverAreMarkedReadOnly(t *testing.T) {
	root := playground(t)
	var errb lockedBuffer
	srv, err := startMCP(t.Context(), []string{toolserverBin, "--root", root, "--log-level", "error"}, &errb, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.close()
	list, err := srv.listTools(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"read_file": true, "list_directory": true, "get_file_info": true, "calc": true, "search_files": true, "write_file": false, "edit_file": false}
	for _, tool := range list {
		if ro, ok := want[tool.Name]; ok {
			if tool.Annotations.ReadOnlyHint != ro {
				t.Errorf("%s: readOnlyHint %v, want %v", tool.Name, tool.Annotations.ReadOnlyHint, ro)
			}
			delete(want, tool.Name)
		}
	}
	if len(want) > 0 {
		t.Errorf("tools not listed: %v", want)
	}
}

func TestAMixedTurnAgainstToolserverReadsWhatItsWriteWrote(t *testing.T) {
	forEachChunkSize(t, func(t *testing.T, chunk int) {
		o := runScript(t, chunk, `[
			{"tool_calls": [
				{"name": "read_file", "arguments": {"path": "notes/todo.txt"}},
				{"name": "list_directory", "arguments": {"path": "notes"}},
				{"name": "write_file", "arguments": {"path": "notes/new.txt", "content": "written in the turn"}},
				{"name": "read_file", "arguments": {"path": "notes/new.txt"}},
				{"name": "read_file", "arguments": {"path": "notes/todo.txt"}},
				{"name": "read_file", "arguments": {"path": "notes/todo.txt", "head": "3"}}
			]},
			{"content": "done"}]`)
		if o.code != exitOK {
			t.Fatalf("exit %d; stderr:\n%s", o.code, o.stderr)
		}
		answers := toolAnswers(t, o.requests[1], 1)
		if strings.Contains(answers[1], "new.txt") {
			t.Errorf("the listing before the write must not see its file: %q", answers[1])
		}
		if !strings.Contains(answers[3], "written in the turn") {
			t.Errorf("the read after the write: %q", answers[3])
		}
		if !strings.Contains(answers[0], "buy milk") || strings.HasPrefix(answers[4], "Same call") {
			t.Errorf("a read after a write is no repeat of one before it: %q", answers[4])
		}
		if !strings.HasPrefix(answers[5], "Not run: the arguments do not match the schema of read_file.") {
			t.Errorf("the mistyped call: %q", answers[5])
		}
	})
}
