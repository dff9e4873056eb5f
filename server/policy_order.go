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
// writes to one target apply in arrival order. Only calls of tools that
// change something stand in line.
func (p *pathQueues) admit(c *Call) {
	if c.tool.spec.Level != security.Read {
		c.tickets = p.enqueue(c.targets)
	}
}

// orderPolicy holds a call until it is first in line on each of its
// targets. It waits without its slot: the calls ahead of it may need the
// reader (a confirmation) to finish.
func (s *Server) orderPolicy(next ToolHandler) ToolHandler {
	return func(ctx context.Context, c *Call) (*CallToolResult, error) {
		if len(c.tickets) == 0 {
			return next(ctx, c)
		}
		// The places are given back once the call is answered (Call.finish),
		// so that the next call on a target starts after this one's
		// response is out.
		c.beginStage(stageWait)
		var err error
		s.withoutSlot(func() { err = wait(ctx, c.tickets) })
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

// ticket is a call's place in one path's queue.
type ticket struct {
	key   string
	ready chan struct{} // closed when the call is first in line
}

// enqueue takes a place in the queue of each key.
func (p *pathQueues) enqueue(keys []string) []*ticket {
	if len(keys) == 0 {
		return nil
	}
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
	return ts
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
	ts := c.tickets
	if len(ts) == 0 {
		return
	}
	c.tickets = nil
	p.mu.Lock()
	defer p.mu.Unlock()
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
