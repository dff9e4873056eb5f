package server

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/rs/zerolog"
	"github.com/stdiotools/toolserver/security"
)

// pointSchemas returns the schemas of a tool of pointArgs and anyOut as
// AddTool reflects them.
func pointSchemas(t *testing.T) SavedSchemas {
	t.Helper()
	in, out, err := reflectSchemas(ToolSpec{Name: "point"}, reflect.TypeFor[pointArgs](), reflect.TypeFor[anyOut]())
	if err != nil {
		t.Fatal(err)
	}
	return SavedSchemas{Input: string(in.JSON()), Output: string(out.JSON())}
}

func pointTool(ctx context.Context, call *Call, in pointArgs) (anyOut, error) {
	return anyOut{V: in.X}, nil
}

func TestSavedSchemasAreListedAsReflectionWritesThem(t *testing.T) {
	saved := pointSchemas(t)
	reflected, withSaved := New(Options{}), New(Options{})
	if err := AddTool(reflected, ToolSpec{Name: "point", Description: "d"}, pointTool); err != nil {
		t.Fatal(err)
	}
	if err := AddTool(withSaved, ToolSpec{Name: "point", Description: "d", Schemas: &saved}, pointTool); err != nil {
		t.Fatal(err)
	}
	a, b := reflected.tools.list[0], withSaved.tools.list[0]
	if !bytes.Equal(a.listing, b.listing) {
		t.Errorf("listings differ:\n reflected %s\n saved     %s", a.listing, b.listing)
	}
	res, _ := withSaved.CallTool(context.Background(), "point", json.RawMessage(`{"x":"7","y":8}`))
	if res.IsError || callText(t, res) != `{"v":7}` {
		t.Fatalf("a valid call with saved schemas: %+v", res)
	}
	res, _ = withSaved.CallTool(context.Background(), "point", json.RawMessage(`{"x":200}`))
	if !res.IsError || !strings.Contains(callText(t, res), `"x" must be at most 100, got 200`) {
		t.Fatalf("an invalid call with saved schemas was not refused as reflection would: %+v", res)
	}
}

func TestSavedSchemasAreNotReflectedBeforeTheFirstCall(t *testing.T) {
	// A definition reflection refuses shows that nothing was reflected at
	// registration: the fault surfaces at the first call, internally.
	var logs bytes.Buffer
	srv := New(Options{Logger: zerolog.New(&logs)})
	saved := SavedSchemas{Input: `{"type":"object"}`}
	err := AddTool(srv, ToolSpec{Name: "rec", Description: "d", Schemas: &saved},
		func(ctx context.Context, call *Call, in recursive) (anyOut, error) { return anyOut{}, nil })
	if err != nil {
		t.Fatalf("registration reflected the types: %v", err)
	}
	if got := string(srv.tools.list[0].listing); !strings.Contains(got, `"inputSchema":{"type":"object"}`) || strings.Contains(got, "outputSchema") {
		t.Errorf("the listing does not hold the saved schemas as they are: %s", got)
	}
	res, _ := srv.CallTool(context.Background(), "rec", json.RawMessage(`{}`))
	if !res.IsError || !strings.Contains(callText(t, res), "internal error") {
		t.Fatalf("the call of a tool whose types cannot be reflected: %+v", res)
	}
	if !strings.Contains(logs.String(), "recursive") {
		t.Errorf("the log does not say why: %s", logs.String())
	}
}

func TestSavedSchemasCheckDeclarationsAtTheFirstCall(t *testing.T) {
	saved := pointSchemas(t)
	srv := New(Options{Logger: zerolog.Nop()})
	spec := ToolSpec{Name: "point", Description: "d", Level: security.Write, Targets: []string{"x"}, Schemas: &saved}
	if err := AddTool(srv, spec, pointTool); err != nil {
		t.Fatal(err)
	}
	res, _ := srv.CallTool(context.Background(), "point", json.RawMessage(`{"x":1,"y":2}`))
	if !res.IsError || !strings.Contains(callText(t, res), "internal error") {
		t.Fatalf("a call of a tool whose Targets names an integer: %+v", res)
	}
	if _, err := srv.ReflectSchemas(); err == nil || !strings.Contains(err.Error(), `Targets names "x"`) {
		t.Errorf("ReflectSchemas did not check the declarations: %v", err)
	}
}

