package otlp

import (
	"encoding/hex"
	"fmt"
	"testing"
)

func TestParseTraceParent(t *testing.T) {
	tests := []struct {
		in      string
		ok      bool
		sampled bool
	}{
		{"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", true, true},
		{"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00", true, false},
		{"01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-future", true, true},
		{"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra", false, false}, // version 00 has no more fields
		{"ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", false, false},
		{"00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01", false, false}, // upper case
		{"00-00000000000000000000000000000000-00f067aa0ba902b7-01", false, false},
		{"00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01", false, false},
		{"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7", false, false},
		{"00_4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", false, false},
		{"", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			_, _, sampled, ok := parseTraceParent(tt.in)
			if ok != tt.ok || sampled != tt.sampled {
				t.Errorf("ok %v sampled %v, want %v %v", ok, sampled, tt.ok, tt.sampled)
			}
		})
	}
}

// FuzzParseTraceParent checks that an accepted traceparent is written
// back exactly from what was parsed, and that nothing panics.
func FuzzParseTraceParent(f *testing.F) {
	f.Add("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
	f.Add("01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00-x")
	f.Add("00-00000000000000000000000000000000-0000000000000000-00")
	f.Fuzz(func(t *testing.T, tp string) {
		trace, parent, sampled, ok := parseTraceParent(tp)
		if !ok {
			return
		}
		flags := tp[53:55]
		again := fmt.Sprintf("%s-%s-%s-%s", tp[:2], hex.EncodeToString(trace[:]), hex.EncodeToString(parent[:]), flags)
		if again != tp[:55] {
			t.Fatalf("parsed %q as %q", tp, again)
		}
		var fb [1]byte
		_, _ = hex.Decode(fb[:], []byte(flags))
		if sampled != (fb[0]&1 == 1) {
			t.Fatalf("sampled %v for flags %s", sampled, flags)
		}
	})
}
