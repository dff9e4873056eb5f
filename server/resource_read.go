package server

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/sourcegraph/jsonrpc2"
)

// This file answers resources/read: the URI is matched with the
// resources added (resource.go), and the read then runs as a tool call
// does (admit.go, worker.go), through the same slots, limits and
// policies; only its answer is written as a resources/read result.

// readTTLMillis and readScope are the caching hints of a modern
// resources/read result: a resource may change at any time, and what a
// client may read depends on its roots.
const (
	readTTLMillis = 0
	readScope     = "private"
)

// readResource answers resources/read.
func (s *Server) readResource(r *request) {
	max := s.levelOf(r.grant)
	var p struct {
		URI *string `json:"uri"`
	}
	if r.env.params == nil || json.Unmarshal(r.env.params, &p) != nil || p.URI == nil {
		r.invalidParams(`resources/read needs params with "uri", a string`)
		return
	}
	uri := *p.URI
	res, vars := s.resources.match(uri, max)
	if res == nil {
		r.failWith(&ResourceNotFound(uri).(*callError).protocolError)
		return
	}
	s.start(r, func(r *request, received time.Time) (*Call, *wireError) {
		c := s.requestCall(r, received)
		if meta := r.env.meta; meta != nil {
			c.readMeta(meta)
		}
		c.tool, c.Tool = res.tool, res.tool.spec.Name
		c.read = &readRequest{uri: uri, vars: vars}
		return c, nil
	})
}

// ReadResource reads the resource at uri outside any session, with
// exactly the checks of the protocol path, as [Server.CallTool] runs a
// tool: the read runs under its deadline, through [Options.Policies]. A
// URI nothing serves, or that its reader says names nothing, is an error
// that [IsResourceNotFound] recognizes; any other failure is an error
// whose text is what a client would read.
func (s *Server) ReadResource(ctx context.Context, uri string) ([]ResourceContents, error) {
	res, vars := s.resources.match(uri, s.opts.maxLevel())
	if res == nil {
		return nil, ResourceNotFound(uri)
	}
	c := &Call{srv: s, received: time.Now(), tool: res.tool, Tool: res.tool.spec.Name, read: &readRequest{uri: uri, vars: vars}}
	out, err := s.runRead(ctx, c)
	if err != nil {
		return nil, err
	}
	return out.contents, nil
}

// Complete completes the variable argument of the resource template
// template, from the value typed so far and the values args of the
// others, outside any session, as [Server.ReadResource] reads.
func (s *Server) Complete(ctx context.Context, template, argument, value string, args map[string]string) (Completion, error) {
	res := s.resources.template(template, s.opts.maxLevel())
	if res == nil || res.spec.Complete == nil {
		return Completion{}, fmt.Errorf("no resource template %q completes its variables", template)
	}
	c := &Call{srv: s, received: time.Now(), tool: res.tool, Tool: res.tool.spec.Name,
		read: &readRequest{uri: template, complete: &completeRequest{argument: argument, value: value, args: args}}}
	out, err := s.runRead(ctx, c)
	if err != nil {
		return Completion{}, err
	}
	return *out.completion, nil
}

// runRead runs the read or completion c outside any session, through the
// timeout and the policies, and returns its result, or its error as a
// client would read it.
func (s *Server) runRead(ctx context.Context, c *Call) (*CallToolResult, error) {
	c.ctx, c.cancel = context.WithCancel(ctx)
	defer c.cancel()
	out, err := s.safely(c.ctx, s.sessionless(), c)
	c.goroutines.Wait()
	c.releaseMemory()
	var ce *callError
	if errors.As(err, &ce) {
		c.close(&callEvent{status: "error", result: ErrorResult(ce.message)}, err)
		return nil, ce
	}
	out, status := s.outcome(c, out, err)
	c.close(&callEvent{status: status, result: out}, err)
	if out.IsError || !out.read {
		return nil, errors.New(resultText(out))
	}
	return out, nil
}

// IsResourceNotFound reports whether err says a URI names nothing: a
// [ResourceNotFound] error, as [Server.ReadResource] returns it.
func IsResourceNotFound(err error) bool {
	var ce *callError
	return errors.As(err, &ce) && strings.HasPrefix(ce.message, resourceNotFound)
}

// answerRead sends the answer of a resource read that answer did not
// send as a pending answer (pendingAnswer: a ResourceNotFound): its contents,
// or -32603 with the sentence a tool call would have had as its error
// result.
func (s *Server) answerRead(c *Call, res *CallToolResult, err error) {
	res, status := s.outcome(c, res, err)
	cancelled := c.settle()
	if cancelled {
		c.close(&callEvent{status: "cancelled", result: res}, err)
		return
	}
	var b []byte
	var code int64
	var si []byte
	if c.modern {
		si = s.serverInfo
	}
	switch {
	case res.IsError || !res.read:
		code = jsonrpc2.CodeInternalError
		b = appendError(nil, c.ID, code, resultText(res), nil)
	case res.completion != nil:
		b = appendCompleteResult(nil, c.ID, res.completion, si)
	default:
		b = appendReadResult(nil, c.ID, res.contents, si)
	}
	if !c.close(&callEvent{status: status, result: res, bytes: len(b)}, err) {
		return
	}
	_ = c.out.respond(b, code)
}

// appendReadResult appends the response line of a resources/read that
// read contents; si, the encoded serverInfo, is set for a modern one,
// which carries the caching hints too.
func appendReadResult(b []byte, id json.RawMessage, contents []ResourceContents, si []byte) []byte {
	b = appendResultHead(b, id)
	b = append(b, `{"contents":[`...)
	for i, rc := range contents {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"uri":`...)
		b = appendString(b, rc.URI)
		if rc.MIMEType != "" {
			b = append(b, `,"mimeType":`...)
			b = appendString(b, rc.MIMEType)
		}
		if rc.Blob != nil {
			b = append(b, `,"blob":"`...)
			b = base64.StdEncoding.AppendEncode(b, rc.Blob)
			b = append(b, '"')
		} else {
			b = append(b, `,"text":`...)
			b = appendString(b, rc.Text)
		}
		b = append(b, '}')
	}
	b = append(b, ']')
	if si != nil {
		b = append(b, fmt.Sprintf(`,"resultType":"complete","ttlMs":%d,"cacheScope":%q,"_meta":{`, readTTLMillis, readScope)...)
		b = appendServerInfo(b, si, false)
		b = append(b, '}')
	}
	return append(b, "}}\n"...)
}
