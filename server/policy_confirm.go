package server

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Confirm asks the user, through the client, to approve what the call is
// about to do, described by message (which path, create or overwrite, how
// many bytes). It returns nil when the server does not require
// confirmations ([Options.ConfirmWrites] is off), the call is a dry run,
// or the user accepted, and otherwise an error whose text tells the model
// that nothing was changed and why. A tool calls it after checking its
// arguments and before changing anything.
func (c *Call) Confirm(ctx context.Context, message string) error {
	if c.confirmer == nil {
		return nil
	}
	return c.confirmer(ctx, message)
}

// confirmPolicy makes [Call.Confirm] ask the user when the server
// requires confirmations ([Options.ConfirmWrites]), except for a dry run,
// which changes nothing.
func (s *session) confirmPolicy(next ToolHandler) ToolHandler {
	if !s.srv.opts.ConfirmWrites {
		return next
	}
	return func(ctx context.Context, c *Call) (*CallToolResult, error) {
		switch {
		case c.dryRun:
		case c.modern:
			c.confirmer = s.modernConfirm(c)
		default:
			c.confirmer = s.confirm
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
	if !canAsk {
		return refusal("This server asks the user to confirm every change, but the client cannot ask the user (it did not declare elicitation); nothing was changed.")
	}
	limit := s.srv.opts.ConfirmTimeout
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	var res elicitResult
	var err error
	s.withoutSlot(func() {
		err = s.out.ask(ctx, "elicitation/create", elicitParams{
			Message:         message,
			RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{}},
		}, &res)
	})
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return refusal(fmt.Sprintf("The user did not answer the confirmation within %s; nothing was changed.", limit))
	case errors.Is(err, context.Canceled):
		return refusal("The call was cancelled while waiting for the user's confirmation; nothing was changed.")
	case err != nil:
		s.log.Warn().Err(err).Msg("elicitation/create failed")
		return refusal("The client could not ask the user for confirmation; nothing was changed.")
	}
	switch res.Action {
	case "accept":
		return nil
	case "decline":
		return refusal("The user declined this change; nothing was changed. Ask the user before trying it again.")
	default:
		return refusal("The user dismissed the confirmation without accepting; nothing was changed.")
	}
}

// defaultConfirmTimeout is how long Confirm waits for the user by default.
const defaultConfirmTimeout = 2 * time.Minute
