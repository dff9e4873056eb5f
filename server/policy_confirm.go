package server

import (
	"context"
	"errors"
	"time"
)

// Confirm asks the user, through the client, to approve what the call is
// about to do, described by message (which path, create or overwrite, how
// many bytes). It returns nil when the server does not require
// confirmations ([Options.ConfirmWrites] is off), the call is a dry run,
// or the user accepted, and otherwise an error whose text tells the model
// that nothing was changed and why. A tool calls it after checking its
// arguments and before changing anything. What it does is set by a
// policy, with [Call.SetConfirm]: the server's own, or one of
// [Options.Policies].
func (c *Call) Confirm(ctx context.Context, message string) error {
	ask := c.confirmer()
	if ask == nil {
		return nil
	}
	return ask(ctx, message)
}

// Confirms reports whether Confirm asks the user: the server requires
// confirmations and the call is not a dry run. A tool that holds a lock
// while it changes something asks before it takes the lock, since the
// user may take minutes to answer, and checks everything again once it
// holds it.
func (c *Call) Confirms() bool { return c != nil && c.confirmer() != nil }

// SetConfirm sets what [Call.Confirm] does for the rest of the call: ask
// the user about message and return nil if they accept, or an error
// whose text the model reads, saying that nothing was changed and why.
// nil makes Confirm return nil at once, and Confirms false. The server's
// confirmation policy sets it when [Options.ConfirmWrites] is on; on a
// server without, a policy of [Options.Policies] may set it, to ask the
// user its own way (a chat, a ticket).
func (c *Call) SetConfirm(ask func(ctx context.Context, message string) error) {
	c.SetValue(confirmKey{}, ask)
}

// confirmKey is the key of what Confirm does (Call.Value).
type confirmKey struct{}

// confirmer returns what Confirm does, or nil.
func (c *Call) confirmer() func(context.Context, string) error {
	ask, _ := c.Value(confirmKey{}).(func(context.Context, string) error)
	return ask
}

// confirmPolicy makes [Call.Confirm] ask the user when the server
// requires confirmations ([Options.ConfirmWrites]), except for a dry run,
// which changes nothing: through the client's session, or in MCP
// 2026-07-28 with a question in the answer (mrtr.go).
func (s *Server) confirmPolicy(next ToolHandler) ToolHandler {
	if !s.opts.ConfirmWrites {
		return next
	}
	return func(ctx context.Context, c *Call) (*CallToolResult, error) {
		switch {
		case c.dryRun:
		case c.modern:
			c.SetConfirm(s.modernConfirm(c))
		case c.sess != nil:
			c.SetConfirm(c.sess.confirm)
		default:
			// A legacy request without a session (stateless HTTP) has no
			// channel to ask the user through.
			c.SetConfirm(func(context.Context, string) error { return refusal(say(c.Lang(), msgCannotAsk)) })
		}
		return next(ctx, c)
	}
}

type elicitParams struct {
	Message         string         `json:"message"`
	RequestedSchema map[string]any `json:"requestedSchema"`
}

type elicitResult struct {
	Action string `json:"action"`
}

// confirm asks the user through elicitation/create. Elicitation needs a
// client that declared it, in a protocol version that has it; any other
// client gets a refusal at once rather than a hang.
func (s *session) confirm(ctx context.Context, message string) error {
	s.mu.Lock()
	canAsk := s.client.Elicitation && s.version >= "2025-06-18"
	s.mu.Unlock()
	lang := s.srv.opts.Lang
	if !canAsk {
		return refusal(say(lang, msgCannotAsk))
	}
	limit := s.srv.opts.ConfirmTimeout
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	var res elicitResult
	var err error
	s.srv.withoutSlot(func() {
		err = s.out.ask(ctx, "elicitation/create", elicitParams{
			Message:         message,
			RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{}},
		}, &res)
	})
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return refusal(say(lang, msgConfirmTimeout, limit.String()))
	case errors.Is(err, context.Canceled):
		return refusal(say(lang, msgConfirmCancelled))
	case err != nil:
		s.log.Warn().Err(err).Msg("elicitation/create failed")
		return refusal(say(lang, msgConfirmFailed))
	}
	switch res.Action {
	case "accept":
		return nil
	case "decline":
		return refusal(say(lang, msgDeclined))
	default:
		return refusal(say(lang, msgDismissed))
	}
}

// defaultConfirmTimeout is how long Confirm waits for the user by default.
const defaultConfirmTimeout = 2 * time.Minute
