package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"time"
	"unsafe"

	"github.com/stdiotools/toolserver/schemagen"
	"github.com/stdiotools/toolserver/security"
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
// call.
//
// Every call runs three stages, each failing in its own words: the
// arguments are parsed and validated (coercing only what is safe), then h
// runs, then Out is encoded as structuredContent with the same JSON as
// text content.
func AddTool[In, Out any](s *Server, spec ToolSpec, h Handler[In, Out]) error {
	if h == nil {
		return fmt.Errorf("tool %q has no handler", spec.Name)
	}
	in, err := schemagen.New(reflect.TypeFor[In]())
	if err != nil {
		return fmt.Errorf("tool %q: arguments %v: %w", spec.Name, reflect.TypeFor[In](), err)
	}
	out, err := schemagen.NewOutput(reflect.TypeFor[Out]())
	if err != nil {
		return fmt.Errorf("tool %q: result %v: %w", spec.Name, reflect.TypeFor[Out](), err)
	}
	t := &tool{spec: spec}
	t.info.InputSchema, t.info.OutputSchema = in.JSON(), out.JSON()
	t.pathArgs = in.PropertiesOfClass(security.ClassPath)
	lang := s.opts.Lang
	t.run = func(ctx context.Context, call *Call, args json.RawMessage) *CallToolResult {
		var v In
		vstart := time.Now()
		call.stageBegin("validate")
		report, err := in.Decode(args, &v)
		call.stageEnd(errText(err))
		s.logValidate(call, vstart, args, err)
		for _, c := range report.Coercions {
			s.log.Info().Str("tool", spec.Name).Str("argument", c.Path).Str("from", c.From).Str("to", c.To).
				Msg("coerced an argument")
			call.Log(LevelInfo, map[string]string{"event": "coerced an argument", "argument": c.Path, "from": c.From, "to": c.To})
		}
		if err != nil {
			res := invalidArguments(err, lang)
			if problems, ok := res.Meta[MetaProblems].([]map[string]string); ok {
				kinds := make([]string, len(problems))
				for i, p := range problems {
					kinds[i] = p["kind"]
				}
				s.opts.Observer.ArgumentsRefused(spec.Name, kinds)
			}
			return res
		}
		start := time.Now()
		call.stageBegin("execute")
		o, tries, err := retry(ctx, attempts(spec), s.sleep, h, call, v)
		call.attempts.Store(int32(tries))
		var res *CallToolResult
		if err != nil {
			res = s.toolError(call, err)
		} else {
			res = structured(spec.Name, o)
		}
		call.stageEnd(errText(err))
		s.logExecute(call, start, tries, err)
		if tries > 1 {
			if res.Meta == nil {
				res.Meta = map[string]any{}
			}
			res.Meta[MetaExecution] = map[string]any{"attempts": tries, "ms": time.Since(start).Milliseconds()}
		}
		return res
	}
	return s.tools.add(t)
}

// invalidArguments turns a validation failure into the error result the
// model reads, with every problem in _meta for programs.
func invalidArguments(err error, lang schemagen.Lang) *CallToolResult {
	var verr *schemagen.Errors
	if !errors.As(err, &verr) {
		return ErrorResult(err.Error())
	}
	res := ErrorResult(verr.Text(lang))
	problems := make([]map[string]string, len(verr.Problems))
	for i, p := range verr.Problems {
		problems[i] = map[string]string{"kind": p.Kind.String(), "path": p.Path, "rule": p.Rule, "message": p.Message(lang)}
	}
	res.Meta = map[string]any{MetaProblems: problems}
	return res
}

// ContentProvider is implemented by a result type that chooses the
// content blocks the model reads, such as the text of a file or an image.
// The struct itself still goes out as structuredContent, so a large field
// shown in the content should be left out of the JSON (json:"-") rather
// than sent twice.
type ContentProvider interface {
	Content() []Content
}

// structured returns a successful result carrying o as structuredContent
// and, for clients that only read text, the same JSON as text (or the
// blocks o provides, if it is a [ContentProvider]).
func structured(name string, o any) *CallToolResult {
	b, err := marshalNoEscape(o)
	if err != nil {
		return ErrorResult(fmt.Sprintf("The result of %s could not be encoded as JSON (%s); this is a bug in the tool.",
			name, trimJSONPrefix(err.Error())))
	}
	if cp, ok := o.(ContentProvider); ok {
		return &CallToolResult{Content: cp.Content(), StructuredContent: json.RawMessage(b)}
	}
	// The result and its one text block in one allocation, the text
	// sharing the JSON's bytes, which nothing writes to after this.
	r := &textResult{}
	r.block[0] = TextContent(unsafe.String(unsafe.SliceData(b), len(b)))
	r.res.Content, r.res.StructuredContent = r.block[:], json.RawMessage(b)
	return &r.res
}

// textResult is a result with one text block, allocated together.
type textResult struct {
	res   CallToolResult
	block [1]Content
}

// internalError marks an error whose text is for the log only.
type internalError struct{ err error }

func (e *internalError) Error() string { return e.err.Error() }
func (e *internalError) Unwrap() error { return e.err }

// Internal marks err as an internal failure: the server logs it in full
// and the model sees only a sentence saying that the tool failed.
func Internal(err error) error {
	if err == nil {
		return nil
	}
	return &internalError{err}
}

// toolError turns a handler's error into the result the model reads.
func (s *Server) toolError(call *Call, err error) *CallToolResult {
	name := call.Tool
	s.observePathError(name, err)
	var ie *internalError
	if errors.As(err, &ie) {
		s.log.Error().Str("tool", name).Err(err).Msg("tool failed internally")
		call.Log(LevelError, "the tool failed with an internal error; the details are in the server log")
		return ErrorResult(fmt.Sprintf("The tool %s failed with an internal error; the details are in the server log.", name))
	}
	if errors.Is(err, context.Canceled) {
		return ErrorResult(fmt.Sprintf("The call to %s was cancelled before it finished.", name))
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return ErrorResult(fmt.Sprintf("The call to %s ran out of time before it finished.", name))
	}
	return ErrorResult(err.Error())
}
