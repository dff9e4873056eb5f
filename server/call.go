package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"
	"time"

	"github.com/sourcegraph/jsonrpc2"
)

// Call is one running tools/call, handed to the tool's handler. Through it
// a tool reports progress and sends log messages to the client.
type Call struct {
	// Tool is the name of the tool being called.
	Tool string
	// ID is the request id exactly as the client sent it; empty for calls
	// that did not come over the protocol.
	ID json.RawMessage

	sess  *session        // nil outside a session
	token json.RawMessage // the client's progressToken, if any

	mu       sync.Mutex // orders progress notifications before the response
	last     float64
	reported bool
	done     bool
}

// callParams are the params of tools/call.
type callParams struct {
	Name      *string         `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	Meta      struct {
		ProgressToken json.RawMessage `json:"progressToken"`
	} `json:"_meta"`
}

// startCall takes a slot for a tools/call and runs it in its own
// goroutine. While every slot is taken it blocks, and with it the reader:
// that is the back-pressure that bounds a session's memory.
func (s *session) startCall(env envelope) {
	s.slots <- struct{}{}
	ctx, cancel := context.WithCancel(s.base)
	fl := &inflight{cancel: cancel}
	s.mu.Lock()
	_, dup := s.inflight[env.key]
	if !dup {
		s.inflight[env.key] = fl
	}
	s.mu.Unlock()
	if dup {
		<-s.slots
		cancel()
		s.writeError(env.id, jsonrpc2.CodeInvalidRequest, fmt.Sprintf(
			"Invalid Request: id %s belongs to a call still in progress; use a new id for each request", shorten(env.id, 24)))
		return
	}
	s.running.Add(1)
	go func() {
		defer func() {
			cancel()
			<-s.slots
			s.running.Done()
		}()
		s.runCall(ctx, env, fl)
	}()
}

// runCall answers one tools/call.
func (s *session) runCall(ctx context.Context, env envelope, fl *inflight) {
	start := time.Now()
	forget := func() bool {
		s.mu.Lock()
		delete(s.inflight, env.key)
		s.mu.Unlock()
		return fl.cancelled
	}
	t, args, perr := s.srv.resolve(env.params)
	if perr != nil {
		forget()
		s.writeError(env.id, perr.code, perr.message)
		return
	}
	call := &Call{Tool: t.spec.Name, ID: env.id, sess: s}
	if env.params != nil {
		var p callParams
		_ = json.Unmarshal(env.params, &p) // resolve has checked it
		call.token = p.Meta.ProgressToken
	}
	res := s.srv.execute(ctx, t, call, args)
	call.finish()
	if forget() {
		s.log.Info().RawJSON("id", env.id).Str("tool", t.spec.Name).Dur("took", time.Since(start)).
			Msg("call cancelled; no response sent")
		return
	}
	b, err := appendResult(nil, env.id, res)
	if err != nil {
		s.log.Error().Err(err).Str("tool", t.spec.Name).Msg("cannot encode the tool's result")
		b, _ = appendResult(nil, env.id, ErrorResult(fmt.Sprintf(
			"The result of %s could not be encoded as JSON; this is a bug in the tool, and the details are in the server log.", t.spec.Name)))
	}
	_ = s.stream.writeLine(b)
	s.log.Info().RawJSON("id", env.id).Str("tool", t.spec.Name).Bool("is_error", res.IsError).
		Dur("took", time.Since(start)).Msg("call")
}

// resolve checks the params of a tools/call and finds the tool. Its
// errors are the protocol errors MCP prescribes (-32602).
func (s *Server) resolve(params json.RawMessage) (*tool, json.RawMessage, *wireError) {
	bad := func(format string, a ...any) *wireError {
		return &wireError{code: jsonrpc2.CodeInvalidParams, message: "Invalid params: " + fmt.Sprintf(format, a...)}
	}
	if params == nil {
		return nil, nil, bad(`tools/call needs params with "name", the tool to run, and "arguments"`)
	}
	var p callParams
	if err := json.Unmarshal(params, &p); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return nil, nil, bad("%q has the wrong type (%s); see the tools/call request in MCP", te.Field, te.Value)
		}
		return nil, nil, bad("tools/call params could not be read: %s", trimJSONPrefix(err.Error()))
	}
	if p.Name == nil {
		return nil, nil, bad(`tools/call needs "name", the tool to run; available tools: %s`, s.tools.names())
	}
	args := p.Arguments
	if string(args) == "null" {
		args = nil // typed clients send a nil map as null; it means no arguments
	}
	if args != nil && args[0] != '{' {
		return nil, nil, bad(`"arguments" must be a JSON object, got %s`, jsonKind(args[0]))
	}
	t := s.tools.byName[*p.Name]
	if t == nil {
		return nil, nil, bad("unknown tool %q; available tools: %s", shortenString(*p.Name, 40), s.tools.names())
	}
	return t, args, nil
}

// execute runs a tool's handler. A panic becomes an error result and a
// logged stack; the server keeps serving.
func (s *Server) execute(ctx context.Context, t *tool, call *Call, args json.RawMessage) (res *CallToolResult) {
	defer func() {
		if r := recover(); r != nil {
			s.log.Error().Str("tool", t.spec.Name).Interface("panic", r).Str("stack", string(debug.Stack())).
				Msg("tool panicked")
			res = ErrorResult(fmt.Sprintf(
				"The tool %s failed with an internal error; the details are in the server log. Try again, or use another way.", t.spec.Name))
		}
	}()
	res = t.run(ctx, call, args)
	if res == nil {
		res = ErrorResult(fmt.Sprintf("The tool %s returned no result; this is a bug in the tool.", t.spec.Name))
	}
	return res
}

// CallTool runs one tool call outside any session, with exactly the
// checks of the protocol path. The error reports a request MCP would
// refuse with a JSON-RPC error (an unknown tool, arguments that are not an
// object); everything else is in the result.
func (s *Server) CallTool(ctx context.Context, name string, args json.RawMessage) (*CallToolResult, error) {
	params, err := json.Marshal(struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments,omitempty"`
	}{name, args})
	if err != nil {
		return nil, fmt.Errorf("call %s: arguments are not valid JSON", name)
	}
	t, args, werr := s.resolve(params)
	if werr != nil {
		return nil, errors.New(werr.message)
	}
	return s.execute(ctx, t, &Call{Tool: name}, args), nil
}

// finish marks the call answered: progress reported after this point is
// dropped, so that no notification follows the response.
func (c *Call) finish() {
	c.mu.Lock()
	c.done = true
	c.mu.Unlock()
}
