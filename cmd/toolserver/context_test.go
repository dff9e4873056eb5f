package main

import (
	"bytes"
	"encoding/json"
	"io"
	"testing"

	"github.com/rs/zerolog"
)

// The reference filesystem server's model-facing bytes of tools/list
// (@modelcontextprotocol/server-filesystem 2026.8.31, measured by
// toolbench context, docs/performance.md): all of its 14 tools, and the
// 11 tools both servers serve.
const (
	referenceListBytes   = 7370
	referenceSharedBytes = 5610
)

// sharedTools are the tools toolserver and the reference server both
// serve, by name.
var sharedTools = []string{
	"read_file", "read_multiple_files", "write_file", "edit_file",
	"create_directory", "list_directory", "directory_tree", "move_file",
	"search_files", "get_file_info", "list_allowed_directories",
}

// TestTheToolListStaysWithinItsContextBudget holds the bytes a host
// forwards to the model on every turn (each tool's name, description and
// compact input schema, as toolbench context counts them) within 1.6
// times the reference server's for the default list, and 1.3 times for
// the tools both serve, so that a longer description or a published rule
// that costs the model context is a decision, not an accident.
func TestTheToolListStaysWithinItsContextBudget(t *testing.T) {
	cfg, fs := newConfig("serve", io.Discard)
	if err := fs.Parse([]string{"--root", t.TempDir()}); err != nil {
		t.Fatal(err)
	}
	srv, closeRoot, err := build(cfg, nil, nil, zerolog.Nop())
	if err != nil {
		t.Fatal(err)
	}
	defer closeRoot()
	size := make(map[string]int)
	all := 0
	for _, tool := range srv.Tools() {
		var schema bytes.Buffer
		if err := json.Compact(&schema, tool.InputSchema); err != nil {
			t.Fatal(err)
		}
		size[tool.Name] = len(tool.Name) + len(tool.Description) + schema.Len()
		all += size[tool.Name]
	}
	shared := 0
	for _, name := range sharedTools {
		n, ok := size[name]
		if !ok {
			t.Fatalf("%s is not served", name)
		}
		shared += n
	}
	t.Logf("model-facing bytes: %d for all %d tools (%.2fx the reference's), %d for the %d both serve (%.2fx)",
		all, len(size), float64(all)/referenceListBytes, shared, len(sharedTools), float64(shared)/referenceSharedBytes)
	if limit := referenceListBytes * 16 / 10; all > limit {
		t.Errorf("the tool list costs a model %d bytes, more than %d (1.6x the reference's)", all, limit)
	}
	if limit := referenceSharedBytes * 13 / 10; shared > limit {
		t.Errorf("the tools both serve cost a model %d bytes, more than %d (1.3x the reference's)", shared, limit)
	}
}
