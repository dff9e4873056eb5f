package server

import (
	"context"
	"errors"
	"time"

	"github.com/stdiotools/toolserver/i18n"
	"github.com/stdiotools/toolserver/schemagen"
)

// This file is the end of a call's road: what the policies and the tool
// returned becomes the result the model reads, and that result becomes
// the response line.

// answer sends a call's result, unless the client cancelled the call or
// it was answered already.
func (s *Server) answer(c *Call, res *CallToolResult, err error) {
	if c.running.Load() > 0 {
		if e, ok := c.out.(earlyAnswerer); ok {
			e.answerEarly() // a goroutine of the call runs on (Call.Go)
		}
	}
	if c.read != nil && c.read.watch != nil {
		s.answerWatch(c, res, err)
		return
	}
	if answerPending(c, err) {
		return
	}
	if c.read != nil {
		s.answerRead(c, res, err)
		return
	}
	res, status := s.outcome(c, res, err)
	cancelled := c.settle()
	var l line
	if cancelled {
		status = "cancelled"
	} else {
		var encErr error
		var si []byte
		if c.modern {
			si = s.serverInfo
		}
		// Everything that can fail is encoded here, before a byte is
		// sent: a large text, image or sound is only copied or encoded
		// into the output as the line is written.
		if l, encErr = encodeCallResult(&s.frames, c.ID, res, si); encErr != nil {
			s.log.Error().Err(encErr).Str("tool", c.Tool).Msg("cannot encode the tool's result")
			b, _ := appendCallResult(nil, c.ID, ErrorResult(say(c.Lang(), msgNotEncodedLog, c.Tool)))
			l = line{frame: b}
		}
	}
	e := callEvent{status: status, result: res, bytes: len(l.frame)}
	var pieces *line // on the heap only for a line in pieces
	if len(l.parts) > 0 {
		pieces = &line{frame: l.frame, parts: l.parts}
		e.bytes, e.pieces = 0, pieces
	}
	if !c.close(&e, err) {
		return
	}
	switch {
	case cancelled:
	case pieces == nil:
		_ = c.out.respond(l.frame, 0)
		s.frames.put(l.frame)
	default:
		_ = c.out.sendLine(pieces)
	}
}

// answerPending answers a call whose answer is not a result of its tool
// (pendingAnswer), and reports whether it was one.
func answerPending(c *Call, err error) bool {
	line, status, code := pendingAnswer(c, err)
	if line == nil {
		return false
	}
	// A confirmation to ask, or a JSON-RPC error of the call (mrtr.go).
	cancelled := c.settle()
	if c.close(&callEvent{status: status, result: ErrorResult(string(line))}, err) && !cancelled {
		_ = c.out.respond(line, code)
	}
	return true
}

// pendingAnswer returns the response line of a call whose answer is not
// a result of the tool, with its JSON-RPC error code (0 for none): a
// question for the user (input_required) or a JSON-RPC error; nil
// otherwise.
func pendingAnswer(c *Call, err error) ([]byte, string, int64) {
	if err == nil {
		return nil, "", 0
	}
	var ir *inputRequired
	var ce *callError
	switch {
	case errors.As(err, &ir):
		return appendInputRequired(nil, c.ID, ir), "input_required", 0
	case errors.As(err, &ce):
		var data any
		if ce.data != nil {
			data = ce.data
		}
		return appendError(nil, c.ID, ce.code, ce.message, data), "error", ce.code
	}
	return nil, "", 0
}

// outcome turns what the policies and the tool returned into the result
// the model reads, and the call's status: "ok", "error" or "timeout".
func (s *Server) outcome(c *Call, res *CallToolResult, err error) (*CallToolResult, string) {
	switch {
	case err != nil:
		if te := asTimeout(err); te != nil {
			return timeoutResult(c.Lang(), te.tool, te.limit), "timeout"
		}
		res = s.failure(c, err)
	case res == nil:
		res = ErrorResult(say(c.Lang(), msgNoResult, c.Tool))
	}
	if t, ok := c.Value(triesKey{}).(*tries); ok {
		// The retry policy's record of the tries (policy_retry.go).
		meta := make(map[string]any, len(res.Meta)+1)
		for k, v := range res.Meta {
			meta[k] = v
		}
		meta[MetaExecution] = map[string]any{"attempts": int(t.n.Load()), "ms": time.Since(t.first).Milliseconds()}
		copied := *res // a result may be shared with other calls through the cache
		copied.Meta = meta
		res = &copied
	}
	if res.IsError {
		return res, "error"
	}
	return res, "ok"
}

