package schemagen

import (
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
	p := Problem{Kind: UnknownArgument, Rule: "additionalProperties", msg: msgUnknown}
	if n == nil || n.kind != jObject {
		p.msg = msgUnknownMany
		return p
	}
	sent, _ := obj.(map[string]any)
	listLen := 0
	for _, f := range n.fields {
		p.Allowed = append(p.Allowed, `"`+f.name+`"`)
		listLen += len(f.name) + 4
	}
	best, bestDist := "", -1
	for _, f := range n.fields {
		if _, taken := sent[f.name]; taken {
			continue
		}
		if d := nameDistance(name, f.name); d >= 0 && (bestDist < 0 || d < bestDist) {
			best, bestDist = f.name, d
		}
	}
	switch {
	case len(n.fields) == 0:
		p.msg = msgUnknownNone
	case best != "":
		p.msg, p.Suggest = msgUnknownSuggest, best
	case len(n.fields) > maxNamesListed || listLen > maxNamesListedLen:
		p.msg = msgUnknownMany
	}
	return p
}

// nameDistance returns how far an unknown argument name is from a declared
// one, or -1 when they are too different to suggest. Case, '_' and '-' do
// not count; otherwise it is the edit distance, up to one edit per three
// characters of the declared name (at most two).
func nameDistance(got, want string) int {
	norm := func(s string) string {
		return strings.Map(func(r rune) rune {
			if r == '_' || r == '-' {
				return -1
			}
			return r
		}, strings.ToLower(s))
	}
	g, w := norm(got), norm(want)
	if g == w {
		return 0
	}
	limit := min(2, utf8.RuneCountInString(w)/3)
	if limit == 0 {
		return -1
	}
	d := editDistance([]rune(g), []rune(w))
	if d > limit {
		return -1
	}
	return d
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
