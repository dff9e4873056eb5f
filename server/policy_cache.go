package server

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/stdiotools/toolserver/internal/jsonwire"
	"github.com/stdiotools/toolserver/security"
)

// cachePolicy serves the reads of tools with a [ToolSpec.CacheTTL] from
// the server's result cache, where identical calls in flight run once,
// and makes every call that changes something (unless it is a dry run)
// drop the cached results at, above or below its targets. A call of a
// cached tool keeps a record (cacheUse) of whether its answer came from
// the cache.
func (s *Server) cachePolicy(next ToolHandler) ToolHandler {
	cache := s.cache
	return func(ctx context.Context, c *Call) (*CallToolResult, error) {
		spec := &c.tool.spec
		switch {
		case spec.Level != security.Read:
			res, err := next(ctx, c)
			if !c.dryRun {
				cache.invalidate(c.targets)
			}
			return res, err
		case spec.CacheTTL > 0:
			rec := new(cacheUse)
			c.SetValue(cacheKey{}, rec)
			// Each principal its own entries: a tool's answer may depend on
			// whom it serves (a library's tool may read WithPrincipal's name).
			key := spec.Name + "\x00" + string(jsonwire.Canonical(c.args))
			if c.who != nil && c.who.name != "" {
				key = c.who.name + "\x00" + key
			}
			res, hit, err := cache.do(ctx, key, c.targets, spec.CacheTTL, c.Yield, func() (*CallToolResult, error) {
				return next(ctx, c)
			})
			rec.hit.Store(hit)
			return res, err
		default:
			return next(ctx, c)
		}
	}
}

// cacheKey is the key of a call's cacheUse (Call.Value).
type cacheKey struct{}

// cacheUse is the cache policy's record of a call of a tool with a
// result cache, which the logs, metrics and traces read.
type cacheUse struct {
	hit atomic.Bool // the answer came from the cache, or from an identical call in flight
}

// cacheOf reports whether the call's tool has a result cache, and
// whether its answer came from it.
func cacheOf(c *Call) (cached, hit bool) {
	if u, ok := c.Value(cacheKey{}).(*cacheUse); ok {
		return true, u.hit.Load()
	}
	return false, false
}

// resultCache keeps the results of read tools that declare a
// [ToolSpec.CacheTTL], and makes identical calls in flight at the same
// time run once. Writes drop the entries whose paths they touch.
type resultCache struct {
	now func() time.Time

	mu       sync.Mutex
	entries  map[string]*cacheEntry
	flights  map[string]*flight
	writeSeq uint64 // bumped by every write, so that a read racing one is not kept
}

type cacheEntry struct {
	res     *CallToolResult
	paths   []string
	expires time.Time
}

// flight is a call that identical calls arriving meanwhile wait for.
type flight struct {
	done chan struct{}
	res  *CallToolResult
}

func newResultCache(now func() time.Time) *resultCache {
	return &resultCache{now: now, entries: make(map[string]*cacheEntry), flights: make(map[string]*flight)}
}

// do returns the cached result for key, or waits for an identical call in
// flight, or runs run and caches what it returns for ttl (unless a write
// happened meanwhile). hit reports whether run was skipped.
//
// Only a success is shared with the calls that waited: an error may be
// the first caller's own (it was cancelled, or ran out of time), so each
// of them then runs for itself. A wait, made through yield (which gives
// back the caller's slot meanwhile: the call waited for may need one),
// ends with ctx's error.
func (c *resultCache) do(ctx context.Context, key string, paths []string, ttl time.Duration, yield func(func()), run func() (*CallToolResult, error)) (res *CallToolResult, hit bool, err error) {
	c.mu.Lock()
	if e := c.entries[key]; e != nil {
		if c.now().Before(e.expires) {
			c.mu.Unlock()
			return e.res, true, nil
		}
		delete(c.entries, key)
	}
	if f := c.flights[key]; f != nil {
		c.mu.Unlock()
		var done bool
		yield(func() {
			select {
			case <-f.done:
				done = true
			case <-ctx.Done():
			}
		})
		if !done {
			return nil, false, ctx.Err()
		}
		if f.res != nil {
			return f.res, true, nil
		}
		return c.do(ctx, key, paths, ttl, yield, run)
	}
	f := &flight{done: make(chan struct{})}
	c.flights[key] = f
	seq := c.writeSeq
	c.mu.Unlock()

	defer func() {
		ok := err == nil && res != nil && !res.IsError
		c.mu.Lock()
		delete(c.flights, key)
		if ok && c.writeSeq == seq {
			c.entries[key] = &cacheEntry{res: res, paths: paths, expires: c.now().Add(ttl)}
		}
		c.mu.Unlock()
		if ok {
			f.res = res // shared with the calls that waited; an error is not
		}
		close(f.done)
	}()
	res, err = run()
	return res, false, err
}

// invalidate drops the entries that cover any of paths: the same path, a
// directory above it, or one below it. With no paths (a write that names
// none) it drops everything.
func (c *resultCache) invalidate(paths []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.writeSeq++
	for key, e := range c.entries {
		if len(paths) == 0 || overlaps(e.paths, paths) {
			delete(c.entries, key)
		}
	}
}

// overlaps reports whether a path in a lies at, above or below one in b.
// An entry without paths covers everything.
func overlaps(a, b []string) bool {
	if len(a) == 0 {
		return true
	}
	for _, x := range a {
		for _, y := range b {
			if within(x, y) || within(y, x) {
				return true
			}
		}
	}
	return false
}

// within reports whether p is dir or lies below it; both are clean and
// start with "/".
func within(p, dir string) bool {
	return p == dir || dir == "/" || strings.HasPrefix(p, dir+"/")
}
