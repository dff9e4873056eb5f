package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/stdiotools/toolserver/schemagen"
)

// SavedSchemas are a tool's input and output schema documents exactly as
// [AddTool] reflects them from its In and Out types, saved in the program
// when it is built, so that a start lists them as they are instead of
// reflecting every tool again: reflection is most of what a start costs
// before its first answer, and the tools' schemas only change when their
// types do.
//
// Given in [ToolSpec.Schemas], they change three things. The schemas are
// listed as they are, checked only to be objects on one line, which the
// listing can carry (AddTool refuses others). The validator of In is
// built at the tool's first call, from In, which stays the truth of what
// the tool accepts: should the saved input schema differ from it, the
// server logs an error then. And the spec's Targets and DryRun are checked at that
// first call too (a call fails with an internal error if they are wrong).
//
// So saved schemas must be held to their types by a test, which
// [Server.ReflectSchemas] makes short: servertest.CheckSavedSchemas
// compares the saved schemas of every tool with reflection, checks the
// declarations, and writes the Go file that holds them when asked to
// (from go generate). The tools of this module are registered so.
type SavedSchemas struct {
	// Input is the compact JSON of the input schema, as
	// schemagen.New(In).JSON() writes it.
	Input string
	// Output is the compact JSON of the output schema, as
	// schemagen.NewOutput(Out).JSON() writes it.
	Output string
}

// input returns the saved input schema without copying it: the listing
// only reads it.
func (ss *SavedSchemas) input() json.RawMessage { return rawString(ss.Input) }

// output returns the saved output schema without copying it.
func (ss *SavedSchemas) output() json.RawMessage { return rawString(ss.Output) }

// rawString returns the bytes of s, which the caller must not modify.
func rawString(s string) json.RawMessage {
	if s == "" {
		return nil
	}
	return unsafe.Slice(unsafe.StringData(s), len(s))
}

// check reports what makes ss unfit to be listed as it is. The listing
// of tools/list is one line holding every schema unchanged, so a line
// break in one would end the message early for a client reading lines,
// and every message after it would be read out of step; a schema that is
// not an object, or not UTF-8, would spoil the answer. The check looks at
// the ends and scans the bytes without parsing them: for tools/fs's 33 kB
// of schemas, 3 to 10 µs, where jsonwire.Valid took 45 to 56 (a third of
// a build). That they are the JSON reflection writes is what
// CheckSavedSchemas holds them to.
func (ss *SavedSchemas) check() error {
	for _, s := range [...]struct{ what, doc string }{{"input", ss.Input}, {"output", ss.Output}} {
		if s.doc == "" && s.what == "output" {
			continue // a tool without an output schema
		}
		switch {
		case len(s.doc) < 2 || s.doc[0] != '{' || s.doc[len(s.doc)-1] != '}' || !utf8.ValidString(s.doc):
			return fmt.Errorf("saved %s schema is not one JSON object in UTF-8", s.what)
		case strings.IndexByte(s.doc, '\n') >= 0 || strings.IndexByte(s.doc, '\r') >= 0:
			return fmt.Errorf("saved %s schema is on more than one line; save the compact JSON that servertest.CheckSavedSchemas writes", s.what)
		}
	}
	return nil
}

// savedInput builds, at the first call of a tool registered with saved
// schemas, the validator of its arguments of type t, and checks its spec
// as AddTool would have at registration.
func (s *Server) savedInput(spec ToolSpec, t reflect.Type) (*schemagen.Schema, error) {
	in, err := schemagen.New(t)
	if err != nil {
		return nil, fmt.Errorf("tool %q: arguments %v: %w", spec.Name, t, err)
	}
	if err := checkDeclarations(spec, in); err != nil {
		return nil, err
	}
	if !bytes.Equal(in.JSON(), spec.Schemas.input()) {
		s.log.Error().Str("tool", spec.Name).
			Msg("the saved input schema of this tool differs from its arguments' type, which the calls are validated against; generate the saved schemas again")
	}
	return in, nil
}

// ToolSchemas are the schemas of one registered tool: as reflected from
// its types now, and as saved in its spec (nil when it has none).
type ToolSchemas struct {
	Name      string
	Reflected SavedSchemas
	Saved     *SavedSchemas
}

// ReflectSchemas reflects the schemas of every tool added with [AddTool],
// in the order they were added, whatever the server's level, and checks
// each spec's declarations against them; it returns the first error. It
// is what a program saves in [ToolSpec.Schemas], and what a test holds
// the saved schemas to.
func (s *Server) ReflectSchemas() ([]ToolSchemas, error) {
	var out []ToolSchemas
	for _, t := range s.tools.list {
		in, res, err := reflectSchemas(t.spec, t.in, t.out)
		if err != nil {
			return nil, err
		}
		out = append(out, ToolSchemas{
			Name:      t.spec.Name,
			Reflected: SavedSchemas{Input: string(in.JSON()), Output: string(res.JSON())},
			Saved:     t.spec.Schemas,
		})
	}
	return out, nil
}
