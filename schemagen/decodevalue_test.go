package schemagen

import (
	"reflect"
	"strings"
	"testing"

	"github.com/stdiotools/toolserver/internal/jsonwire"
)

// decodeValueSeeds are arguments that pass, need coercion, or fail in
// each stage after parsing.
var decodeValueSeeds = []string{
	`{}`,
	`{"path":"src"}`,
	`{"path":"src","head":25,"recursive":true,"sort":"size","exclude":["*.tmp","vendor"]}`,
	`{"path":"src","head":"25","recursive":"true","exclude":"*.tmp"}`,
	`{"path":"a\\b","head":5000,"sort":"date","bogus":1}`,
	`{"path":"a\u0000","head":1e999999}`,
	`{"path":"a","head":2.0,"exclude":[null]}`,
	`{"path":"a","head":-0,"sort":null}`,
	`{"path":"😀\u202e","exclude":[["x"]]}`,
	`{"path":""}`,
	`{"head":3}`,
}

// decodeValueAgrees fails t unless DecodeValue of the object that
// jsonwire parses args into gives what Decode(args) gives: the same
// value, report and problems.
func decodeValueAgrees(t *testing.T, s *Schema, args []byte) {
	t.Helper()
	obj, ok := jsonwire.DecodeObject(args)
	if !ok {
		return // the parsing stage's, which DecodeValue does not run
	}
	var want, got listIn
	wantReport, wantErr := s.Decode(args, &want)
	gotReport, gotErr := s.DecodeValue(obj, &got)
	if (gotErr == nil) != (wantErr == nil) || gotErr != nil && gotErr.Error() != wantErr.Error() {
		t.Fatalf("%s: DecodeValue error %v; Decode: %v", args, gotErr, wantErr)
	}
	if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gotReport, wantReport) {
		t.Fatalf("%s: DecodeValue gave %+v, %+v; Decode: %+v, %+v", args, got, gotReport, want, wantReport)
	}
}

func TestDecodeValueDoesWhatDecodeDoesAfterParsing(t *testing.T) {
	s := mustSchema[listIn](t)
	for _, a := range decodeValueSeeds {
		decodeValueAgrees(t, s, []byte(a))
	}
}

func TestDecodeValueTakesNilAsNoArguments(t *testing.T) {
	s := mustSchema[listIn](t)
	var got, want listIn
	_, gotErr := s.DecodeValue(nil, &got)
	_, wantErr := s.Decode(nil, &want)
	if gotErr == nil || wantErr == nil || gotErr.Error() != wantErr.Error() || !reflect.DeepEqual(got, want) {
		t.Errorf("DecodeValue(nil): %+v, %v; Decode(nil): %+v, %v", got, gotErr, want, wantErr)
	}
}

func TestDecodeValueRefusesTheWrongTarget(t *testing.T) {
	s := mustSchema[listIn](t)
	var wrong struct{ Path string }
	_, err := s.DecodeValue(map[string]any{"path": "a"}, &wrong)
	if err == nil || !strings.Contains(err.Error(), "schemagen: DecodeValue: dst must be a non-nil *schemagen.listIn") {
		t.Errorf("error = %v", err)
	}
}

// FuzzDecodeValue holds DecodeValue to Decode on every input that parses.
func FuzzDecodeValue(f *testing.F) {
	for _, a := range decodeValueSeeds {
		f.Add([]byte(a))
	}
	s := mustSchema[listIn](f)
	f.Fuzz(func(t *testing.T, args []byte) {
		decodeValueAgrees(t, s, args)
	})
}
