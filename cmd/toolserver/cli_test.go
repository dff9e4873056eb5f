package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// runCLI runs the command in-process and returns its exit code and output.
func runCLI(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(context.Background(), args, func(string) string { return "" }, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

func TestABadRootExitsWithOneLine(t *testing.T) {
	cases := map[string][]string{
		"missing":        {},
		"does not exist": {"--root", "/does/not/exist"},
		"is a file":      {"--root", "main.go"},
	}
	for name, args := range cases {
		t.Run(name, func(t *testing.T) {
			cmd := exec.Command(binary, args...)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err == nil {
				t.Fatal("exited 0")
			}
			if len(out) != 0 {
				t.Errorf("wrote to stdout: %q", out)
			}
			if lines := strings.Split(strings.TrimSpace(stderr.String()), "\n"); len(lines) != 1 || !strings.Contains(lines[0], "--root") {
				t.Errorf("stderr should be one line about --root, got %q", stderr.String())
			}
		})
	}
}

func TestAStateKeyFileIsRead(t *testing.T) {
	if code, _, stderr := runCLI("tools", "--root", ".", "--state-key-file", "main.go"); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	short := filepath.Join(t.TempDir(), "key")
	if err := os.WriteFile(short, []byte("too short\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCLI("tools", "--root", ".", "--state-key-file", short); code != exitUsage || !strings.Contains(stderr, "holds 9 bytes; use at least 32 random bytes") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
}

func TestUsageErrors(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--root", ".", "serve"}, `unexpected argument "serve"`},
		{[]string{"--root", ".", "--log-level", "loud"}, `--log-level "loud" is not one of`},
		{[]string{"--root", ".", "--max-inflight", "0"}, `--max-inflight 0 must be at least 1`},
		{[]string{"--root", ".", "--state-key-file", "/does/not/exist"}, `--state-key-file: open /does/not/exist`},
		{[]string{"--root", ".", "--max-message-bytes", "10"}, `--max-message-bytes 10 is too small`},
		{[]string{"--bogus"}, `flag provided but not defined: -bogus`},
		{[]string{"--root", ".", "--tool-timeout", "0s"}, `--tool-timeout 0s must be positive`},
		{[]string{"--root", ".", "--max-repeats", "0"}, `--max-repeats 0 must be at least 1, or -1 for no limit`},
		{[]string{"--root", ".", "--max-write-bytes", "0"}, `--max-write-bytes 0 must be at least 1`},
		{[]string{"--root", ".", "--max-edit-bytes", "0"}, `--max-edit-bytes 0 must be at least 1`},
		{[]string{"--root", ".", "--memory-budget-mib", "0"}, `--memory-budget-mib 0 must be at least 1`},
		// MiB past what int64 bytes hold would wrap to a budget of none
		// (then the default) or of a few bytes, not the one asked for.
		{[]string{"--root", ".", "--memory-budget-mib", "8796093022208"}, `--memory-budget-mib 8796093022208 is too large; the most is 8796093022207`},
		{[]string{"--root", ".", "--memory-budget-mib", "9223372036854775807"}, `--memory-budget-mib 9223372036854775807 is too large`},
		// 2^44 MiB would wrap to a limit of 0 bytes, and the collector
		// would run without pause.
		{[]string{"--root", ".", "--memory-limit-mib", "17592186044416"}, `--memory-limit-mib 17592186044416 is too large; the most is 8796093022207`},
		{[]string{"--root", ".", "--max-calls", "-1"}, `--max-calls and --calls-per-second must not be negative`},
		{[]string{"--root", ".", "--lang", "fr"}, `--lang: unsupported language "fr"; use "en" or "zh"`},
		{[]string{"call", "--root", "."}, `name the tool to run`},
		{[]string{"call", "--root", ".", "calc", "expr"}, `"expr" is not key=value or key:=JSON`},
		{[]string{"call", "--root", ".", "calc", "=1"}, `has no key`},
		{[]string{"call", "--root", ".", "calc", "a:={"}, `the value after := must be JSON`},
		{[]string{"call", "--root", ".", "--json", "{", "calc"}, `--json is not valid JSON`},
		{[]string{"call", "--root", ".", "--json", "{}", "calc", "a=1"}, `either as --json or as key=value`},
		{[]string{"call", "--root", ".", "nope"}, `unknown tool "nope"; available tools: calc`},
		{[]string{"--root", ".", "--tools", "read_file,grepp"}, `--tools or --disable-tools: no tool is called "grepp"; the tools are calc, read_file,`},
		{[]string{"--root", ".", "--disable-tools", "calc, Grep,x"}, `no tools are called "Grep", "x"; the tools are calc,`},
		{[]string{"--root", ".", "--tools", "read_file,,grep"}, `a tool name is empty; give names separated by commas`},
		{[]string{"--root", ".", "--tools", ""}, `a tool name is empty`},
		{[]string{"call", "--root", ".", "--tools", "read_file", "calc", "expr=1"}, `unknown tool "calc"; available tools: read_file`},
	}
	for _, tc := range cases {
		code, stdout, stderr := runCLI(tc.args...)
		if code != exitUsage || stdout != "" || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: code %d, stdout %q, stderr %q; want exit 2 and %q", tc.args, code, stdout, stderr, tc.want)
		}
	}
}

func TestHelpShowsAClientConfiguration(t *testing.T) {
	code, _, stderr := runCLI("--help")
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{`"mcpServers"`, `"command": "toolserver"`, `"--root"`, "-max-message-bytes", "-max-inflight", "-log-level"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("help lacks %q", want)
		}
	}
	var cfg map[string]any
	start, end := strings.Index(stderr, "{"), strings.LastIndex(stderr, "}")
	if err := json.Unmarshal([]byte(stderr[start:end+1]), &cfg); err != nil {
		t.Errorf("the configuration snippet is not valid JSON: %v", err)
	}
	// The two-root "args" line is valid JSON, and its flags parse.
	i := strings.LastIndex(stderr, `"args": [`)
	line, _, _ := strings.Cut(stderr[i:], "\n")
	var two struct{ Args []string }
	if err := json.Unmarshal([]byte("{"+strings.Replace(line, `"args"`, `"Args"`, 1)+"}"), &two); err != nil {
		t.Fatalf("the two-root snippet %q is not valid JSON: %v", line, err)
	}
	cfg2, fs := newConfig("serve", io.Discard)
	if err := fs.Parse(two.Args); err != nil || len(cfg2.roots) != 2 || !cfg2.roots[1].readOnly || cfg2.roots[1].name != "notes" {
		t.Errorf("the two-root snippet %q parses to %+v, %v", two.Args, cfg2.roots, err)
	}
}

func TestVersion(t *testing.T) {
	code, stdout, _ := runCLI("--version")
	if code != exitOK || !strings.HasPrefix(stdout, "toolserver ") {
		t.Fatalf("%d %q", code, stdout)
	}
}

func TestToolsPrintsEveryToolWithSchemas(t *testing.T) {
	code, stdout, _ := runCLI("tools", "--root", ".")
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	var tools []map[string]any
	if err := json.Unmarshal([]byte(stdout), &tools); err != nil {
		t.Fatal(err)
	}
	if len(tools) == 0 || tools[0]["name"] != "calc" || tools[0]["inputSchema"] == nil || tools[0]["outputSchema"] == nil {
		t.Fatalf("tools: %v", tools)
	}
}

func TestToolsAndDisableToolsChooseTheToolsListed(t *testing.T) {
	cases := []struct {
		args []string
		want []string
	}{
		{[]string{"--tools", "grep,read_file", "--tools", "calc"}, []string{"calc", "read_file", "grep"}},
		{[]string{"--read-only", "--tools", "read_file,write_file"}, []string{"read_file"}},
		{[]string{"--disable-tools", "calc,grep,write_file,edit_file,append_file,copy_file,move_file,create_directory,directory_tree,search_files,list_allowed_directories,get_file_info,read_multiple_files"},
			[]string{"read_file", "list_directory"}},
	}
	for _, tc := range cases {
		code, stdout, stderr := runCLI(append([]string{"tools", "--root", "."}, tc.args...)...)
		if code != exitOK {
			t.Fatalf("%v: exit %d: %s", tc.args, code, stderr)
		}
		var tools []struct {
			Name string `json:"name"`
		}
		if err := json.Unmarshal([]byte(stdout), &tools); err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, tl := range tools {
			got = append(got, tl.Name)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%v: tools %v, want %v", tc.args, got, tc.want)
		}
	}
}

func TestCallRunsOneToolThroughTheSameChecks(t *testing.T) {
	cases := []struct {
		args           []string
		code           int
		stdout, stderr string
	}{
		{[]string{"calc", "expr=0.1+0.2"}, exitOK, `{"value":"0.3","exact":true}` + "\n", ""},
		{[]string{"calc", "expr=1/3", "precision=5"}, exitOK, `{"value":"0.33333","exact":false,"precision":5}` + "\n", ""},
		{[]string{"calc", "expr=2", "precision:=3"}, exitOK, `{"value":"2","exact":true}` + "\n", ""},
		{[]string{"--json", `{"expr":"7*6"}`, "calc"}, exitOK, `{"value":"42","exact":true}` + "\n", ""},
		{[]string{"calc", "expr=1/0"}, exitToolError, "", `division by zero at column 3 in "1/0"` + "\n"},
		{[]string{"calc", "expr=1", "expr=2"}, exitToolError, "", `"expr" must be a string, got ["1","2"] (an array)` + "\n"},
		{[]string{"calc", "expr=1", "precision=high"}, exitToolError, "", `"precision" must be an integer, got "high" (a string)` + "\n"},
		{[]string{"--lang", "zh", "calc", "precision=high"}, exitToolError, "", "缺少必需参数 \"expr\"（字符串）；请添加\n\"precision\" 必须是整数，收到的是 \"high\"（字符串）\n"},
	}
	for _, tc := range cases {
		code, stdout, stderr := runCLI(append([]string{"call", "--root", "."}, tc.args...)...)
		if code != tc.code || stdout != tc.stdout || stderr != tc.stderr {
			t.Errorf("%v:\n got  %d %q %q\n want %d %q %q", tc.args, code, stdout, stderr, tc.code, tc.stdout, tc.stderr)
		}
	}
}

// TestCallTakesFlagsAnywhere runs every order of flags, the tool name and
// its arguments that call accepts: flags (--root, --json, --lang, ...) may
// come before or after the tool name and between its key=value pairs; the
// first other word is the tool, the rest are its arguments; after -- every
// word is a name or an argument. --json with pairs, or --json twice, is a
// usage error.
func TestMaxWriteBytesCapsWrites(t *testing.T) {
	root := t.TempDir()
	code, stdout, stderr := runCLI("call", "--root", root, "--max-write-bytes", "5", "write_file", "path=a.txt", "content=123456")
	if code != exitToolError || !strings.Contains(stdout+stderr, `the content for "a.txt" is 6 bytes, more than the 5 bytes one call may write (the server's --max-write-bytes limit); nothing was written`) {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if code, stdout, _ = runCLI("call", "--root", root, "--max-write-bytes", "5", "write_file", "path=a.txt", "content=12345"); code != exitOK {
		t.Errorf("a write at the cap: exit %d, stdout %q", code, stdout)
	}
}

func TestMaxEditBytesCapsEdits(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("123456"), 0o644); err != nil {
		t.Fatal(err)
	}
	edit := []string{"edit_file", "--json", `{"path":"a.txt","edits":[{"old_text":"1","new_text":"0"}]}`}
	code, stdout, stderr := runCLI(append([]string{"call", "--root", root, "--max-edit-bytes", "5"}, edit...)...)
	if code != exitToolError || !strings.Contains(stdout+stderr, `"a.txt" is 6 bytes, more than the 5 bytes edit_file works on`) {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if code, stdout, _ = runCLI(append([]string{"call", "--root", root, "--max-edit-bytes", "6"}, edit...)...); code != exitOK {
		t.Errorf("an edit at the cap: exit %d, stdout %q", code, stdout)
	}
}

// TestAMemoryBudgetSmallerThanACallStillServesIt gives the calls 1 MiB
// to share and reads and edits a 3 MiB file: a reservation larger than
// the whole budget is cut to it, so a call is never refused for its size.
func TestAMemoryBudgetSmallerThanACallStillServesIt(t *testing.T) {
	root := t.TempDir()
	text := "the first line\n" + strings.Repeat("0123456789abcdef\n", 3<<20/17)
	if err := os.WriteFile(filepath.Join(root, "big.txt"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCLI("call", "--root", root, "--memory-budget-mib", "1", "read_file", "path=big.txt")
	if code != exitOK || !strings.HasPrefix(stdout, text) {
		t.Errorf("read: exit %d, stdout %.200q, stderr %q", code, stdout, stderr)
	}
	edit := `{"path":"big.txt","edits":[{"old_text":"the first line","new_text":"changed"}]}`
	if code, stdout, stderr = runCLI("call", "--root", root, "--memory-budget-mib", "1", "edit_file", "--json", edit); code != exitOK {
		t.Errorf("edit: exit %d, stdout %.200q, stderr %q", code, stdout, stderr)
	}
	if got, _ := os.ReadFile(filepath.Join(root, "big.txt")); string(got) != "changed"+text[len("the first line"):] {
		t.Errorf("the edited file starts %.40q and has %d bytes, want %d", got, len(got), len(text)-len("the first line")+len("changed"))
	}
}

func TestCallTakesFlagsAnywhere(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("from the root\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const fortyTwo = `{"value":"42","exact":true}` + "\n"
	cases := []struct {
		name   string
		args   []string
		code   int
		stdout string
		stderr string // a substring of stderr ("" means stderr must be empty)
	}{
		{"json after the tool", []string{"--root", ".", "calc", "--json", `{"expr":"7*6"}`}, exitOK, fortyTwo, ""},
		{"json=value after the tool", []string{"--root", ".", "calc", `--json={"expr":"7*6"}`}, exitOK, fortyTwo, ""},
		{"json before the tool", []string{"--root", ".", "--json", `{"expr":"7*6"}`, "calc"}, exitOK, fortyTwo, ""},
		{"json before root", []string{"--json", `{"expr":"7*6"}`, "--root", ".", "calc"}, exitOK, fortyTwo, ""},
		{"single dash json", []string{"-root", ".", "calc", "-json", `{"expr":"7*6"}`}, exitOK, fortyTwo, ""},
		{"root after the tool", []string{"calc", "--root", ".", "--json", `{"expr":"7*6"}`}, exitOK, fortyTwo, ""},
		{"root after the pairs", []string{"calc", "expr=7*6", "--root", "."}, exitOK, fortyTwo, ""},
		{"root between the pairs", []string{"calc", "expr=1/3", "--root", ".", "precision=5"}, exitOK, `{"value":"0.33333","exact":false,"precision":5}` + "\n", ""},
		{"root=dir after the tool", []string{"read_file", "--root=" + dir, "path=a.txt"}, exitOK, "from the root\n[version V]\n", ""},
		{"root after the tool is the root used", []string{"read_file", "path=a.txt", "--root", dir}, exitOK, "from the root\n[version V]\n", ""},
		{"lang after the pairs", []string{"--root", ".", "calc", "precision=high", "--lang", "zh"}, exitToolError, "", "缺少必需参数 \"expr\""},
		{"bool flag after the tool", []string{"--root", ".", "calc", "--read-only", "expr=6*7"}, exitOK, fortyTwo, ""},
		{"key:=JSON after a flag", []string{"calc", "--root", ".", "expr=2", "precision:=3"}, exitOK, `{"value":"2","exact":true}` + "\n", ""},
		{"double dash ends the flags", []string{"--root", ".", "--", "calc", "expr=7*6"}, exitOK, fortyTwo, ""},
		{"a flag after double dash is an argument", []string{"--root", ".", "calc", "--", "--json", "{}"}, exitUsage, "", `"--json" is not key=value or key:=JSON`},
		{"a value that starts with a dash", []string{"--root", ".", "calc", "expr=-6*-7"}, exitOK, fortyTwo, ""},

		{"json and pairs, json first", []string{"--root", ".", "--json", `{"expr":"1"}`, "calc", "precision=3"}, exitUsage, "", "either as --json or as key=value, not both"},
		{"json and pairs, json last", []string{"--root", ".", "calc", "expr=1", "--json", `{"expr":"1"}`}, exitUsage, "", "either as --json or as key=value, not both"},
		{"json twice", []string{"--root", ".", "--json", `{"expr":"1"}`, "calc", "--json", `{"expr":"2"}`}, exitUsage, "", "--json given more than once"},
		{"json twice, the same", []string{"--root", ".", "calc", "--json", "{}", "--json={}"}, exitUsage, "", "--json given more than once"},
		{"empty json", []string{"--root", ".", "calc", "--json", ""}, exitUsage, "", "--json is not valid JSON"},
		{"json without a value", []string{"--root", ".", "calc", "--json"}, exitUsage, "", "flag needs an argument: -json"},
		{"unknown flag after the tool", []string{"--root", ".", "calc", "--bogus", "expr=1"}, exitUsage, "", "flag provided but not defined: -bogus"},
		{"no tool, only flags", []string{"--json", "{}", "--root", "."}, exitUsage, "", "name the tool to run"},
		{"a pair before the tool", []string{"--root", ".", "expr=1", "calc"}, exitUsage, "", `"expr=1" is an argument, not a tool`},
		{"no root after the tool", []string{"calc", "expr=1"}, exitUsage, "", "--root"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(append([]string{"call"}, tc.args...)...)
			stdout = anyVersion.ReplaceAllString(stdout, "[version V]")
			okErr := strings.Contains(stderr, tc.stderr)
			if tc.stderr == "" {
				okErr = stderr == ""
			}
			if code != tc.code || stdout != tc.stdout || !okErr {
				t.Errorf("call %q:\n got  %d %q %q\n want %d %q %q", tc.args, code, stdout, stderr, tc.code, tc.stdout, tc.stderr)
			}
		})
	}
}

// anyVersion finds the version read_file shows, which differs with every
// copy of a file.
var anyVersion = regexp.MustCompile(`\[version [0-9a-f]{16}\]`)

func TestStdoutCarriesOnlyProtocolMessages(t *testing.T) {
	p := start(t, "--root", playground(t), "--log-level", "debug")
	p.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	p.send(`not json`)
	p.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"calc","arguments":{"expr":"1/0"}}}`)
	for range 3 {
		var m map[string]any
		line := p.recv()
		if err := json.Unmarshal([]byte(line), &m); err != nil || m["jsonrpc"] != "2.0" {
			t.Fatalf("stdout line is not a JSON-RPC message: %q", line)
		}
	}
	p.finish()
	logs := p.stderr.String()
	if !strings.Contains(logs, `"message":"serving MCP on stdio"`) || !strings.Contains(logs, `"level":"debug"`) {
		t.Errorf("stderr lacks the JSON log lines: %s", logs)
	}
}

func TestSignalsLetCallsInFlightFinishAndExitZero(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			p := start(t, "--root", playground(t))
			p.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
			p.recv()
			// A big power takes a moment; the signal arrives while it runs
			// or just after, and either way its answer must come out.
			p.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"calc","arguments":{"expr":"2^30000 - 2^30000"}}}`)
			time.Sleep(5 * time.Millisecond)
			if err := p.cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			if got := p.recv(); !strings.Contains(got, `"id":1,"result"`) || !strings.Contains(got, `\"value\":\"0\"`) {
				t.Fatalf("got %s", got)
			}
			select {
			case err := <-p.waited:
				if err != nil {
					t.Fatalf("exit: %v", err)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("did not exit after the signal")
			}
		})
	}
}

