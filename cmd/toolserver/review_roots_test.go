package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReviewOneRootWhosePathHoldsEquals: before several roots, one
// --root took any folder, "/srv/key=value" included. Now the part before
// "=" is taken as a root name when it could be one, even with one --root
// and even when the folder as given exists, so such a folder cannot be
// given as it is (only as ".../key=value" with a "/" before "="), and the
// error does not say how. One --root should behave as before.
func TestReviewOneRootWhosePathHoldsEquals(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "key=value")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(base)
	code, out, errOut := runCLI("call", "--root", "key=value", "read_file", "path=a.txt")
	if code != 0 || !strings.Contains(out, "hello") {
		t.Errorf("toolserver call --root key=value read_file = %d, %q, %q; want the file, as before several roots", code, out, errOut)
	}
}
