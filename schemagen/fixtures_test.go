package schemagen

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// Types shared by the tests.

// edit is an element of a slice of structs.
type edit struct {
	OldText string `json:"old_text" chars:"text" minLength:"1" description:"Exact text to replace"`
	NewText string `json:"new_text" chars:"text" description:"Replacement text"`
}

// options is a nested struct behind a pointer.
type options struct {
	Backup bool   `json:"backup,omitempty" description:"Keep a copy of the original"`
	Suffix string `json:"suffix" default:"bak" maxLength:"8" description:"Suffix of the copy"`
}

// editIn is the representative input type of the golden schema: a nested
// struct, a slice of structs, a pointer, an enum, defaults, bounds, every
// character class and a uint8.
type editIn struct {
	Path    string            `json:"path" chars:"path" minLength:"1" description:"File to edit, relative to the workspace"`
	Mode    string            `json:"mode" enum:"replace,append" default:"replace" description:"How to apply the edits"`
	Edits   []edit            `json:"edits" minItems:"1" maxItems:"50" description:"Edits to apply in order"`
	Include []string          `json:"include,omitempty" chars:"glob" description:"Files to include"`
	Limit   int               `json:"limit" default:"100" minimum:"1" maximum:"1000" description:"Maximum number of lines"`
	Level   uint8             `json:"level,omitempty" description:"Compression level"`
	Owner   *string           `json:"owner" description:"Owner of the file"`
	Ratio   float64           `json:"ratio,omitempty" exclusiveMinimum:"0" maximum:"1"`
	Options *options          `json:"options,omitempty" description:"Extra options"`
	Env     map[string]string `json:"env,omitempty" chars:"text" description:"Environment variables"`
	Formula string            `json:"formula,omitempty" chars:"expr" description:"Line count formula"`
	Tag     string            `json:"tag,omitempty"`
	Big     int64             `json:"big,omitempty"`
	Skipped string            `json:"-"`
	//lint:ignore U1000 unexported fields are left out of the schema, which the golden file shows.
	hidden int
}

// editOut is the representative output type.
type editOut struct {
	Files []string       `json:"files" description:"Files that changed"`
	Count int            `json:"count"`
	Next  *string        `json:"next"`
	Note  string         `json:"note,omitempty" chars:"text"`
	Meta  map[string]int `json:"meta"`
}

// listIn is the five-field schema of the benchmarks and fuzz target.
type listIn struct {
	Path      string   `json:"path" chars:"path" description:"Directory to list"`
	Head      int      `json:"head,omitempty" minimum:"0" maximum:"1000" description:"Only the first N entries"`
	Recursive bool     `json:"recursive,omitempty" description:"Descend into subdirectories"`
	Sort      string   `json:"sort" enum:"name,size,time" default:"name" description:"Sort order"`
	Exclude   []string `json:"exclude,omitempty" chars:"glob" description:"Patterns to leave out"`
}

// reflectNew returns a pointer to a new value of the schema's type.
func reflectNew(s *Schema) any { return reflect.New(s.Type()).Interface() }

// mustSchema builds the input schema of T or stops the test.
func mustSchema[T any](t testing.TB) *Schema {
	t.Helper()
	s, err := For[T]()
	if err != nil {
		t.Fatalf("For[%T]: %v", *new(T), err)
	}
	return s
}

// problemsOf returns the problems of an *Errors, or fails the test.
func problemsOf(t testing.TB, err error) []Problem {
	t.Helper()
	var errs *Errors
	if !errors.As(err, &errs) {
		t.Fatalf("error = %v (%T), want *Errors", err, err)
	}
	return errs.Problems
}

// messages returns the messages of the problems in lang.
func messages(ps []Problem, lang Lang) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.Message(lang)
	}
	return out
}

// coercions returns the coercions of a report as lines.
func coercions(r Report) []string {
	var out []string
	for _, c := range r.Coercions {
		out = append(out, c.String())
	}
	return out
}

// compactJSON reformats JSON text for comparison.
func compactJSON(t testing.TB, s string) string {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("bad JSON %q: %v", s, err)
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// joinLines joins lines with newlines, for expected texts.
func joinLines(lines ...string) string { return strings.Join(lines, "\n") }
