//go:build !windows

package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestToolbenchLinksTheStandardLibraryOnly: toolbench is its own echo and
// floors ("toolbench echo", "floor", "httpfloor"), which the suites start
// as targets and time from spawn. Every package it linked would run its
// init at each of those starts and raise the floors, so it links the
// standard library and this module's own packages only. The official Go
// SDK and toolserver's packages stay in the programs they belong to: the
// go-sdk peer (internal/sdkpeer, built on its own) and the tests.
func TestToolbenchLinksTheStandardLibraryOnly(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command:", err)
	}
	const module = "github.com/stdiotools/toolserver/bench"
	out, err := exec.Command(goTool, "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) == 0 || deps[len(deps)-1] != module {
		t.Fatalf("go list -deps . ends with %q, not %s", deps, module)
	}
	for _, dep := range deps {
		if dep != module && (!strings.HasPrefix(dep, module+"/") || strings.HasPrefix(dep, module+"/internal/sdkpeer")) {
			t.Errorf("toolbench links %s", dep)
		}
	}
}
