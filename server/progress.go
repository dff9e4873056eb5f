package server

import (
	"encoding/json"
	"math"
)

type progressParams struct {
	ProgressToken json.RawMessage `json:"progressToken"`
	Progress      float64         `json:"progress"`
	Total         float64         `json:"total,omitempty"`
	Message       string          `json:"message,omitempty"`
}

// Progress tells the client how far the call has come: progress out of
// total (total <= 0 when unknown), with an optional message. It sends
// notifications/progress only when the client asked for progress with a
// progressToken, and only when progress is larger than the value last
// reported, as MCP requires; after the call has answered it does nothing.
// It reports whether a notification was sent.
func (c *Call) Progress(progress, total float64, message string) bool {
	if c.out == nil || c.token == nil || math.IsNaN(progress) || math.IsInf(progress, 0) ||
		math.IsNaN(total) || math.IsInf(total, 0) {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.done || c.quiet() || (c.reported && progress <= c.last) {
		return false
	}
	b, err := appendNotification(nil, "notifications/progress", progressParams{
		ProgressToken: c.token, Progress: progress, Total: max(total, 0), Message: message,
	})
	if err != nil || c.out.notify(b) != nil {
		return false
	}
	c.last, c.reported = progress, true
	return true
}
