package server

import (
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"hash/fnv"
	"math/rand/v2"
	"strconv"

	"github.com/rs/zerolog"
)

// eventLog writes a log line for each stage of a call, with the request
// id, the session's trace id and the tool, so that one call can be
// followed through the log. It listens to the call events (events.go).
type eventLog struct{ log zerolog.Logger }

func (l *eventLog) callEvent(e *callEvent) {
	c := e.call
	switch e.kind {
	case eventStage:
		if e.err != nil && asTimeout(e.err) != nil {
			return // cut short by the deadline: the answer's line says so
		}
		switch e.stage {
		case stageParse:
			l.parse(e)
		case stageValidate:
			l.validate(e)
		case stageExecute:
			l.execute(e)
		}
	case eventAnswered:
		if e.status == "timeout" {
			// Whatever stage the call was in (running, waiting in line or
			// for the exclusive lock).
			if te := asTimeout(e.err); te != nil {
				l.line(l.log.Warn(), c, stageExecute, e).Str("status", "timeout").Dur("limit", te.limit).Msg("call")
			}
		}
		switch {
		case e.status == "cancelled":
			l.line(l.log.Info(), c, "respond", e).Msg("call cancelled; no response sent")
		case e.status == "invalid_params":
		case l.log.Debug().Enabled():
			if _, hit := cacheOf(c); hit {
				l.line(l.log.Debug(), c, stageExecute, e).Str("status", "cache_hit").Msg("call")
			}
			l.line(l.log.Debug(), c, "respond", e).Bool("is_error", e.result.IsError).Int("bytes", e.size()).Msg("call")
		}
	}
}

// line starts the log line of one stage of the call.
func (l eventLog) line(ev *zerolog.Event, c *Call, stage string, e *callEvent) *zerolog.Event {
	if !ev.Enabled() {
		return ev
	}
	if c.ID != nil {
		ev = ev.RawJSON("id", clipJSON(c.ID))
	}
	if c.trace != "" {
		ev = ev.Str("trace", c.trace)
	}
	if c.who != nil && c.who.name != "" {
		ev = ev.Str("principal", clip(c.who.name))
	}
	ev = ev.Str("stage", stage)
	if c.Tool != "" {
		ev = ev.Str("tool", clip(c.Tool))
	}
	if !e.begin.IsZero() {
		ev = ev.Dur("took", e.end.Sub(e.begin))
	} else if !c.received.IsZero() {
		ev = ev.Dur("took", e.end.Sub(c.received))
	}
	return ev
}

func (l eventLog) parse(e *callEvent) {
	if e.err != nil {
		l.line(l.log.Info(), e.call, stageParse, e).Str("status", "error").Str("error", clip(e.err.Error())).Msg("call")
		return
	}
	if ev := l.log.Debug(); ev.Enabled() {
		l.line(ev, e.call, stageParse, e).Str("status", "ok").Msg("call")
	}
}

// validate writes the validate stage: the arguments' hash, and the
// arguments themselves at debug level or when they were refused; then a
// line for each coercion made.
func (l eventLog) validate(e *callEvent) {
	c := e.call
	for i, co := range e.report.Coercions {
		if i == maxCoercionsLogged {
			l.log.Info().Str("tool", clip(c.Tool)).Int("more", len(e.report.Coercions)-i).Msg("coerced more arguments")
			break
		}
		l.log.Info().Str("tool", c.Tool).Str("argument", clip(co.Path)).Str("from", clip(co.From)).Str("to", clip(co.To)).
			Msg("coerced an argument")
	}
	ev := l.log.Info()
	if e.err != nil {
		ev = l.log.Warn()
	}
	if !ev.Enabled() {
		return
	}
	ev = l.line(ev, c, stageValidate, e).Str("args_hash", argsHash(c.args))
	if (e.err != nil || l.log.Debug().Enabled()) && len(c.args) > 0 {
		// At most a prefix: the arguments may be as long as a message.
		if len(c.args) <= maxLogged && json.Valid(c.args) {
			ev = ev.RawJSON("args", c.args)
		} else {
			ev = ev.Str("args_prefix", shorten(c.args, maxLogged)).Int("args_bytes", len(c.args))
		}
	}
	if e.err != nil {
		ev.Str("status", "invalid").Str("error", clip(e.err.Error())).Msg("call")
		return
	}
	ev.Str("status", "ok").Msg("call")
}

// maxCoercionsLogged is the most coercions of one call logged a line
// each; a call of 100,000 arguments must not write 100,000 lines.
const maxCoercionsLogged = 20

// execute writes the execute stage: how it ended and after how many
// attempts.
func (l eventLog) execute(e *callEvent) {
	c := e.call
	ev := l.log.Info()
	if e.err != nil {
		ev = l.log.Warn()
	}
	if !ev.Enabled() {
		return
	}
	ev = l.line(ev, c, stageExecute, e).Int("attempts", attemptsOf(c))
	if e.err != nil {
		ev.Str("status", "error").Str("error", clip(e.err.Error())).Msg("call")
		return
	}
	ev.Str("status", "ok").Msg("call")
}

// newTraceID returns a random id for a session's log lines. It only tells
// sessions apart, and guards nothing, so it comes from the runtime's
// generator: crypto/rand's first use costs a start 1% of its CPU before
// its first answer.
func newTraceID() string {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], rand.Uint64())
	return hex.EncodeToString(b[:])
}

// argsHash is a short hash of the raw arguments: enough to see in the log
// that two calls had the same arguments, without writing them out.
func argsHash(args json.RawMessage) string {
	h := fnv.New64a()
	_, _ = h.Write(args)
	return strconv.FormatUint(h.Sum64(), 16)
}
