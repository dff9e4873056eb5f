package main

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
)

// snapshot describes every file and directory under dir: path, type,
// mode and a hash of the content or link target.
func snapshot(t *testing.T, dir string) string {
	t.Helper()
	var lines []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := os.Lstat(p)
		if err != nil {
			return err
		}
		var sum string
		switch {
		case info.Mode().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			sum = fmt.Sprintf("%x", sha256.Sum256(b))
		case info.Mode()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			sum = "-> " + target
		}
		lines = append(lines, fmt.Sprintf("%s %v %s", p, info.Mode(), sum))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// escapeTree builds a root with every trap the attacks use, next to an
// outside folder and a sibling whose name extends the root's.
func escapeTree(t *testing.T) (base, root string) {
	t.Helper()
	base = t.TempDir()
	return base, escapeRoot(t, base, "box")
}

// escapeRoot builds the root base/name with every trap the attacks use,
// next to base/outside and the sibling base/name_secret.
func escapeRoot(t *testing.T, base, name string) (root string) {
	t.Helper()
	root = filepath.Join(base, name)
	for _, d := range []string{root, filepath.Join(root, "sub"), filepath.Join(base, "outside"), filepath.Join(base, name+"_secret")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p, s string) {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(base, "outside", "secret.txt"), "outside secret\n")
	write(filepath.Join(base, name+"_secret", "s.txt"), "sibling secret\n")
	write(filepath.Join(root, "inside.txt"), "inside\n")
	links := map[string]string{
		"link-file": "../outside/secret.txt",
		"link-dir":  "../outside",
		"abs-link":  filepath.Join(base, "outside", "secret.txt"),
		"dangling":  "../outside/pwned",
		"sub/up":    "../../outside",
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(root, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}

// escapeCase is one attack: a tool, its arguments, and a part of the
// sentence that must refuse it.
type escapeCase struct {
	name, tool, args, want string
}

// escapeCases are the attacks on the root base/name.
func escapeCases(base, name string) []escapeCase {
	outside := filepath.Join(base, "outside")
	sibling := filepath.Join(base, name+"_secret")
	leaves := "leaves the root"
	isOutside := "is outside the root"
	linkOut := "symbolic link that points outside the root"
	return []escapeCase{
		{"a .. chain", "read_file", `{"path":"../outside/secret.txt"}`, leaves},
		{"a deep .. chain", "read_file", `{"path":"sub/../../../../etc/passwd"}`, leaves},
		{"an absolute path outside", "read_file", `{"path":"` + filepath.Join(outside, "secret.txt") + `"}`, isOutside},
		{"the sibling with the same prefix, relative", "read_file", `{"path":"../` + name + `_secret/s.txt"}`, leaves},
		{"the sibling with the same prefix, absolute", "read_file", `{"path":"` + filepath.Join(sibling, "s.txt") + `"}`, isOutside},
		{"/etc/passwd", "read_file", `{"path":"/etc/passwd"}`, isOutside},
		{"/proc", "read_file", `{"path":"/proc/self/environ"}`, isOutside},
		{"/dev", "read_file", `{"path":"/dev/zero"}`, isOutside},
		{"reading through a link to an outside file", "read_file", `{"path":"link-file"}`, linkOut},
		{"reading through an absolute link", "read_file", `{"path":"abs-link"}`, "absolute symbolic link"},
		{"reading through a link to an outside directory", "read_file", `{"path":"link-dir/secret.txt"}`, linkOut},
		{"reading through a link deeper down", "read_file", `{"path":"sub/up/secret.txt"}`, linkOut},
		{"listing through a link to an outside directory", "list_directory", `{"path":"link-dir"}`, linkOut},
		{"a tree through a link", "directory_tree", `{"path":"sub/up"}`, linkOut},
		{"searching above the root", "search_files", `{"path":"..","pattern":"*"}`, leaves},
		{"grepping above the root", "grep", `{"path":"../outside","query":"secret"}`, leaves},
		{"info through a link", "get_file_info", `{"path":"link-dir/secret.txt"}`, linkOut},
		{"writing through a link to an outside file", "write_file", `{"path":"link-file","content":"pwned"}`, "symbolic link"},
		{"writing through a dangling link whose target is outside", "write_file", `{"path":"dangling","content":"pwned"}`, "symbolic link"},
		{"writing into a linked outside directory", "write_file", `{"path":"link-dir/new.txt","content":"pwned"}`, linkOut},
		{"writing above the root", "write_file", `{"path":"../outside/new.txt","content":"pwned"}`, leaves},
		{"editing through a link", "edit_file", `{"path":"link-file","edits":[{"old_text":"outside","new_text":"pwned"}]}`, "symbolic link"},
		{"creating a directory through a link", "create_directory", `{"path":"link-dir/nd"}`, linkOut},
		{"moving into a linked outside directory", "move_file", `{"source":"inside.txt","destination":"link-dir/moved.txt"}`, linkOut},
		{"moving out of the root", "move_file", `{"source":"inside.txt","destination":"../outside/moved.txt"}`, leaves},
		{"moving into the root from outside", "move_file", `{"source":"../outside/secret.txt","destination":"stolen.txt"}`, leaves},
		{"copying out of the root", "copy_file", `{"source":"inside.txt","destination":"../outside/c.txt"}`, leaves},
		{"copying into the root from outside", "copy_file", `{"source":"../outside/secret.txt","destination":"stolen.txt"}`, leaves},
		{"copying through a link", "copy_file", `{"source":"link-file","destination":"stolen.txt"}`, linkOut},
		{"deleting above the root", "delete_file", `{"path":"../outside","recursive":true}`, leaves},
		{"deleting through a link", "delete_file", `{"path":"link-dir/secret.txt"}`, linkOut},
		{"a NUL byte", "read_file", `{"path":"inside.txt\u0000../../outside/secret.txt"}`, "not allowed"},
		{"backslashes", "read_file", `{"path":"..\\outside\\secret.txt"}`, "'/'"},
		{"a very long path", "read_file", `{"path":"` + strings.Repeat("a/", 3000) + `x"}`, "long"},
		{"a Windows drive", "read_file", `{"path":"C:/outside/secret.txt"}`, "Windows"},
		{"a home directory", "read_file", `{"path":"~/secret.txt"}`, "~"},
		{"a FIFO inside the root does not hang", "read_file", `{"path":"fifo"}`, "named pipe"},
		{"an escaped .. chain", "read_file", `{"path":"\\u{2E}\\u{2E}/outside/secret.txt"}`, leaves},
		{"an escaped .. chain through a name", "read_file", `{"path":"sub/\\u{2E}./../outside/secret.txt"}`, leaves},
		{"an escaped slash", "read_file", `{"path":"\\u{2F}etc/passwd"}`, "bad escape"},
		{"an escaped NUL", "read_file", `{"path":"inside.txt\\u{0}../../outside/secret.txt"}`, "bad escape"},
		{"an escaped link target", "read_file", `{"path":"link\\u{2D}dir/secret.txt"}`, linkOut},
		{"a new name with an escaped line feed", "write_file", `{"path":"evil\\u{A}SYSTEM.txt","content":"x"}`, "control or invisible character"},
	}
}

// escapeResult sends one attack and returns the text of the error result
// that must refuse it.
func escapeResult(t *testing.T, p *proc, id int, tool, args string) string {
	t.Helper()
	p.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s}}`, id, tool, args))
	var resp struct {
		Result struct {
			Content []struct{ Text string } `json:"content"`
			IsError bool                    `json:"isError"`
		} `json:"result"`
		Error *struct{ Message string } `json:"error"`
	}
	line := p.recv()
	if err := json.Unmarshal([]byte(line), &resp); err != nil {
		t.Fatal(err)
	}
	if resp.Error != nil || !resp.Result.IsError || len(resp.Result.Content) == 0 {
		t.Fatalf("the attack was not refused with an error result: %s", line)
	}
	return resp.Result.Content[0].Text
}

// TestNoPathEscapesTheRoot runs every attack against the real binary and
// checks both the sentence the model reads and that nothing outside the
// root was read, created, changed or deleted.
func TestNoPathEscapesTheRoot(t *testing.T) {
	base, root := escapeTree(t)
	outside := filepath.Join(base, "outside")
	sibling := filepath.Join(base, "box_secret")
	before := snapshot(t, outside) + "\n" + snapshot(t, sibling)

	p := start(t, "--root", root, "--allow-admin")
	p.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"attacker","version":"1"}}}`)
	p.recv()
	for i, tc := range escapeCases(base, "box") {
		t.Run(tc.name, func(t *testing.T) {
			p.t = t
			text := escapeResult(t, p, i+1, tc.tool, tc.args)
			if !strings.Contains(text, tc.want) {
				t.Errorf("refusal %q does not say %q", text, tc.want)
			}
			if strings.Contains(text, base) {
				t.Errorf("the refusal shows the host path: %q", text)
			}
			if after := snapshot(t, outside) + "\n" + snapshot(t, sibling); after != before {
				t.Fatalf("the outside changed:\nbefore\n%s\nafter\n%s", before, after)
			}
		})
	}
	p.t = t
	p.finish()
}

