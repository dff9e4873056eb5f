package server

import (
	"context"
	"path"
	"strings"
	"sync"
)

// This file keeps calls that change the same path in the order they
// arrived, and runs the tools that declare themselves unsafe to share the
// server alone. Reads run in parallel with everything.

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

// release leaves every queue and lets the next call in each go.
func (p *pathQueues) release(ts []*ticket) {
	if len(ts) == 0 {
		return
	}
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

// pathKeys returns the paths a call of t names, read from the raw
// arguments, in a lexically clean form. Only tools that change something
// are ordered; reads need no queue.
func pathKeys(t *tool, args []byte) []string {
	if t == nil || len(t.pathArgs) == 0 || len(args) == 0 || args[0] != '{' {
		return nil
	}
	var keys []string
	add := func(raw []byte) {
		if s, ok := decodeString(raw); ok {
			keys = append(keys, path.Clean("/"+strings.TrimPrefix(s, "./")))
		}
	}
	var buf [8]member
	for _, m := range appendMembers(buf[:0], args) {
		for _, name := range t.pathArgs {
			if m.name != name {
				continue
			}
			if m.value[0] == '[' {
				for _, e := range arrayElements(m.value) {
					add(e)
				}
			} else {
				add(m.value)
			}
		}
	}
	return dedupe(keys)
}

// dedupe removes repeated keys, so that a call never waits for itself.
func dedupe(keys []string) []string {
	out := keys[:0]
	for i, k := range keys {
		seen := false
		for _, j := range keys[:i] {
			if j == k {
				seen = true
				break
			}
		}
		if !seen {
			out = append(out, k)
		}
	}
	return out
}

// arrayElements splits a valid JSON array into its elements.
func arrayElements(arr []byte) [][]byte {
	var out [][]byte
	i := skipSpace(arr, 1)
	for i < len(arr) && arr[i] != ']' {
		if arr[i] == ',' {
			i = skipSpace(arr, i+1)
			continue
		}
		end := skipValue(arr, i)
		out = append(out, arr[i:end])
		i = skipSpace(arr, end)
	}
	return out
}
