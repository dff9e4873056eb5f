package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/rs/zerolog"
	"github.com/stdiotools/toolserver/i18n"
	"github.com/stdiotools/toolserver/schemagen"
)

type pointArgs struct {
	X   int    `json:"x" minimum:"0" maximum:"100" description:"Across."`
	Y   int    `json:"y" minimum:"0" maximum:"100" description:"Down."`
	Tag string `json:"tag,omitempty" chars:"ident" description:"A label."`
}

type rangeArgs struct {
	Start int `json:"start" description:"First."`
	End   int `json:"end" description:"Last."`
}

func (r rangeArgs) Validate() error {
	if r.End < r.Start {
		return errors.New("end must not be before start")
	}
	return nil
}

type anyOut struct {
	V any `json:"v,omitempty" description:"Anything."`
}

type recursive struct {
	Name string      `json:"name" description:"n"`
	Kids []recursive `json:"kids,omitempty" description:"k"`
}

type noArgs struct{}

func TestAddToolRefusesBadDefinitions(t *testing.T) {
	srv := New(Options{})
	h := func(ctx context.Context, call *Call, in noArgs) (anyOut, error) { return anyOut{}, nil }
	cases := []struct {
		name string
		err  error
		want string
	}{
		{"an invalid name", AddTool(srv, ToolSpec{Name: "a b", Description: "d"}, h), `tool name "a b" is invalid`},
		{"a missing description", AddTool(srv, ToolSpec{Name: "nodesc"}, h), `tool "nodesc" has no description`},
		{"a nil handler", AddTool[noArgs, anyOut](srv, ToolSpec{Name: "nil", Description: "d"}, nil), `tool "nil" has no handler`},
		{"a recursive argument type", AddTool(srv, ToolSpec{Name: "rec", Description: "d"},
			func(ctx context.Context, call *Call, in recursive) (anyOut, error) { return anyOut{}, nil }), "recursive"},
		{"arguments that are not a struct", AddTool(srv, ToolSpec{Name: "str", Description: "d"},
			func(ctx context.Context, call *Call, in string) (anyOut, error) { return anyOut{}, nil }), "not a struct"},
		{"a result that is not a struct", AddTool(srv, ToolSpec{Name: "out", Description: "d"},
			func(ctx context.Context, call *Call, in noArgs) (int, error) { return 0, nil }), "not a struct"},
	}
	for _, tc := range cases {
		if tc.err == nil || !strings.Contains(tc.err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an error containing %q", tc.name, tc.err, tc.want)
		}
	}
	if len(srv.Tools()) != 0 {
		t.Fatalf("refused tools were registered: %v", srv.Tools())
	}
}

func callText(t *testing.T, res *CallToolResult) string {
	t.Helper()
	if len(res.Content) == 0 {
		t.Fatalf("no content: %+v", res)
	}
	return res.Content[0].Text()
}

