package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"strings"
	"time"

	"github.com/sourcegraph/jsonrpc2"
	"github.com/stdiotools/toolserver/internal/jsonwire"
	"github.com/stdiotools/toolserver/security"
)

// This file builds the Call of a tools/call, in the reader: the params
// were scanned once, with the envelope, the tool is looked up once, and
// what the policies need (the progress token, the trace context, the
// targets, the dry run) is read here and nowhere else.

// newCall reads the params of a tools/call request. Its errors are the
// protocol errors MCP prescribes (-32602); the Call is returned with them,
// for the events of a refused request.
func (s *Server) newCall(r *request, received time.Time) (*Call, *wireError) {
	env := r.env
	c := s.requestCall(r, received)
	if env.params == nil {
		return c, badParams(`tools/call needs params with "name", the tool to run, and "arguments"`)
	}
	// The envelope found the members of params as it read the line.
	nameRaw, args := env.name, env.arguments
	if env.meta != nil {
		c.readMeta(env.meta)
	}
	c.inputResponses = env.inputResponses
	if env.requestState != nil {
		c.requestState, _ = decodeString(env.requestState)
	}
	if nameRaw == nil {
		return c, badParams(`tools/call needs "name", the tool to run; available tools: %s`, names(s.tools.visible(s.levelOf(c.grant))))
	}
	t, name, ok := s.tools.lookup(nameRaw)
	if !ok {
		return c, badParams(`"name" must be a string, got %s`, jsonKind(nameRaw[0]))
	}
	return c, s.bind(c, t, name, args, env.argMembers())
}

// requestCall returns the call of the request r, received then, with what
// every call of the protocol has: its id, session, principal, peer, trace
// and span.
func (s *Server) requestCall(r *request, received time.Time) *Call {
	env := r.env
	c := &Call{ID: env.id, key: env.key, srv: s, sess: r.sess, who: r.who, out: r.out, received: received, grant: r.grant}
	if r.sess != nil {
		c.trace = r.sess.trace
	} else {
		c.trace = newTraceID()
	}
	if s.opts.Tracer != nil {
		c.span = &CallSpan{RequestID: env.id, Session: c.trace, Start: received, Principal: c.who.name}
	}
	c.modern, c.logLevel, c.capabilities = r.era.modern, r.era.logLevel, r.era.capabilities
	return c
}

// readMeta reads the members of params._meta the server uses: the
// progress token and the W3C trace context.
func (c *Call) readMeta(meta []byte) {
	if meta[0] != '{' {
		return
	}
	var buf [8]member
	for _, m := range appendMembers(buf[:0], meta) {
		switch m.name {
		case "progressToken":
			if m.value[0] == '"' || m.value[0] >= '0' && m.value[0] <= '9' || m.value[0] == '-' {
				c.token = m.value
			}
		case "traceparent":
			c.traceParent, _ = decodeString(m.value)
		case "tracestate":
			c.traceState, _ = decodeString(m.value)
		}
	}
}

// bind checks the tool t, called by name, and the raw arguments, and
// fills in the call. t is nil for an unknown tool. members are the
// top-level members of args if the envelope found them, or nil.
func (s *Server) bind(c *Call, t *tool, name string, args json.RawMessage, members []member) *wireError {
	max := s.opts.maxLevel()
	shown := s.levelOf(c.grant)
	if string(args) == "null" {
		args = nil // typed clients send a nil map as null; it means no arguments
	}
	switch {
	case args != nil && args[0] != '{':
		return badParams(`"arguments" must be a JSON object, got %s`, jsonKind(args[0]))
	case t == nil:
		return badParams("unknown tool %q; available tools: %s", shortenString(name, 40), names(s.tools.visible(shown)))
	case !max.Allows(t.spec.Level):
		served := "read and write"
		if max == security.Read {
			served = "read"
		}
		return badParams("tool %q is not available: it needs the %s level and this server serves only %s tools; available tools: %s",
			name, t.spec.Level, served, names(s.tools.visible(shown)))
	case !shown.Allows(t.spec.Level):
		return c.refuseScope(c.grant, t)
	}
	c.tool, c.Tool, c.args = t, t.spec.Name, args
	if args != nil {
		c.members = members
	}
	if t.declares {
		c.readArguments(members)
	}
	return nil
}

