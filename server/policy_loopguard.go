package server

import (
	"bytes"
	"math/big"
	"slices"
	"strconv"
	"sync"

	"github.com/stdiotools/toolserver/internal/jsonwire"
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
		g.tool, g.args, g.count = c.tool, bytes.Clone(c.args), 1
	}
	if g.count > g.max {
		return refusal(say(c.Lang(), msgLoop, c.Tool, strconv.Itoa(g.count)))
	}
	return nil
}

// same reports whether args equal the last call's arguments: byte for
// byte, or as values (see sameJSON).
func (g *loopGuard) same(args []byte) bool {
	return bytes.Equal(args, g.args) || sameJSON(args, g.args)
}

// sameJSON reports whether the valid JSON texts a and b hold the same
// value, as their canonical forms (jsonwire.Canonical) are equal: objects with the same
// members in any order (the last value of a name given twice counting),
// arrays item by item, strings once decoded, numbers by value (but for
// numbers no tool takes, compared as text); empty text stands for {}.
// Only the parts whose text differs are compared as values, the shortest
// first, and strings only from where their texts differ, so that two
// calls are told apart where they differ, however long their arguments
// (the content of a file, which the canonical forms decoded and encoded again
// whole, twice: a third of a second for 8 MiB).
func sameJSON(a, b []byte) bool {
	a, b = trimSpace(a), trimSpace(b)
	if len(a) == 0 {
		a = []byte("{}")
	}
	if len(b) == 0 {
		b = []byte("{}")
	}
	if bytes.Equal(a, b) {
		return true
	}
	switch a[0] {
	case '{':
		if b[0] != '{' {
			return false
		}
		ma, mb := lastMembers(a), lastMembers(b)
		if len(ma) != len(mb) {
			return false
		}
		var differ [][2][]byte
		for name, va := range ma {
			vb, ok := mb[name]
			if !ok {
				return false
			}
			if !bytes.Equal(va, vb) {
				differ = append(differ, [2][]byte{va, vb})
			}
		}
		slices.SortFunc(differ, func(x, y [2][]byte) int { return len(x[0]) + len(x[1]) - len(y[0]) - len(y[1]) })
		for _, d := range differ {
			if !sameJSON(d[0], d[1]) {
				return false
			}
		}
		return true
	case '[':
		if b[0] != '[' {
			return false
		}
		ea, eb := arrayElements(a), arrayElements(b)
		if len(ea) != len(eb) {
			return false
		}
		for i := range ea {
			if !sameJSON(ea[i], eb[i]) {
				return false
			}
		}
		return true
	case '"':
		return jsonwire.SameString(a, b)
	case 't', 'f', 'n':
		return false // the literals differ
	}
	if !smallNumber(a) || !smallNumber(b) {
		return false // 1e999999 costs big.Rat a tenth of a second
	}
	ra, okA := new(big.Rat).SetString(string(a))
	rb, okB := new(big.Rat).SetString(string(b))
	return okA && okB && ra.Cmp(rb) == 0
}

// smallNumber reports whether a number literal is short and its exponent
// small, as schemagen requires of the numbers it takes: at most 100
// characters, exponent within ±400.
func smallNumber(num []byte) bool {
	if len(num) > 100 {
		return false
	}
	if i := bytes.IndexAny(num, "eE"); i >= 0 {
		e, err := strconv.Atoi(string(num[i+1:]))
		return err == nil && e >= -400 && e <= 400
	}
	return true
}

// lastMembers returns the members of a valid JSON object by name, the
// last value of a name given twice.
func lastMembers(obj []byte) map[string][]byte {
	var buf [8]member
	members := appendMembers(buf[:0], obj)
	m := make(map[string][]byte, len(members))
	for _, mb := range members {
		m[mb.name] = mb.value
	}
	return m
}

// trimSpace removes JSON whitespace at both ends of b.
func trimSpace(b []byte) []byte {
	return bytes.Trim(b, " \t\r\n")
}
