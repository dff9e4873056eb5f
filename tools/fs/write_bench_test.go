package fs

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stdiotools/toolserver/internal/cpumeter"
	"github.com/stdiotools/toolserver/security"
	"github.com/stdiotools/toolserver/server"
	"github.com/stdiotools/toolserver/servertest"
)

// sourceText returns size bytes of text shaped like source code: short
// lines, tabs, quotes and backslashes, which JSON escapes, and a few
// characters beyond ASCII.
func sourceText(size int) string {
	const unit = "\tif err := run(ctx, \"write\", path); err != nil { // naïve retry\n" +
		"\t\treturn fmt.Errorf(\"writing %s: %w\\n\", path, err)\n" +
		"\t}\n" +
		"\tlog.Printf(\"done: %d bytes, 100%% — ok\")\n"
	return strings.Repeat(unit, size/len(unit)+1)[:size]
}

// callLine returns a tools/call request line with id and the arguments
// args, encoded as a client would send them.
func callLine(b *testing.B, id int, tool string, args any) string {
	b.Helper()
	raw, err := json.Marshal(args)
	if err != nil {
		b.Fatal(err)
	}
	return `{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"method":"tools/call","params":{"name":"` + tool + `","arguments":` + string(raw) + `}}`
}

// largeWriteEnv serves the file tools over a real directory through the
// stdio transport in memory, with limits that let 8 MiB be read and
// edited and no loop guard, so that one call can be repeated.
func largeWriteEnv(b *testing.B) (*servertest.Client, string) {
	b.Helper()
	dir := b.TempDir()
	root, err := security.OpenRoot(dir)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { root.Close() })
	sb := security.NewSandbox(root, security.SandboxOptions{HostRoot: dir, Limits: security.Limits{MaxReadBytes: 16 << 20}})
	srv := server.New(server.Options{AllowAdmin: true, MaxRepeats: -1})
	if err := Register(srv, sb); err != nil {
		b.Fatal(err)
	}
	return servertest.Start(b, srv), dir
}

// roundTrip sends line and fails unless the response is a result
// without isError.
func roundTrip(b *testing.B, c *servertest.Client, line string) {
	c.Send(line)
	resp := c.Recv()
	if strings.Contains(resp, `"isError":true`) || strings.Contains(resp, `"error":{`) {
		b.Fatalf("call failed: %.300s", resp)
	}
}

// BenchmarkLargeWrite runs write_file and edit_file calls with 1 MiB and 8
// MiB of content through the whole server, from the request line to the
// response line, and, as the floor they are measured against, the same
// bytes written to a temporary file, synced and renamed with package os.
// SetBytes is the size of the file written; cpu-ns/op the CPU time of
// the whole process (client, server and collector) per call.
func BenchmarkLargeWrite(b *testing.B) {
	for _, size := range []int{1 << 20, 8 << 20} {
		content := sourceText(size)
		name := fmt.Sprintf("%dMiB", size>>20)
		b.Run("write_file/"+name, func(b *testing.B) {
			c, _ := largeWriteEnv(b)
			line := callLine(b, 2, "write_file", map[string]any{"path": "big.txt", "content": content})
			b.SetBytes(int64(size))
			b.ReportAllocs()
			m := cpumeter.Start()
			for b.Loop() {
				roundTrip(b, c, line)
			}
			m.Report(b)
		})
		b.Run("edit_file/"+name, func(b *testing.B) {
			// One line changed in the middle of the file, back and forth,
			// so that every call rewrites the whole file.
			c, dir := largeWriteEnv(b)
			half := size / 2
			text := content[:half] + "\n// MARK A\n" + content[half:]
			if err := os.WriteFile(filepath.Join(dir, "big.txt"), []byte(text), 0o644); err != nil {
				b.Fatal(err)
			}
			lines := [2]string{
				callLine(b, 2, "edit_file", map[string]any{"path": "big.txt", "edits": []Edit{{OldText: "// MARK A", NewText: "// MARK B"}}}),
				callLine(b, 3, "edit_file", map[string]any{"path": "big.txt", "edits": []Edit{{OldText: "// MARK B", NewText: "// MARK A"}}}),
			}
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			m := cpumeter.Start()
			i := 0
			for b.Loop() {
				roundTrip(b, c, lines[i%2])
				i++
			}
			m.Report(b)
		})
		b.Run("floor/"+name, func(b *testing.B) {
			dir := b.TempDir()
			data := []byte(content)
			b.SetBytes(int64(size))
			b.ReportAllocs()
			m := cpumeter.Start()
			for b.Loop() {
				f, err := os.CreateTemp(dir, ".tmp-*")
				if err != nil {
					b.Fatal(err)
				}
				if _, err := f.Write(data); err != nil {
					b.Fatal(err)
				}
				if err := f.Sync(); err != nil {
					b.Fatal(err)
				}
				if err := f.Close(); err != nil {
					b.Fatal(err)
				}
				if err := os.Rename(f.Name(), filepath.Join(dir, "big.txt")); err != nil {
					b.Fatal(err)
				}
			}
			m.Report(b)
		})
	}
}
