package schemagen

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// Limits on listing the allowed names in an unknown-argument message.
const (
	maxNamesListed    = 6
	maxNamesListedLen = 60
)

// unknownArgument builds the problem of a property that object node n does
// not declare; obj is the object it was sent in.
func unknownArgument(n *node, obj any, name string) Problem {
	return newUnknownNames(n, obj).problem(name)
}

// unknownNames builds the problems of the properties that one object does
// not declare. What does not depend on the unknown name (the allowed
// names, the declared names not sent, normalized for nameDistance) is
// worked out once per object, however many unknown names it holds.
type unknownNames struct {
	template   Problem     // the problem without a suggestion
	candidates []candidate // the declared names not sent, in schema order
}

// candidate is a declared name that may be suggested.
type candidate struct {
	name  string
	norm  string // normalized by normalizeName
	runes int    // characters in norm
	limit int    // the largest edit distance suggested: one per three characters, at most two
}

func newUnknownNames(n *node, obj any) *unknownNames {
	u := &unknownNames{template: Problem{Kind: UnknownArgument, Rule: "additionalProperties", msg: msgUnknown}}
	p := &u.template
	if n == nil || n.kind != jObject {
		p.msg = msgUnknownMany
		return u
	}
	sent, _ := obj.(map[string]any)
	listLen := 0
	for _, f := range n.fields {
		p.Allowed = append(p.Allowed, `"`+f.name+`"`)
		listLen += len(f.name) + 4
	}
	for _, f := range n.fields {
		if _, taken := sent[f.name]; taken {
			continue
		}
		w := normalizeName(f.name)
		u.candidates = append(u.candidates, candidate{name: f.name, norm: w,
			runes: utf8.RuneCountInString(w), limit: min(2, utf8.RuneCountInString(w)/3)})
	}
	switch {
	case len(n.fields) == 0:
		p.msg = msgUnknownNone
	case len(n.fields) > maxNamesListed || listLen > maxNamesListedLen:
		p.msg = msgUnknownMany
	}
	return u
}

// problem returns the problem of the unknown property name, suggesting
// the first declared name not sent that is closest to it, if one is close
// enough. Case, '_' and '-' do not count; otherwise the distance is the
// edit distance, up to one edit per three characters of the declared name
// (at most two).
func (u *unknownNames) problem(name string) Problem {
	p := u.template
	p.Allowed = slices.Clone(p.Allowed) // each problem owns its list
	if len(u.candidates) == 0 {
		return p
	}
	g := normalizeName(name)
	gRunes := -1 // counted when needed
	best, bestDist := "", -1
	for i := range u.candidates {
		c := &u.candidates[i]
		d := 0
		if g != c.norm {
			if c.limit == 0 {
				continue
			}
			if gRunes < 0 {
				gRunes = utf8.RuneCountInString(g)
			}
			if gRunes-c.runes > c.limit || c.runes-gRunes > c.limit {
				continue // the lengths alone differ by more edits than allowed
			}
			if d = editDistance([]rune(g), []rune(c.norm)); d > c.limit {
				continue
			}
		}
		if bestDist < 0 || d < bestDist {
			best, bestDist = c.name, d
		}
	}
	if best != "" {
		p.msg, p.Suggest = msgUnknownSuggest, best
	}
	return p
}

// normalizeName lowers the case of a name and drops its '_' and '-', to
// compare names.
func normalizeName(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || r == '-' {
			return -1
		}
		return r
	}, strings.ToLower(s))
}

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b []rune) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
