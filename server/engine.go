package server

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/stdiotools/toolserver/security"
)

// This file holds the execution policy around a call: the workers that
// run calls, the result cache, and the deadline.

// run hands a call to an idle worker goroutine, or starts one. Workers
// live as long as the session, so their stacks, grown once by the deep
// calls of validation, are not grown again for every call (a fresh
// goroutine per call spent most of its time copying its stack). There are
// never more workers than slots.
func (s *session) run(p *pending) {
	s.workMu.Lock()
	defer s.workMu.Unlock()
	if s.stopping {
		go p.do() // the session is ending; the call still gets its answer
		return
	}
	select {
	case s.work <- p:
	default:
		go func() {
			p.do()
			for p := range s.work {
				p.do()
			}
		}()
	}
}

// cached runs the call through the result cache when the tool has one,
// and drops cached results a write may have changed.
func (s *Server) cached(ctx context.Context, t *tool, call *Call, args json.RawMessage) *CallToolResult {
	switch {
	case t.spec.Level != security.Read:
		res := s.execute(ctx, t, call, args)
		if !isDryRun(args) {
			s.cache.invalidate(pathKeys(t, args))
		}
		return res
	case t.spec.CacheTTL > 0:
		key := t.spec.Name + "\x00" + string(canonicalJSON(args))
		res, hit := s.cache.do(ctx, key, pathKeys(t, args), t.spec.CacheTTL, func() *CallToolResult {
			return s.execute(ctx, t, call, args)
		})
		if res == nil { // cancelled while waiting for an identical call
			return s.toolError(call, ctx.Err())
		}
		call.cached.Store(true)
		call.cacheHit.Store(hit)
		if hit {
			if ev := s.log.Debug(); ev.Enabled() {
				call.stage(ev, "execute", time.Now()).Str("status", "cache_hit").Msg("call")
			}
		}
		return res
	default:
		return s.execute(ctx, t, call, args)
	}
}

// isDryRun reports whether raw arguments ask for a dry run, which changes
// nothing and so drops nothing from the cache.
func isDryRun(args json.RawMessage) bool {
	if len(args) == 0 || args[0] != '{' {
		return false
	}
	var buf [8]member
	for _, m := range appendMembers(buf[:0], args) {
		if m.name == "dry_run" {
			return string(m.value) == "true"
		}
	}
	return false
}

// timeout returns how long a call of t may run.
func (s *Server) timeout(t *tool) time.Duration {
	if t.spec.Timeout > 0 {
		return t.spec.Timeout
	}
	return s.opts.ToolTimeout
}

// timeoutResult is what the model reads about a call that ran out of time.
func timeoutResult(name string, limit time.Duration) *CallToolResult {
	return &CallToolResult{timedOut: true, IsError: true, Content: []Content{TextContent(fmt.Sprintf("The call to %s did not finish within %s and was stopped; "+
		"nothing more will come of it. Try a smaller request, such as a narrower path or fewer files.", name, limit))}}
}
