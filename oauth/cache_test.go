package oauth

import (
	"strconv"
	"testing"
	"time"
)

// TestTheTokenCacheForgetsExpiredTokensAndStaysBounded: a token is
// remembered until it expires (with the clock skew), and a full cache
// takes a new token in place of an old one, never growing.
func TestTheTokenCacheForgetsExpiredTokensAndStaysBounded(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	c := &tokenCache{max: 3, skew: time.Minute}
	id := &Identity{Subject: "s", Expiry: now.Add(time.Hour)}
	c.put("a", id, now)
	if c.get("a", now.Add(time.Hour+time.Minute)) != id {
		t.Fatal("a token within its expiry and skew was forgotten")
	}
	if c.get("a", now.Add(time.Hour+time.Minute+time.Second)) != nil || len(c.m) != 0 {
		t.Fatal("an expired token was kept")
	}
	for i := range 10 {
		c.put(strconv.Itoa(i), &Identity{Expiry: now.Add(time.Hour)}, now)
		if len(c.m) > 3 {
			t.Fatalf("%d tokens in a cache of 3", len(c.m))
		}
	}
	if c.get("9", now) == nil {
		t.Fatal("the newest token was not kept")
	}
	// Expired tokens go first: a full cache of expired ones takes a new
	// one in and keeps none of them.
	c = &tokenCache{max: 3}
	for i := range 3 {
		c.put(strconv.Itoa(i), &Identity{Expiry: now}, now)
	}
	c.put("new", &Identity{Expiry: now.Add(time.Hour)}, now.Add(time.Second))
	if len(c.m) != 1 || c.get("new", now) == nil {
		t.Fatalf("%d tokens after the expired ones should have gone", len(c.m))
	}
}
