package server

import (
	"context"
	"strconv"

	"github.com/sourcegraph/jsonrpc2"
)

// call sends a request to the client and waits for its result. It must
// not run in the read loop, which has to stay free to read the answer. If
// ctx ends first, the client is told with notifications/cancelled, as MCP
// asks of a requester that stops waiting.
func (s *session) call(ctx context.Context, method string, params, result any) error {
	select {
	case <-s.connReady:
	case <-ctx.Done():
		return ctx.Err()
	}
	conn := s.conn.Load()
	id := jsonrpc2.ID{Str: "toolserver-" + strconv.FormatUint(s.nextID.Add(1), 10), IsString: true}
	err := conn.Call(ctx, method, params, result, jsonrpc2.PickID(id))
	if ctx.Err() != nil {
		_ = conn.Notify(context.WithoutCancel(ctx), "notifications/cancelled", map[string]any{
			"requestId": id.Str, "reason": "the server stopped waiting: " + ctx.Err().Error(),
		})
		return ctx.Err()
	}
	return err
}
