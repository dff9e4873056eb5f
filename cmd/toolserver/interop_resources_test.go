package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
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

// told is a notifications/resources/updated the official Go client
// handed to its ResourceUpdatedHandler.
type told struct {
	uri string
	id  string // the io.modelcontextprotocol/subscriptionId of its _meta, "" if none
}

// subscriptionIDOf returns the io.modelcontextprotocol/subscriptionId of
// meta as text, or "" if it has none.
func subscriptionIDOf(meta mcp.Meta) string {
	id, ok := meta[mcp.MetaKeySubscriptionID]
	if !ok {
		return ""
	}
	return fmt.Sprint(id)
}

// TestInteropSubscriptionsWithTheOfficialGoSDK subscribes to a file and
// a folder with the official Go client, in both eras, over stdio and
// over Streamable HTTP, changes them with the server's own write_file
// and waits to be told of each; in 2025-11-25 over HTTP, which keeps no
// session, resources/subscribe is refused and not offered.
func TestInteropSubscriptionsWithTheOfficialGoSDK(t *testing.T) {
	const (
		fileURI   = "toolserver:///notes/todo.txt"
		folderURI = "toolserver:///notes"
		newURI    = "toolserver:///notes/new.txt"
	)
	for _, tc := range []struct{ name, pin, want string }{
		{"2026-07-28", "", "2026-07-28"},
		{"2025-11-25", "2025-11-25", "2025-11-25"},
	} {
		for _, transport := range []string{"stdio", "http"} {
			t.Run(tc.name+" over "+transport, func(t *testing.T) {
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				defer cancel()
				root := resourceTree(t)
				var tr mcp.Transport = &mcp.CommandTransport{Command: exec.Command(binary, "--root", root)}
				if transport == "http" {
					ts := httptest.NewServer(httpHandlerFor(t, "--root", root, "--http", "127.0.0.1:0"))
					defer ts.Close()
					tr = &mcp.StreamableClientTransport{Endpoint: ts.URL + "/mcp", MaxRetries: -1}
				}
				modern := tc.want == "2026-07-28"

				updated := make(chan told, 100)
				acked := make(chan *mcp.SubscriptionsAcknowledgedParams, 10)
				client := mcp.NewClient(&mcp.Implementation{Name: "interop", Version: "1"}, &mcp.ClientOptions{
					ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
						select {
						case updated <- told{req.Params.URI, subscriptionIDOf(req.Params.Meta)}:
						default:
						}
					},
				})
				// The client answers notifications/subscriptions/acknowledged
				// itself and tells no handler; a middleware sees it.
				client.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
					return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
						if p, ok := req.GetParams().(*mcp.SubscriptionsAcknowledgedParams); ok && method == "notifications/subscriptions/acknowledged" {
							select {
							case acked <- p:
							default:
							}
						}
						return next(ctx, method, req)
					}
				})
				cs, err := client.Connect(ctx, tr, &mcp.ClientSessionOptions{ProtocolVersion: tc.pin})
				if err != nil {
					t.Fatalf("connect: %v", err)
				}
				defer cs.Close()
				if v := cs.InitializeResult().ProtocolVersion; v != tc.want {
					t.Fatalf("protocol version %s, want %s", v, tc.want)
				}
				caps := cs.InitializeResult().Capabilities.Resources
				if caps == nil {
					t.Fatalf("no resources capability: %+v", cs.InitializeResult().Capabilities)
				}

				if !modern && transport == "http" {
					if caps.Subscribe {
						t.Errorf("resources.subscribe offered over HTTP, which keeps no session: %+v", caps)
					}
					err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: fileURI})
					var werr *jsonrpc.Error
					if !errors.As(err, &werr) || werr.Code != jsonrpc.CodeMethodNotFound || !strings.Contains(werr.Message, "subscriptions/listen") {
						t.Fatalf("resources/subscribe over HTTP: got %v, want error %d naming subscriptions/listen", err, jsonrpc.CodeMethodNotFound)
					}
					return
				}
				if !modern && !caps.Subscribe {
					t.Errorf("resources.subscribe not offered over stdio: %+v", caps)
				}

				// ids are the subscription ids acknowledged, in the modern era.
				ids := map[string]bool{}
				subscribe := func(uris ...string) {
					t.Helper()
					for _, uri := range uris {
						if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: uri}); err != nil {
							t.Fatalf("subscribe %s: %v", uri, err)
						}
					}
					if !modern {
						return // resources/subscribe is answered once the watch is set
					}
					// The SDK's Subscribe opens subscriptions/listen and returns
					// without waiting: the acknowledgment tells the watch is set.
					want := map[string]bool{}
					for _, uri := range uris {
						want[uri] = true
					}
					timeout := time.After(10 * time.Second)
					for len(want) > 0 {
						select {
						case p := <-acked:
							id := subscriptionIDOf(p.Meta)
							if id == "" {
								t.Errorf("an acknowledgment without a subscription id: %+v", p)
							}
							ids[id] = true
							for _, uri := range p.Notifications.ResourceSubscriptions {
								delete(want, uri)
							}
						case <-timeout:
							t.Fatalf("subscriptions/listen of %v not acknowledged within 10s", want)
						}
					}
				}
				waitFor := func(uri string) {
					t.Helper()
					timeout := time.After(10 * time.Second)
					for {
						select {
						case u := <-updated:
							if u.uri != uri {
								continue
							}
							if modern && !ids[u.id] {
								t.Errorf("the update of %s has subscription id %q, none of those acknowledged %v", uri, u.id, ids)
							}
							if !modern && u.id != "" {
								t.Errorf("a 2025-11-25 update of %s carries a subscription id %q", uri, u.id)
							}
							return
						case <-timeout:
							t.Fatalf("not told within 10s that %s was updated", uri)
						}
					}
				}
				write := func(path, content string) {
					t.Helper()
					res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "write_file", Arguments: map[string]any{"path": path, "content": content}})
					if err != nil || res.IsError {
						t.Fatalf("write_file %s: %v %+v", path, err, res)
					}
				}
				read := func(uri string) string {
					t.Helper()
					res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
					if err != nil || len(res.Contents) != 1 {
						t.Fatalf("resources/read %s: %v %+v", uri, err, res)
					}
					return res.Contents[0].Text
				}

				subscribe(fileURI, folderURI)
				// A new entry changes the folder only; then the file changes.
				write("notes/new.txt", "new\n")
				waitFor(folderURI)
				write("notes/todo.txt", "buy bread\n")
				waitFor(fileURI)

				for _, uri := range []string{fileURI, folderURI} {
					if err := cs.Unsubscribe(ctx, &mcp.UnsubscribeParams{URI: uri}); err != nil {
						t.Fatalf("unsubscribe %s: %v", uri, err)
					}
				}
				// Unsubscribed, the session goes on: a change and a read are
				// answered, and a new subscription, to a file never watched
				// before (so that no late update can stand for it), is told.
				write("notes/todo.txt", "buy tea\n")
				if got := read(fileURI); got != "buy tea\n" {
					t.Errorf("read after unsubscribing: %q", got)
				}
				subscribe(newURI)
				write("notes/new.txt", "newer\n")
				waitFor(newURI)
			})
		}
	}
}
