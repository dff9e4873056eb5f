package security

import (
	"strings"
	"testing"

	"github.com/spf13/afero"
)

// TestReviewEscapedPathsCountTheirBytesDecoded: the path limit is on the
// path itself, not on how long its escaped form is. A name of bytes that
// are not UTF-8 (an old archive's Latin-1 names) takes six characters a
// byte escaped, so a path of 809 bytes, a fifth of the limit, was refused
// as too long when given back as shown: walks could not enter it, and the
// model could not name what it was shown.
func TestEscapedPathsCountTheirBytesDecoded(t *testing.T) {
	s := NewSandbox(afero.NewMemMapFs(), SandboxOptions{})
	name := strings.Repeat("\xe9", 200)
	p := strings.Repeat(name+"/", 4) + "f.txt"
	esc, _ := EscapeName(p)
	if len(esc) <= DefaultMaxPathBytes {
		t.Fatalf("the escaped form should be over the limit: %d bytes", len(esc))
	}
	rel, err := s.Resolve(esc)
	if err != nil || rel != p {
		t.Fatalf("Resolve(escaped %d-byte path) = %q, %v", len(p), rel, err)
	}
	// The decoded path still has the limit.
	long := strings.Repeat(`\u{41}`, DefaultMaxPathBytes+1)
	if _, err := s.Resolve(long); err == nil || err.(*PathError).Reason != TooLong {
		t.Errorf("a path of %d bytes once decoded: %v, want TooLong", DefaultMaxPathBytes+1, err)
	}
}
