package schemagen

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestCountsBeyondInt64AreExact(t *testing.T) {
	// santhosh-tekuri/jsonschema read lengths and item counts as int64,
	// so maxLength 2^64-1 became -1 and refused every string ("at most -1
	// characters"), and minItems 2^63 became negative and refused nothing.
	// The native validator compares them as they are written.
	type in struct {
		S string `json:"s" chars:"text" maxLength:"18446744073709551615"`
		N []int  `json:"n,omitempty" minItems:"9223372036854775808"`
	}
	s := mustSchema[in](t)
	if _, err := s.Decode([]byte(`{"s":"abc"}`), new(in)); err != nil {
		t.Errorf("a short string is refused: %v", err)
	}
	_, err := s.Decode([]byte(`{"s":"abc","n":[1]}`), new(in))
	want := []string{`"n" must have at least 9223372036854775808 items, got 1`}
	if got := messages(problemsOf(t, err), English); !slices.Equal(got, want) {
		t.Errorf("problems = %q, want %q", got, want)
	}
}

func TestPatternsAreRE2AsBefore(t *testing.T) {
	// Patterns are compiled with Go's regexp at registration, as
	// santhosh-tekuri/jsonschema compiled them: ECMA-262 syntax that RE2
	// lacks is refused by both, with an error naming the syntax.
	for _, pattern := range []string{`^(?=a)`, `(a)\1`, `a(?!b)`, `(?<=a)b`} {
		typ := reflect.StructOf([]reflect.StructField{{
			Name: "S", Type: reflect.TypeFor[string](),
			Tag: reflect.StructTag(fmt.Sprintf(`json:"s" chars:"text" pattern:%q`, pattern)),
		}})
		_, err := New(typ)
		if err == nil || !strings.Contains(err.Error(), "is not a valid regular expression (RE2 syntax)") {
			t.Errorf("pattern %q: New error = %v", pattern, err)
		}
		doc := fmt.Sprintf(`{"type":"string","pattern":%q}`, pattern)
		if _, err := compileSanthosh([]byte(doc)); err == nil {
			t.Errorf("santhosh compiles pattern %q, which New refuses", pattern)
		}
	}
}

func TestValidateDoesNotAllocateOnValidArguments(t *testing.T) {
	s := mustSchema[editIn](t)
	obj, p := parseArgs([]byte(`{"path":"a","mode":"append","edits":[{"old_text":"x","new_text":"y"}],` +
		`"include":["*.go"],"limit":10,"level":3,"owner":"me","ratio":0.5,"options":{"suffix":"b"},"env":{"K":"v"},"big":9007199254740993}`))
	if p != nil {
		t.Fatal(p.Message(English))
	}
	buf := make(path, 0, 8)
	n := testing.AllocsPerRun(100, func() {
		c := checker{input: true, root: s.root}
		c.validate(s.root, obj, buf)
		if len(c.problems) > 0 {
			t.Fatal(messages(c.problems, English))
		}
	})
	if n != 0 {
		t.Errorf("validate allocates %v times on valid arguments", n)
	}
}
