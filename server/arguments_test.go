package server

import (
	"context"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// argsIn has arguments of every kind the decoding of members meets.
type argsIn struct {
	Text  string            `json:"text" chars:"text" description:"Text."`
	N     int               `json:"n,omitempty" maximum:"100" description:"A number."`
	On    bool              `json:"on,omitempty" description:"A flag."`
	List  []string          `json:"list,omitempty" description:"Strings."`
	Map   map[string]int    `json:"map,omitempty" description:"Numbers by name."`
	Inner *struct{ A bool } `json:"inner,omitempty" description:"An object."`
	Any   any               `json:"any,omitempty" description:"Anything."`
}

// argumentCases are arguments decoded from their members (fromMembers)
// or, where the members cannot stand for them, from the raw text.
var argumentCases = []struct {
	args        string
	fromMembers bool
}{
	{`{}`, true},
	{`{"text":"a\"b\\c\nd\u00e9\ud83d\ude00 é"}`, true},
	{`{ "text" : "x" , "n" : 5 , "on" : true }`, true},
	{`{"text":"x","n":"7","on":"false","list":"one"}`, true}, // coerced
	{`{"text":"x","n":101}`, true},                           // out of range
	{`{"text":"a\u0000b"}`, true},                            // a control character
	{`{"text":"x","bogus":1,"other":[1,{"a":null}]}`, true},  // unknown names
	{`{"text":"x","list":["a","b"],"map":{"k":1,"l":-2},"inner":{"A":true},"any":{"z":[1.5,"s",null]}}`, true},
	{`{"text":"x","text":"y"}`, false},                                      // a name given twice
	{`{"text":"x","map":{"k":1,"k":2}}`, false},                             // a name given twice inside
	{`{"text":"1","a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8}`, false}, // more members than the reader keeps
	{`{"n":3}`, true},                       // text missing
	{`{"t\u0065xt":"x","\u006e":2}`, true},  // escaped names
	{`{"text":"x","t\u0065xt":"y"}`, false}, // a name given twice, once escaped
	{`{"text":"x","any":[1e400,-0,-0.0,123456789012345678901234567890,1E-400]}`, true}, // numbers kept as written
	{`{"text":"x","n":1e400}`, true}, // too large for the field
	{`{"text":"x","n":-0}`, true},
	{`{"text":"\ud800\udc00 \udc00 \ud800x \u2028\/"}`, true}, // surrogates, paired and lone
	{`{"text":"x","__proto__":{"n":1},"constructor":null}`, true},
}

// argsEnv serves a tool that returns its decoded arguments.
func argsEnv(t *testing.T) *Server {
	t.Helper()
	srv := New(Options{MaxRepeats: -1})
	err := AddTool(srv, ToolSpec{Name: "echo_args", Description: "Returns its arguments."},
		func(_ context.Context, _ *Call, in argsIn) (argsIn, error) { return in, nil })
	if err != nil {
		t.Fatal(err)
	}
	return srv
}

func TestArgumentsAreDecodedFromTheMembersTheReaderFound(t *testing.T) {
	srv := argsEnv(t)
	for _, c := range argumentCases {
		line := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo_args","arguments":` + c.args + `}}`
		env, werr := parseEnvelope([]byte(line))
		if werr != nil {
			t.Fatalf("%s: %s", c.args, werr.message)
		}
		call := &Call{srv: srv}
		if werr := srv.bind(call, srv.tools.byName["echo_args"], "echo_args", env.arguments, env.argMembers()); werr != nil {
			t.Fatalf("%s: %s", c.args, werr.message)
		}
		obj, ok := call.argumentObject()
		if ok != c.fromMembers {
			t.Errorf("%s: decoded from the members: %v, want %v", c.args, ok, c.fromMembers)
			continue
		}
		if ok {
			want := parseJSONObject(t, c.args)
			if !reflect.DeepEqual(obj, want) {
				t.Errorf("%s: members decode to %#v, want %#v", c.args, obj, want)
			}
		}
	}
}

func TestArgumentsDecodeAlikeFromALineAndFromCallTool(t *testing.T) {
	// Over a session the members the reader found are decoded; CallTool
	// hands schemagen the raw text. Results and refusals are the same.
	srv := argsEnv(t)
	c := serve(t, srv)
	c.initialize()
	for i, tc := range argumentCases {
		c.send(`{"jsonrpc":"2.0","id":` + strconv.Itoa(i+1) + `,"method":"tools/call","params":{"name":"echo_args","arguments":` + tc.args + `}}`)
		var resp struct {
			Result json.RawMessage `json:"result"`
		}
		if err := json.Unmarshal([]byte(c.recv()), &resp); err != nil {
			t.Fatal(err)
		}
		res, err := srv.CallTool(context.Background(), "echo_args", json.RawMessage(tc.args))
		if err != nil {
			t.Fatalf("%s: %v", tc.args, err)
		}
		direct, err := json.Marshal(res)
		if err != nil {
			t.Fatal(err)
		}
		var got, want any
		if err := json.Unmarshal(resp.Result, &got); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(direct, &want); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\nover a session %s\nwith CallTool  %s", tc.args, resp.Result, direct)
		}
	}
}

// parseJSONObject decodes s as a json.Decoder with UseNumber does.
func parseJSONObject(t *testing.T, s string) map[string]any {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var obj map[string]any
	if err := dec.Decode(&obj); err != nil {
		t.Fatal(err)
	}
	return obj
}