// TestEveryPublishedSchemaCompiles compiles the input and output schema of
// every tool the binary serves with a JSON Schema 2020-12 validator. Output
// schemas are not compiled at registration (they are published, not
// enforced per call), so this is where a bad one would show.
func TestEveryPublishedSchemaCompiles(t *testing.T) {
	code, stdout, stderr := runCLI("tools", "--root", ".", "--allow-admin")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var tools []struct {
		Name         string          `json:"name"`
		InputSchema  json.RawMessage `json:"inputSchema"`
		OutputSchema json.RawMessage `json:"outputSchema"`
	}
	if err := json.Unmarshal([]byte(stdout), &tools); err != nil {
		t.Fatal(err)
	}
	if len(tools) < 15 {
		t.Fatalf("only %d tools", len(tools))
	}
	for _, tl := range tools {
		for kind, doc := range map[string]json.RawMessage{"input": tl.InputSchema, "output": tl.OutputSchema} {
			if doc == nil {
				t.Errorf("%s has no %s schema", tl.Name, kind)
				continue
			}
			v, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
			if err != nil {
				t.Fatalf("%s %s: %v", tl.Name, kind, err)
			}
			c := jsonschema.NewCompiler()
			url := "mem:///" + tl.Name + "/" + kind + ".json"
			if err := c.AddResource(url, v); err != nil {
				t.Fatal(err)
			}
			if _, err := c.Compile(url); err != nil {
				t.Errorf("%s %s schema does not compile: %v", tl.Name, kind, err)
			}
		}
	}
}

