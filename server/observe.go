package server

import (
	"errors"
	"time"

	"github.com/stdiotools/toolserver/security"
)

// Observer is told what happens to every tool call, for metrics. Its
// methods run on the call path: they must be quick and safe for
// concurrent use. Set it in [Options.Observer].
type Observer interface {
	// CallStarted is called when a call begins to run.
	CallStarted(tool string)
	// CallFinished is called once per started call, when its answer is
	// known.
	CallFinished(tool string, o CallOutcome)
	// ArgumentsRefused is called with the kind of every problem found in
	// a call's arguments ("missing_required", "wrong_type", ...).
	ArgumentsRefused(tool string, kinds []string)
	// PathRefused is called when the sandbox refuses a path, with the
	// reason ("escapes_root", "link_outside_root", ...).
	PathRefused(tool, reason string)
}

// CallOutcome describes how a call ended.
type CallOutcome struct {
	// Status is "ok", "error", "timeout" or "cancelled".
	Status string
	// Duration is from the start of the call to its answer.
	Duration time.Duration
	// Attempts is how many times the tool ran (more than 1 after retries).
	Attempts int
	// Cached is set for a tool with a result cache; CacheHit when the
	// answer came from the cache or a call in flight.
	Cached, CacheHit bool
}

// nopObserver is the Observer of a server that has none.
type nopObserver struct{}

func (nopObserver) CallStarted(string)                {}
func (nopObserver) CallFinished(string, CallOutcome)  {}
func (nopObserver) ArgumentsRefused(string, []string) {}
func (nopObserver) PathRefused(string, string)        {}

// observePathError tells the observer when err is the sandbox's refusal.
func (s *Server) observePathError(tool string, err error) {
	var pe *security.PathError
	if errors.As(err, &pe) {
		s.opts.Observer.PathRefused(tool, pe.Reason.String())
	}
}
