package schemagen

import (
	"encoding/json"
	"reflect"
	"strconv"
	"testing"
)

// manyUnknownKeys returns an arguments object with the valid path and n
// unknown keys k0..k(n-1).
func manyUnknownKeys(n int) json.RawMessage {
	b := []byte(`{"path":"src"`)
	for i := range n {
		b = append(b, `,"k`...)
		b = strconv.AppendInt(b, int64(i), 10)
		b = append(b, `":1`...)
	}
	return append(b, '}')
}

func TestDecodeReportsAHundredThousandUnknownKeysInOneOrder(t *testing.T) {
	const n = 100_000
	s := mustSchema[listIn](t)
	args := manyUnknownKeys(n)
	var in listIn
	_, err := s.Decode(args, &in)
	ps := problemsOf(t, err)
	if len(ps) != n {
		t.Fatalf("%d problems, want %d", len(ps), n)
	}
	seen := make(map[string]bool, n)
	for i, p := range ps {
		if p.Kind != UnknownArgument || p.Rule != "additionalProperties" || seen[p.Path] {
			t.Fatalf("problem %d: %+v (repeated: %v)", i, p, seen[p.Path])
		}
		seen[p.Path] = true
		if i > 0 && ps[i-1].Path >= p.Path {
			t.Fatalf("problems %d and %d out of order: %q, %q", i-1, i, ps[i-1].Path, p.Path)
		}
	}
	allowed := `allowed: "path", "head", "recursive", "sort", "exclude"`
	want := joinLines(
		`unknown argument "k0"; `+allowed,
		`unknown argument "k1"; `+allowed,
		`unknown argument "k10"; `+allowed,
		"…and 99997 more")
	if got := err.(*Errors).Text(English); got != want {
		t.Errorf("text:\n%s\nwant:\n%s", got, want)
	}
	// The keys come out of a map in a new order every time.
	_, again := s.Decode(args, &in)
	if !reflect.DeepEqual(problemsOf(t, again), ps) {
		t.Fatal("the same arguments gave other problems")
	}
}
