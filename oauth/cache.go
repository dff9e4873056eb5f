package oauth

import (
	"crypto/sha256"
	"sync"
	"time"
)

// tokenCache remembers the tokens verified, by a hash of each (never
// the token itself), each until it expires, so that a token's signature
// is checked once rather than on every request. It holds at most max; a
// token verified when it is full takes the place of an expired one, or
// of any.
type tokenCache struct {
	max  int
	skew time.Duration

	mu sync.Mutex
	m  map[[sha256.Size]byte]*Identity
}

// get returns the identity of token, if it was verified and has not
// expired at now.
func (c *tokenCache) get(token string, now time.Time) *Identity {
	h := sha256.Sum256([]byte(token))
	c.mu.Lock()
	defer c.mu.Unlock()
	id := c.m[h]
	if id != nil && now.Add(-c.skew).After(id.Expiry) {
		delete(c.m, h)
		return nil
	}
	return id
}

// put remembers the identity of a token verified at now.
func (c *tokenCache) put(token string, id *Identity, now time.Time) {
	h := sha256.Sum256([]byte(token))
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = make(map[[sha256.Size]byte]*Identity)
	}
	if len(c.m) >= c.max {
		c.evict(now)
	}
	c.m[h] = id
}

// evict makes room: of a few tokens the map's random order gives, it
// drops the expired ones, or else the first, so that a put costs the
// same however full the cache. c.mu is held.
func (c *tokenCache) evict(now time.Time) {
	var first [sha256.Size]byte
	seen, dropped := 0, false
	for h, id := range c.m {
		if seen == 0 {
			first = h
		}
		if now.Add(-c.skew).After(id.Expiry) {
			delete(c.m, h)
			dropped = true
		}
		if seen++; seen == evictScan {
			break
		}
	}
	if !dropped {
		delete(c.m, first)
	}
}

// evictScan is how many tokens an eviction looks at.
const evictScan = 16