// readArguments reads, from the top-level arguments (members, or split
// from c.args when nil), the targets and the dry-run flag the tool
// declares.
func (c *Call) readArguments(members []member) {
	if len(c.args) == 0 {
		return
	}
	spec := &c.tool.spec
	var seen map[string]struct{} // the targets, once there are many
	if members == nil {
		var buf [8]member
		members = appendMembers(buf[:0], c.args)
	}
	for _, m := range members {
		if spec.DryRun != "" && m.name == spec.DryRun {
			c.dryRun = string(m.value) == "true"
			continue
		}
		for _, name := range spec.Targets {
			if m.name != name {
				continue
			}
			if m.value[0] == '[' {
				for _, e := range arrayElements(m.value) {
					c.addTarget(e, &seen)
				}
			} else {
				c.addTarget(m.value, &seen)
			}
		}
	}
}

// addTarget adds a raw JSON string to the call's targets, in a lexically
// clean form, unless it is there already (so that a call never waits for
// itself). seen holds the targets once there are more than a few, so that
// a call naming many (a long list, or one argument repeated) costs linear
// time.
func (c *Call) addTarget(raw []byte, seen *map[string]struct{}) {
	s, ok := decodeString(raw)
	if !ok {
		return
	}
	var k string
	if c.srv != nil && c.srv.opts.TargetKey != nil {
		k = c.srv.opts.TargetKey(s)
	} else {
		if strings.IndexByte(s, '\\') >= 0 {
			// An escaped name (security.EscapeName) is the name it
			// stands for, however it is spelled.
			if d, err := security.UnescapeName(s); err == nil {
				s = d
			}
		}
		k = path.Clean("/" + strings.TrimPrefix(s, "./"))
	}
	if *seen != nil {
		if _, dup := (*seen)[k]; dup {
			return
		}
		(*seen)[k] = struct{}{}
	} else {
		for _, t := range c.targets {
			if t == k {
				return
			}
		}
		if len(c.targets) == maxTargetsScanned {
			*seen = make(map[string]struct{}, 2*maxTargetsScanned)
			for _, t := range c.targets {
				(*seen)[t] = struct{}{}
			}
			(*seen)[k] = struct{}{}
		}
	}
	c.targets = append(c.targets, k)
}

// maxTargetsScanned is how many targets addTarget compares a new one with
// before it keeps them in a set.
const maxTargetsScanned = 8

// arrayElements splits a valid JSON array into its elements.
func arrayElements(arr []byte) [][]byte {
	var out [][]byte
	i := jsonwire.SkipSpace(arr, 1)
	for i < len(arr) && arr[i] != ']' {
		if arr[i] == ',' {
			i = jsonwire.SkipSpace(arr, i+1)
			continue
		}
		end := jsonwire.Skip(arr, i)
		out = append(out, arr[i:end])
		i = jsonwire.SkipSpace(arr, end)
	}
	return out
}

// sessionless returns the handler a call outside any session runs
// through (CallTool, ReadResource): the tool, the retries and the timeout,
// inside Options.Policies; the policies of the protocol path that need a
// session or a line of calls (roots, order, exclusive, cache, confirm)
// are left out.
func (s *Server) sessionless() ToolHandler {
	h := s.timeoutPolicy(retryPolicy(s.sleep)(invoke))
	for i := len(s.opts.Policies) - 1; i >= 0; i-- {
		h = s.opts.Policies[i](h)
	}
	return h
}

// badParams is a -32602 error.
func badParams(format string, a ...any) *wireError {
	return &wireError{code: jsonrpc2.CodeInvalidParams, message: "Invalid params: " + fmt.Sprintf(format, a...)}
}

// CallTool runs one tool call outside any session, with exactly the
// checks of the protocol path: the arguments are validated, the call runs
// under its deadline, through [Options.Policies], and is retried as its
// [ToolSpec] allows. The error reports a request MCP would refuse with a
// JSON-RPC error (an unknown tool, arguments that are not an object);
// everything else is in the result. It returns once the call has ended:
// for a tool that ignores its context, the result says it ran out of
// time, and comes when the tool returns.
func (s *Server) CallTool(ctx context.Context, name string, args json.RawMessage) (*CallToolResult, error) {
	args = bytes.TrimSpace(args)
	if len(args) > 0 && !jsonwire.Valid(args) {
		return nil, fmt.Errorf("call %s: arguments are not valid JSON", name)
	}
	c := &Call{srv: s, received: time.Now()}
	if werr := s.bind(c, s.tools.byName[name], name, args, nil); werr != nil {
		return nil, errors.New(werr.message)
	}
	if s.opts.ConfirmWrites && !c.dryRun {
		c.SetConfirm(func(context.Context, string) error {
			return refusal(say(c.Lang(), msgNoSession))
		})
	}
	c.ctx, c.cancel = context.WithCancel(ctx)
	defer c.cancel()
	res, err := s.safely(c.ctx, s.sessionless(), c)
	c.goroutines.Wait()
	c.releaseMemory()
	res, status := s.outcome(c, res, err)
	c.close(&callEvent{status: status, result: res}, err)
	return res, nil
}
