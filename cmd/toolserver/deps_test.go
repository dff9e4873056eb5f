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

// TestTheBinaryLinksNoSchemaReflector guards the cold start too: the
// tools list saved schemas, and schemagen writes documents itself, so
// invopop/jsonschema and what it brings (go.yaml.in/yaml/v4 through its
// ordered map, the Go parser for its comments) would only add their init
// to each start (see "The document and invopop/jsonschema" in schemagen).
func TestTheBinaryLinksNoSchemaReflector(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command:", err)
	}
	out, err := exec.Command(goTool, "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		for _, banned := range []string{"github.com/invopop/jsonschema", "go.yaml.in/yaml/", "github.com/pb33f/ordered-map/", "go/parser"} {
			if strings.HasPrefix(pkg, banned) {
				t.Errorf("toolserver links %s", pkg)
			}
		}
	}
}
