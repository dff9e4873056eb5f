// Package server is a Model Context Protocol (MCP) server for tools,
// spoken as newline-delimited JSON-RPC 2.0 over a pipe: the stdio
// transport that agent hosts use to launch a tool server as a subprocess.
//
// A tool is a Go function over two plain structs. [AddTool] derives the
// JSON Schemas of the arguments and of the result from the structs' tags
// (see package schemagen), checks every call's arguments against them
// before the function runs, and turns what comes back into an MCP result.
// [Server.Serve] then runs one session:
//
//	srv := server.New(server.Options{Logger: log})
//	if err := server.AddTool(srv, server.ToolSpec{Name: "greet", Description: "Greets someone."}, greet); err != nil {
//		return err
//	}
//	return srv.Serve(ctx, os.Stdin, os.Stdout)
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
// A tools/call goes through these files, in this order, and only this way:
//
//   - stdio.go: the transport reads a line, checks its size, and
//     envelope.go checks it is one JSON-RPC request (bad lines are
//     answered here, -32700 or -32600) and, in the same walk, finds the
//     members of params, and of its arguments, that the era and a call
//     are read from; the request goes to the session.
//   - session.go: the core, which knows no transport, dispatches by
//     method and keeps the handshake, the calls in flight and their
//     cancellation.
//   - resolve.go: the reader builds the [Call], once: from the members
//     of params the envelope found, it looks the tool up, reads _meta
//     (progress token, trace context) and the targets and dry run the
//     tool declares. A bad request is -32602.
//   - admit.go: still in the reader, in arrival order, the call is
//     registered by its id and admitted by the loop guard
//     (policy_loopguard.go), the limits (policy_limits.go) and a place in
//     line on each target (policy_order.go); then it takes a free slot,
//     or waits in line for one (queue.go) while the reader reads on.
//   - worker.go: a worker runs the call through the session's handler:
//     the policies (policy.go lists them in order, each in its own
//     policy_*.go file, then [Options.Policies]) around the tool.
//   - addtool.go: the tool validates and decodes its arguments (package
//     schemagen) and runs its function.
//   - answer.go: what came back, a result or an error, becomes the result
//     the model reads, and wire.go and result.go write the response line,
//     through the session's peer (transport.go), back to stdio.go. A large
//     result is written in pieces (line.go): its long texts, images and
//     sounds go from the result straight into the output, a bounded
//     buffer at a time, under the transport's output lock.
//
// All along, the call reports events (events.go: it started, each stage
// ended, it was answered), which are the only source of the log lines
// (eventlog.go), the metrics [Observer] (observe.go) and the [Tracer]
// (trace.go). The server's own requests to the client (roots.go,
// policy_confirm.go) go out through the peer too.
//
// # Two eras
//
// A request of MCP 2026-07-28 says so in its params._meta and is served
// from itself alone (era.go): no handshake, server/discover, results
// that carry resultType and the server's identity, log messages only when
// the request asks, and never a request to the client. Every other
// request is of the legacy era (2025-11-25 and before), served by the
// session. Both take the same road; the era only changes what the reader
// checks first and how the answer is written.
//
// # Concurrency
//
// Protocol methods (initialize, ping, tools/list, logging/setLevel) are
// answered in arrival order by the reader. Tool calls run concurrently, up
// to [Options.MaxInFlight]; beyond that they wait in line for a slot
// (queue.go), up to [Options.MaxQueued] calls and [Options.MaxQueuedBytes]
// of arguments, and a call that finds the line full is answered at once as
// busy, so a flood of requests costs bounded memory. The reader never waits
// for a slot: ping and notifications/cancelled are answered however busy
// the tools are. Responses may come out of order; clients match them by id.
// notifications/cancelled cancels a call's context and suppresses its
// response.
//
// # Levels
//
// A tool's level ([security.Level]: read, write or admin) lives in package
// security, not here, because it is a decision about what may be touched,
// the same one the sandbox makes; this package only applies it: a server
// lists and runs the tools its options allow, and derives the readOnlyHint
// and destructiveHint annotations from it, so they cannot lie.
package server
