package server

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"unsafe"

	"github.com/stdiotools/toolserver/i18n"
	"github.com/stdiotools/toolserver/internal/jsonwire"
	"github.com/stdiotools/toolserver/schemagen"
)

// Handler is the function behind a tool: it receives the arguments
// already checked against the input schema and decoded into In, and
// returns the result as Out.
//
// A returned error is the tool's answer to the model: its text becomes an
// error result (isError) that the model reads, so write it as a sentence
// that says what went wrong and how to proceed. Wrap an error with
// [Internal] to log it in full and show the model only a safe sentence.
type Handler[In, Out any] func(ctx context.Context, call *Call, in In) (Out, error)

// MetaProblems is the _meta key under which an error result for invalid
// arguments lists every problem, for programs: kind, path, rule and
// message of each.
const MetaProblems = "io.github.stdiotools/problems"

// AddTool registers a tool whose arguments are the struct In and whose
// result is the struct Out. The JSON Schemas of both come from their
// struct tags (see package [schemagen]); they are built and compiled here,
// once, and a bad definition is reported now rather than at the first
// call. A spec with [ToolSpec.Schemas] lists the schemas saved there
// instead, and builds the validator of In at the tool's first call (see
// [SavedSchemas]).
//
// Every call runs three stages, each failing in its own words: the
// arguments are parsed and validated (coercing only what is safe), then h
// runs, then Out is encoded as structuredContent with the same JSON as
// text content. A policy may run the tool more than once for one call (a
// retry): the arguments are validated once, the execute stage spans
// every run, and the memory a failed run reserved ([Call.Reserve]) is
// given back before the next.
func AddTool[In, Out any](s *Server, spec ToolSpec, h Handler[In, Out]) error {
	if h == nil {
		return fmt.Errorf("tool %q has no handler", spec.Name)
	}
	t, input, err := s.newTool(spec, reflect.TypeFor[In](), reflect.TypeFor[Out]())
	if err != nil {
		return err
	}
	name := spec.Name
	t.handler = func(ctx context.Context, call *Call) (*CallToolResult, error) {
		in, err := input()
		if err != nil {
			return nil, Internal(err)
		}
		var v In
		if call.ran.CompareAndSwap(false, true) {
			call.beginStage(stageValidate)
			report, err := decodeArguments(in, call, &v)
			call.endStageReport(stageValidate, err, report)
			for _, c := range report.Coercions {
				call.Log(LevelInfo, map[string]string{"event": "coerced an argument", "argument": c.Path, "from": c.From, "to": c.To})
			}
			if err != nil {
				return nil, &invalidArguments{err}
			}
			call.beginStage(stageExecute)
		} else if _, err := in.Decode(call.args, &v); err != nil {
			// Run again for the call (a retry): the arguments were
			// validated, and their coercions reported, the first time; the
			// execute stage that run began covers this one.
			return nil, &invalidArguments{err}
		}
		held := call.heldMemory()
		o, err := h(ctx, call, v)
		if err != nil {
			// A failed run holds none of the data it reserved memory for:
			// what it reserved is given back, so that a run after it (a
			// retry) holds only its own. The stage stays the call's until
			// a run succeeds or the call is answered (failStage).
			call.releaseMemoryAbove(held)
			call.failStage(stageExecute, err)
			return nil, err
		}
		call.endStage(stageExecute, nil)
		return structured(call.Lang(), name, o), nil
	}
	return s.tools.add(t)
}

// newTool returns the tool of spec, whose arguments are of type in and
// result of type out, with its schemas, and the function that gives the
// validator of its arguments: built now, or at the first call when the
// spec has saved schemas. It holds what AddTool does not need In and Out
// for, so that each instantiation of AddTool stays small.
func (s *Server) newTool(spec ToolSpec, in, out reflect.Type) (*tool, func() (*schemagen.Schema, error), error) {
	t := &tool{spec: spec, in: in, out: out}
	if saved := spec.Schemas; saved != nil {
		if err := saved.check(); err != nil {
			return nil, nil, fmt.Errorf("tool %q: %w", spec.Name, err)
		}
		t.info.InputSchema, t.info.OutputSchema = saved.input(), saved.output()
		return t, sync.OnceValues(func() (*schemagen.Schema, error) { return s.savedInput(spec, in) }), nil
	}
	inSchema, outSchema, err := reflectSchemas(spec, in, out)
	if err != nil {
		return nil, nil, err
	}
	t.info.InputSchema, t.info.OutputSchema = inSchema.JSON(), outSchema.JSON()
	return t, func() (*schemagen.Schema, error) { return inSchema, nil }, nil
}

