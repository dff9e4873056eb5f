// Package server is a Model Context Protocol (MCP) server for tools,
// spoken as JSON-RPC 2.0 over stdio (newline-delimited, the transport
// agent hosts use to launch a tool server as a subprocess) and over
// Streamable HTTP (one message per POST, for remote use and for many
// processes behind a balancer), in both eras of the protocol.
//
// A tool is a Go function over two plain structs. [AddTool] derives the
// JSON Schemas of the arguments and of the result from the structs' tags
// (see package schemagen), checks every call's arguments against them
// before the function runs, and turns what comes back into an MCP result.
// [Server.Serve] then runs one session over stdio, and
// [Server.HTTPHandler] serves Streamable HTTP:
//
//	srv := server.New(server.Options{Logger: log})
//	if err := server.AddTool(srv, server.ToolSpec{Name: "greet", Description: "Greets someone."}, greet); err != nil {
//		return err
//	}
//	return srv.Serve(ctx, os.Stdin, os.Stdout)
//	// or: http.Handle("/mcp", srv.HTTPHandler(server.HTTPOptions{}))
//
// Reflecting the structs is most of what a start costs before its first
// answer. A program with many tools can save their schemas at build time
// and give them in [ToolSpec.Schemas] (see [SavedSchemas]); then a start
// only lists them, and each tool's validator is built at its first call.
//
// Package servertest runs a Server in memory for tests of tools, and
// holds saved schemas to the structs.
//
// # Errors
//
// MCP separates two kinds of failure, and so does this package. A request
// the server cannot act on (malformed JSON, an unknown method, an unknown
// tool, params that are not an object) is answered with a JSON-RPC error.
// Everything that goes wrong once a tool is chosen (invalid arguments, the
// tool's own error, a panic) is a result with isError set and a short
// sentence the model can act on; the model sees it and can correct itself.
//
// # The road of one call
//
// A tools/call goes through these files, in this order, and only this way,
// whichever transport brought it:
//
//	stdio.go or http.go    the transport reads one message
//	envelope.go, era.go    one JSON-RPC request, of one era
//	methods.go             the one table of methods
//	resolve.go             the Call: its tool, _meta, targets, dry run
//	admit.go, queue.go     loop guard and limits on arrival; a slot
//	worker.go              the policies (policy.go, policy_*.go) around
//	addtool.go             the tool: validate, decode, run
//	answer.go              the result, written through the request's peer
//	                       (stdio.go, or http_peer.go over HTTP)
//
// In more detail:
//
//   - stdio.go or http.go: the transport. stdio reads a line and checks
//     its size; HTTP passes its guards (http_guard.go: Host, Origin,
//     token, a gateway's identity; an OAuth middleware in front sets the
//     principal and the grant, grant.go), reads the body within a
//     deadline (http_body.go), then takes one of its places. Either way
//     envelope.go checks it is one JSON-RPC
//     request (bad messages are answered here, -32700 or -32600) and, in
//     the same walk, finds the members of params, and of its arguments,
//     that the era and a call are read from; era.go reads the era, once;
//     the transport builds the request (request.go): what is the
//     request's own, its era, its id, its cancellation and its peer.
//   - methods.go: the one table of methods, by which every request is
//     served, whatever its transport and era. A stdio request belongs to
//     a session (session.go): the handshake, the client's roots and log
//     level, its calls in flight by id; an HTTP request to none.
//   - resolve.go: the Call is built, once: from the members of params
//     the envelope found, the tool is looked up and _meta (progress
//     token, trace context) and the targets and dry run the tool declares
//     are read. A bad request is -32602.
//   - admit.go: on arrival, in arrival order, the call is registered by
//     its id and admitted by the loop guard (policy_loopguard.go) and the
//     limits (policy_limits.go) of its principal, and a place in line on
//     each target (policy_order.go); then it takes a free slot, or waits
//     in line for one (queue.go) while the reader reads on.
//   - worker.go: the call runs, on a worker of its session or on its HTTP
//     request's goroutine, through the server's handler: the policies
//     (policy.go lists them in order, each in its own policy_*.go file,
//     then [Options.Policies]) around the tool.
//   - addtool.go: the tool validates and decodes its arguments (package
//     schemagen) and runs its function.
//   - answer.go: what came back, a result or an error, becomes the result
//     the model reads, and wire.go and result.go write the response,
//     through the request's peer (transport.go): a line on stdio.go, the
//     JSON reply or the SSE event that ends the stream on http_peer.go. A
//     large result is written in pieces (line.go): its long texts, images
//     and sounds go from the result straight into the output, a bounded
//     buffer at a time, under the peer's output lock.
//
// What must hold across requests is the server's, not a session's
// (scope.go): the slots and the line, the order of changes to each
// target, the Exclusive lock, the limits and loop guard of each
// principal, the result cache and the memory budget. Two HTTP requests
// are ordered, limited and kept apart exactly as two calls of one stdio
// session are.
//
// All along, the call reports events (events.go: it started, each stage
// ended, it was answered), which are the only source of the log lines
// (eventlog.go), the metrics [Observer] (observe.go) and the [Tracer]
// (trace.go). The server's own requests to the client (roots.go,
// policy_confirm.go) go out through the peer too.
//
// Resources take the same road: a read or a completion (resource.go) is
// a call, run through the same policies as a tool's. A subscription
// (subscribe.go) is a call too, that sets a watch and returns; the
// changes its watch reports are gathered and told through the session
// (resources/subscribe on stdio) or a listen stream (listen.go;
// http_listen.go keeps one open over HTTP).
//
// A transport of one's own runs outside this package over any byte
// stream, with [Server.Serve]; the peer contract of a transport of
// single messages stays unexported, for the reasons transport.go gives.
//
// # Two eras
//
// A request of MCP 2026-07-28 says so in its params._meta and is served
// from itself alone (era.go): no handshake, server/discover, results
// that carry resultType and the server's identity, log messages only when
// the request asks, and never a request to the client. Every other
// request is of the legacy era (2025-11-25 and before), served by its
// session on stdio, and from itself alone over HTTP, where there is none.
// Both take the same road; the era only changes what the reader checks
// first, which methods the table serves, and how the answer is written.
//
// # Concurrency
//
// Protocol methods (initialize, ping, tools/list, logging/setLevel) are
// answered in arrival order by a session's reader. Tool calls run
// concurrently, up to [Options.MaxInFlight] in the whole server; beyond
// that they wait in line for a slot (queue.go), up to [Options.MaxQueued]
// calls and [Options.MaxQueuedBytes] of arguments, and a call that finds
// the line full is answered at once as busy, so a flood of requests costs
// bounded memory. A reader never waits for a slot: ping and
// notifications/cancelled are answered however busy the tools are.
// Responses may come out of order; clients match them by id.
// notifications/cancelled cancels a call's context and suppresses its
// response; over HTTP, the client closing its request does.
//
// # Levels
//
// A tool's level ([security.Level]: read, write or admin) lives in package
// security, not here, because it is a decision about what may be touched,
// the same one the sandbox makes; this package only applies it: a server
// lists and runs the tools its options allow, and derives the readOnlyHint
// and destructiveHint annotations from it, so they cannot lie.
package server