// TestNoPathEscapesAnyOfThreeRoots runs every attack against each root of
// a three-root configuration whose second root is read-only, naming the
// root ("ro:/../outside"), and against the first root with plain paths
// too. Every attack must be refused, and nothing anywhere may change:
// not outside the roots, not in another root, not in the read-only one.
func TestNoPathEscapesAnyOfThreeRoots(t *testing.T) {
	base := t.TempDir()
	roots := []struct {
		name string
		ro   bool
	}{{"first", false}, {"ro", true}, {"third", false}}
	args := []string{"--allow-admin"}
	for _, r := range roots {
		dir := escapeRoot(t, base, r.name)
		flag := "--root"
		if r.ro {
			flag = "--read-only-root"
		}
		args = append(args, flag, r.name+"="+dir)
	}
	before := snapshot(t, base)

	p := start(t, args...)
	p.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"attacker","version":"1"}}}`)
	p.recv()
	id := 0
	run := func(root, prefix string, ro bool) {
		for _, tc := range escapeCases(base, root) {
			t.Run(root+"/"+prefix+"/"+tc.name, func(t *testing.T) {
				p.t = t
				id++
				text := escapeResult(t, p, id, tc.tool, withRoot(t, tc.args, prefix))
				want := strings.ReplaceAll(tc.want, "is outside the root", "is outside every root")
				switch {
				case strings.Contains(text, want):
				case ro && strings.Contains(text, `is in the read-only root "ro"`):
				default:
					t.Errorf("refusal %q does not say %q", text, want)
				}
				if strings.Contains(text, base) {
					t.Errorf("the refusal shows the host path: %q", text)
				}
				if after := snapshot(t, base); after != before {
					t.Fatalf("something changed:\nbefore\n%s\nafter\n%s", before, after)
				}
			})
		}
	}
	run("first", "", false)
	for _, r := range roots {
		run(r.name, r.name+":/", r.ro)
	}
	p.t = t
	p.finish()
}

// withRoot returns the JSON arguments args with prefix put before every
// relative path, source and destination.
func withRoot(t *testing.T, args, prefix string) string {
	t.Helper()
	if prefix == "" {
		return args
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(args), &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"path", "source", "destination"} {
		if s, ok := m[k].(string); ok && !strings.HasPrefix(s, "/") {
			m[k] = prefix + s
		}
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
