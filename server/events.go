package server

import (
	"time"

	"github.com/stdiotools/toolserver/schemagen"
)

// This file is the one stream of events every call sends as it goes: it
// started, each stage finished, it was answered. The log lines
// (eventlog.go), the metrics [Observer] (observe.go) and the [Tracer]
// (trace.go) are its listeners; none of them is fed any other way.

// eventKind tells what happened to a call.
type eventKind uint8

const (
	eventStarted  eventKind = iota + 1 // a worker took the call up
	eventStage                         // a stage ended, or was cut short by the answer
	eventAnswered                      // the call's answer is known
)

// The stages of a call, in order.
const (
	stageParse    = "parse"    // the reader resolved the tool and read params
	stageWait     = "wait"     // earlier calls on the same targets ran first
	stageValidate = "validate" // the arguments were checked and decoded
	stageExecute  = "execute"  // the tool's function ran
)

// callEvent is one event of a call. Listeners read it while the call's
// mutex is held: they must be quick and must not call back into the call.
type callEvent struct {
	kind eventKind
	call *Call

	// eventStage
	stage      string
	begin, end time.Time
	err        error            // why the stage failed, or what the call was answered with; nil when neither failed
	report     schemagen.Report // validate: the coercions made

	// eventAnswered
	status string          // "ok", "error", "timeout", "cancelled" or "invalid_params"
	result *CallToolResult // what the model reads; nil for invalid_params
	text   string          // invalid_params: the error message
	bytes  int             // the response's size; 0 when none was sent or it went in pieces
	pieces *line           // the response when it went in pieces (line.go)
}

// size returns the size of the response; 0 when none was sent. The size
// of a response in pieces is counted when asked for, as a debug log does.
func (e *callEvent) size() int {
	if e.pieces != nil {
		return e.pieces.len()
	}
	return e.bytes
}

// listeners are the listeners of every call's events. They are concrete
// types rather than a list of interfaces, so that an event, which lives on
// the caller's stack, is not moved to the heap to be passed through one.
type listeners struct {
	stages   bool // a listener wants the stages that succeed: a tracer, or a log at info level
	log      eventLog
	observer *observerEvents // nil without an Observer
	tracer   *traceEvents    // nil without a Tracer
}

// send hands e to every listener.
func (l *listeners) send(e *callEvent) {
	l.log.callEvent(e)
	if l.observer != nil {
		l.observer.callEvent(e)
	}
	if l.tracer != nil {
		l.tracer.callEvent(e)
	}
}

// openStage is the stage a call is in, until it ends; or a stage that
// failed (end and err set), which a policy may run again (a retry) before
// the call is answered.
type openStage struct {
	name  string
	begin time.Time
	end   time.Time // when it failed
	err   error     // why it failed; nil while it runs
}

// emit hands e to every listener. The caller holds c.mu.
func (c *Call) emit(e *callEvent) {
	e.call = c
	c.srv.listeners.send(e)
}

// beginStage marks the start of a stage. When no listener wants the
// stages that succeed (no tracer, no log at info level), it does nothing:
// a call then pays for a stage only when the stage fails.
func (c *Call) beginStage(name string) {
	if !c.srv.listeners.stages {
		return
	}
	now := time.Now()
	c.mu.Lock()
	if !c.done {
		c.stage = openStage{name: name, begin: now}
	}
	c.mu.Unlock()
}

// endStage ends the stage name, failed when err is not nil. A stage that
// ends after the call was answered (a tool finishing after its deadline)
// is not reported: the answer has closed it already.
func (c *Call) endStage(name string, err error) { c.endStageReport(name, err, schemagen.Report{}) }

// endStageReport is endStage with the report of the validate stage.
func (c *Call) endStageReport(name string, err error, report schemagen.Report) {
	if err == nil && !c.srv.listeners.stages {
		if c.failed.Load() {
			// A run that failed before this one succeeded: the failure is
			// no longer the stage's.
			c.mu.Lock()
			c.stage = openStage{}
			c.failed.Store(false)
			c.mu.Unlock()
		}
		return
	}
	now := time.Now()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.done {
		return
	}
	var begin time.Time // unknown when the stage began unobserved
	if c.stage.name == name {
		begin = c.stage.begin
	}
	c.stage = openStage{}
	c.failed.Store(false)
	e := callEvent{kind: eventStage, stage: name, begin: begin, end: now, err: err, report: report}
	c.emit(&e)
}

// failStage records that the stage name failed with err, without
// reporting it yet: a policy may run it again (a retry), and one stage
// then spans every run, reported once it succeeds (endStage) or the call
// is answered (close), with the error of its last run.
func (c *Call) failStage(name string, err error) {
	now := time.Now()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.done {
		return
	}
	var begin time.Time
	if c.stage.name == name {
		begin = c.stage.begin
	}
	c.stage = openStage{name: name, begin: begin, end: now, err: err}
	c.failed.Store(true)
}

// markStarted reports that a worker took the call up.
func (c *Call) markStarted() {
	c.mu.Lock()
	c.started = true
	e := callEvent{kind: eventStarted}
	c.emit(&e)
	c.mu.Unlock()
}

// close marks the call answered with err, and reports it: a stage still
// running is cut short with err (the deadline passed), a stage that
// failed is reported with its own error, and from now on progress and
// stages are dropped, so that nothing about the call follows its
// response. It reports false, and does nothing, if the call was answered
// already.
func (c *Call) close(e *callEvent, err error) bool {
	now := time.Now()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.done {
		return false
	}
	if st := c.stage; st.name != "" {
		if st.err == nil {
			st.end, st.err = now, err
		}
		ev := callEvent{kind: eventStage, stage: st.name, begin: st.begin, end: st.end, err: st.err}
		c.stage = openStage{}
		c.emit(&ev)
	}
	c.done = true
	e.kind = eventAnswered
	e.err = err
	c.emit(e)
	return true
}
