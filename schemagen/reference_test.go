package schemagen

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// The straightforward code that newErrors and unknownNames replaced, kept
// as the references they must agree with: pruning that compared every
// problem with every other, sorting that phrased messages in every
// comparison, and suggestions that worked everything out for each unknown
// name.

func referenceNewErrors(ps []Problem) *Errors {
	ps = referencePrune(ps)
	slices.SortStableFunc(ps, referenceCompare)
	return &Errors{Problems: ps}
}

func referenceCompare(a, b Problem) int {
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

func referencePrune(ps []Problem) []Problem {
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

// randomProblems returns n problems drawn from a small set of paths,
// kinds, rules and details, so that blocking, repeats and ties are common.
// Some keys contain the byte 0 that ends each step of a sort key, and some
// problems are built by hand, with an empty sort key.
func randomProblems(r *rand.Rand, n int) []Problem {
	paths := []path{
		nil,
		{{key: "a", index: -1}},
		{{key: "a", index: -1}, {key: "b", index: -1}},
		{{key: "a", index: -1}, {index: 0}},
		{{key: "a", index: -1}, {index: 1}, {key: "c", index: -1}},
		{{key: "a\x00\x02b", index: -1}},
		{{key: "ab", index: -1}},
		{{key: "b", index: -1}},
		{{key: "b", index: -1}, {key: "a", index: -1}},
	}
	kinds := []Kind{MissingRequired, WrongType, NotAllowed, OutOfRange, UnknownArgument, Other}
	rules := []string{"number", "type", "enum", "range", "pattern", "chars", "minimum", "maxLength", "required", "additionalProperties", "validate"}
	details := []string{"", "x", "y"}
	ps := make([]Problem, n)
	for i := range ps {
		p := Problem{Kind: kinds[r.IntN(len(kinds))], Rule: rules[r.IntN(len(rules))], Detail: details[r.IntN(len(details))]}
		if r.IntN(8) > 0 {
			at := paths[r.IntN(len(paths))]
			p.Path, p.key = formatPath(at), pathSortKey(at)
			p.rank = -1
			if len(at) > 0 && at[0].index < 0 {
				p.rank = int(at[0].key[0] - 'a')
			}
		}
		if p.Detail == "" && r.IntN(2) == 0 {
			p.msg, p.Got = msgWrongType, fmt.Sprint(r.IntN(2))
		}
		ps[i] = p
	}
	return ps
}

func TestNewErrorsAgreesWithTheQuadraticReference(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for round := range 5000 {
		ps := randomProblems(r, r.IntN(12))
		got := newErrors(slices.Clone(ps)).Problems
		want := referenceNewErrors(slices.Clone(ps)).Problems
		if !slices.EqualFunc(got, want, func(a, b Problem) bool { return fmt.Sprintf("%#v", a) == fmt.Sprintf("%#v", b) }) {
			t.Fatalf("round %d: problems %#v\ngot  %#v\nwant %#v", round, ps, got, want)
		}
	}
}

// BenchmarkNewErrors prunes and sorts n unknown-argument problems.
func BenchmarkNewErrors(b *testing.B) {
	for _, n := range []int{1_000, 10_000, 100_000} {
		ps := make([]Problem, n)
		for i := range ps {
			at := path{{key: fmt.Sprintf("k%d", i), index: -1}}
			ps[i] = Problem{Kind: UnknownArgument, Rule: "additionalProperties", msg: msgUnknownMany,
				Path: formatPath(at), key: pathSortKey(at), rank: 2}
		}
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for range b.N {
				newErrors(slices.Clone(ps))
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/problem")
		})
	}
}

func referenceUnknownArgument(n *node, obj any, name string) Problem {
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
		if d := referenceNameDistance(name, f.name); d >= 0 && (bestDist < 0 || d < bestDist) {
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

func referenceNameDistance(got, want string) int {
	g, w := normalizeName(got), normalizeName(want)
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

// fieldNames has names with '_' and '-', capitals, and characters whose
// lower case is longer than they are.
type fieldNames struct {
	OldText  string `json:"old_text,omitempty"`
	NewText  string `json:"new-text,omitempty"`
	Head     int    `json:"Head,omitempty"`
	Ab       int    `json:"ab,omitempty"`
	Abc      int    `json:"abc,omitempty"`
	Abcdef   int    `json:"abcdef,omitempty"`
	Istanbul int    `json:"İstanbul,omitempty"`
	Strasse  int    `json:"straße,omitempty"`
}

func TestUnknownNamesAgreeWithTheReference(t *testing.T) {
	type empty struct{}
	nodes := []*node{nil, mustSchema[empty](t).root, mustSchema[listIn](t).root, mustSchema[kindsIn](t).root,
		mustSchema[fieldNames](t).root, mustSchema[edit](t).root, {kind: jMap}}
	alphabet := []rune("abcdehilnoprstx_-AEHİIıß")
	r := rand.New(rand.NewPCG(3, 4))
	for round := range 20000 {
		n := nodes[r.IntN(len(nodes))]
		obj := map[string]any{}
		var name string
		if n != nil && len(n.fields) > 0 {
			for _, f := range n.fields {
				if r.IntN(3) == 0 {
					obj[f.name] = 1
				}
			}
			name = n.fields[r.IntN(len(n.fields))].name
		}
		// Edit the name a few times: delete, insert or replace a character.
		rs := []rune(name)
		for range r.IntN(4) {
			i := r.IntN(len(rs) + 1)
			c := alphabet[r.IntN(len(alphabet))]
			switch op := r.IntN(3); {
			case op == 0 && i < len(rs):
				rs = slices.Delete(rs, i, i+1)
			case op == 1 && i < len(rs):
				rs[i] = c
			default:
				rs = slices.Insert(rs, i, c)
			}
		}
		name = string(rs)
		got, want := unknownArgument(n, obj, name), referenceUnknownArgument(n, obj, name)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("round %d: %q sent with %v:\ngot  %#v\nwant %#v", round, name, obj, got, want)
		}
	}
}
