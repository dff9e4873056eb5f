package server

import "strconv"

// This file holds the calls that were admitted while every slot was
// taken. The reader never waits for a slot: it puts the call in line here
// and goes on reading, so that ping, notifications/cancelled and the
// answers to the server's own requests are read at once however busy the
// tools are. The line is the server's, shared by every session and
// request, and served in arrival order: a call that ends hands its slot
// to the first in line (worker.go). It is bounded, by count and by bytes;
// a call that finds it full is refused at once with a sentence saying so,
// which bounds the memory a flood of calls can take.

// callQueue is the line of admitted calls waiting for a slot. The
// server's lineMu guards it.
type callQueue struct {
	maxCalls, maxBytes int
	calls              []*Call
	bytes              int // the arguments the calls hold
}

// push puts c at the end of the line, or returns the refusal the model
// reads when the line is full. A call is always taken into an empty line,
// however large its arguments.
func (q *callQueue) push(c *Call) error {
	size := len(c.args)
	if len(q.calls) > 0 && (len(q.calls) >= q.maxCalls || q.bytes+size > q.maxBytes) {
		return refusal(say(c.Lang(), msgBusy, strconv.Itoa(len(q.calls))))
	}
	c.queued = true
	q.calls = append(q.calls, c)
	q.bytes += size
	return nil
}

// pop takes the first call of the line, or nil.
func (q *callQueue) pop() *Call {
	if len(q.calls) == 0 {
		return nil
	}
	c := q.calls[0]
	q.calls[0] = nil
	q.calls = q.calls[1:]
	q.bytes -= len(c.args)
	return c
}