// TestMetricsAreServedOnLoopback starts the binary with --metrics-addr and
// scrapes it over HTTP after a call.
func TestMetricsAreServedOnLoopback(t *testing.T) {
	p := start(t, "--root", playground(t), "--metrics-addr", ":0")
	p.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	p.recv()
	p.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"calc","arguments":{"expr":"2*21"}}}`)
	p.recv()
	var addr string
	for _, line := range strings.Split(p.stderr.String(), "\n") {
		var l struct{ Message, Addr string }
		if json.Unmarshal([]byte(line), &l) == nil && l.Message == "serving metrics at /metrics" {
			addr = l.Addr
		}
	}
	if !strings.HasPrefix(addr, "127.0.0.1:") {
		t.Fatalf("metrics should listen on loopback, got %q", addr)
	}
	resp, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(body), `toolserver_calls_total{status="ok",tool="calc"} 1`) {
		t.Fatalf("scrape:\n%s", body)
	}
	p.finish()
}

// TestTheServerSetsItsSoftMemoryLimit checks the limit the server runs
// with: the default, the flag, none, and GOMEMLIMIT left to the runtime.
func TestTheServerSetsItsSoftMemoryLimit(t *testing.T) {
	cases := []struct {
		name   string
		args   []string
		env    string
		want   int64
		status int
	}{
		{"default", nil, "", defaultMemoryLimitMiB << 20, exitOK},
		{"flag", []string{"--memory-limit-mib", "300"}, "", 300 << 20, exitOK},
		{"flag over GOMEMLIMIT", []string{"--memory-limit-mib", "100"}, "50MiB", 100 << 20, exitOK},
		{"negative", []string{"--memory-limit-mib", "-1"}, "", 0, exitUsage},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := debug.SetMemoryLimit(-1)
			var out, errb bytes.Buffer
			args := append([]string{"--root", t.TempDir()}, tc.args...)
			code := run(context.Background(), args, func(k string) string {
				if k == "GOMEMLIMIT" {
					return tc.env
				}
				return ""
			}, strings.NewReader(""), &out, &errb)
			if code != tc.status {
				t.Fatalf("exit %d, want %d; stderr:\n%s", code, tc.status, errb.String())
			}
			if after := debug.SetMemoryLimit(-1); after != before {
				t.Errorf("the limit was left at %d, not put back to %d", after, before)
			}
			if tc.status != exitOK {
				return
			}
			if want := fmt.Sprintf(`"memory_limit":%d`, tc.want); !strings.Contains(errb.String(), want) {
				t.Errorf("no %s in the log:\n%s", want, errb.String())
			}
		})
	}
	// With GOMEMLIMIT set and no flag, the server leaves the runtime's
	// limit as it is.
	var out, errb bytes.Buffer
	before := debug.SetMemoryLimit(-1)
	run(context.Background(), []string{"--root", t.TempDir()}, func(k string) string {
		if k == "GOMEMLIMIT" {
			return "50MiB"
		}
		return ""
	}, strings.NewReader(""), &out, &errb)
	if want := fmt.Sprintf(`"memory_limit":%d`, before); !strings.Contains(errb.String(), want) {
		t.Errorf("no %s in the log:\n%s", want, errb.String())
	}
}
