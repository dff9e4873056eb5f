package server

import (
	"context"
	"errors"
	"math/rand/v2"
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

// retry runs h on in until it succeeds, fails for good, or has been tried
// max times, waiting between tries with sleep. It returns the last
// result, the number of tries and the last error. It takes the handler and
// its arguments rather than a closure over them, which would cost an
// allocation on every call.
func retry[In, Out any](ctx context.Context, max int, sleep func(context.Context, time.Duration) error, h Handler[In, Out], call *Call, in In) (Out, int, error) {
	for n := 1; ; n++ {
		v, err := h(ctx, call, in)
		if err == nil || n >= max || !isTransient(err) {
			return v, n, err
		}
		d := retryBase << (n - 1)
		d = d/2 + rand.N(d/2+1) // jitter, so that retries of many calls spread out
		if sleep(ctx, d) != nil {
			return v, n, err
		}
	}
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
