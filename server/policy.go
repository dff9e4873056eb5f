package server

import (
	"context"
	"time"
)

// ToolHandler runs one tool call and returns its result. A returned error
// is the model's to read, as a [Handler]'s is: the server turns it into an
// error result (see [Internal] for errors the model should not see). Only
// problems with the request itself are JSON-RPC errors, and those are
// decided before any handler runs.
type ToolHandler func(ctx context.Context, call *Call) (*CallToolResult, error)

// Policy is a rule applied around every tool call, as net/http middleware
// is around a handler: it receives the handler it guards and returns one
// that applies the rule, then calls it, or answers by itself without
// calling it (an authorization check refusing a call), or looks at what
// it returned (an audit log). Set yours in [Options.Policies].
type Policy func(next ToolHandler) ToolHandler

// policies builds the handler every call runs through, once per server:
// the tool itself, innermost, wrapped in the built-in policies, wrapped in
// the ones of [Options.Policies], outermost, first to last. From the
// outside in:
//
//  1. Options.Policies, in their order;
//  2. roots (roots.go): wait until the client's roots are known;
//  3. timeout (policy_timeout.go): the call's deadline; the rest runs on
//     a goroutine of the call (Call.Go), and when the deadline passes
//     the timeout is returned at once, through the policies outside it,
//     whatever the tool does next;
//  4. order (policy_order.go): wait until the earlier calls on the same
//     targets are done;
//  5. exclusive (policy_exclusive.go): an Exclusive tool runs alone;
//  6. confirmation and dry run (policy_confirm.go): what Call.Confirm does;
//  7. cache (policy_cache.go): cached reads and identical reads in flight
//     run once; writes drop what they change;
//  8. retry (policy_retry.go): transient failures are tried again;
//  9. the tool (addtool.go): validate the arguments, then run it.
//
// Three policies also decide on arrival, before a call takes a slot,
// because they are about arrival order (see admit.go): the loop guard
// (policy_loopguard.go) and the limits (policy_limits.go) of the call's
// principal, and the place in line of order.
//
// Every policy's state is the server's, shared by all sessions and
// requests (scope.go): two HTTP requests changing one file are ordered as
// two calls of one stdio session are.
//
// What a policy keeps about one call is kept with the call, under a key of
// its own (Call.SetValue): the retry policy's count of tries, the cache's
// hit, the order policy's places in line, what Call.Confirm does. No
// built-in policy reaches the call by a way a policy of Options.Policies
// has not: the exported Call API (Value, SetValue, SetConfirm, Go, Yield)
// is all they use of it beyond what the reader built.
func (s *Server) policies() ToolHandler {
	h := ToolHandler(invoke)
	h = retryPolicy(func(ctx context.Context, d time.Duration) error { return s.sleep(ctx, d) })(h)
	h = s.cachePolicy(h)
	h = s.confirmPolicy(h)
	h = s.exclusivePolicy(h)
	h = s.orderPolicy(h)
	h = s.timeoutPolicy(h)
	h = s.rootsPolicy(h)
	for i := len(s.opts.Policies) - 1; i >= 0; i-- {
		h = s.opts.Policies[i](h)
	}
	return h
}

// invoke runs the called tool's own handler.
func invoke(ctx context.Context, c *Call) (*CallToolResult, error) {
	return c.tool.handler(ctx, c)
}
