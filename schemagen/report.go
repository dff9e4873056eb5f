package schemagen

import (
	"slices"
	"strings"
)

// Report says what Decode changed on the way from the arguments to the
// decoded value, for logging. It is empty for arguments that were decoded
// as sent.
type Report struct {
	// Coercions lists the values converted before validation, in path
	// order.
	Coercions []Coercion `json:"coercions,omitempty"`
	// Defaults lists the paths of absent arguments that were given their
	// default value, in schema order.
	Defaults []string `json:"defaults,omitempty"`
}

// Coercion is one value converted before validation.
type Coercion struct {
	// Path locates the value, like "edits[0].count".
	Path string `json:"path"`
	// From is the value as sent, as short JSON text such as "\"25\"".
	From string `json:"from"`
	// To is what it became: "integer", "number", "boolean", "array" (a
	// single value wrapped in an array) or "absent" (null for an optional
	// argument, dropped).
	To string `json:"to"`
}

// String returns the coercion as one line, like `head: "25" → integer`.
func (c Coercion) String() string {
	return c.Path + ": " + c.From + " → " + c.To
}

// sortCoercions puts coercions in path order, given the sort key of each
// path; maps are walked in random order, and logs should not be.
func (r *Report) sortCoercions(keys []string) {
	if len(r.Coercions) < 2 {
		return
	}
	idx := make([]int, len(r.Coercions))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return strings.Compare(keys[a], keys[b]) })
	sorted := make([]Coercion, len(idx))
	for i, j := range idx {
		sorted[i] = r.Coercions[j]
	}
	r.Coercions = sorted
}
