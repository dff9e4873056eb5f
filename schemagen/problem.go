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

	msg  msgID  // catalog entry
	rank int    // position of the top-level argument in the schema; -1 for the root
	key  string // sort key of Path
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
		return text(msgInvalid, lang)
	}
	var b strings.Builder
	for i, p := range e.Problems {
		if i == maxListed {
			b.WriteByte('\n')
			b.WriteString(expand(text(msgMore, lang), &Problem{Count: len(e.Problems) - maxListed}, lang))
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
// wraps them.
func newErrors(ps []Problem) *Errors {
	ps = prune(ps)
	slices.SortStableFunc(ps, compareProblems)
	return &Errors{Problems: ps}
}

// compareProblems orders problems by kind, argument order, path, message.
func compareProblems(a, b Problem) int {
	if c := cmp.Compare(a.Kind, b.Kind); c != 0 {
		return c
	}
	if c := cmp.Compare(a.rank, b.rank); c != 0 {
		return c
	}
	if c := strings.Compare(a.key, b.key); c != 0 {
		return c
	}
	if c := strings.Compare(a.Path, b.Path); c != 0 {
		return c
	}
	return strings.Compare(a.Message(English), b.Message(English))
}

// prune drops the problems that add nothing for the reader:
//   - anything at or inside a value whose type is wrong, or whose number
//     was refused outright (the rest would be noise about the same mistake);
//   - an out-of-range problem where an enum already lists the allowed values;
//   - the Go type's range where a declared bound already failed;
//   - the character class where the field's own pattern already failed;
//   - exact repeats.
func prune(ps []Problem) []Problem {
	blocks := func(p, q *Problem) bool {
		inside := strings.HasPrefix(q.key, p.key) && q.key != p.key
		switch {
		case p.Rule == "number":
			return inside || (q.key == p.key && q.Rule != "number")
		case p.Kind == WrongType:
			return inside || (q.key == p.key && q.Kind != WrongType && q.Rule != "number")
		case p.Kind == NotAllowed:
			return q.key == p.key && q.Kind == OutOfRange
		case p.Kind == OutOfRange && p.Rule != "range":
			return q.key == p.key && (q.Rule == "range" || (p.Rule == "pattern" && q.Rule == "chars"))
		}
		return false
	}
	out := ps[:0:0]
	for i := range ps {
		q := &ps[i]
		dropped := false
		for j := range ps {
			if i != j && blocks(&ps[j], q) {
				dropped = true
				break
			}
		}
		for k := range out {
			if out[k].Kind == q.Kind && out[k].Path == q.Path && out[k].Rule == q.Rule &&
				out[k].Message(English) == q.Message(English) {
				dropped = true
				break
			}
		}
		if !dropped {
			out = append(out, *q)
		}
	}
	return out
}
