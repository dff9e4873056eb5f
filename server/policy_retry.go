package server

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync/atomic"
	"time"

	"github.com/stdiotools/toolserver/security"
)

// transientError marks an error that may go away if the call is tried
// again: a busy file, an interrupted read, a resource briefly unavailable.
type transientError struct{ err error }

func (e *transientError) Error() string { return e.err.Error() }
func (e *transientError) Unwrap() error { return e.err }

// Transient marks err as transient: the server tries the call again, with
// exponential backoff and jitter, up to [ToolSpec.Attempts] times in all,
// if the tool only reads or is idempotent. Only the last error reaches the
// model.
func Transient(err error) error {
	if err == nil {
		return nil
	}
	return &transientError{err}
}

// MetaExecution is the _meta key of a result that took more than one
// attempt: how many, and how long they took in all.
const MetaExecution = "io.github.stdiotools/execution"

// defaultAttempts is how many times a transient failure is tried in all.
const defaultAttempts = 3

// retryBase is the first backoff; each retry doubles it, and jitter picks
// a wait between half of it and all of it.
const retryBase = 50 * time.Millisecond

// attempts returns how many times a call of spec may be tried: once for
// a write that is not idempotent, whose second try could do the work twice.
func attempts(spec ToolSpec) int {
	if spec.Level != security.Read && !spec.Idempotent {
		return 1
	}
	if spec.Attempts > 0 {
		return spec.Attempts
	}
	return defaultAttempts
}

// retryPolicy tries a call again when it fails with a [Transient] error,
// up to the tool's attempts (see attempts), waiting between tries with
// sleep: exponential backoff from retryBase, with jitter. It stops as soon
// as the call's context ends, so a call that ran out of time or was
// cancelled is never tried again. Only the last error reaches the model.
//
// Its state is its own: the count of tries lives in its loop, and a call
// tried more than once keeps a record of them (tries, under triesKey),
// which the answer writes into the result's _meta ([MetaExecution]) and
// the logs, metrics and traces read. The tool stage needs no word from
// it: it validates a call's arguments once however often it runs, and
// gives back the memory a failed run reserved.
func retryPolicy(sleep func(context.Context, time.Duration) error) Policy {
	return func(next ToolHandler) ToolHandler {
		return func(ctx context.Context, c *Call) (*CallToolResult, error) {
			first := time.Now()
			res, err := next(ctx, c)
			most := int32(attempts(c.tool.spec))
			if err == nil || most == 1 || !isTransient(err) {
				return res, err
			}
			var rec *tries // kept once a second try begins
			for n := int32(1); n < most; n++ {
				d := retryBase << (n - 1)
				d = d/2 + rand.N(d/2+1) // jitter, so that retries of many calls spread out
				if sleep(ctx, d) != nil {
					break
				}
				if rec == nil {
					rec = &tries{first: first}
					rec.n.Store(n + 1) // before it is kept, so that no reader sees 0
					c.SetValue(triesKey{}, rec)
				} else {
					rec.n.Store(n + 1)
				}
				if res, err = next(ctx, c); err == nil || !isTransient(err) {
					break
				}
			}
			return res, err
		}
	}
}

// triesKey is the key of a call's tries (Call.Value).
type triesKey struct{}

// tries is the retry policy's record of a call it ran more than once: a
// call has one only from its second try on.
type tries struct {
	first time.Time    // when the first try began
	n     atomic.Int32 // tries begun so far
}

// attemptsOf returns how many times the call's tool ran: 1 unless the
// retry policy tried it again.
func attemptsOf(c *Call) int {
	if t, ok := c.Value(triesKey{}).(*tries); ok {
		return int(t.n.Load())
	}
	return 1
}

// sleepCtx waits for d or until ctx ends.
func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// isTransient reports whether err was marked with [Transient]. It is
// apart from retry so that the target of errors.As, which escapes, is
// allocated only when a call has failed.
func isTransient(err error) bool {
	var te *transientError
	return errors.As(err, &te)
}
