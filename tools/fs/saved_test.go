package fs

import (
	"testing"

	"github.com/stdiotools/toolserver/security"
	"github.com/stdiotools/toolserver/servertest"
)

//go:generate go test -run TestSavedSchemas -update .

// TestSavedSchemas holds the schemas saved in schemas_saved.go to what the
// file tools' types give now, and rewrites the file with -update.
func TestSavedSchemas(t *testing.T) {
	e := newMemEnv(t, security.Limits{})
	servertest.CheckSavedSchemas(t, e.srv, "schemas_saved.go", "fs")
}
