package server

import (
	"bytes"
	"encoding/json"
	"testing"
	"unicode/utf8"
)

var fuzzSeeds = []string{
	`{"jsonrpc":"2.0","id":1,"method":"ping"}`,
	`{"jsonrpc":"2.0","id":"a\"b","method":"tools/list","params":{"cursor":"x"}}`,
	`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`,
	`{"jsonrpc":"2.0","id":1,"result":{}}`,
	`{"jsonrpc":"2.0","id":1e3,"method":"ping"}`,
	`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`,
	`{"jsonrpc":"2.0","id":1,"method":"ping"`,
	`{"jsonrpc"`, `{"jsonrpc":"2.0","id" `, // cut short after a member's name
	"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\xff\"}",
	`{"jsonrpc":"2.0","id":{"a":"}"},"method":"ping"}`,
	`  {"id" : 1 , "jsonrpc" : "2.0" , "method" : "p\u0069ng" }  `,
	`"x"`, `null`, `{}`, `{"a":[{"b":"]}"}]}`,
	`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"write_file","arguments":{"path":"a.go","content":"x\"}\\\n\t\"y"},"_meta":{"progressToken":1}}}`,
	`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"arguments":{},"name":"a","name":"b","requestState":"s","inputResponses":{"k":{}}}}`,
	`{"params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"},"n\u0061me":"x"},"method":"tools/call","id":4,"jsonrpc":"2.0"}`,
	"{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":\"w\",\"arguments\":{\"content\":\"caf\xc3\xa9 \xff\"}}}",
	`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"w","arguments":{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9}}}`,
	`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"w","arguments":{"a":[[[{"b":"\u00e9"}]]]}},"id":8}`,
}

// FuzzParseEnvelope checks that any line is either accepted with a
// consistent envelope or refused with an answer that is valid JSON-RPC.
func FuzzParseEnvelope(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		env, werr := parseEnvelope(line)
		// The one walk refuses a line as not JSON, or not UTF-8, exactly
		// when encoding/json and utf8.Valid do.
		if parseError := werr != nil && werr.code == -32700; parseError != !(json.Valid(line) && utf8.Valid(line)) {
			t.Fatalf("refused as a parse error: %v (%+v); json.Valid %v, utf8.Valid %v", parseError, werr, json.Valid(line), utf8.Valid(line))
		}
		if werr != nil {
			if werr.message == "" || (werr.code != -32700 && werr.code != -32600 && werr.code != -32602) {
				t.Fatalf("bad refusal %+v", werr)
			}
			checkAnswer(t, appendError(nil, werr.id, werr.code, werr.message, nil))
			return
		}
		var generic map[string]json.RawMessage
		if err := json.Unmarshal(line, &generic); err != nil {
			t.Fatalf("accepted a line encoding/json rejects: %v", err)
		}
		switch env.kind {
		case kindRequest, kindNotification:
			var m string
			if err := json.Unmarshal(generic["method"], &m); err != nil || m != env.method {
				t.Fatalf("method %q, encoding/json says %q (%v)", env.method, m, err)
			}
			if (env.kind == kindRequest) != (env.id != nil) {
				t.Fatalf("kind %v with id %s", env.kind, env.id)
			}
		case kindResponse:
			if env.id == nil || (env.result == nil) == (env.err == nil) {
				t.Fatalf("bad response envelope %+v", env)
			}
		default:
			t.Fatalf("no kind: %+v", env)
		}
		if env.id != nil {
			checkAnswer(t, appendRawResult(nil, env.id, []byte("{}")))
		}
		// The members of params read in the same walk are those
		// encoding/json finds, the last of any given twice.
		var params map[string]json.RawMessage
		if env.params != nil {
			if err := json.Unmarshal(env.params, &params); err != nil {
				t.Fatalf("params %s: %v", env.params, err)
			}
		}
		if members := env.argMembers(); members != nil {
			var args map[string]json.RawMessage
			if err := json.Unmarshal(env.arguments, &args); err != nil {
				t.Fatalf("arguments %s: %v", env.arguments, err)
			}
			last := make(map[string][]byte)
			for _, m := range members {
				last[m.name] = m.value
			}
			if len(last) != len(args) {
				t.Fatalf("arguments %s read as %d members, encoding/json finds %d", env.arguments, len(last), len(args))
			}
			for name, v := range last {
				if !bytes.Equal(v, args[name]) {
					t.Fatalf("argument %q read as %s, encoding/json says %s", name, v, args[name])
				}
			}
		}
		for name, got := range map[string]json.RawMessage{"name": env.name, "arguments": env.arguments, "_meta": env.meta,
			"inputResponses": env.inputResponses, "requestState": env.requestState} {
			if want := params[name]; !bytes.Equal(got, want) || (got == nil) != (want == nil) {
				t.Fatalf("params member %q read as %s, encoding/json says %s", name, got, want)
			}
		}
	})
}

// checkAnswer asserts that b is one line holding one JSON-RPC 2.0 message.
func checkAnswer(t *testing.T, b []byte) {
	t.Helper()
	if bytes.Count(b, []byte("\n")) != 1 || b[len(b)-1] != '\n' {
		t.Fatalf("not exactly one line: %q", b)
	}
	var m struct {
		JSONRPC string `json:"jsonrpc"`
	}
	if err := json.Unmarshal(b, &m); err != nil || m.JSONRPC != "2.0" {
		t.Fatalf("not a JSON-RPC message (%v): %q", err, b)
	}
}
