//go:build !windows

package main

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCountResultCountsTextAndCompactStructuredContent(t *testing.T) {
	cases := []struct {
		name       string
		line       string
		text, sc   int
		isError    bool
		wantErrMsg bool
	}{
		{"two texts", `{"result":{"content":[{"type":"text","text":"abc"},{"type":"text","text":"de"}]}}`, 5, 0, false, false},
		{"structured, spaced", `{"result":{"content":[],"structuredContent":{ "a" : [1, 2] }}}`, 0, len(`{"a":[1,2]}`), false, false},
		{"an error", `{"result":{"content":[{"type":"text","text":"not found"}],"isError":true}}`, 9, 0, true, false},
		{"multibyte text counts bytes", `{"result":{"content":[{"type":"text","text":"文件"}]}}`, 6, 0, false, false},
		{"not JSON", `{"result":`, 0, 0, false, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var r ResultBytes
			err := countResult([]byte(c.line), &r)
			if (err != nil) != c.wantErrMsg {
				t.Fatalf("err = %v", err)
			}
			if err != nil {
				return
			}
			if r.Text != c.text || r.Structured != c.sc || r.IsError != c.isError {
				t.Fatalf("got %+v, want text %d, structured %d, isError %v", r, c.text, c.sc, c.isError)
			}
		})
	}
}

func TestModelBytesCountNameDescriptionAndInputSchemaOnly(t *testing.T) {
	f := &ContextFigures{Tools: []ToolBytes{
		{Name: "read_file", Description: 10, InputSchema: 20, OutputSchema: 500},
		{Name: "grep", Description: 1, InputSchema: 2, OutputSchema: 500},
	}}
	if m, d, s := f.Model(nil); m != 9+10+20+4+1+2 || d != 11 || s != 22 {
		t.Fatalf("all: %d %d %d", m, d, s)
	}
	if m, _, _ := f.Model(map[string]bool{"grep": true}); m != 7 {
		t.Fatalf("grep alone: %d", m)
	}
	n, err := compactLen(json.RawMessage("{\n  \"type\": \"object\"\n}"))
	if err != nil || n != len(`{"type":"object"}`) {
		t.Fatalf("compactLen = %d, %v", n, err)
	}
}

func TestPrepareContextRootMakesWhatTheCallsAskAbout(t *testing.T) {
	root := t.TempDir()
	if err := prepareContextRoot(root); err != nil {
		t.Fatal(err)
	}
	count := func(dir string) (dirs, files int) {
		filepath.WalkDir(filepath.Join(root, dir), func(_ string, d fs.DirEntry, err error) error {
			if err != nil {
				t.Fatal(err)
			}
			if d.IsDir() {
				dirs++
			} else {
				files++
			}
			return nil
		})
		return dirs - 1, files // not the folder itself
	}
	if d, f := count(ctxListDir); d != 0 || f != ctxListFiles {
		t.Errorf("list: %d folders, %d files", d, f)
	}
	if d, f := count(ctxTreeDir); d != 84 || f != 252 {
		t.Errorf("tree: %d folders, %d files, want 84 and 252", d, f)
	}
	matches := 0
	entries, _ := os.ReadDir(filepath.Join(root, ctxGrepDir))
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(root, ctxGrepDir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		matches += strings.Count(string(b), ctxGrepQuery)
	}
	if matches != 100 {
		t.Errorf("grep: %d matching lines, want 100", matches)
	}
	if fi, err := os.Stat(filepath.Join(root, ctxReadFile)); err != nil || fi.Size() != 1024 {
		t.Errorf("read: %v, %v", fi, err)
	}
	// A prepared root is left as it is.
	if err := os.WriteFile(filepath.Join(root, ctxListDir, "extra"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := prepareContextRoot(root); err != nil {
		t.Fatal(err)
	}
	if _, f := count(ctxListDir); f != ctxListFiles+1 {
		t.Errorf("the second preparation rewrote the list: %d files", f)
	}
}

func TestMeasureContextAsksEachServerForItsOwnTools(t *testing.T) {
	root := t.TempDir()
	t.Setenv("GORACE", quickExit()[len("GORACE="):])
	t.Setenv(fakeEnv, "ok")
	ours, err := measureContext(context.Background(), "a", []string{os.Args[0]}, root, false)
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(fakeEnv, "nocalc")
	theirs, err := measureContext(context.Background(), "b", []string{os.Args[0]}, root, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(ours.Tools) != 2 || len(theirs.Tools) != 1 {
		t.Fatalf("tools: %+v / %+v", ours.Tools, theirs.Tools)
	}
	both := shared(ours, theirs)
	if len(both) != 1 || !both["read_file"] {
		t.Fatalf("shared: %v", both)
	}
	if m, _, _ := ours.Model(both); m != len("read_file") {
		t.Fatalf("ours on the shared tools: %d", m)
	}
	if ours.List == 0 || theirs.List == 0 {
		t.Fatal("no tools/list line counted")
	}
	// The fake serves read_file, not the reference's read_text_file, nor
	// list_directory: those results are "no such tool" and were not called.
	for _, r := range theirs.Results {
		if r.Tool != "" {
			t.Errorf("the reference side called %s for %q", r.Tool, r.Name)
		}
	}
	var calls int
	for _, r := range ours.Results {
		if r.Tool == "read_file" {
			calls++
		}
	}
	if calls != 2 {
		t.Errorf("read_file was called for %d results, want 2 (1 KiB and not found)", calls)
	}
	var out strings.Builder
	if err := writeContextTable(&out, ours, theirs); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"model-facing bytes, tools both serve (1)", "no such tool", "read_file"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the table lacks %q:\n%s", want, out.String())
		}
	}
}
