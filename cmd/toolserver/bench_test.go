package main

import (
	"testing"
	"time"

	"github.com/rs/zerolog"
)

// BenchmarkBuild measures what every start of the server pays before it
// answers: opening the root and registering every tool, which builds and
// compiles the argument schemas.
func BenchmarkBuild(b *testing.B) {
	cfg := &config{roots: []rootFlag{{flag: "--root", given: ".", dir: "."}}, lang: "en", maxMessageBytes: 1 << 20, maxInFlight: 1, toolTimeout: time.Second, maxRepeats: 4}
	b.ReportAllocs()
	for range b.N {
		_, closeRoot, err := build(cfg, nil, nil, zerolog.Nop())
		if err != nil {
			b.Fatal(err)
		}
		closeRoot()
	}
}
