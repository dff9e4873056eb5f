package calc

import (
	"testing"

	"github.com/stdiotools/toolserver/server"
	"github.com/stdiotools/toolserver/servertest"
)

//go:generate go test -run TestSavedSchemas -update .

// TestSavedSchemas holds the schemas saved in schemas_saved.go to what the
// calculator's types give now, and rewrites the file with -update.
func TestSavedSchemas(t *testing.T) {
	srv := server.New(server.Options{})
	if err := Register(srv); err != nil {
		t.Fatal(err)
	}
	servertest.CheckSavedSchemas(t, srv, "schemas_saved.go", "calc")
}