// failure is the result the model reads about err: the problems of
// invalid arguments, or the tool's own words.
func (s *Server) failure(c *Call, err error) *CallToolResult {
	var ie *invalidArguments
	if errors.As(err, &ie) {
		return ie.result(s.opts.Lang)
	}
	return s.toolError(c, err)
}

// asTimeout returns err as a *timeoutError, or nil. It is apart so that
// the target of errors.As, which escapes, is allocated only for a call
// that failed.
func asTimeout(err error) *timeoutError {
	var te *timeoutError
	if errors.As(err, &te) {
		return te
	}
	return nil
}

// timeoutError is the answer of a call whose deadline passed.
type timeoutError struct {
	tool  string
	limit time.Duration
}

func (e *timeoutError) Error() string { return say(i18n.English, msgTimeout, e.tool, e.limit.String()) }

// timeoutResult is what the model reads, in lang, about a call that ran
// out of time.
func timeoutResult(lang i18n.Lang, name string, limit time.Duration) *CallToolResult {
	return ErrorResult(say(lang, msgTimeout, name, limit.String()))
}

// invalidArguments is the answer of a call whose arguments break the
// tool's schema.
type invalidArguments struct{ err error }

func (e *invalidArguments) Error() string { return e.err.Error() }
func (e *invalidArguments) Unwrap() error { return e.err }

// MaxMetaProblems is the most problems listed in the _meta of a result
// for invalid arguments; the total count is given beside them.
const MaxMetaProblems = 100

// result is what the model reads: the most critical problems as
// sentences, and in _meta (under [MetaProblems]) the first
// [MaxMetaProblems] of them for programs, with their total count.
func (e *invalidArguments) result(lang schemagen.Lang) *CallToolResult {
	var verr *schemagen.Errors
	if !errors.As(e.err, &verr) {
		return ErrorResult(e.err.Error())
	}
	res := ErrorResult(verr.Text(lang))
	shown := verr.Problems[:min(len(verr.Problems), MaxMetaProblems)]
	problems := make([]map[string]string, len(shown))
	for i, p := range shown {
		problems[i] = map[string]string{"kind": p.Kind.String(), "path": p.Path, "rule": p.Rule, "message": p.Message(lang)}
	}
	res.Meta = map[string]any{MetaProblems: problems}
	if len(verr.Problems) > len(shown) {
		res.Meta[MetaProblemCount] = len(verr.Problems)
	}
	return res
}

// MetaProblemCount is the _meta key of the total number of problems, set
// when there are more than the [MaxMetaProblems] listed.
const MetaProblemCount = "io.github.stdiotools/problem_count"

// internalError marks an error whose text is for the log only.
type internalError struct{ err error }

func (e *internalError) Error() string { return e.err.Error() }
func (e *internalError) Unwrap() error { return e.err }

// Internal marks err as an internal failure: the server logs it in full
// and the model sees only a sentence saying that the tool failed.
func Internal(err error) error {
	if err == nil {
		return nil
	}
	return &internalError{err}
}

// refusal is an error whose text is the whole sentence the model reads.
type refusal string

func (e refusal) Error() string { return string(e) }

// toolError turns an error from the policies or the tool into the result
// the model reads.
func (s *Server) toolError(c *Call, err error) *CallToolResult {
	name := c.Tool
	var ie *internalError
	if errors.As(err, &ie) {
		s.log.Error().Str("tool", name).Err(err).Msg("tool failed internally")
		c.Log(LevelError, say(c.Lang(), msgInternalLog))
		return ErrorResult(say(c.Lang(), msgInternal, name))
	}
	if errors.Is(err, context.Canceled) {
		return ErrorResult(say(c.Lang(), msgCancelled, name))
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return ErrorResult(say(c.Lang(), msgRanOut, name))
	}
	return ErrorResult(err.Error())
}
