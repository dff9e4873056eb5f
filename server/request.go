package server

import (
	"context"
	"fmt"

	"github.com/sourcegraph/jsonrpc2"
)

// request is one JSON-RPC request on its way through the server: what
// it is, the era it is served in, where its answer goes, and what it
// belongs to. A transport builds it once, after reading the era; every
// handler of the method table (methods.go) reads it and answers through
// it. It is all that is a request's own; what holds across requests
// lives on the [Server] (scope.go).
type request struct {
	env envelope
	era era
	out peer // where its response and notifications go
	// sess is the session the request came in (a stdio connection and its
	// handshake), or nil for a request served from itself alone
	// (Streamable HTTP).
	sess *session
	// ctx ends when nothing more is due to the request: its HTTP client
	// left, or its session ends. A tool call's context derives from it.
	ctx context.Context
	// who is the principal the request is served for, whose limits and
	// loop guard it counts against.
	who *principal
	// grant is what the request's credentials allow (grant.go), or nil.
	grant *Grant
}

// reply sends a success response with an encoded result.
func (r *request) reply(result []byte) {
	_ = r.out.respond(appendRawResult(nil, r.env.id, result), 0)
}

// fail sends an error response.
func (r *request) fail(code int64, msg string) {
	_ = r.out.respond(appendError(nil, r.env.id, code, msg, nil), code)
}

// failWith sends e, with its data.
func (r *request) failWith(e *protocolError) {
	var data any
	if e.data != nil {
		data = e.data
	}
	_ = r.out.respond(appendError(nil, r.env.id, e.code, e.message, data), e.code)
}

// invalidParams sends -32602 with a message that starts as the JSON-RPC
// specification names the code.
func (r *request) invalidParams(format string, args ...any) {
	r.fail(jsonrpc2.CodeInvalidParams, "Invalid params: "+fmt.Sprintf(format, args...))
}