func TestStaleSavedInputSchemaIsLoggedAndTheTypeDecides(t *testing.T) {
	saved := pointSchemas(t)
	saved.Input = strings.Replace(saved.Input, `"maximum":100`, `"maximum":1000`, 1)
	var logs bytes.Buffer
	srv := New(Options{Logger: zerolog.New(&logs)})
	if err := AddTool(srv, ToolSpec{Name: "point", Description: "d", Schemas: &saved}, pointTool); err != nil {
		t.Fatal(err)
	}
	res, _ := srv.CallTool(context.Background(), "point", json.RawMessage(`{"x":200,"y":1}`))
	if !res.IsError {
		t.Fatalf("the saved schema, not the type, decided: %+v", res)
	}
	if !strings.Contains(logs.String(), "saved input schema of this tool differs") {
		t.Errorf("a stale saved schema was not logged: %s", logs.String())
	}
}

func TestReflectSchemasGivesEveryToolInOrder(t *testing.T) {
	saved := pointSchemas(t)
	srv := New(Options{ReadOnly: true})
	if err := AddTool(srv, ToolSpec{Name: "plain", Description: "d", Level: security.Write}, pointTool); err != nil {
		t.Fatal(err)
	}
	if err := AddTool(srv, ToolSpec{Name: "point", Description: "d", Schemas: &saved}, pointTool); err != nil {
		t.Fatal(err)
	}
	got, err := srv.ReflectSchemas()
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Name != "plain" || got[1].Name != "point" {
		t.Fatalf("tools %+v, want plain (hidden by the level, still there) and point", got)
	}
	if got[0].Saved != nil || got[1].Saved != &saved {
		t.Errorf("saved schemas: %v, %v", got[0].Saved, got[1].Saved)
	}
	for _, ts := range got {
		if ts.Reflected != saved {
			t.Errorf("%s: reflected %+v, want %+v", ts.Name, ts.Reflected, saved)
		}
	}
}

func TestSavedSchemasThatWouldBreakTheListingAreRefused(t *testing.T) {
	// Saved schemas are listed as they are, inside the one line of
	// tools/list: a newline in one would cut it where the client reads a
	// message's end, and one that is not an object in UTF-8 would spoil
	// the listing. Such a definition is refused at registration.
	good := pointSchemas(t)
	var indented bytes.Buffer
	if err := json.Indent(&indented, []byte(good.Input), "", "  "); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		saved SavedSchemas
	}{
		{"input not JSON", SavedSchemas{Input: good.Input[:len(good.Input)-1], Output: good.Output}},
		{"output not UTF-8", SavedSchemas{Input: good.Input, Output: good.Output[:1] + "\xff" + good.Output[1:]}},
		{"input indented", SavedSchemas{Input: indented.String(), Output: good.Output}},
		{"output with a newline", SavedSchemas{Input: good.Input, Output: good.Output + "\n"}},
		{"input with a carriage return", SavedSchemas{Input: "\r" + good.Input, Output: good.Output}},
		{"input not an object", SavedSchemas{Input: `"point"`, Output: good.Output}},
		{"output not an object", SavedSchemas{Input: good.Input, Output: `[]`}},
	}
	for _, tc := range cases {
		srv := New(Options{Logger: zerolog.Nop()})
		err := AddTool(srv, ToolSpec{Name: "point", Description: "d", Schemas: &tc.saved}, pointTool)
		if err == nil || !strings.Contains(err.Error(), `tool "point": saved `) {
			t.Errorf("%s: AddTool gave %v, want an error about the saved schemas", tc.name, err)
		}
	}
	// What CheckSavedSchemas writes, and the empty output of a tool
	// without one, are taken.
	for _, saved := range []SavedSchemas{good, {Input: good.Input}} {
		if err := AddTool(New(Options{}), ToolSpec{Name: "point", Description: "d", Schemas: &saved}, pointTool); err != nil {
			t.Errorf("%+v: %v", saved, err)
		}
	}
}

