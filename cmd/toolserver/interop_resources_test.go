package main

import (
	"bytes"
	"context"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// resourceTree returns a root with a text file, a binary file and a
// folder, for the resource interop tests.
func resourceTree(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range map[string]string{
		"notes/todo.txt":  "buy milk\n",
		"data/blob.bin":   "\x00\x01\x02\xff",
		"a b/ünï cödé.md": "# name\n",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// checkResources lists the resources and templates of cs and reads a
// text file, a binary one, a name that needs escaping, a folder and a
// URI that names nothing, as the official Go SDK client does.
func checkResources(ctx context.Context, t *testing.T, cs *mcp.ClientSession) {
	t.Helper()
	if cs.InitializeResult().Capabilities.Resources == nil {
		t.Fatalf("no resources capability: %+v", cs.InitializeResult().Capabilities)
	}
	list, err := cs.ListResources(ctx, nil)
	if err != nil || len(list.Resources) != 1 || list.Resources[0].URI != "toolserver:///" {
		t.Fatalf("resources/list: %v %+v", err, list)
	}
	templates, err := cs.ListResourceTemplates(ctx, nil)
	if err != nil || len(templates.ResourceTemplates) != 1 || templates.ResourceTemplates[0].URITemplate != "toolserver:///{+path}" {
		t.Fatalf("resources/templates/list: %v %+v", err, templates)
	}
	read := func(uri string) *mcp.ResourceContents {
		t.Helper()
		res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
		if err != nil || len(res.Contents) != 1 {
			t.Fatalf("resources/read %s: %v %+v", uri, err, res)
		}
		return res.Contents[0]
	}
	if c := read("toolserver:///notes/todo.txt"); c.Text != "buy milk\n" || !strings.HasPrefix(c.MIMEType, "text/plain") {
		t.Errorf("text: %+v", c)
	}
	if c := read("toolserver:///data/blob.bin"); !bytes.Equal(c.Blob, []byte{0, 1, 2, 0xff}) || c.MIMEType != "application/octet-stream" {
		t.Errorf("binary: %+v", c)
	}
	if c := read("toolserver:///a%20b/%C3%BCn%C3%AF%20c%C3%B6d%C3%A9.md"); c.Text != "# name\n" {
		t.Errorf("an escaped name: %+v", c)
	}
	if c := read("toolserver:///"); !strings.Contains(c.Text, "notes/\n") {
		t.Errorf("the root's listing: %+v", c)
	}
	_, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "toolserver:///notes/../../etc/passwd"})
	if err == nil || !strings.Contains(err.Error(), "Resource not found") {
		t.Errorf("a URI above the root: %v", err)
	}
	if cs.InitializeResult().Capabilities.Completions == nil {
		t.Fatalf("no completions capability: %+v", cs.InitializeResult().Capabilities)
	}
	comp, err := cs.Complete(ctx, &mcp.CompleteParams{
		Ref:      &mcp.CompleteReference{Type: "ref/resource", URI: "toolserver:///{+path}"},
		Argument: mcp.CompleteParamsArgument{Name: "path", Value: "no"},
	})
	if err != nil || strings.Join(comp.Completion.Values, " ") != "notes/" || comp.Completion.Total != 1 || comp.Completion.HasMore {
		t.Errorf("completion/complete: %v %+v", err, comp)
	}
}

// TestInteropResourcesWithTheOfficialGoSDK lists and reads the files as
// resources with the official Go client, in both eras, over stdio and
// over Streamable HTTP.
func TestInteropResourcesWithTheOfficialGoSDK(t *testing.T) {
	root := resourceTree(t)
	ts := httptest.NewServer(httpHandlerFor(t, "--root", root, "--http", "127.0.0.1:0"))
	defer ts.Close()
	for _, tc := range []struct{ name, pin, want string }{
		{"2026-07-28", "", "2026-07-28"},
		{"2025-11-25", "2025-11-25", "2025-11-25"},
	} {
		for _, transport := range []string{"stdio", "http"} {
			t.Run(tc.name+" over "+transport, func(t *testing.T) {
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				defer cancel()
				var tr mcp.Transport = &mcp.CommandTransport{Command: exec.Command(binary, "--root", root)}
				if transport == "http" {
					tr = &mcp.StreamableClientTransport{Endpoint: ts.URL + "/mcp", MaxRetries: -1}
				}
				client := mcp.NewClient(&mcp.Implementation{Name: "interop", Version: "1"}, nil)
				cs, err := client.Connect(ctx, tr, &mcp.ClientSessionOptions{ProtocolVersion: tc.pin})
				if err != nil {
					t.Fatalf("connect: %v", err)
				}
				defer cs.Close()
				if v := cs.InitializeResult().ProtocolVersion; v != tc.want {
					t.Fatalf("protocol version %s, want %s", v, tc.want)
				}
				checkResources(ctx, t, cs)
			})
		}
	}
}
