package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stdiotools/toolserver/internal/testbin"
)

// toolserverBin is toolserver, built once for the tests: the loop runs
// against the real server.
var toolserverBin string

func TestMain(m *testing.M) {
	if len(os.Args) == 3 && os.Args[1] == "-slowtools" {
		if err := serveSlowTools(os.Args[2]); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	bin, cleanup, err := testbin.Build("../toolserver", "toolserver")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	toolserverBin = bin
	code := m.Run()
	cleanup()
	os.Exit(code)
}

// playground copies the sample tree to a fresh folder the test may change.
func playground(t *testing.T) string {
	t.Helper()
	dst := t.TempDir()
	src := "../../testdata/playground"
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// outcome is what one run of the agent produced.
type outcome struct {
	code     int
	stdout   string
	stderr   string
	requests []chatRequest
	root     string
	ended    []time.Time // when the stream of each answer was written out
	received []time.Time // when each request reached the model
}

// runScript runs the agent against the real toolserver and a fake
// OpenAI-compatible server streaming steps, cut every chunk bytes.
func runScript(t *testing.T, chunk int, steps string, extra ...string) outcome {
	t.Helper()
	root := playground(t)
	o := runAgent(t, chunk, steps, toolserverBin+" --root "+root+" --log-level error", extra...)
	o.root = root
	return o
}

// runAgent runs the agent against the MCP server command and a fake
// OpenAI-compatible server streaming steps, cut every chunk bytes.
func runAgent(t testing.TB, chunk int, steps string, serverCmd string, extra ...string) outcome {
	t.Helper()
	var parsed []scriptStep
	if err := json.Unmarshal([]byte(steps), &parsed); err != nil {
		t.Fatalf("bad script: %v", err)
	}
	ss := &scriptServer{Steps: parsed, ChunkBytes: chunk}
	if chunk%2 == 0 {
		ss.LineEnd = "\r\n"
	}
	hs := httptest.NewServer(ss)
	defer hs.Close()
	env := map[string]string{"OPENAI_COMPATIBLE_BASE_URL": hs.URL + "/v1", "OPENAI_COMPATIBLE_API_KEY": "k", "MODEL": "m"}
	var out bytes.Buffer
	var errb lockedBuffer // the server's stderr is copied in by another goroutine
	args := append([]string{"--server", serverCmd}, extra...)
	args = append(args, "do the task")
	code := run(context.Background(), args, func(k string) string { return env[k] }, &out, &errb, false)
	return outcome{code: code, stdout: out.String(), stderr: errb.String(), requests: ss.Requests(), ended: ss.Ended(), received: ss.Received()}
}

// chunkSizes are the byte counts the fake server cuts its streams into:
// one byte at a time, odd sizes that fall inside UTF-8 characters and
// "data:" prefixes, and a size larger than most events.
var chunkSizes = []int{1, 3, 7, 64, 4096}

func forEachChunkSize(t *testing.T, f func(t *testing.T, chunk int)) {
	for _, n := range chunkSizes {
		t.Run(fmt.Sprintf("chunks of %d bytes", n), func(t *testing.T) { f(t, n) })
	}
}

// lockedBuffer is a bytes.Buffer safe for concurrent writes.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func content(m message) string {
	if m.Content == nil {
		return ""
	}
	return *m.Content
}

func TestTheAgentListsReadsAndWritesASummary(t *testing.T) {
	forEachChunkSize(t, func(t *testing.T, chunk int) {
		o := runScript(t, chunk, `[
			{"content": "Let me look.", "tool_calls": [{"name": "list_directory", "arguments": {"path": "notes"}}]},
			{"tool_calls": [{"name": "read_file", "arguments": {"path": "notes/todo.txt"}},
			                {"name": "read_file", "arguments": {"path": "notes/poem.txt"}}]},
			{"tool_calls": [{"name": "write_file", "arguments": {"path": "summary.md", "content": "# 摘要\nA to-do list and 静夜思."}}]},
			{"content": "I wrote summary.md: a to-do list and a poem."}
		]`)
		if o.code != exitOK || strings.TrimSpace(o.stdout) != "I wrote summary.md: a to-do list and a poem." {
			t.Fatalf("exit %d, stdout %q, stderr:\n%s", o.code, o.stdout, o.stderr)
		}
		b, err := os.ReadFile(filepath.Join(o.root, "summary.md"))
		if err != nil || string(b) != "# 摘要\nA to-do list and 静夜思." {
			t.Fatalf("summary.md: %q %v", b, err)
		}
		if len(o.requests) != 4 {
			t.Fatalf("%d requests, want 4", len(o.requests))
		}
		// The third request carries the whole conversation so far: the
		// assistant's turn first, then one tool message per call, in order.
		msgs := o.requests[2].Messages
		roles := []string{}
		for _, m := range msgs {
			roles = append(roles, m.Role)
		}
		if got := strings.Join(roles, ","); got != "user,assistant,tool,assistant,tool,tool" {
			t.Fatalf("roles %s", got)
		}
		second := msgs[3]
		if len(second.ToolCalls) != 2 || msgs[4].ToolCallID != second.ToolCalls[0].ID || msgs[5].ToolCallID != second.ToolCalls[1].ID {
			t.Errorf("tool messages do not answer the calls in order: %+v", msgs[3:])
		}
		if !strings.Contains(content(msgs[4]), "buy milk") || !strings.Contains(content(msgs[5]), "床前明月光") {
			t.Errorf("tool results: %q %q", content(msgs[4]), content(msgs[5]))
		}
		if content(msgs[1]) != "Let me look." || msgs[1].ToolCalls[0].Function.Arguments != `{"path":"notes"}` {
			t.Errorf("assistant turn: %+v", msgs[1])
		}
		if len(o.requests[0].Tools) < 10 || !o.requests[0].Stream {
			t.Errorf("the request offers %d tools, stream %v", len(o.requests[0].Tools), o.requests[0].Stream)
		}
		if !strings.Contains(o.stderr, `→ read_file(path="notes/poem.txt")`) {
			t.Errorf("no progress line for the call; stderr:\n%s", o.stderr)
		}
	})
}

func TestTheAgentCountsThenDivides(t *testing.T) {
	o := runScript(t, 5, `[
		{"tool_calls": [{"name": "get_file_info", "arguments": {"path": "notes/todo.txt"}}]},
		{"tool_calls": [{"name": "calc", "arguments": {"expr": "58 / 4"}}]},
		{"content": "Each quarter is 14.5 bytes."}
	]`)
	if o.code != exitOK {
		t.Fatalf("exit %d; stderr:\n%s", o.code, o.stderr)
	}
	msgs := o.requests[2].Messages
	if !strings.Contains(content(msgs[2]), "58") || !strings.Contains(content(msgs[4]), `"value":"14.5"`) {
		t.Errorf("results %q and %q", content(msgs[2]), content(msgs[4]))
	}
}

func TestAFailingToolIsShownToTheModelWhichTriesAgain(t *testing.T) {
	o := runScript(t, 3, `[
		{"tool_calls": [{"name": "read_file", "arguments": {"path": "notes/todo.md"}}]},
		{"tool_calls": [{"name": "read_file", "arguments": {"path": "notes/todo.txt"}}]},
		{"content": "Found it."}
	]`)
	if o.code != exitOK {
		t.Fatalf("exit %d; stderr:\n%s", o.code, o.stderr)
	}
	first := content(o.requests[1].Messages[2])
	if !strings.HasPrefix(first, "Error: ") || !strings.Contains(first, "does not exist") {
		t.Errorf("the failure reads %q", first)
	}
	if !strings.Contains(content(o.requests[2].Messages[4]), "buy milk") {
		t.Errorf("the retry's result: %q", content(o.requests[2].Messages[4]))
	}
	if !strings.Contains(o.stderr, "✗") {
		t.Errorf("the failure is not shown:\n%s", o.stderr)
	}
}

func TestARepeatedCallStopsTheLoop(t *testing.T) {
	o := runScript(t, 7, `[
		{"tool_calls": [{"name": "calc", "arguments": {"expr": "1+1"}}]},
		{"tool_calls": [{"name": "calc", "arguments": {"expr" : "1+1"}}]},
		{"content": "never asked for"}
	]`)
	if o.code != exitStopped || !strings.Contains(o.stderr, "repeated its last calls") {
		t.Fatalf("exit %d; stderr:\n%s", o.code, o.stderr)
	}
	if len(o.requests) != 2 || strings.Count(o.stderr, "→ calc") != 1 {
		t.Errorf("%d requests; the repeat must not run:\n%s", len(o.requests), o.stderr)
	}
}

func TestATruncatedCallIsAskedForAgainOnce(t *testing.T) {
	forEachChunkSize(t, func(t *testing.T, chunk int) {
		o := runScript(t, chunk, `[
			{"tool_calls": [{"name": "read_file", "arguments_text": "{\"path\": \"notes/to"}], "finish_reason": "length"},
			{"tool_calls": [{"name": "read_file", "arguments": {"path": "notes/todo.txt"}}]},
			{"content": "buy milk, fix the fence, call Ana"}
		]`)
		if o.code != exitOK {
			t.Fatalf("exit %d; stderr:\n%s", o.code, o.stderr)
		}
		if len(o.requests) != 3 || len(o.requests[1].Messages) != len(o.requests[0].Messages)+1 {
			t.Fatalf("the retry must resend the conversation with one notice: %d requests", len(o.requests))
		}
		// The model learns what was parsed, and where it stopped.
		notice := o.requests[1].Messages[len(o.requests[1].Messages)-1]
		if notice.Role != "user" || !strings.Contains(content(notice), `cut off at /path. Send it again, whole, with any calls meant to follow it. Its arguments so far were: {"path": "notes/to`) {
			t.Errorf("the notice reads %q", content(notice))
		}
		if !strings.Contains(o.stderr, "cut off") {
			t.Errorf("the retry is not shown:\n%s", o.stderr)
		}
	})
}

func TestACallCutOffTwiceStopsTheLoop(t *testing.T) {
	o := runScript(t, 3, `[
		{"tool_calls": [{"name": "read_file", "arguments_text": "{\"path\": \"no"}], "cut": true},
		{"tool_calls": [{"name": "read_file", "arguments_text": "{\"path\": \"notes/"}], "finish_reason": "length"},
		{"content": "never asked for"}
	]`)
	if o.code != exitStopped || !strings.Contains(o.stderr, "cut off twice") || len(o.requests) != 2 {
		t.Fatalf("exit %d, %d requests; stderr:\n%s", o.code, len(o.requests), o.stderr)
	}
}

func TestTheStepLimitStopsTheLoop(t *testing.T) {
	o := runScript(t, 64, `[
		{"tool_calls": [{"name": "calc", "arguments": {"expr": "1+1"}}]},
		{"tool_calls": [{"name": "calc", "arguments": {"expr": "1+2"}}]},
		{"tool_calls": [{"name": "calc", "arguments": {"expr": "1+3"}}]}
	]`, "--max-steps", "2")
	if o.code != exitStopped || !strings.Contains(o.stderr, "step limit") || len(o.requests) != 2 {
		t.Fatalf("exit %d, %d requests; stderr:\n%s", o.code, len(o.requests), o.stderr)
	}
}

func TestCallsWrittenInTheTextAreFoundWithoutNativeToolCalls(t *testing.T) {
	o := runScript(t, 3, `[
		{"content": "I will compute it.\n`+"```json"+`\n{\"name\": \"calc\", \"arguments\": {\"expr\": \"2^70\"}}\n`+"```"+`"},
		{"content": "2^70 is 1180591620717411303424. A call of a tool that does not exist, such as {\"name\": \"nope\", \"arguments\": {}}, is an example, not a call."}
	]`, "--text-tools")
	if o.code != exitOK {
		t.Fatalf("exit %d; stderr:\n%s", o.code, o.stderr)
	}
	first := o.requests[0]
	if len(first.Tools) != 0 || !strings.Contains(content(first.Messages[0]), "calc:") {
		t.Errorf("text mode must describe the tools in the system message and offer none natively")
	}
	msgs := o.requests[1].Messages
	last := msgs[len(msgs)-1]
	if last.Role != "user" || !strings.Contains(content(last), "Result of calc") || !strings.Contains(content(last), "1180591620717411303424") {
		t.Errorf("the result goes back as a user message: %+v", last)
	}
}

func TestLongResultsAreTrimmedToTheBudget(t *testing.T) {
	got := trim(strings.Repeat("a", 300)+strings.Repeat("z", 300), 120)
	if !strings.HasPrefix(got, strings.Repeat("a", 80)+"\n[… 480 characters cut …]\n") || !strings.HasSuffix(got, strings.Repeat("z", 40)) {
		t.Errorf("trim: %q", got)
	}
	if trim("short", 120) != "short" {
		t.Error("a short result must not change")
	}
}

func TestUsageErrors(t *testing.T) {
	tests := []struct {
		args []string
		env  map[string]string
		want string
	}{
		{[]string{"--root", "x"}, nil, "no prompt"},
		{[]string{"--server", "true", "hi"}, nil, "set OPENAI_COMPATIBLE_BASE_URL and MODEL"},
		{[]string{"--server", "true", "--max-steps", "0", "hi"}, nil, "--max-steps"},
		{[]string{"--server", "true", "--parallel", "0", "hi"}, nil, "--parallel"},
		{[]string{"--server", "true", "--check", "maybe", "hi"}, nil, "--check"},
		{[]string{"--server", "true", "--lang", "fr", "hi"}, nil, "--lang"},
		{[]string{"--server", "true", "--script", "/nonexistent.json", "hi"}, nil, "--script"},
	}
	for _, tt := range tests {
		var out, errb bytes.Buffer
		code := run(context.Background(), tt.args, func(k string) string { return tt.env[k] }, &out, &errb, false)
		if code != exitUsage || !strings.Contains(errb.String(), tt.want) {
			t.Errorf("%v: exit %d, stderr %q, want %q", tt.args, code, errb.String(), tt.want)
		}
	}
}

func TestAScriptRunsTheWholeLoopOffline(t *testing.T) {
	root := playground(t)
	var out bytes.Buffer
	var errb lockedBuffer
	code := run(context.Background(), []string{"--server", toolserverBin + " --root " + root, "--script", "testdata/summary.json", "Summarize the notes"},
		func(string) string { return "" }, &out, &errb, false)
	if code != exitOK || !strings.Contains(out.String(), "142 bytes") {
		t.Fatalf("exit %d, stdout %q; stderr:\n%s", code, out.String(), errb.String())
	}
	for _, want := range []string{`→ list_directory(path="notes")`, `→ read_file(path="notes/todo.txt")`, `→ calc(expr="58 + 84")`, `✓ {"value":"142","exact":true}`} {
		if !strings.Contains(errb.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, errb.String())
		}
	}
}

