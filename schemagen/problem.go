package schemagen

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Kind classifies a Problem. The kinds are declared from the most to the
// least critical, which is the order in which problems are reported.
type Kind int

// The problem kinds, most critical first.
const (
	// MissingRequired is a required argument that was not sent.
	MissingRequired Kind = iota + 1
	// WrongType is a value of the wrong JSON type, including arguments
	// that are not a JSON object at all.
	WrongType
	// NotAllowed is a value outside an enum or const.
	NotAllowed
	// OutOfRange is a value outside its bounds: minimum and maximum, the
	// length of strings, the number of items, a pattern, a date-time or
	// base64 format, or a character class.
	OutOfRange
	// UnknownArgument is an argument (at any depth) the schema does not
	// declare.
	UnknownArgument
	// Other is everything else: arguments that are not JSON, duplicate
	// keys, and the errors of a Validate method.
	Other
)

// String returns the snake_case name of the kind, such as
// "missing_required", as programs reading _meta see it.
func (k Kind) String() string {
	switch k {
	case MissingRequired:
		return "missing_required"
	case WrongType:
		return "wrong_type"
	case NotAllowed:
		return "not_allowed"
	case OutOfRange:
		return "out_of_range"
	case UnknownArgument:
		return "unknown_argument"
	case Other:
		return "other"
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// MarshalText encodes the kind as its String, so that it appears by name
// in JSON.
func (k Kind) MarshalText() ([]byte, error) {
	if k < MissingRequired || k > Other {
		return nil, fmt.Errorf("schemagen: invalid Kind %d", int(k))
	}
	return []byte(k.String()), nil
}

// Problem is one reason why arguments were refused. The exported fields
// carry what Message needs to phrase it and what a program may want to read;
// the ones that do not apply to a kind are empty.
type Problem struct {
	Kind Kind `json:"kind"`
	// Path locates the value, like "edits[1].old_text"; "" is the
	// arguments object itself.
	Path string `json:"path"`
	// Rule is the schema keyword or check that failed: "required", "type",
	// "enum", "const", "minimum", "maximum", "exclusiveMinimum",
	// "exclusiveMaximum", "minLength", "maxLength", "minItems", "maxItems",
	// "pattern", "format", "contentEncoding", "chars", "keychars",
	// "additionalProperties", "range" (the Go type's range), "number",
	// "json", "duplicate" or "validate".
	Rule string `json:"rule"`
	// Expected is the JSON type that was wanted ("string", "integer",
	// "array", ...), for missing and wrongly typed values.
	Expected string `json:"expected,omitempty"`
	// Got is the received value as short JSON text, cut with "…" after
	// about two dozen characters.
	Got string `json:"got,omitempty"`
	// GotType is the JSON type of the received value.
	GotType string `json:"gotType,omitempty"`
	// Allowed lists the allowed values (as JSON) or argument names.
	Allowed []string `json:"allowed,omitempty"`
	// Limit is the bound that was crossed, or the pattern not matched.
	Limit string `json:"limit,omitempty"`
	// Count is the length or number of items received, for length and item
	// bounds.
	Count int `json:"count,omitempty"`
	// Char is the refused character, quoted like '\' or written as U+0000
	// when it is not printable; Position is its 1-based position in
	// characters; Class is the name of the character class.
	Char     string `json:"char,omitempty"`
	Position int    `json:"position,omitempty"`
	Class    string `json:"class,omitempty"`
	// Suggest is the declared argument name closest to an unknown one.
	Suggest string `json:"suggest,omitempty"`
	// Detail is a message written by the tool author, such as the text of
	// the error a Validate method returned. For a Problem built by hand it
	// is the whole message.
	Detail string `json:"detail,omitempty"`

	msg    msgID   // catalog entry
	phrase Phraser // the error of a Validate method that says itself in each language
	rank   int     // position of the top-level argument in the schema; -1 for the root
	key    string  // sort key of Path
}

// Errors is the error Decode returns when arguments are invalid. Problems
// are sorted by priority (the order of the Kind constants), then by the
// schema order of the argument they concern, then by path, then by message,
// so the same arguments always give the same text.
type Errors struct {
	Problems []Problem
}

// maxListed is how many problems Text writes before summarizing the rest.
const maxListed = 3

// Error returns the English text of the problems; see Text.
func (e *Errors) Error() string { return e.Text(English) }

// Text returns the problems in lang, one per line: the most critical first,
// at most three, then a line such as "…and 2 more".
func (e *Errors) Text(lang Lang) string {
	if len(e.Problems) == 0 {
		return catalog.Text(lang, msgInvalid)
	}
	var b strings.Builder
	for i, p := range e.Problems {
		if i == maxListed {
			b.WriteByte('\n')
			b.WriteString(expand(catalog.Text(lang, msgMore), &Problem{Count: len(e.Problems) - maxListed}, lang))
			break
		}
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(p.Message(lang))
	}
	return b.String()
}

// newErrors removes problems that only restate another, sorts the rest and
// wraps them; ps is overwritten. It takes O(n log n) time in the number of
// problems, and phrases a problem's message only when it must be told
// apart from another with the same kind, argument and path.
func newErrors(ps []Problem) *Errors {
	return &Errors{Problems: sortProblems(prune(ps))}
}

// location is where a problem is in the order of [Errors], before its
// message: kind, argument order, path.
type location struct {
	kind Kind
	rank int
	key  string
	path string
	i    int    // the problem's index, to keep the order of full ties
	msg  string // the English message, phrased only within a tie
}

// compareLocation orders problems by kind, argument order and path.
func compareLocation(a, b *location) int {
	if c := cmp.Compare(a.kind, b.kind); c != 0 {
		return c
	}
	if c := cmp.Compare(a.rank, b.rank); c != 0 {
		return c
	}
	if c := strings.Compare(a.key, b.key); c != 0 {
		return c
	}
	return strings.Compare(a.path, b.path)
}

// sortProblems sorts ps, in place, by kind, argument order, path, then
// English message, keeping the order of full ties: the order of [Errors].
// It sorts the locations of the problems, then moves each problem once,
// and phrases messages only for the problems that the rest of the order
// leaves tied, once each.
func sortProblems(ps []Problem) []Problem {
	if len(ps) < 2 {
		return ps
	}
	order := make([]location, len(ps))
	for i := range ps {
		p := &ps[i]
		order[i] = location{kind: p.Kind, rank: p.rank, key: p.key, path: p.Path, i: i}
	}
	slices.SortFunc(order, func(a, b location) int {
		if c := compareLocation(&a, &b); c != 0 {
			return c
		}
		return cmp.Compare(a.i, b.i)
	})
	for i := 0; i < len(order); {
		j := i + 1
		for j < len(order) && compareLocation(&order[i], &order[j]) == 0 {
			j++
		}
		if tie := order[i:j]; len(tie) > 1 {
			for k := range tie {
				tie[k].msg = ps[tie[k].i].Message(English)
			}
			slices.SortStableFunc(tie, func(a, b location) int { return strings.Compare(a.msg, b.msg) })
		}
		i = j
	}
	// Move each problem to its place, one cycle of the permutation at a
	// time: position k takes the problem at order[k].i.
	for k := range order {
		if order[k].i < 0 || order[k].i == k {
			continue
		}
		held := ps[k]
		j := k
		for {
			from := order[j].i
			order[j].i = -1 // placed
			if from == k {
				ps[j] = held
				break
			}
			ps[j] = ps[from]
			j = from
		}
	}
	return ps
}

// prune drops the problems that add nothing for the reader:
//   - anything at or inside a value whose type is wrong, or whose number
//     was refused outright (the rest would be noise about the same mistake);
//   - an out-of-range problem where an enum already lists the allowed values;
//   - the Go type's range where a declared bound already failed;
//   - the character class where the field's own pattern already failed;
//   - exact repeats (same kind, path, rule and message), of which the first
//     is kept.
//
// No problem ever blocks itself, so whether one is dropped depends only on
// what the others at its path, or at a path its path extends, are; the
// problems are gathered by path once rather than compared pairwise. The
// problems kept are moved to the front of ps, in their order.
func prune(ps []Problem) []Problem {
	// What the problems at each path (by sort key) block there, and the
	// keys of the paths inside which everything is blocked.
	at := make(map[string]blocking)
	var walls []string
	for i := range ps {
		p := &ps[i]
		b := blocksOf(p)
		if b == 0 {
			continue
		}
		at[p.key] |= b
		if b&(blockNumber|blockWrongType) != 0 {
			walls = append(walls, p.key)
		}
	}
	walls = outermost(walls)

	keep := make([]bool, len(ps))
	type place struct {
		kind       Kind
		path, rule string
	}
	sharing := make(map[place]int, len(ps)) // the problems not blocked at each place
	for i := range ps {
		q := &ps[i]
		if at[q.key].blocks(q) || inside(walls, q.key) {
			continue
		}
		keep[i] = true
		sharing[place{q.Kind, q.Path, q.Rule}]++
	}

	// Exact repeats: only problems sharing a place with another need
	// their message phrased.
	type repeat struct {
		place
		msg string
	}
	var seen map[repeat]bool
	out := ps[:0]
	for i := range ps {
		if !keep[i] {
			continue
		}
		q := &ps[i]
		loc := place{q.Kind, q.Path, q.Rule}
		if sharing[loc] > 1 {
			if seen == nil {
				seen = make(map[repeat]bool)
			}
			r := repeat{loc, q.Message(English)}
			if seen[r] {
				continue
			}
			seen[r] = true
		}
		out = append(out, *q) // in place: i >= len(out)
	}
	clear(ps[len(out):]) // drop what the problems moved out held on to
	return out
}

// blocking is what the problems at one path block at that same path.
type blocking uint8

const (
	blockNumber    blocking = 1 << iota // a refused number: everything but another refused number
	blockWrongType                      // a wrong type: everything but other wrong types and refused numbers
	blockEnum                           // an enum: out-of-range problems
	blockBound                          // a declared bound: the Go type's range
	blockPattern                        // the field's own pattern: the Go type's range and the character class
)

// blocksOf returns what problem p blocks at its own path; the first two
// also block everything inside it.
func blocksOf(p *Problem) blocking {
	switch {
	case p.Rule == "number":
		return blockNumber
	case p.Kind == WrongType:
		return blockWrongType
	case p.Kind == NotAllowed:
		return blockEnum
	case p.Kind == OutOfRange && p.Rule == "pattern":
		return blockPattern
	case p.Kind == OutOfRange && p.Rule != "range":
		return blockBound
	}
	return 0
}

// blocks reports whether problems blocking b at a path drop q, at the same
// path.
func (b blocking) blocks(q *Problem) bool {
	switch {
	case b&blockNumber != 0 && q.Rule != "number":
		return true
	case b&blockWrongType != 0 && q.Kind != WrongType && q.Rule != "number":
		return true
	case b&blockEnum != 0 && q.Kind == OutOfRange:
		return true
	case b&(blockBound|blockPattern) != 0 && q.Rule == "range":
		return true
	case b&blockPattern != 0 && q.Rule == "chars":
		return true
	}
	return false
}

// outermost sorts keys and keeps those that no other key is a prefix of.
func outermost(keys []string) []string {
	slices.Sort(keys)
	out := keys[:0]
	for _, k := range keys {
		if len(out) > 0 && strings.HasPrefix(k, out[len(out)-1]) {
			continue // inside the last kept (or equal to it)
		}
		out = append(out, k)
	}
	return out
}

// inside reports whether key extends one of walls, which are sorted and of
// which none is a prefix of another. Such a wall can only be the greatest
// wall below key: any wall between it and key would extend it.
func inside(walls []string, key string) bool {
	i, _ := slices.BinarySearch(walls, key) // walls[i-1] < key
	return i > 0 && strings.HasPrefix(key, walls[i-1])
}
