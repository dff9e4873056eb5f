package fs

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stdiotools/toolserver/security"
)

func TestReadMultipleFiles(t *testing.T) {
	bothFS(t, security.Limits{}, func(t *testing.T, e *env) {
		e.write(t, "a.txt", "alpha\n")
		e.write(t, "b/c.txt", "gamma")
		e.write(t, "bin", "\x00\x01")
		e.write(t, "pic.png", pngHeader+"\x00\x00")

		t.Run("files come back in the order given, each under its path", func(t *testing.T) {
			res := e.ok(t, "read_multiple_files", `{"paths":["b/c.txt","a.txt"]}`)
			if got, want := anyVersion(text(res)), "==> b/c.txt <==\ngamma\n[version V]\n\n==> a.txt <==\nalpha\n[version V]\n"; got != want {
				t.Errorf("text = %q, want %q", got, want)
			}
			var got ReadMultipleResult
			structured(t, res, &got)
			if len(got.Files) != 2 || got.Files[0].Path != "b/c.txt" || got.Files[1].Path != "a.txt" || got.Bytes != 11 {
				t.Errorf("structured = %+v", got)
			}
		})
		t.Run("a file that cannot be read gets its error inline and the others still come back", func(t *testing.T) {
			res := e.ok(t, "read_multiple_files", `{"paths":["nope.txt","a.txt","bin","../x","b"]}`)
			txt := text(res)
			wantContains(t, txt,
				"==> nope.txt <==\nerror: \"nope.txt\" does not exist",
				"==> a.txt <==\nalpha\n",
				"==> bin <==\nerror: \"bin\" is a binary file",
				"==> ../x <==\nerror: path \"../x\" leaves the root",
				"==> b <==\nerror: \"b\" is a directory")
			var got ReadMultipleResult
			structured(t, res, &got)
			kinds := []string{}
			for _, f := range got.Files {
				kinds = append(kinds, f.Kind)
			}
			if strings.Join(kinds, ",") != "error,text,error,error,error" {
				t.Errorf("kinds = %v", kinds)
			}
		})
		t.Run("images come back as image content in their place", func(t *testing.T) {
			res := e.ok(t, "read_multiple_files", `{"paths":["a.txt","pic.png"]}`)
			if len(res.Content) != 3 || res.Content[2].Type() != "image" || res.Content[2].MIMEType() != "image/png" {
				t.Fatalf("content = %v", res.Content)
			}
		})
		t.Run("fifty files are read", func(t *testing.T) {
			var paths []string
			for i := range 50 {
				p := fmt.Sprintf("many/%02d.txt", i)
				e.write(t, p, fmt.Sprintf("file %d\n", i))
				paths = append(paths, p)
			}
			res := e.ok(t, "read_multiple_files", args(t, map[string]any{"paths": paths}))
			txt := text(res)
			for i := range 50 {
				want := fmt.Sprintf("==> many/%02d.txt <==\nfile %d\n", i, i)
				if !strings.Contains(txt, want) {
					t.Fatalf("missing %q", want)
				}
			}
			if strings.Index(txt, "many/10.txt") > strings.Index(txt, "many/11.txt") {
				t.Error("files out of order")
			}
		})
		t.Run("more than fifty paths are refused", func(t *testing.T) {
			paths := make([]string, 51)
			for i := range paths {
				paths[i] = "a.txt"
			}
			wantContains(t, e.fail(t, "read_multiple_files", args(t, map[string]any{"paths": paths})), "paths")
		})
		t.Run("no paths are refused", func(t *testing.T) {
			wantContains(t, e.fail(t, "read_multiple_files", `{"paths":[]}`), "paths")
		})
	})
}

func TestReadMultipleFilesShareTheReadLimit(t *testing.T) {
	bothFS(t, security.Limits{MaxReadBytes: 64}, func(t *testing.T, e *env) {
		e.write(t, "one.txt", bigLines(5))   // 40 bytes: fits
		e.write(t, "two.txt", bigLines(5))   // 40 bytes: 24 left, so 3 lines
		e.write(t, "three.txt", bigLines(5)) // nothing left
		e.write(t, "empty.txt", "")          // needs nothing
		e.mkdir(t, "dir")                    // uses nothing, though its size is not 0
		res := e.ok(t, "read_multiple_files", `{"paths":["dir","one.txt","two.txt","three.txt","empty.txt"]}`)
		var got ReadMultipleResult
		structured(t, res, &got)
		if got.Bytes != 64 {
			t.Errorf("bytes = %d, want 64", got.Bytes)
		}
		f := got.Files[1:]
		if got.Files[0].Kind != "error" || f[0].Truncated || !f[1].Truncated || f[2].Kind != "error" || f[3].Kind != "text" {
			t.Errorf("files = %+v", f)
		}
		wantContains(t, text(res),
			"==> two.txt <==\n"+bigLines(3)+"[Only lines 1-3 fit in what the files before it left of the 64 bytes one call returns; call read_file with offset=4 to read on.]",
			"==> three.txt <==\nerror: not read: the files before it used up the 64 bytes one call returns; read it with read_file",
			"All files of one call return at most 64 bytes, so 1 file was cut short and 1 file was not read")
	})
}
