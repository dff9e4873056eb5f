package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestTheBinaryLinksNoProtobufOrPrometheus guards the cold start: every
// package linked into the binary runs its init at each start, served or
// not, and these two cost more than half a millisecond (issue 14).
// Traces are encoded by package otlp by hand, and metrics by package
// metrics.
func TestTheBinaryLinksNoProtobufOrPrometheus(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command:", err)
	}
	out, err := exec.Command(goTool, "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		for _, banned := range []string{"google.golang.org/protobuf/", "github.com/prometheus/", "expvar", "runtime/metrics"} {
			if strings.HasPrefix(pkg, banned) {
				t.Errorf("toolserver links %s", pkg)
			}
		}
	}
}