func TestConcurrentFirstCallsWithSavedSchemasAgree(t *testing.T) {
	// The validator is built at the first call, which many calls may make
	// at once: each must see the same build, a failed one included, and
	// a failure must stay one for every later call.
	good := pointSchemas(t)
	srv := New(Options{Logger: zerolog.Nop()})
	if err := AddTool(srv, ToolSpec{Name: "point", Description: "d", Schemas: &good}, pointTool); err != nil {
		t.Fatal(err)
	}
	bad := good
	if err := AddTool(srv, ToolSpec{Name: "bad", Description: "d", Level: security.Write, Targets: []string{"x"}, Schemas: &bad}, pointTool); err != nil {
		t.Fatal(err)
	}
	const n = 16
	type answer struct {
		tool string
		res  *CallToolResult
	}
	answers := make(chan answer, 2*n)
	for range n {
		for _, call := range [...]struct{ tool, args string }{{"point", `{"x":200,"y":1}`}, {"bad", `{"x":1,"y":1}`}} {
			go func() {
				res, _ := srv.CallTool(context.Background(), call.tool, json.RawMessage(call.args))
				answers <- answer{call.tool, res}
			}()
		}
	}
	want := map[string]string{"point": `"x" must be at most 100, got 200`, "bad": "internal error"}
	for range 2 * n {
		a := <-answers
		if !a.res.IsError || !strings.Contains(callText(t, a.res), want[a.tool]) {
			t.Fatalf("a first call of %s: %+v, want an error saying %q", a.tool, a.res, want[a.tool])
		}
	}
	for range 2 {
		if res, _ := srv.CallTool(context.Background(), "bad", json.RawMessage(`{"x":1,"y":1}`)); !res.IsError || !strings.Contains(callText(t, res), "internal error") {
			t.Fatalf("a call after the failed build: %+v", res)
		}
	}
}

func TestToolsGivesSchemasTheCallerOwns(t *testing.T) {
	// Saved schemas are listed from the bytes of their strings, which may
	// be constants in read-only memory, where a write faults; and the
	// server reads them again at the first call. What Tools returns is the
	// caller's to change.
	saved := pointSchemas(t)
	want := SavedSchemas{Input: strings.Clone(saved.Input), Output: strings.Clone(saved.Output)}
	var logs bytes.Buffer
	srv := New(Options{Logger: zerolog.New(&logs)})
	if err := AddTool(srv, ToolSpec{Name: "point", Description: "d", Schemas: &saved}, pointTool); err != nil {
		t.Fatal(err)
	}
	for _, tool := range srv.Tools() {
		for _, schema := range []json.RawMessage{tool.InputSchema, tool.OutputSchema} {
			for i := range schema {
				schema[i] = ' '
			}
		}
	}
	if saved != want {
		t.Fatalf("a change to what Tools returned changed the saved schemas:\n %+v", saved)
	}
	if got := srv.Tools()[0]; string(got.InputSchema) != want.Input || string(got.OutputSchema) != want.Output {
		t.Fatalf("a change to what Tools returned changed the server's tools: %s %s", got.InputSchema, got.OutputSchema)
	}
	if res, _ := srv.CallTool(context.Background(), "point", json.RawMessage(`{"x":1,"y":2}`)); res.IsError {
		t.Fatalf("%+v", res)
	}
	if strings.Contains(logs.String(), "differs") {
		t.Errorf("the saved schema was taken for stale: %s", logs.String())
	}
}
