package schemagen

import (
	"encoding/json"
	"errors"
	"testing"
)

// FuzzDecode feeds arbitrary bytes to Decode. It must never panic; it either
// refuses the arguments with an *Errors whose every problem has a message,
// or returns a value that, encoded again, decodes to the same value without
// problems.
func FuzzDecode(f *testing.F) {
	seeds := []string{
		``,
		`{}`,
		`null`,
		`[]`,
		`"x"`,
		`{"path":"src"}`,
		`{"path":"src","head":25,"recursive":true,"sort":"size","exclude":["*.tmp","vendor"]}`,
		`{"path":"src","head":"25","recursive":"true","exclude":"*.tmp"}`,
		`{"path":"a\\b","head":5000,"sort":"date","bogus":1}`,
		`{"path":"a","path":"b"}`,
		`{"path":"a\u0000","head":1e999999}`,
		`{"path":"a","head":2.0,"exclude":[null]}`,
		`{"path":"a","head":-0,"sort":null}`,
		`{"path":`,
		"{\"path\":\"\xff\"}",
		`{"path":"a"} x`,
		`{"path":"😀\u202e","exclude":[["x"]]}`,
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	s, err := For[listIn]()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, args []byte) {
		var v listIn
		_, err := s.Decode(args, &v)
		if err != nil {
			var errs *Errors
			if !errors.As(err, &errs) {
				t.Fatalf("Decode(%q): error %v is not *Errors", args, err)
			}
			if len(errs.Problems) == 0 {
				t.Fatalf("Decode(%q): *Errors without problems", args)
			}
			for _, p := range errs.Problems {
				if p.Kind < MissingRequired || p.Kind > Other {
					t.Fatalf("Decode(%q): problem with kind %d", args, p.Kind)
				}
				if p.Message(English) == "" || p.Message(Chinese) == "" {
					t.Fatalf("Decode(%q): problem %+v has no message", args, p)
				}
			}
			if errs.Text(English) == "" {
				t.Fatalf("Decode(%q): empty text", args)
			}
			return
		}
		again, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("Marshal(%+v): %v", v, err)
		}
		var w listIn
		report, err := s.Decode(again, &w)
		if err != nil {
			t.Fatalf("Decode(%q) gave %+v, which re-encoded as %s is refused: %v", args, v, again, err)
		}
		if len(report.Coercions) != 0 {
			t.Fatalf("re-encoded value %s needed coercions %v", again, report.Coercions)
		}
		if w.Path != v.Path || w.Head != v.Head || w.Recursive != v.Recursive || w.Sort != v.Sort || len(w.Exclude) != len(v.Exclude) {
			t.Fatalf("round trip changed %+v into %+v", v, w)
		}
	})
}
