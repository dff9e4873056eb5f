package server

import "context"

// peer is the client as the core sees it, whatever carries the messages:
// a way to answer and notify, and a way to ask. The stdio transport
// (stdio.go) and each HTTP request (http_peer.go) are one; the core
// never reads or writes a byte of the transport itself, and tells the
// peer what each message is, so that no peer reads it back.
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
