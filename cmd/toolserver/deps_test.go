package main

import (
	"os/exec"
	"slices"
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

// TestNoProgramLinksTheGoSDK: the official Go SDK is a test-only
// dependency of this module, the client of the interoperability tests and
// the peer of the HTTP benchmark. No program of the module may link it.
func TestNoProgramLinksTheGoSDK(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command:", err)
	}
	const module = "github.com/stdiotools/toolserver"
	out, err := exec.Command(goTool, "list", "-f", `{{if eq .Name "main"}}{{.ImportPath}}{{end}}`, module+"/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	mains := strings.Fields(string(out))
	if !slices.Contains(mains, module+"/cmd/toolserver") || !slices.Contains(mains, module+"/cmd/toolagent") {
		t.Fatalf("found the programs %q only", mains)
	}
	out, err = exec.Command(goTool, append([]string{"list", "-deps"}, mains...)...).Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.HasPrefix(dep, "github.com/modelcontextprotocol/go-sdk") {
			t.Errorf("a program of %q links %s", mains, dep)
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
