package server

import (
	"context"
)

// Confirm asks the user, through the client, to approve what the call is
// about to do, described by message (which path, create or overwrite, how
// many bytes). It returns nil when the server does not require
// confirmations ([Options.ConfirmWrites] is off) or the user accepted, and
// otherwise an error whose text tells the model that nothing was changed
// and why. A tool calls it after checking its arguments and before
// changing anything.
func (c *Call) Confirm(ctx context.Context, message string) error {
	if c.sess == nil || !c.sess.srv.opts.ConfirmWrites {
		return nil
	}
	return c.sess.confirm(ctx, c.Tool, message)
}

// confirm is Confirm within a session. Until elicitation is wired in, it
// refuses, which is the safe answer.
func (s *session) confirm(ctx context.Context, tool, message string) error {
	return errConfirmUnavailable
}

var errConfirmUnavailable = confirmError("This server requires the user's confirmation for changes, and it could not be asked; nothing was changed.")

type confirmError string

func (e confirmError) Error() string { return string(e) }