func TestAddToolValidatesBeforeTheHandlerRuns(t *testing.T) {
	var logs bytes.Buffer
	srv := New(Options{Logger: zerolog.New(&logs)})
	ran := 0
	err := AddTool(srv, ToolSpec{Name: "point", Description: "d"}, func(ctx context.Context, call *Call, in pointArgs) (pointArgs, error) {
		ran++
		return in, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	res, _ := srv.CallTool(context.Background(), "point", json.RawMessage(`{"x":"200","tag":"a b","z":1}`))
	if !res.IsError || ran != 0 {
		t.Fatalf("invalid arguments reached the handler: %+v", res)
	}
	want := "missing required argument \"y\" (an integer); add it\n\"x\" must be at most 100, got 200\n\"tag\": character ' ' at position 2 is not allowed; use letters, digits, '_' and '-'\n…and 1 more"
	if got := callText(t, res); got != want {
		t.Errorf("\n got  %q\n want %q", got, want)
	}
	problems := res.Meta[MetaProblems].([]map[string]string)
	if len(problems) != 4 || problems[0]["kind"] != "missing_required" || problems[3]["kind"] != "unknown_argument" || problems[3]["path"] != "z" {
		t.Errorf("_meta problems: %v", problems)
	}
	if res.StructuredContent != nil {
		t.Error("an error result carries structuredContent")
	}

	res, _ = srv.CallTool(context.Background(), "point", json.RawMessage(`{"x":"7","y":8}`))
	if res.IsError || ran != 1 {
		t.Fatalf("valid call failed: %+v", res)
	}
	if got := callText(t, res); got != `{"x":7,"y":8}` {
		t.Errorf("text %s", got)
	}
	if !strings.Contains(logs.String(), `"argument":"x","from":"\"7\"","to":"integer","message":"coerced an argument"`) {
		t.Errorf("the coercion was not logged: %s", logs.String())
	}
}

func TestAddToolSpeaksChinese(t *testing.T) {
	srv := New(Options{Lang: schemagen.Chinese})
	_ = AddTool(srv, ToolSpec{Name: "point", Description: "d"}, func(ctx context.Context, call *Call, in pointArgs) (pointArgs, error) {
		return in, nil
	})
	res, _ := srv.CallTool(context.Background(), "point", json.RawMessage(`{"x":1}`))
	if got := callText(t, res); !strings.Contains(got, "y") || got == "missing required argument \"y\" (an integer); add it" {
		t.Fatalf("not Chinese: %q", got)
	}
	for _, r := range callText(t, res) {
		if r >= 0x4e00 && r <= 0x9fff {
			return
		}
	}
	t.Fatalf("no Chinese characters in %q", callText(t, res))
}

func TestHandlersReadTheServersLanguage(t *testing.T) {
	for _, lang := range []schemagen.Lang{"", schemagen.English, schemagen.Chinese} {
		srv := New(Options{Lang: lang})
		var got schemagen.Lang
		_ = AddTool(srv, ToolSpec{Name: "lang", Description: "d"}, func(ctx context.Context, call *Call, in noArgs) (anyOut, error) {
			got = call.Lang()
			return anyOut{}, nil
		})
		if _, err := srv.CallTool(context.Background(), "lang", nil); err != nil {
			t.Fatal(err)
		}
		want := lang
		if want == "" {
			want = schemagen.English
		}
		if got != want {
			t.Errorf("with Options.Lang %q, Call.Lang() = %q, want %q", lang, got, want)
		}
	}
	if got := (&Call{}).Lang(); got != schemagen.English {
		t.Errorf("a Call built by hand: Lang() = %q, want English", got)
	}
}

func TestAddToolRunsTheArgumentsOwnRules(t *testing.T) {
	srv := New(Options{})
	_ = AddTool(srv, ToolSpec{Name: "range", Description: "d"}, func(ctx context.Context, call *Call, in rangeArgs) (rangeArgs, error) {
		return in, nil
	})
	res, _ := srv.CallTool(context.Background(), "range", json.RawMessage(`{"start":5,"end":2}`))
	if !res.IsError || callText(t, res) != "end must not be before start" {
		t.Fatalf("%+v", res)
	}
}

func TestResultsNeverLie(t *testing.T) {
	srv := New(Options{})
	var out anyOut
	_ = AddTool(srv, ToolSpec{Name: "out", Description: "d"}, func(ctx context.Context, call *Call, in noArgs) (anyOut, error) {
		return out, nil
	})
	huge, _ := new(big.Int).SetString("123456789012345678901234567890123456789", 10)
	cases := []struct {
		name  string
		v     any
		text  string
		isErr bool
	}{
		{"NaN is refused, not sent as null", math.NaN(), "The result of out could not be encoded as JSON (unsupported value: NaN); this is a bug in the tool.", true},
		{"infinity is refused", math.Inf(1), "The result of out could not be encoded as JSON (unsupported value: +Inf); this is a bug in the tool.", true},
		{"integers beyond 2^53 keep every digit", int64(9007199254740993), `{"v":9007199254740993}`, false},
		{"big integers keep every digit", huge, `{"v":123456789012345678901234567890123456789}`, false},
		{"HTML characters are not escaped", "<b>&</b>", `{"v":"<b>&</b>"}`, false},
		{"a value that cannot be encoded is a tool error", make(chan int), "The result of out could not be encoded as JSON (unsupported type: chan int); this is a bug in the tool.", true},
	}
	for _, tc := range cases {
		out = anyOut{V: tc.v}
		res, err := srv.CallTool(context.Background(), "out", nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := callText(t, res); got != tc.text || res.IsError != tc.isErr {
			t.Errorf("%s: got %q (isError %v)", tc.name, got, res.IsError)
		}
		line, err := appendCallResult(nil, json.RawMessage("1"), res)
		if err != nil || !json.Valid(line) {
			t.Errorf("%s: response line %q: %v", tc.name, line, err)
		}
	}
}

func TestHandlerErrorsAreTheToolsWords(t *testing.T) {
	var logs bytes.Buffer
	srv := New(Options{Logger: zerolog.New(&logs)})
	var fail error
	_ = AddTool(srv, ToolSpec{Name: "t", Description: "d"}, func(ctx context.Context, call *Call, in noArgs) (anyOut, error) {
		return anyOut{}, fail
	})
	cases := []struct {
		err  error
		want string
	}{
		{errors.New("the file is locked; try again later"), "the file is locked; try again later"},
		{Internal(errors.New("open /home/secret/root/x: permission denied")), "The tool t failed with an internal error; the details are in the server log."},
		{context.Canceled, "The call to t was cancelled before it finished."},
		{context.DeadlineExceeded, "The call to t ran out of time before it finished."},
	}
	for _, tc := range cases {
		fail = tc.err
		res, _ := srv.CallTool(context.Background(), "t", nil)
		if !res.IsError || callText(t, res) != tc.want {
			t.Errorf("%v: got %q", tc.err, callText(t, res))
		}
	}
	if !strings.Contains(logs.String(), "/home/secret/root/x") {
		t.Error("the internal error's details were not logged")
	}
}

type fileOut struct {
	Path string `json:"path" description:"p"`
	Text string `json:"-"`
}

func (f fileOut) Content() []Content { return []Content{TextContent(f.Text)} }

func TestAContentProviderChoosesItsBlocks(t *testing.T) {
	srv := New(Options{})
	_ = AddTool(srv, ToolSpec{Name: "f", Description: "d"}, func(ctx context.Context, call *Call, in noArgs) (fileOut, error) {
		return fileOut{Path: "a.txt", Text: "hello\n"}, nil
	})
	res, _ := srv.CallTool(context.Background(), "f", nil)
	line, _ := appendCallResult(nil, json.RawMessage("1"), res)
	want := `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"hello\n"}],"structuredContent":{"path":"a.txt"}}}` + "\n"
	if string(line) != want {
		t.Fatalf("\n got  %s\n want %s", line, want)
	}
}

func TestCoercionsAndInternalErrorsReachTheClientLog(t *testing.T) {
	srv := New(Options{})
	_ = AddTool(srv, ToolSpec{Name: "point", Description: "d"}, func(ctx context.Context, call *Call, in pointArgs) (pointArgs, error) {
		if in.X == 99 {
			return in, Internal(errors.New("disk on fire"))
		}
		return in, nil
	})
	c := serve(t, srv)
	c.initialize()
	c.send(`{"jsonrpc":"2.0","id":1,"method":"logging/setLevel","params":{"level":"info"}}`)
	c.recv()
	c.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"point","arguments":{"x":"1","y":2}}}`)
	if got := c.recv(); got != `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"point","data":{"argument":"x","event":"coerced an argument","from":"\"1\"","to":"integer"}}}` {
		t.Fatalf("got %s", got)
	}
	c.recv()
	c.send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"point","arguments":{"x":99,"y":2}}}`)
	if got := c.recv(); !strings.Contains(got, `"level":"error"`) || strings.Contains(got, "disk on fire") {
		t.Fatalf("got %s", got)
	}
	if got := c.recv(); !strings.Contains(got, "failed with an internal error") {
		t.Fatalf("got %s", got)
	}
}

