package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// threeRoots makes a three-root configuration on temporary folders:
// work (writable, first), ref (read-only) and scratch (writable; on
// tmpfs, /dev/shm, when there is one, so that moves between work and
// scratch cross file systems). It returns the flags and the folders.
func threeRoots(t *testing.T) (args []string, work, ref, scratch string) {
	t.Helper()
	base := t.TempDir()
	work, ref = filepath.Join(base, "work"), filepath.Join(base, "ref")
	scratch = filepath.Join(base, "scratch")
	if st, err := os.Stat("/dev/shm"); err == nil && st.IsDir() {
		if dir, err := os.MkdirTemp("/dev/shm", "toolserver-roots-"); err == nil {
			scratch = dir
			t.Cleanup(func() { os.RemoveAll(dir) })
		}
	}
	for _, d := range []string{work, ref, scratch, filepath.Join(ref, "docs")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, body := range map[string]string{
		filepath.Join(work, "a.txt"):        "alpha\n",
		filepath.Join(ref, "docs/guide.md"): "# Guide\nread me\n",
	} {
		if err := os.WriteFile(name, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return []string{"--root", "work=" + work, "--read-only-root", "ref=" + ref, "--root", "scratch=" + scratch}, work, ref, scratch
}

// callJSON runs toolserver call with the arguments as JSON and returns
// its exit code, the text printed and the structured result, if any.
func callJSON(t *testing.T, rootArgs []string, tool, args string) (int, string) {
	t.Helper()
	code, out, errOut := runCLI(append(append([]string{"call"}, rootArgs...), tool, "--json", args)...)
	return code, out + errOut
}

func TestThreeRootsThroughCall(t *testing.T) {
	roots, work, ref, scratch := threeRoots(t)
	steps := []struct {
		tool, args string
		code       int
		says       string
	}{
		{"read_file", `{"path":"ref:/docs/guide.md"}`, 0, "read me"},
		{"read_file", `{"path":"a.txt"}`, 0, "alpha"},
		{"write_file", `{"path":"ref:/docs/new.md","content":"x"}`, 1, `is in the read-only root "ref"`},
		{"edit_file", `{"path":"ref:/docs/guide.md","edits":[{"old_text":"read","new_text":"edit"}]}`, 1, `read-only root "ref"`},
		{"create_directory", `{"path":"ref:/made"}`, 1, `read-only root "ref"`},
		{"move_file", `{"source":"ref:/docs/guide.md","destination":"work:/guide.md"}`, 1, `read-only root "ref"`},
		{"copy_file", `{"source":"a.txt","destination":"ref:/a.txt"}`, 1, `read-only root "ref"`},
		// Out of the read-only root into a writable one: yes.
		{"copy_file", `{"source":"ref:/docs","destination":"work:/docs"}`, 0, `to "work:/docs"`},
		{"copy_file", `{"source":"ref:/docs/guide.md","destination":"scratch:/guide.md"}`, 0, `to "scratch:/guide.md"`},
		// Across writable roots, and back.
		{"move_file", `{"source":"a.txt","destination":"scratch:/a.txt"}`, 0, `"scratch:/a.txt"`},
		{"move_file", `{"source":"scratch:/a.txt","destination":"work:/b.txt"}`, 0, `"work:/b.txt"`},
		{"move_file", `{"source":"work:/b.txt","destination":"scratch:/c.txt","dry_run":true}`, 0, "They are in different roots, so it would be copied"},
		{"write_file", `{"path":"scratch:/w.txt","content":"written"}`, 0, "scratch:/w.txt"},
		{"list_directory", `{"path":"scratch:"}`, 0, "w.txt"},
	}
	for _, s := range steps {
		code, out := callJSON(t, roots, s.tool, s.args)
		if code != s.code || !strings.Contains(out, s.says) {
			t.Errorf("call %s %s = %d, %q; want %d and %q", s.tool, s.args, code, out, s.code, s.says)
		}
		for _, host := range []string{work, ref, scratch} {
			if strings.Contains(out, host) {
				t.Errorf("call %s shows a host path: %q", s.tool, out)
			}
		}
	}
	for name, want := range map[string]string{
		filepath.Join(work, "b.txt"):               "alpha\n",
		filepath.Join(work, "docs/guide.md"):       "# Guide\nread me\n",
		filepath.Join(scratch, "guide.md"):         "# Guide\nread me\n",
		filepath.Join(scratch, "w.txt"):            "written",
		filepath.Join(ref, "docs/guide.md"):        "# Guide\nread me\n",
		filepath.Join(work, "a.txt") + "(gone)":    "",
		filepath.Join(scratch, "a.txt") + "(gone)": "",
	} {
		if gone, ok := strings.CutSuffix(name, "(gone)"); ok {
			if _, err := os.Lstat(gone); !os.IsNotExist(err) {
				t.Errorf("%s is still there after the move: %v", gone, err)
			}
			continue
		}
		if b, err := os.ReadFile(name); err != nil || string(b) != want {
			t.Errorf("%s = %q, %v; want %q", name, b, err, want)
		}
	}
	if ents, _ := os.ReadDir(ref); len(ents) != 1 {
		t.Errorf("the read-only root holds %d entries, want 1", len(ents))
	}
}

func TestThreeRootsThroughTools(t *testing.T) {
	roots, _, _, _ := threeRoots(t)
	code, out, errOut := runCLI(append([]string{"tools"}, roots...)...)
	if code != 0 {
		t.Fatalf("toolserver tools = %d: %s", code, errOut)
	}
	var tools []struct {
		Name        string `json:"name"`
		Description string `json:"description"`
	}
	if err := json.Unmarshal([]byte(out), &tools); err != nil {
		t.Fatalf("toolserver tools printed no JSON list: %v", err)
	}
	found := false
	for _, tool := range tools {
		if tool.Name == "list_allowed_directories" {
			found = strings.Contains(tool.Description, `"NAME:/PATH"`) && strings.Contains(tool.Description, `"ref:/README.md"`)
		}
	}
	if !found {
		t.Errorf("list_allowed_directories does not say how paths name their root: %s", out)
	}
}

func TestOnlyReadOnlyRootsServeNoWriteTools(t *testing.T) {
	_, _, ref, _ := threeRoots(t)
	code, out, errOut := runCLI("tools", "--read-only-root", ref)
	if code != 0 {
		t.Fatalf("toolserver tools = %d: %s", code, errOut)
	}
	if strings.Contains(out, `"write_file"`) || !strings.Contains(out, `"read_file"`) {
		t.Errorf("with only a read-only root, the tools are:\n%s", out)
	}
	// One read-only root: plain paths, as with one --root.
	code, text := callJSON(t, []string{"--read-only-root", ref}, "read_file", `{"path":"docs/guide.md"}`)
	if code != 0 || !strings.Contains(text, "read me") {
		t.Errorf("read_file in the one read-only root = %d, %q", code, text)
	}
}

func TestRootFlags(t *testing.T) {
	_, work, ref, _ := threeRoots(t)
	link := filepath.Join(t.TempDir(), "linked")
	if err := os.Symlink(work, link); err != nil {
		t.Fatal(err)
	}
	ok := [][]string{
		{"--root", work, "--read-only-root", ref},                         // names from the folders
		{"--root", "ww=" + work, "--root", "w2=" + work},                  // two roots on one folder
		{"--root", "outer=" + filepath.Dir(work), "--root", "in=" + work}, // one inside another
		{"--root", "ln=" + link, "--read-only-root", ref},                 // a root that is a link
	}
	for _, args := range ok {
		code, text := callJSON(t, args, "list_allowed_directories", `{}`)
		if code != 0 {
			t.Errorf("%q: %d %s", args, code, text)
		}
	}
	bad := map[string][]string{
		"two roots with one name":    {"--root", work, "--root", "work=" + ref},
		"names differing in case":    {"--root", "A1=" + work, "--root", "a1=" + ref},
		"a folder name unfit":        {"--root", work, "--root", "/"},
		"a missing folder":           {"--root", work, "--read-only-root", "ro=/does/not/exist"},
		"an empty folder":            {"--root", "x1="},
		"a file as a read-only root": {"--read-only-root", "roots_test.go"},
	}
	for name, args := range bad {
		code, _, errOut := runCLI(append([]string{"tools"}, args...)...)
		first, _, _ := strings.Cut(errOut, "\n")
		if code == 0 || !strings.Contains(first, "root") {
			t.Errorf("%s (%q): exit %d, stderr %q; want a usage error that starts with its reason", name, args, code, errOut)
		}
	}
	// The name from NAME=DIR, and the folder's own name otherwise.
	code, text := callJSON(t, []string{"--root", "mine=" + work, "--read-only-root", ref}, "read_file", `{"path":"ref:/docs/guide.md"}`)
	if code != 0 || !strings.Contains(text, "read me") {
		t.Errorf("read through the folder's own name = %d, %q", code, text)
	}
	// A path in the folder of two roots, written absolutely, is ambiguous.
	code, text = callJSON(t, []string{"--root", "ww=" + work, "--read-only-root", "w2=" + work}, "read_file", `{"path":"`+filepath.Join(work, "a.txt")+`"}`)
	if code == 0 || !strings.Contains(text, `"ww:/a.txt" or "w2:/a.txt"`) {
		t.Errorf("an absolute path in two roots = %d, %q", code, text)
	}
}
