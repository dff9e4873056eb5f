package server

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"hash/fnv"
	"strconv"
	"time"

	"github.com/rs/zerolog"
)

// This file writes the log lines of a call's stages, parse, validate and
// execute, each with the request id, the session's trace id and the tool,
// so that one call can be followed through the log.

// newTraceID returns a random id for a session's log lines.
func newTraceID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// stage starts the log line of one stage of the call.
func (c *Call) stage(ev *zerolog.Event, name string, since time.Time) *zerolog.Event {
	if c.ID != nil {
		ev = ev.RawJSON("id", c.ID)
	}
	if c.sess != nil {
		ev = ev.Str("trace", c.sess.trace)
	}
	return ev.Str("stage", name).Str("tool", c.Tool).Dur("took", time.Since(since))
}

// argsHash is a short hash of the raw arguments: enough to see in the log
// that two calls had the same arguments, without writing them out.
func argsHash(args json.RawMessage) string {
	h := fnv.New64a()
	_, _ = h.Write(args)
	return strconv.FormatUint(h.Sum64(), 16)
}

// logValidate writes the validate stage: the arguments' hash, and the
// arguments themselves at debug level or when they were refused.
func (s *Server) logValidate(call *Call, since time.Time, args json.RawMessage, err error) {
	ev := s.log.Info()
	if err != nil {
		ev = s.log.Warn()
	}
	if !ev.Enabled() {
		return
	}
	ev = call.stage(ev, "validate", since).Str("args_hash", argsHash(args))
	if (err != nil || s.log.Debug().Enabled()) && json.Valid(args) && len(args) > 0 {
		ev = ev.RawJSON("args", args)
	}
	if err != nil {
		ev.Str("status", "invalid").Str("error", err.Error()).Msg("call")
		return
	}
	ev.Str("status", "ok").Msg("call")
}

// logExecute writes the execute stage: how it ended and after how many
// attempts.
func (s *Server) logExecute(call *Call, since time.Time, attempts int, err error) {
	ev := s.log.Info()
	if err != nil {
		ev = s.log.Warn()
	}
	if !ev.Enabled() {
		return
	}
	ev = call.stage(ev, "execute", since).Int("attempts", attempts)
	if err != nil {
		ev.Str("status", "error").Str("error", err.Error()).Msg("call")
		return
	}
	ev.Str("status", "ok").Msg("call")
}
