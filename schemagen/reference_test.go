package schemagen

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// The straightforward code that newErrors replaced, kept as the reference
// it must agree with: pruning that compared every problem with every
// other, and sorting that phrased messages in every comparison.

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
