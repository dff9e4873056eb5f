package main

import (
	"context"
	"encoding/json"
	"io"
	"testing"

	"github.com/rs/zerolog"
)

// BenchmarkBuild measures what every start of the server pays before it
// answers: opening the root and registering every tool, whose schemas are
// saved in the program (each tool's validator is built at its first
// call).
func BenchmarkBuild(b *testing.B) {
	cfg, fs := newConfig("serve", io.Discard) // the defaults, as a start without flags but --root has them
	if err := fs.Parse([]string{"--root", "."}); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for range b.N {
		_, closeRoot, err := build(cfg, nil, nil, zerolog.Nop())
		if err != nil {
			b.Fatal(err)
		}
		closeRoot()
	}
}

// BenchmarkBuildAndFirstCalls measures a start followed by the first call
// of every tool, each with no arguments: what BenchmarkBuild leaves out,
// since each tool's validator is built at its first call (from its
// arguments' type, by reflection), is here. The calls mostly fail
// validation, which comes after the validator is built.
func BenchmarkBuildAndFirstCalls(b *testing.B) {
	cfg, fs := newConfig("serve", io.Discard)
	if err := fs.Parse([]string{"--root", b.TempDir(), "--allow-admin"}); err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ReportAllocs()
	for range b.N {
		srv, closeRoot, err := build(cfg, nil, nil, zerolog.Nop())
		if err != nil {
			b.Fatal(err)
		}
		for _, t := range srv.Tools() {
			if _, err := srv.CallTool(ctx, t.Name, json.RawMessage(`{}`)); err != nil {
				b.Fatal(err)
			}
		}
		closeRoot()
	}
}
