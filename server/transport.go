package server

import "context"

// peer is the client as the core sees it, whatever carries the messages:
// a way to answer and notify, and a way to ask. The stdio transport
// (stdio.go) is one; the core never reads or writes a byte of the
// transport itself.
type peer interface {
	// send writes one complete JSON-RPC message, a response or a
	// notification, ending in a newline. Messages are never interleaved.
	send(msg []byte) error
	// sendLine writes a response in pieces (line.go), under the same lock
	// as send: nothing comes between its pieces.
	sendLine(l *line) error
	// ask sends a request of the server's own to the client (roots/list,
	// elicitation/create) and waits for its result. It must not be called
	// from the reader, which has to stay free to read the answer. If ctx
	// ends first, the client is told with notifications/cancelled.
	ask(ctx context.Context, method string, params, result any) error
}
