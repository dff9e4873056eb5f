//go:build !windows

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	"github.com/stdiotools/toolserver/bench/internal/listing"
)

// fakeEditLimit is the largest file the fake's edit_file changes, so that
// the suite meets a refusal, as toolserver refuses edits of 8 MiB.
const fakeEditLimit = 64 << 10

// fakeFileTool runs the file tool name of the fake server in root: just
// enough of read_file (path, offset, limit), list_directory, write_file
// and edit_file for the suite. It returns the text of the result and
// whether it is an error.
func fakeFileTool(root, name string, raw json.RawMessage) (string, bool) {
	var args struct {
		Path    string `json:"path"`
		Offset  int    `json:"offset"`
		Limit   int    `json:"limit"`
		Content string `json:"content"`
		Edits   []struct {
			Old string `json:"old_text"`
			New string `json:"new_text"`
		} `json:"edits"`
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return err.Error(), true
	}
	path := filepath.Join(root, args.Path)
	switch name {
	case "read_file":
		b, err := os.ReadFile(path)
		if err != nil {
			return err.Error(), true
		}
		if args.Offset == 0 {
			return string(b), false
		}
		lines := strings.SplitAfter(string(b), "\n")
		from := min(args.Offset-1, len(lines))
		return strings.Join(lines[from:min(from+args.Limit, len(lines))], ""), false
	case "list_directory":
		entries, err := os.ReadDir(path)
		if err != nil {
			return err.Error(), true
		}
		return string(listing.Append(nil, args.Path, entries)), false
	case "write_file":
		if err := os.WriteFile(path, []byte(args.Content), 0o644); err != nil {
			return err.Error(), true
		}
		return "written", false
	case "edit_file":
		b, err := os.ReadFile(path)
		switch {
		case err != nil:
			return err.Error(), true
		case len(b) > fakeEditLimit:
			return "too large to edit", true
		}
		text := string(b)
		for _, e := range args.Edits {
			if strings.Count(text, e.Old) != 1 {
				return "old_text not found once", true
			}
			text = strings.Replace(text, e.Old, e.New, 1)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			return err.Error(), true
		}
		return "edited", false
	}
	return "unknown tool " + name, true
}
