package schemagen

import (
	"encoding/json"
	"fmt"
	"strings"
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

// writeIn has the arguments of a tool that writes a file.
type writeIn struct {
	Path    string `json:"path" chars:"path" minLength:"1" description:"The file."`
	Content string `json:"content" chars:"text" description:"The new text of the file."`
	DryRun  bool   `json:"dry_run,omitempty" description:"Only say what would be done."`
}

// BenchmarkDecodeLargeString checks and decodes the arguments of a file
// write whose content is 1 MiB or 8 MiB of source code, as a client
// encodes them (tabs, line breaks and quotes escaped). SetBytes is the
// size of the arguments, so MB/s is the speed of argument checking.
func BenchmarkDecodeLargeString(b *testing.B) {
	const unit = "\tif err := run(ctx, \"write\", path); err != nil { // naïve retry\n\t\treturn fmt.Errorf(\"writing %s: %w\", path, err)\n\t}\n"
	s := mustSchema[writeIn](b)
	for _, size := range []int{1 << 20, 8 << 20} {
		content := strings.Repeat(unit, size/len(unit)+1)[:size]
		args, err := json.Marshal(writeIn{Path: "src/big.go", Content: content})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("%dMiB", size>>20), func(b *testing.B) {
			b.SetBytes(int64(len(args)))
			b.ReportAllocs()
			for b.Loop() {
				var in writeIn
				if _, err := s.Decode(args, &in); err != nil {
					b.Fatal(err)
				}
				if len(in.Content) != size {
					b.Fatal("content lost")
				}
			}
		})
	}
}
