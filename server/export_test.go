package server

// Held reports what is held on behalf of calls where a call c was served:
// the bytes of the server's memory budget (Call.Reserve), and the calls
// waiting for a slot in the server's line and the bytes of their
// arguments (queue.go). It is the one place the black-box tests of what calls give
// back reach inside the package; point it elsewhere when those move.
//
// The budget is read by trying to take it: call Held only while no call
// reserves, or the probe may make one wait.
func Held(c *Call) (budget int64, queued, queuedBytes int) {
	size := c.srv.opts.MemoryBudget
	free := int64(0) // the most that can be taken now: found by bisection
	for lo, hi := int64(0), size; lo <= hi; {
		mid := lo + (hi-lo)/2
		if c.srv.budget.TryAcquire(mid) {
			c.srv.budget.Release(mid)
			free, lo = mid, mid+1
		} else {
			hi = mid - 1
		}
	}
	s := c.srv
	s.lineMu.Lock()
	queued, queuedBytes = len(s.line.calls), s.line.bytes
	s.lineMu.Unlock()
	return size - free, queued, queuedBytes
}