func TestLiveProgressRedrawsTheCallAsItsArgumentsArrive(t *testing.T) {
	var b bytes.Buffer
	p := &progress{w: &b, live: true}
	c := newStreamedCall()
	for _, piece := range []string{`{"pa`, `th": "no`, `tes/t`, `odo.txt", "he`, `ad": 1`, `2}`} {
		c.add("call_1", "", piece)
		if c.Name == "" {
			c.add("", "read_file", "")
		}
		p.streaming(c)
	}
	c.close()
	tc := &turnCall{index: 0, line: callLine(c)}
	p.running(tc)
	got := b.String()
	for _, want := range []string{`read_file(path="no…)`, `read_file(path="notes/t…)`, `read_file(path="notes/todo.txt", head=1…)`,
		"\x1b[1F\x1b[J[1] → read_file(path=\"notes/todo.txt\", head=12)  running\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("progress lacks %q:\n%q", want, got)
		}
	}
}

func TestClipShowsControlCharactersAsEscapes(t *testing.T) {
	tests := []struct {
		in   string
		n    int
		want string
	}{
		{"plain", 10, "plain"},
		{"a\nb\tc", 10, `a\nb\tc`},
		{"\x1b[2Jgone", 20, `\x1b[2Jgone`},
		{"bell\x07 and \u009b csi", 30, `bell\x07 and \x9b csi`},
		{"静夜思床前明月光", 4, "静夜思…"},
		{"abcd", 4, "abcd"},
	}
	for _, tt := range tests {
		if got := clip(tt.in, tt.n); got != tt.want {
			t.Errorf("clip(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
	}
}

func TestTwoIdenticalCallsInOneTurnAreNoLoop(t *testing.T) {
	o := runScript(t, 64, `[
		{"tool_calls": [{"name": "calc", "arguments": {"expr": "2+2"}}, {"name": "calc", "arguments": {"expr": "2+2"}}]},
		{"tool_calls": [{"name": "calc", "arguments": {"expr": "2+2"}}, {"name": "calc", "arguments": {"expr": "3+3"}}]},
		{"content": "4 and 6"}
	]`)
	if o.code != exitOK || strings.TrimSpace(o.stdout) != "4 and 6" {
		t.Fatalf("exit %d, stdout %q; stderr:\n%s", o.code, o.stdout, o.stderr)
	}
}
