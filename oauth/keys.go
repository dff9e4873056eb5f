package oauth

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/go-jose/go-jose/v4"
)

// maxKeys bounds the keys kept of one key set.
const maxKeys = 100

// keySet is the issuer's signing keys (its JWKS), fetched at start and
// again when a token names a key id not known yet, at most once a
// KeyRefresh. When the issuer cannot be reached, the keys fetched before
// still verify, and a key not among them fails closed.
type keySet struct {
	cfg *Config
	uri string

	mu      sync.Mutex
	keys    map[string]jose.JSONWebKey // by key id
	fetched time.Time                  // the last fetch tried
	// fetching is closed when the fetch running ends; nil when none runs.
	fetching chan struct{}
}

// errUnknownKey is a token signed by a key the issuer does not list.
var errUnknownKey = errors.New("the token is signed by a key the issuer does not list")

// key returns the key of id, fetching the set again if it is not known
// and the last fetch is at least KeyRefresh old.
func (ks *keySet) key(ctx context.Context, id string) (jose.JSONWebKey, error) {
	for {
		ks.mu.Lock()
		if k, ok := ks.keys[id]; ok {
			ks.mu.Unlock()
			return k, nil
		}
		if wait := ks.fetching; wait != nil {
			ks.mu.Unlock()
			select {
			case <-wait:
				continue
			case <-ctx.Done():
				return jose.JSONWebKey{}, ctx.Err()
			}
		}
		if !ks.fetched.IsZero() && ks.cfg.Now().Sub(ks.fetched) < ks.cfg.KeyRefresh {
			ks.mu.Unlock()
			return jose.JSONWebKey{}, errUnknownKey
		}
		done := make(chan struct{})
		ks.fetching = done
		ks.mu.Unlock()
		// The fetch is the server's, not the request's: a client that
		// hangs up must not cancel it, or its window would pass with the
		// keys never fetched (the HTTP client's timeout bounds it).
		err := ks.fetch(context.WithoutCancel(ctx))
		ks.mu.Lock()
		ks.fetching = nil
		close(done)
		k, ok := ks.keys[id]
		ks.mu.Unlock()
		switch {
		case ok:
			return k, nil
		case err != nil:
			return jose.JSONWebKey{}, fmt.Errorf("%w (and the issuer's keys could not be fetched again: %w)", errUnknownKey, err)
		}
		return jose.JSONWebKey{}, errUnknownKey
	}
}

// fetch reads the key set and, if it holds usable keys, replaces the
// keys known with them. A set that cannot be read leaves them as they
// were.
func (ks *keySet) fetch(ctx context.Context) error {
	ks.mu.Lock()
	ks.fetched = ks.cfg.Now()
	ks.mu.Unlock()
	var set jose.JSONWebKeySet
	if err := getJSON(ctx, ks.cfg.HTTPClient, ks.uri, &set); err != nil {
		return err
	}
	keys := make(map[string]jose.JSONWebKey)
	for _, k := range set.Keys {
		if k.KeyID == "" || !k.Valid() || !k.IsPublic() || (k.Use != "" && k.Use != "sig") || len(keys) == maxKeys {
			continue
		}
		keys[k.KeyID] = k
	}
	if len(keys) == 0 {
		return fmt.Errorf("%s lists no public signing key with a key id", ks.uri)
	}
	ks.mu.Lock()
	ks.keys = keys
	ks.mu.Unlock()
	return nil
}
