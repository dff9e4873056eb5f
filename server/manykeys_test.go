package server

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// manyProblems checks the answer to arguments with total problems: an
// error whose text phrases the first three (want) and counts the rest,
// and a _meta list of the first MaxMetaProblems with the total beside
// them.
func manyProblems(t *testing.T, res *CallToolResult, err error, total int, kind string, want []string) {
	t.Helper()
	if err != nil || res == nil || !res.IsError {
		t.Fatalf("CallTool = %+v, %v; want an error result", res, err)
	}
	lines := strings.Split(callText(t, res), "\n")
	wantLines := append(want, fmt.Sprintf("…and %d more", total-len(want)))
	if len(lines) != len(wantLines) {
		t.Fatalf("text has %d lines, want %d:\n%s", len(lines), len(wantLines), strings.Join(lines, "\n"))
	}
	for i := range lines {
		if lines[i] != wantLines[i] {
			t.Errorf("line %d = %q, want %q", i+1, lines[i], wantLines[i])
		}
	}
	problems, ok := res.Meta[MetaProblems].([]map[string]string)
	if !ok || len(problems) != MaxMetaProblems {
		t.Fatalf("_meta lists %d problems (%T), want %d", len(problems), res.Meta[MetaProblems], MaxMetaProblems)
	}
	for i, p := range problems {
		if p["kind"] != kind {
			t.Fatalf("_meta problem %d = %v, want kind %s", i, p, kind)
		}
		if i < len(want) && p["message"] != want[i] {
			t.Errorf("_meta problem %d says %q, want %q", i, p["message"], want[i])
		}
	}
	if n, ok := res.Meta[MetaProblemCount].(int); !ok || n != total {
		t.Errorf("_meta count = %v, want %d", res.Meta[MetaProblemCount], total)
	}
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatalf("the result cannot be encoded: %v", err)
	}
	if want := fmt.Sprintf(`"%s":%d`, MetaProblemCount, total); !strings.Contains(string(b), want) {
		t.Errorf("the encoded result lacks %s", want)
	}
}

// The problems are sorted by path, so the keys come in the order of
// their text: k0, k1, k10, k100, ...
func TestAHundredThousandUnknownKeysAreAnsweredQuickly(t *testing.T) {
	const n = 100_000
	srv := manyKeysServer(t)
	res, err := srv.CallTool(context.Background(), "small", manyKeysArgs("unknown", n))
	allowed := `allowed: "name", "count", "map", "list"`
	manyProblems(t, res, err, n, "unknown_argument", []string{
		`unknown argument "k0"; ` + allowed,
		`unknown argument "k1"; ` + allowed,
		`unknown argument "k10"; ` + allowed,
	})
}

func TestAHundredThousandWronglyTypedValuesAreAnsweredQuickly(t *testing.T) {
	const n = 100_000
	srv := manyKeysServer(t)
	ctx := context.Background()
	t.Run("map", func(t *testing.T) {
		res, err := srv.CallTool(ctx, "small", manyKeysArgs("map", n))
		manyProblems(t, res, err, n, "wrong_type", []string{
			`"map.k0" must be an integer, got "x" (a string)`,
			`"map.k1" must be an integer, got "x" (a string)`,
			`"map.k10" must be an integer, got "x" (a string)`,
		})
	})
	t.Run("list", func(t *testing.T) {
		res, err := srv.CallTool(ctx, "small", manyKeysArgs("list", n))
		manyProblems(t, res, err, n, "wrong_type", []string{
			`"list[0]" must be an integer, got "x" (a string)`,
			`"list[1]" must be an integer, got "x" (a string)`,
			`"list[2]" must be an integer, got "x" (a string)`,
		})
	})
}

// A key repeated 100,000 times is one problem for the schema, but the
// server reads the tool's target from every repeat first.
func TestAHundredThousandRepeatsOfATargetAreAnsweredQuickly(t *testing.T) {
	const n = 100_000
	srv := manyKeysServer(t)
	res, err := srv.CallTool(context.Background(), "small", manyKeysArgs("duplicate", n))
	if err != nil || !res.IsError {
		t.Fatalf("CallTool = %+v, %v; want an error result", res, err)
	}
	if got, want := callText(t, res), `argument "name" appears more than once; send it once`; got != want {
		t.Errorf("text = %q, want %q", got, want)
	}
	if problems := res.Meta[MetaProblems].([]map[string]string); len(problems) != 1 {
		t.Errorf("_meta lists %d problems, want 1", len(problems))
	}
	if _, ok := res.Meta[MetaProblemCount]; ok {
		t.Error("_meta counts the problems although it lists them all")
	}

	c := &Call{srv: srv}
	if werr := srv.bind(c, srv.tools.byName["small"], "small", manyKeysArgs("duplicate", n), nil); werr != nil {
		t.Fatal(werr.message)
	}
	if len(c.targets) != n || c.targets[0] != "/v0" || c.targets[n-1] != fmt.Sprintf("/v%d", n-1) {
		t.Errorf("%d targets from %q to %q, want %d from /v0 to /v%d", len(c.targets), c.targets[0], c.targets[len(c.targets)-1], n, n-1)
	}
}

// Targets are kept once each, in the order they were first named, both
// before and after there are enough of them to be kept in a set.
func TestManyTargetsAreKeptOnceEachInOrder(t *testing.T) {
	srv := manyKeysServer(t)
	var names, want []string
	for i := range 3 * maxTargetsScanned {
		names = append(names, fmt.Sprintf(`"name":"v%d"`, i), fmt.Sprintf(`"name":"./v%d"`, i/2), `"name":"/v0/"`)
		want = append(want, fmt.Sprintf("/v%d", i))
	}
	c := &Call{srv: srv}
	if werr := srv.bind(c, srv.tools.byName["small"], "small", json.RawMessage("{"+strings.Join(names, ",")+"}"), nil); werr != nil {
		t.Fatal(werr.message)
	}
	if got := strings.Join(c.targets, " "); got != strings.Join(want, " ") {
		t.Errorf("targets = %s\nwant      %s", got, strings.Join(want, " "))
	}
}
