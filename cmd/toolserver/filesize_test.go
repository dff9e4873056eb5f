package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestAWritePastTheFileSizeLimitSaysSo runs the server under a file size
// limit (bash's ulimit -f, which makes the kernel answer EFBIG, and
// SIGXFSZ, which Go ignores) and checks that write_file and copy_file
// past it, and append_file across it, say what happened and what to do,
// in both languages, and leave the target as it was and nothing beside
// it.
func TestAWritePastTheFileSizeLimitSaysSo(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("needs bash for ulimit")
	}
	root := t.TempDir()
	big := strings.Repeat("0123456789abcdef", 100<<10/16) // 100 KiB, past 64 KiB
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "big.txt"), []byte(big), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ lang, want string }{
		{"en", `would exceed the largest file size the server may write (a ulimit); write less`},
		{"zh", `将超过服务器可写入的最大文件大小（ulimit 限制）；请少写一些`},
	} {
		p := startBinaryInitialized(t, bash, "-c", `ulimit -f 64 && exec "$0" "$@"`, binary, "--root", root, "--lang", tt.lang)
		for i, params := range []string{
			fmt.Sprintf(`{"name":"write_file","arguments":{"path":"a.txt","content":%q}}`, big),
			`{"name":"copy_file","arguments":{"source":"big.txt","destination":"a.txt","overwrite":true}}`,
			`{"name":"copy_file","arguments":{"source":"big.txt","destination":"copy.txt"}}`,
			// Past the limit half-way: what went in is cut back out.
			fmt.Sprintf(`{"name":"append_file","arguments":{"path":"a.txt","content":%q}}`, big),
		} {
			p.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":%s}`, i+1, params))
			l := p.recv()
			if !strings.Contains(l, `"isError":true`) || !strings.Contains(l, tt.want) {
				t.Errorf("--lang %s, %.80s: got %.400s, want an error saying %q", tt.lang, params, l, tt.want)
			}
		}
		p.finish()
	}
	if b, err := os.ReadFile(filepath.Join(root, "a.txt")); err != nil || string(b) != "old" {
		t.Errorf("a.txt holds %d bytes (%.40q…), %v after the failed writes, want \"old\"", len(b), b, err)
	}
	entries, _ := os.ReadDir(root)
	if len(entries) != 2 {
		t.Errorf("the failed writes left entries behind: %v", entries)
	}
}
