package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"sync"
)

// loopGuard notices a model calling the same tool with the same arguments
// over and over, back to back, and stops it with a sentence that says so.
// It runs in the reader, so "back to back" means in arrival order; over
// HTTP one guard serves each client across its requests, hence the lock.
type loopGuard struct {
	mu    sync.Mutex
	max   int    // identical calls allowed in a row; < 0: no guard
	tool  *tool  // the last call's tool
	args  []byte // and its raw arguments
	canon []byte // its arguments in canonical form, computed when needed
	count int    // how many times in a row it came
}

// defaultMaxRepeats is how many identical calls in a row are allowed.
const defaultMaxRepeats = 4

// admit records a tools/call and refuses it when it repeats the one
// before it once too often.
func (g *loopGuard) admit(c *Call) error {
	if g.max < 0 || c.requestState != "" {
		return nil // a confirmation's second round repeats its call by design
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if c.tool == g.tool && g.same(c.args) {
		g.count++
	} else {
		g.tool, g.args, g.canon, g.count = c.tool, bytes.Clone(c.args), nil, 1
	}
	if g.count > g.max {
		return refusal(fmt.Sprintf("You have called %s with the same arguments %d times in a row; the result will not change. Use the answer you have, or change the arguments.",
			c.Tool, g.count))
	}
	return nil
}

// same reports whether args equal the last call's arguments: byte for
// byte, or in canonical form (keys sorted, numbers normalized).
func (g *loopGuard) same(args []byte) bool {
	if bytes.Equal(args, g.args) {
		return true
	}
	if g.canon == nil {
		g.canon = canonicalJSON(g.args)
	}
	c := canonicalJSON(args)
	return c != nil && bytes.Equal(c, g.canon)
}

// canonicalJSON returns raw with object keys sorted and numbers in one
// form (1, 1.0 and 1e0 alike), or nil if it is not valid JSON.
func canonicalJSON(raw []byte) []byte {
	if len(raw) == 0 {
		return []byte("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil
	}
	b, err := json.Marshal(normalizeNumbers(v))
	if err != nil {
		return nil
	}
	return b
}

// normalizeNumbers rewrites every json.Number in v as the shortest exact
// form of its value.
func normalizeNumbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		if r, ok := new(big.Rat).SetString(string(x)); ok {
			return json.Number(r.RatString())
		}
		return x
	case map[string]any:
		for k, e := range x {
			x[k] = normalizeNumbers(e)
		}
	case []any:
		for i, e := range x {
			x[i] = normalizeNumbers(e)
		}
	}
	return v
}
