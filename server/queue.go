package server

import "strconv"

// This file holds the calls that were admitted while every slot was
// taken. The reader never waits for a slot: it puts the call in line here
// and goes on reading, so that ping, notifications/cancelled and the
// answers to the server's own requests are read at once however busy the
// tools are. One feeder goroutine per session waits for the slots instead
// and hands the calls to the workers in arrival order. The line is
// bounded, by count and by bytes; a call that finds it full is refused at
// once with a sentence saying so, which bounds the memory a flood of
// calls can take.

// callQueue is the line of admitted calls waiting for a slot.
type callQueue struct {
	maxCalls, maxBytes int
	calls              []*Call
	bytes              int           // the arguments the calls hold
	wake               chan struct{} // signalled when a call is added; capacity 1
	stop               chan struct{} // closed when the session ends
}

func newCallQueue(maxCalls, maxBytes int) *callQueue {
	return &callQueue{maxCalls: maxCalls, maxBytes: maxBytes, wake: make(chan struct{}, 1), stop: make(chan struct{})}
}

// push puts c at the end of the line, or returns the refusal the model
// reads when the line is full. A call is always taken into an empty line,
// however large its arguments. The caller holds the session's workMu.
func (q *callQueue) push(c *Call) error {
	size := len(c.args)
	if len(q.calls) > 0 && (len(q.calls) >= q.maxCalls || q.bytes+size > q.maxBytes) {
		return refusal(say(c.Lang(), msgBusy, strconv.Itoa(len(q.calls))))
	}
	q.calls = append(q.calls, c)
	q.bytes += size
	select {
	case q.wake <- struct{}{}:
	default:
	}
	return nil
}

// pop takes the first call of the line, or nil. The caller holds the
// session's workMu.
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

// feed runs as long as the session: it waits for a slot, then hands the
// first waiting call to a worker.
func (s *session) feed() {
	for {
		select {
		case <-s.queue.wake:
		case <-s.queue.stop:
			return
		}
		for {
			select {
			case s.slots <- struct{}{}:
			case <-s.queue.stop:
				return
			}
			s.workMu.Lock()
			c := s.queue.pop()
			s.workMu.Unlock()
			if c == nil {
				<-s.slots // nothing waits after all
				break
			}
			s.run(c)
		}
	}
}
