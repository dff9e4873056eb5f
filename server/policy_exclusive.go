package server

import "context"

// exclusivePolicy runs a tool declared [ToolSpec.Exclusive] while no other
// call runs: it waits for the calls running and holds the next ones back.
// Every other call shares the session's lock, so they run side by side.
func (s *session) exclusivePolicy(next ToolHandler) ToolHandler {
	return func(ctx context.Context, c *Call) (*CallToolResult, error) {
		if c.tool.spec.Exclusive {
			s.alone.Lock()
			defer s.alone.Unlock()
		} else {
			s.alone.RLock()
			defer s.alone.RUnlock()
		}
		return next(ctx, c)
	}
}
