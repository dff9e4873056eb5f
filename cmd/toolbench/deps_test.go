//go:build !windows

package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestGoSDKStaysOutOfShippedBinaries: the official Go SDK is a test-only
// dependency, used by the bench's go-sdk peer (internal/sdkpeer), a program
// of its own. No other program of the module may link it.
func TestGoSDKStaysOutOfShippedBinaries(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	const module = "github.com/stdiotools/toolserver"
	out, err := exec.Command("go", "list", "-f", `{{if eq .Name "main"}}{{.ImportPath}}{{end}}`, module+"/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var mains []string
	for _, p := range strings.Fields(string(out)) {
		if p != module+"/cmd/toolbench/internal/sdkpeer" {
			mains = append(mains, p)
		}
	}
	if len(mains) < 2 {
		t.Fatalf("found the programs %q only", mains)
	}
	out, err = exec.Command("go", append([]string{"list", "-deps"}, mains...)...).Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.HasPrefix(dep, "github.com/modelcontextprotocol/go-sdk") {
			t.Errorf("a program of %q links %s", mains, dep)
		}
	}
}
