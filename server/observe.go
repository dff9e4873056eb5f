package server

import (
	"errors"
	"time"

	"github.com/stdiotools/toolserver/schemagen"
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

// observerEvents tells an Observer about the call events (events.go).
type observerEvents struct{ o Observer }

func (s *observerEvents) callEvent(e *callEvent) {
	c := e.call
	switch e.kind {
	case eventStarted:
		s.o.CallStarted(c.Tool)
	case eventStage:
		if e.err == nil {
			return
		}
		var verr *schemagen.Errors
		var pe *security.PathError
		switch {
		case e.stage == stageValidate && errors.As(e.err, &verr):
			kinds := make([]string, len(verr.Problems))
			for i, p := range verr.Problems {
				kinds[i] = p.Kind.String()
			}
			s.o.ArgumentsRefused(c.Tool, kinds)
		case e.stage == stageExecute && errors.As(e.err, &pe):
			s.o.PathRefused(c.Tool, pe.Reason.String())
		}
	case eventAnswered:
		if !c.started {
			return // refused before it ran: it never started either
		}
		cached, hit := cacheOf(c)
		s.o.CallFinished(c.Tool, CallOutcome{Status: e.status, Duration: time.Since(c.received),
			Attempts: attemptsOf(c), Cached: cached, CacheHit: hit})
	}
}
