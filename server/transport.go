package server

import "context"

// peer is the client as the core sees it, whatever carries the messages:
// a way to answer and notify, and a way to ask. The stdio transport
// (stdio.go) and each HTTP request (http_peer.go) are one; the core
// never reads or writes a byte of the transport itself, and tells the
// peer what each message is, so that no peer reads it back.
//
// Its concurrency rules: respond, notify and sendLine are called from any
// goroutine (the reader, a session's worker, an HTTP request's, a
// goroutine of Call.Go), and the peer orders them under one lock of its
// own, so that no message is written into another. Nothing about a call
// is sent after its response (Call.close drops progress and log messages
// from then on), and a peer of one exchange refuses every write after it
// (httpPeer.open). ask blocks, and is never called from the goroutine
// that reads the client.
//
// # Why the contract is not exported
//
// A transport outside this package has the exported road of any byte
// stream: [Server.Serve] over an io.Reader and io.Writer runs a session
// on a Unix socket, a WebSocket or a child's pipes with all of stdio's
// framing, cancellation and server requests; and [Server.HTTPHandler]
// mounts Streamable HTTP in any mux, behind any middleware. What stays
// unexported is the contract of a transport of its own messages (one
// exchange per message, as HTTP's POST), because exporting it as it
// stands would freeze three things that must still move:
//
//   - sendLine takes a *line: a large result (the text of a file read, an
//     image) goes from the result into the output in pieces, through the
//     server's pooled 64 KiB buffers, under the peer's lock (line.go).
//     Exported, either the layout and buffer ownership of line become API,
//     or a transport gets the response as one []byte, a second encoded
//     copy of every large result, which writing in pieces exists to
//     avoid.
//   - ask carries the server's own requests to the client (roots/list,
//     elicitation/create), which only a legacy session has: MCP
//     2026-07-28 drops them on stdio and asks through the answer instead
//     (mrtr.go). An exported ask would be a method of an era on its way
//     out, which stateless HTTP already refuses (errNoSession).
//   - The entry point a transport hands a message to is not one call
//     today: the era is read from the body and, over HTTP, checked
//     against the MCP-Protocol-Version, Mcp-Method and Mcp-Name headers
//     (http.go readHTTPEra), and the principal whose limits the call
//     counts against comes from the transport (http.go principal). A
//     message transport would need each of these as API first.
//
// earlyAnswerer is HTTP/1.1's own (one exchange at a time on a
// connection) and is asked for with a type assertion, as net/http asks a
// ResponseWriter for http.Flusher, so the contract stays small.
type peer interface {
	// respond writes the response to a request, one complete JSON-RPC
	// message ending in a newline; code is its JSON-RPC error code, or 0
	// for a result. It ends the request's exchange.
	respond(msg []byte, code int64) error
	// notify writes a notification, ending in a newline.
	notify(msg []byte) error
	// sendLine writes a result response in pieces (line.go), under the
	// same lock as the others: nothing comes between its pieces.
	sendLine(l *line) error
	// ask sends a request of the server's own to the client (roots/list,
	// elicitation/create) and waits for its result. It must not be called
	// from the reader, which has to stay free to read the answer. If ctx
	// ends first, the client is told with notifications/cancelled.
	ask(ctx context.Context, method string, params, result any) error
}

// earlyAnswerer is a peer that must know when a call is answered before
// all it runs has returned (a goroutine of Call.Go, such as the timeout
// policy's run of a tool past its deadline), which answer tells it just
// before the response: over HTTP the handler's goroutine, which would
// read the connection's next request, waits for the call to end.
type earlyAnswerer interface {
	answerEarly()
}
