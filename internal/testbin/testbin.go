// Package testbin builds a command of this module for the tests that run
// it as a subprocess, exactly as an MCP host or a user would.
package testbin

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// Build compiles the main package in dir into a fresh temporary folder,
// with the race detector where the toolchain allows it (it needs cgo) and
// the build flags flags (such as "-tags", "x"), and returns the binary's
// path and the function that removes the folder.
func Build(dir, name string, flags ...string) (string, func(), error) {
	tmp, err := os.MkdirTemp("", name+"-test")
	if err != nil {
		return "", nil, err
	}
	bin := filepath.Join(tmp, name)
	args := append(append([]string{"build"}, flags...), "-o", bin, dir)
	out, err := exec.Command("go", append([]string{args[0], "-race"}, args[1:]...)...).CombinedOutput()
	if err != nil {
		out, err = exec.Command("go", args...).CombinedOutput()
	}
	if err != nil {
		os.RemoveAll(tmp)
		return "", nil, fmt.Errorf("build %s: %v\n%s", dir, err, out)
	}
	return bin, func() { os.RemoveAll(tmp) }, nil
}
