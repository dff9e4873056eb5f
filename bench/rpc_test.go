//go:build !windows

package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestCallTemplate(t *testing.T) {
	tpl, err := newCallTemplate("calc", "{\n  \"expr\": \"1+1\"\n}")
	if err != nil {
		t.Fatal(err)
	}
	got := string(tpl.appendLine(nil, 3))
	want := `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"calc","arguments":{"expr":"1+1"}}}` + "\n"
	if got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	if allocs := testing.AllocsPerRun(100, func() { _ = tpl.appendLine(make([]byte, 0, 256)[:0], 12345) }); allocs > 1 {
		t.Errorf("appendLine allocates %v times", allocs)
	}
	for _, bad := range []string{"", "[1]", "{", `{"a":1} {"b":2}`, "3"} {
		if _, err := newCallTemplate("calc", bad); err == nil {
			t.Errorf("arguments %q accepted", bad)
		}
	}
	if _, err := newCallTemplate("", "{}"); err == nil {
		t.Error("empty tool accepted")
	}
}

func TestPadLineExactSize(t *testing.T) {
	for _, size := range []int{60, 61, 1000, 1 << 20} {
		for _, id := range []int64{3, 99999} {
			line := appendPadLine(nil, id, size)
			if len(line) != size+1 || line[len(line)-1] != '\n' {
				t.Fatalf("size %d id %d: got %d bytes", size, id, len(line))
			}
			if !json.Valid(line) {
				t.Fatalf("size %d: not JSON", size)
			}
			if err := checkID(line[:size], id); err != nil {
				t.Fatal(err)
			}
		}
	}
	if line := appendPadLine(nil, 7, 1); !json.Valid(line) {
		t.Fatalf("tiny pad line is not JSON: %s", line)
	}
}

func TestTopLevelMember(t *testing.T) {
	cases := []struct {
		line string
		id   string
		ok   bool
	}{
		{`{"jsonrpc":"2.0","id":3,"result":{}}`, "3", true},
		{` { "result" : {"id":7,"x":[1,{"id":8}],"s":"\"id\":9"} , "id" : 12 } `, "12", true},
		{`{"result":"a\\","id":5}`, "5", true},
		{`{"jsonrpc":"2.0","method":"notifications/message","params":{"id":4}}`, "", false},
		{`{"id":null,"error":{}}`, "null", true},
		{`{"id":"abc"}`, `"abc"`, true},
		{`[1,2]`, "", false},
		{`not json`, "", false},
		{`{"id":`, "", false},
		{``, "", false},
	}
	for _, c := range cases {
		raw, ok := topLevelMember([]byte(c.line), "id")
		if ok != c.ok || string(raw) != c.id {
			t.Errorf("%s: got %q %v, want %q %v", c.line, raw, ok, c.id, c.ok)
		}
	}
	if raw, ok := topLevelMember([]byte(`{"id":1,"method":"m"}`), "method"); !ok || string(raw) != `"m"` {
		t.Errorf("method member: %q %v", raw, ok)
	}
	for line, want := range map[string]string{
		`{"jsonrpc":"2.0","id":4,"result":{}}`:                    "id 4",
		`{"jsonrpc":"2.0","method":"notifications/progress"}`:     "skip",
		`{"jsonrpc":"2.0","error":{"code":-32700,"message":"x"}}`: "error",
	} {
		raw, skip, err := answerID([]byte(line))
		got := "id " + string(raw)
		if skip {
			got = "skip"
		} else if err != nil {
			got = "error"
		}
		if got != want {
			t.Errorf("answerID(%s) = %q %v %v, want %s", line, raw, skip, err, want)
		}
	}
	if n, ok := parseID([]byte("12")); !ok || n != 12 {
		t.Errorf("parseID(12) = %d %v", n, ok)
	}
	for _, bad := range []string{"", "-1", "1.5", `"1"`, "null", "1234567890123456789"} {
		if _, ok := parseID([]byte(bad)); ok {
			t.Errorf("parseID(%s) accepted", bad)
		}
	}
}

func TestCheckResponse(t *testing.T) {
	good := `{"jsonrpc":"2.0","id":5,"result":{"content":[{"type":"text","text":"2"}]}}`
	if _, err := checkResponse([]byte(good), 5, "tools/call"); err != nil {
		t.Fatal(err)
	}
	bad := map[string]string{
		`{"jsonrpc":"2.0","id":6,"result":{"content":[]}}`:                                           "carries id 6",
		`{"jsonrpc":"2.0","id":5,"error":{"code":-32603,"message":"boom"}}`:                          "JSON-RPC error -32603: boom",
		`{"jsonrpc":"2.0","id":5,"result":{"isError":true,"content":[{"type":"text","text":"no"}]}}`: "isError: no",
		`{"jsonrpc":"2.0","id":5}`:          "no result",
		`{"jsonrpc":"2.0","id":5,"result":`: "not a JSON object",
		`{"jsonrpc":"2.0","result":{}}`:     "carries id (none)",
	}
	for line, want := range bad {
		_, err := checkResponse([]byte(line), 5, "tools/call")
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want an error with %q", line, err, want)
		}
	}
	names, err := toolNames(json.RawMessage(`{"tools":[{"name":"calc"},{"name":"read_file"}]}`))
	if err != nil || strings.Join(names, ",") != "calc,read_file" {
		t.Errorf("toolNames = %v, %v", names, err)
	}
	if _, err := toolNames(json.RawMessage(`{}`)); err == nil {
		t.Error("tools/list result without tools accepted")
	}
	long := bytes.Repeat([]byte("x"), 5000)
	if s := snippet(long); len(s) > 400 || !strings.Contains(s, "5000 bytes") {
		t.Errorf("snippet of a long line: %q", s)
	}
}

func TestHandshakeLinesAreValid(t *testing.T) {
	lines := strings.Split(strings.TrimSuffix(handshakeLines, "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d handshake lines", len(lines))
	}
	for _, l := range lines {
		if !json.Valid([]byte(l)) {
			t.Errorf("not JSON: %s", l)
		}
	}
}
