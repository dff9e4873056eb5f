package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// toolAnswer is the part of a tools/call answer these tests read.
type toolAnswer struct {
	IsError           bool
	Text              string
	StructuredContent struct{ Version string }
}

// callTool calls tool with args in p and returns its answer.
func (p *proc) callTool(id int, tool, args string) toolAnswer {
	p.t.Helper()
	p.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s}}`, id, tool, args))
	var resp struct {
		Result struct {
			IsError           bool
			Content           []struct{ Text string }
			StructuredContent struct{ Version string }
		}
	}
	line := p.recv()
	if err := json.Unmarshal([]byte(line), &resp); err != nil {
		p.t.Fatalf("%s: %v in %.300s", tool, err, line)
	}
	a := toolAnswer{IsError: resp.Result.IsError, StructuredContent: resp.Result.StructuredContent}
	for _, c := range resp.Result.Content {
		a.Text += c.Text
	}
	return a
}

func TestTwoProcessesGiveOneVersionForOneStateOfAFile(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"small.txt": "one\ntwo\n",
		"large.txt": strings.Repeat("a line of a file larger than what a version hashes\n", 2000),
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(root, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	a := startInitialized(t, []string{"--root", root})
	b := startInitialized(t, []string{"--root", root})
	for name := range files {
		info := a.callTool(1, "get_file_info", fmt.Sprintf(`{"path":%q}`, name))
		read := b.callTool(1, "read_file", fmt.Sprintf(`{"path":%q,"tail":1}`, name))
		if v := info.StructuredContent.Version; v == "" || v != read.StructuredContent.Version {
			t.Errorf("%s: get_file_info in one process gave %q, read_file in the other %q", name, v, read.StructuredContent.Version)
		}
	}
	w := a.callTool(2, "write_file", `{"path":"small.txt","content":"uno\ndos\n"}`)
	read := b.callTool(2, "read_file", `{"path":"small.txt"}`)
	if w.IsError || w.StructuredContent.Version == "" || read.StructuredContent.Version != w.StructuredContent.Version {
		t.Fatalf("write_file in one process gave %q (%s), read_file in the other %q", w.StructuredContent.Version, w.Text, read.StructuredContent.Version)
	}
	edit := b.callTool(3, "edit_file", fmt.Sprintf(`{"path":"small.txt","edits":[{"old_text":"dos","new_text":"tres"}],"expected_version":%q}`, w.StructuredContent.Version))
	if edit.IsError {
		t.Fatalf("an edit with the version the other process wrote: %s", edit.Text)
	}
	stale := a.callTool(3, "write_file", fmt.Sprintf(`{"path":"small.txt","content":"lost\n","expected_version":%q}`, w.StructuredContent.Version))
	if !stale.IsError || !strings.Contains(stale.Text, fmt.Sprintf("its version is %s now", edit.StructuredContent.Version)) {
		t.Errorf("a write with a version the other process changed: %s", stale.Text)
	}
	if got, _ := os.ReadFile(filepath.Join(root, "small.txt")); string(got) != "uno\ntres\n" {
		t.Errorf("small.txt = %q", got)
	}
	a.finish()
	b.finish()
}
