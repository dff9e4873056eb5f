package server

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// initializeResult is the result of initialize as encoding/json writes
// it: the reference appendInitializeResult is held to.
type initializeResult struct {
	ProtocolVersion string         `json:"protocolVersion"`
	Capabilities    map[string]any `json:"capabilities"`
	ServerInfo      serverInfo     `json:"serverInfo"`
	Instructions    string         `json:"instructions,omitempty"`
}

// FuzzAppendInitializeResult holds the initialize result, and the
// serverInfo in it, to encoding/json of an initializeResult, with fuzzed
// strings (HTML characters, U+2028, invalid UTF-8 among the seeds).
func FuzzAppendInitializeResult(f *testing.F) {
	f.Add("2025-11-25", "toolserver", "", "1.0", "Tools <for> you & me")
	f.Add("\xff", "a\u2028b", "Tool\"server", "", "")
	f.Add("", "", "t", "v\\", "\x00")
	f.Fuzz(func(t *testing.T, version, name, title, serverVersion, instructions string) {
		si := serverInfo{Name: name, Title: title, Version: serverVersion}
		encoded := appendServerInfoObject(nil, si)
		want, err := encodingJSON(si)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(encoded, want) {
			t.Fatalf("serverInfo:\n got  %s\n want %s", encoded, want)
		}
		for _, caps := range [][3]bool{{false, false, false}, {true, false, false}, {true, true, false}, {true, false, true}, {true, true, true}} {
			v := initializeResult{ProtocolVersion: version, Capabilities: map[string]any{"tools": map[string]any{}, "logging": map[string]any{}},
				ServerInfo: si, Instructions: instructions}
			if caps[0] {
				v.Capabilities["resources"] = map[string]any{}
			}
			if caps[0] && caps[2] {
				v.Capabilities["resources"] = map[string]any{"subscribe": true}
			}
			if caps[1] {
				v.Capabilities["completions"] = map[string]any{}
			}
			if want, err = encodingJSON(v); err != nil {
				t.Fatal(err)
			}
			if got := appendInitializeResult(nil, version, encoded, instructions, caps[0], caps[2], caps[1]); !bytes.Equal(got, want) {
				t.Fatalf("initialize result with resources %v, subscribe %v, completions %v:\n got  %s\n want %s", caps[0], caps[2], caps[1], got, want)
			}
		}
	})
}

// FuzzDecodeInitializeParams holds decodeInitializeParams to json.Unmarshal
// into an initializeParams: whenever it decodes params, encoding/json must
// decode them too, to the same values (of elicitation, only whether it is
// there). The seeds are what clients send, and what only encoding/json
// may read: keys in other cases, values of the wrong type, nulls,
// repeated keys, nesting.
func FuzzDecodeInitializeParams(f *testing.F) {
	for _, seed := range []string{
		`{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"toolbench","version":"1"}}`,
		`{"protocolVersion":"2025-06-18","capabilities":{"roots":{"listChanged":true},"elicitation":{},"sampling":{}},"clientInfo":{"name":"claude-ai","version":"0.1.0","title":"x"}}`,
		`{"ProtocolVersion":"2025-11-25"}`,
		`{"protocolversion":"a","protocolVersion":"b"}`,
		`{"capabilities":{"Roots":{"listChanged":true}}}`,
		`{"capabilities":{"roots":{"LISTCHANGED":true}}}`,
		`{"clientInfo":{"NAME":"a"}}`,
		`{"protocolVersion":1}`,
		`{"protocolVersion":null,"capabilities":null,"clientInfo":null}`,
		`{"capabilities":{"roots":null,"elicitation":null}}`,
		`{"capabilities":{"roots":{"listChanged":null}}}`,
		`{"capabilities":{"roots":{"listChanged":"yes"}}}`,
		`{"capabilities":{"roots":[]}}`,
		`{"capabilities":[]}`,
		`{"clientInfo":{"name":1}}`,
		`{"clientInfo":"x"}`,
		`{"protocolVersion":"a","protocolVersion":"b"}`,
		`{"protocolVersion":"\u00e9\ud83d\ude00"}`,
		"{\"protocolVersion\":\"\xff\"}",
		`{"ſ":1,"protocolVerſion":"a"}`,
		`{"capabilities":{"elicitation":false}}`,
		`null`, `[]`, `"x"`, ` {} `, `{`, ``,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		got, ok := decodeInitializeParams(raw)
		if !ok {
			return // encoding/json decides
		}
		var want initializeParams
		if err := json.Unmarshal(raw, &want); err != nil {
			t.Fatalf("decoded %q, which encoding/json refuses: %v", raw, err)
		}
		if !sameString(got.ProtocolVersion, want.ProtocolVersion) ||
			(got.Capabilities.Roots == nil) != (want.Capabilities.Roots == nil) ||
			got.Capabilities.Roots != nil && got.Capabilities.Roots.ListChanged != want.Capabilities.Roots.ListChanged ||
			(got.Capabilities.Elicitation == nil) != (want.Capabilities.Elicitation == nil) ||
			got.ClientInfo != want.ClientInfo {
			t.Fatalf("%q:\n got  %+v\n want %+v", raw, describeParams(got), describeParams(want))
		}
	})
}

func sameString(a, b *string) bool {
	return (a == nil) == (b == nil) && (a == nil || *a == *b)
}

// describeParams shows what a test compares of p.
func describeParams(p initializeParams) map[string]any {
	d := map[string]any{"clientInfo": p.ClientInfo, "elicitation": p.Capabilities.Elicitation != nil}
	if p.ProtocolVersion != nil {
		d["protocolVersion"] = *p.ProtocolVersion
	}
	if p.Capabilities.Roots != nil {
		d["roots"] = *p.Capabilities.Roots
	}
	return d
}

func TestDecodeInitializeParamsReadsWhatClientsSend(t *testing.T) {
	// The short path must be the one taken by ordinary clients, or a start
	// pays for encoding/json's first use after all.
	for _, raw := range []string{
		`{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"toolbench","version":"1"}}`,
		`{"protocolVersion":"2025-06-18","capabilities":{"roots":{"listChanged":true},"elicitation":{},"sampling":{}},"clientInfo":{"name":"claude-ai","version":"0.1.0"}}`,
	} {
		if _, ok := decodeInitializeParams([]byte(raw)); !ok {
			t.Errorf("%s was left to encoding/json", raw)
		}
	}
	for _, raw := range []string{`{"ProtocolVersion":"2025-11-25"}`, `{"protocolVersion":1}`, `null`} {
		if _, ok := decodeInitializeParams([]byte(raw)); ok {
			t.Errorf("%s was decoded by the short path", raw)
		}
	}
}

func TestInitializeReadsWhatTheShortPathLeavesToEncodingJSON(t *testing.T) {
	cases := []struct {
		name, params, want string
	}{
		{"a key in another case", `{"ProtocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}`,
			`{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18",`},
		{"a member of the wrong type", `{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":5}}`,
			`{"jsonrpc":"2.0","id":0,"error":{"code":-32602,`},
		{"params that are not an object", `["2025-06-18"]`,
			`{"jsonrpc":"2.0","id":0,"error":{"code":-32602,`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := serve(t, New(Options{Logger: nopLogger()}))
			c.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":` + tc.params + `}`)
			if got := c.recv(); !strings.HasPrefix(got, tc.want) {
				t.Fatalf("got %s, want it to start %s", got, tc.want)
			}
		})
	}
}