// appended is a result that writes its own JSON.
type appended struct {
	json string
	err  error
}

func (a appended) AppendJSON(b []byte) ([]byte, error) { return append(b, a.json...), a.err }

func TestStructuredResultsAreWrittenAsEncoded(t *testing.T) {
	id := json.RawMessage(`7`)
	values := []any{
		anyOut{V: "a<b & \u2028 \xff"},
		map[string]any{"k": []any{1.5, nil, true, "\n"}},
		struct {
			Path string `json:"path"`
		}{"d/é"},
	}
	for _, v := range values {
		res := structured(i18n.English, "t", v)
		got, err := appendCallResult(nil, id, res)
		if err != nil {
			t.Fatal(err)
		}
		checked := *res
		checked.encoded = false
		want, err := appendCallResult(nil, id, &checked)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%T: written as encoded\n%s\nchecked\n%s (%v)", v, got, want, err)
		}
	}
	t.Run("a JSONAppender writes its own", func(t *testing.T) {
		res := structured(i18n.English, "t", appended{json: `{"own":1}`})
		if raw, _ := res.StructuredContent.(json.RawMessage); string(raw) != `{"own":1}` || !res.encoded {
			t.Errorf("structuredContent = %s", res.StructuredContent)
		}
	})
	t.Run("and its error is reported as encoding/json's", func(t *testing.T) {
		res := structured(i18n.English, "t", appended{err: errors.New("json: no good")})
		if !res.IsError || !strings.Contains(res.Content[0].text, "could not be encoded as JSON (no good)") {
			t.Errorf("got %+v", res)
		}
	})
}
