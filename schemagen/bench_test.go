package schemagen

import (
	"encoding/json"
	"testing"
)

// BenchmarkDecode decodes valid arguments of the five-field list tool: a
// path string, an integer, a boolean, an enum string and a []string.
func BenchmarkDecode(b *testing.B) {
	s := mustSchema[listIn](b)
	args := json.RawMessage(`{"path":"src/internal/tools","head":25,"recursive":true,"sort":"size","exclude":["*.tmp","vendor"]}`)
	b.ReportAllocs()
	b.SetBytes(int64(len(args)))
	for b.Loop() {
		var in listIn
		if _, err := s.Decode(args, &in); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodeCoerced decodes arguments that need three coercions.
func BenchmarkDecodeCoerced(b *testing.B) {
	s := mustSchema[listIn](b)
	args := json.RawMessage(`{"path":"src","head":"25","recursive":"true","exclude":"*.tmp"}`)
	b.ReportAllocs()
	for b.Loop() {
		var in listIn
		if _, err := s.Decode(args, &in); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodeInvalid decodes arguments with four problems and renders
// the text a model would read.
func BenchmarkDecodeInvalid(b *testing.B) {
	s := mustSchema[listIn](b)
	args := json.RawMessage(`{"path":"a\\b","head":5000,"sort":"date","bogus":1}`)
	b.ReportAllocs()
	for b.Loop() {
		var in listIn
		_, err := s.Decode(args, &in)
		if err == nil {
			b.Fatal("no error")
		}
		_ = err.(*Errors).Text(English)
	}
}

// BenchmarkNew builds the representative input schema, as registration
// does once per tool.
func BenchmarkNew(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := For[editIn](); err != nil {
			b.Fatal(err)
		}
	}
}
