package server

import (
	"context"
	"sync"

	"github.com/stdiotools/toolserver/security"
)

// This file keeps calls that change the same target in the order they
// arrived, across every session and request of the server. Reads run in
// parallel with everything. The order is by target key
// ([Options.TargetKey]), which a file tool's sandbox makes from the
// file's folder and name; across processes, the tools' own locks on the
// file keep changes apart (security.Sandbox.LockWrite).

// admit takes the call's places in line, in the reader, so that two
// writes to one target apply in arrival order, and keeps them with the
// call (Call.SetValue). Only calls of tools that change something stand
// in line.
func (p *pathQueues) admit(c *Call) {
	if c.tool.spec.Level != security.Read && len(c.targets) > 0 {
		c.SetValue(placesKey{}, p.enqueue(c.targets))
	}
}

// placesKey is the key of a call's places in line (Call.Value).
type placesKey struct{}

// placesOf returns the call's places in line, or nil.
func placesOf(c *Call) *places {
	pl, _ := c.Value(placesKey{}).(*places)
	return pl
}

// orderPolicy holds a call until it is first in line on each of its
// targets. It waits without its slot (Call.Yield): the calls ahead of it
// may need the reader (a confirmation) to finish.
func (s *Server) orderPolicy(next ToolHandler) ToolHandler {
	return func(ctx context.Context, c *Call) (*CallToolResult, error) {
		pl := placesOf(c)
		if pl == nil {
			return next(ctx, c)
		}
		// The places are given back once the call is answered (Call.finish),
		// so that the next call on a target starts after this one's
		// response is out.
		c.beginStage(stageWait)
		var err error
		c.Yield(func() { err = wait(ctx, pl.tickets) })
		if err == nil {
			err = ctx.Err() // the turn came as the call was cancelled: it does not run
		}
		c.endStage(stageWait, err)
		if err != nil {
			// Timed out (the timeout policy answers), cancelled by the
			// client (no answer is due), or the server is stopping.
			return nil, refusal(say(c.Lang(), msgShuttingDown, c.Tool))
		}
		return next(ctx, c)
	}
}

// pathQueues is a first-come, first-served queue per path. The reader
// takes a place in every queue a call needs when the call arrives, so that
// two writes to one file apply in arrival order, and a call naming several
// paths (a move) can never deadlock with another: all queues are ordered
// by the same arrival order.
type pathQueues struct {
	mu     sync.Mutex
	queues map[string][]*ticket
}

// places are a call's places in line, one in the queue of each of its
// targets. release sets tickets to nil, under the pathQueues' mutex, once
// the call has ended; the order policy reads them only before.
type places struct {
	tickets []*ticket
}

// ticket is a call's place in one path's queue.
type ticket struct {
	key   string
	ready chan struct{} // closed when the call is first in line
}

// enqueue takes a place in the queue of each key.
func (p *pathQueues) enqueue(keys []string) *places {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.queues == nil {
		p.queues = make(map[string][]*ticket)
	}
	ts := make([]*ticket, 0, len(keys))
	for _, k := range keys {
		t := &ticket{key: k, ready: make(chan struct{})}
		if len(p.queues[k]) == 0 {
			close(t.ready)
		}
		p.queues[k] = append(p.queues[k], t)
		ts = append(ts, t)
	}
	return &places{tickets: ts}
}

// wait blocks until the call is first in every queue it stands in.
func wait(ctx context.Context, ts []*ticket) error {
	for _, t := range ts {
		select {
		case <-t.ready:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// release takes the call out of every queue it stands in and lets the
// next call in each go. Releasing twice does nothing.
func (p *pathQueues) release(c *Call) {
	pl := placesOf(c)
	if pl == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	ts := pl.tickets
	pl.tickets = nil
	for _, t := range ts {
		q := p.queues[t.key]
		for i, u := range q {
			if u == t {
				q = append(q[:i], q[i+1:]...)
				if i == 0 && len(q) > 0 {
					close(q[0].ready)
				}
				break
			}
		}
		if len(q) == 0 {
			delete(p.queues, t.key)
		} else {
			p.queues[t.key] = q
		}
	}
}
