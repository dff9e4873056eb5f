//go:build !windows

package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stdiotools/toolserver/bench/internal/listing"
)

// TestFloorListsAndWrites feeds the floor a listing, two writes (one
// replacing the other) and a failing listing, and checks each answer and
// that the write leaves the file and nothing else.
func TestFloorListsAndWrites(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "many", "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"b.txt", "a.txt"} {
		if err := os.WriteFile(filepath.Join(root, "many", name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	in := "list many\n" +
		"write 11 out dir/new.txt\nhello\nworld" +
		"write 3 out dir/new.txt\nabc" +
		"list nope\n"
	if err := os.Mkdir(filepath.Join(root, "out dir"), 0o755); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := runFloor(root, strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 4 {
		t.Fatalf("%d answers, want 4: %q", len(lines), out.String())
	}
	var text string
	if err := json.Unmarshal([]byte(lines[0]), &text); err != nil {
		t.Fatalf("listing answer %q: %v", lines[0], err)
	}
	entries, _ := os.ReadDir(filepath.Join(root, "many"))
	if want := string(listing.Append(nil, "many", entries)); text != want || !strings.HasPrefix(text, "a.txt\nb.txt\nsub/\n") {
		t.Errorf("listing %q, want %q", text, want)
	}
	if lines[1] != "ok 11" || lines[2] != "ok 3" {
		t.Errorf("write answers %q, %q", lines[1], lines[2])
	}
	if got, err := os.ReadFile(filepath.Join(root, "out dir", "new.txt")); err != nil || string(got) != "abc" {
		t.Errorf("written file %q, %v", got, err)
	}
	if left, _ := os.ReadDir(filepath.Join(root, "out dir")); len(left) != 1 {
		t.Errorf("the writes left %d entries, want only new.txt", len(left))
	}
	if !strings.HasPrefix(lines[3], "error: ") || checkFloorAnswer([]byte(lines[3])) == nil {
		t.Errorf("failed listing answered %q", lines[3])
	}
	for _, ok := range lines[:3] {
		if err := checkFloorAnswer([]byte(ok)); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
}

func TestFloorStopsOnARequestItCannotRead(t *testing.T) {
	for _, in := range []string{"erase x\n", "write x y\n", "write 10 short\nabc", "list unfinished"} {
		if err := runFloor(t.TempDir(), strings.NewReader(in), &bytes.Buffer{}); err == nil {
			t.Errorf("%q: no error", in)
		}
	}
}

// TestAppendJSONStringAsEncodingJSON holds the floor's escaping to
// encoding/json's (without HTML escaping).
func TestAppendJSONStringAsEncodingJSON(t *testing.T) {
	for _, s := range []string{"", "plain", "a\nb\tc\r\"q\"\\", "\x00\x01\x1f\x7f", "héllo 世界", "bad \xff\xfe utf8", "sep \u2028 \u2029", "<&>"} {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(s); err != nil {
			t.Fatal(err)
		}
		if got := appendJSONString(nil, []byte(s)); string(got) != strings.TrimSuffix(want.String(), "\n") {
			t.Errorf("%q: got %s, want %s", s, got, want.String())
		}
	}
}

// TestFloorReads reads a file whose text needs escaping, one larger than
// the first read, and two it cannot: one missing and one outside the root.
func TestFloorReads(t *testing.T) {
	root := t.TempDir()
	small := "tab\there \"quoted\" \\ é \u2028 end\n"
	large := strings.Repeat("0123456789abcdef", 1<<12) // grows past the first read
	for name, text := range map[string]string{"small.txt": small, "large.txt": large} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var out bytes.Buffer
	if err := runFloor(root, strings.NewReader("read small.txt\nread large.txt\nread missing.txt\nread ../outside\n"), &out); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 4 {
		t.Fatalf("%d answers, want 4: %q", len(lines), out.String())
	}
	for i, want := range []string{small, large} {
		var got string
		if err := json.Unmarshal([]byte(lines[i]), &got); err != nil || got != want {
			t.Errorf("read %d answered %q (%v), want the file's text", i, snippetString(got), err)
		}
	}
	for _, refused := range lines[2:] {
		if !strings.HasPrefix(refused, "error: ") {
			t.Errorf("a read that cannot be made answered %q", refused)
		}
	}
}
