package main

import (
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