// reflectSchemas builds the input schema of in and the output schema of
// out, and checks spec's declarations against the first.
func reflectSchemas(spec ToolSpec, in, out reflect.Type) (inSchema, outSchema *schemagen.Schema, err error) {
	inSchema, err = schemagen.New(in)
	if err != nil {
		return nil, nil, fmt.Errorf("tool %q: arguments %v: %w", spec.Name, in, err)
	}
	outSchema, err = schemagen.NewOutput(out)
	if err != nil {
		return nil, nil, fmt.Errorf("tool %q: result %v: %w", spec.Name, out, err)
	}
	if err := checkDeclarations(spec, inSchema); err != nil {
		return nil, nil, err
	}
	return inSchema, outSchema, nil
}

// decodeArguments checks the arguments of c against in and decodes them
// into dst. Arguments that the reader split into their members, in a
// line it checked whole (JSON and UTF-8), are decoded member by member
// where it found each, without being checked again (jsonwire.DecodeValid),
// so that a long string is crossed once more, to be decoded, and
// schemagen is handed the object. Otherwise (a call from
// CallTool, more members than the reader keeps, a name given twice, a
// value refused) schemagen parses the raw arguments, and says what is
// wrong with them.
func decodeArguments(in *schemagen.Schema, c *Call, dst any) (schemagen.Report, error) {
	if obj, ok := c.argumentObject(); ok {
		return in.DecodeValue(obj, dst)
	}
	return in.Decode(c.args, dst)
}

// argumentObject decodes the members of the arguments, if the reader
// found them, into an object as schemagen.DecodeValue takes it.
func (c *Call) argumentObject() (map[string]any, bool) {
	if c.members == nil {
		return nil, false
	}
	obj := make(map[string]any, len(c.members))
	for _, m := range c.members {
		if _, twice := obj[m.name]; twice {
			return nil, false
		}
		v, ok := jsonwire.DecodeValid(m.value)
		if !ok {
			return nil, false
		}
		// The name shares the request's bytes (viewString); the object
		// keeps a copy, as its values are copies.
		obj[strings.Clone(m.name)] = v
	}
	return obj, true
}

// checkDeclarations checks that the arguments a spec names for the
// policies exist in the input schema with the right types: each of
// Targets a string or a list of strings, DryRun a boolean.
func checkDeclarations(spec ToolSpec, in *schemagen.Schema) error {
	for _, name := range spec.Targets {
		typ, items, ok := in.PropertyType(name)
		if !ok || !(typ == "string" || typ == "array" && items == "string") {
			return fmt.Errorf("tool %q: Targets names %q, which is not a string or list of strings argument", spec.Name, name)
		}
	}
	if spec.DryRun != "" {
		if typ, _, ok := in.PropertyType(spec.DryRun); !ok || typ != "boolean" {
			return fmt.Errorf("tool %q: DryRun names %q, which is not a boolean argument", spec.Name, spec.DryRun)
		}
	}
	return nil
}

// ContentProvider is implemented by a result type that chooses the
// content blocks the model reads, such as the text of a file or an image.
// The struct itself still goes out as structuredContent, so a large field
// shown in the content should be left out of the JSON (json:"-") rather
// than sent twice.
type ContentProvider interface {
	Content() []Content
}

// JSONAppender is implemented by a result type that writes its own JSON
// for structuredContent, such as a listing of a thousand entries, which
// reflection would take most of a call to encode. AppendJSON appends to b
// exactly what encoding/json writes for the value with HTML escaping off
// (an Encoder after SetEscapeHTML(false), without its newline), or
// returns the error encoding/json would. What it writes is sent as it is,
// unchecked: hold it to encoding/json with a test.
type JSONAppender interface {
	AppendJSON(b []byte) ([]byte, error)
}

// structured returns a successful result carrying o as structuredContent
// and, for clients that only read text, the same JSON as text (or the
// blocks o provides, if it is a [ContentProvider]). A result that cannot
// be encoded is an error result that says so in lang.
func structured(lang i18n.Lang, name string, o any) *CallToolResult {
	var b []byte
	var err error
	if ja, ok := o.(JSONAppender); ok {
		b, err = ja.AppendJSON(nil)
	} else {
		b, err = jsonwire.Marshal(o)
	}
	if err != nil {
		return ErrorResult(say(lang, msgNotEncoded, name, trimJSONPrefix(err.Error())))
	}
	if cp, ok := o.(ContentProvider); ok {
		return &CallToolResult{Content: cp.Content(), StructuredContent: json.RawMessage(b), encoded: true}
	}
	// The result and its one text block in one allocation, the text
	// sharing the JSON's bytes, which nothing writes to after this.
	r := &textResult{}
	r.block[0] = TextContent(unsafe.String(unsafe.SliceData(b), len(b)))
	r.res.Content, r.res.StructuredContent, r.res.encoded = r.block[:], json.RawMessage(b), true
	return &r.res
}

// textResult is a result with one text block, allocated together.
type textResult struct {
	res   CallToolResult
	block [1]Content
}
