package server_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/stdiotools/toolserver/server"
)

// ExampleAddResource serves notes by URI: a template whose variable is
// the note's name, read as a tool call runs, and ResourceNotFound for a
// name that has no note.
func ExampleAddResource() {
	notes := map[string]string{"todo": "buy milk\n"}
	srv := server.New(server.Options{})
	err := server.AddResource(srv, server.ResourceSpec{
		URITemplate: "notes://{name}",
		Name:        "notes",
		Description: "A note by its name.",
		MIMEType:    "text/plain",
	}, func(ctx context.Context, call *server.Call, uri string, vars map[string]string) ([]server.ResourceContents, error) {
		text, ok := notes[vars["name"]]
		if !ok {
			return nil, server.ResourceNotFound(uri)
		}
		return []server.ResourceContents{{URI: uri, MIMEType: "text/plain", Text: text}}, nil
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	contents, err := srv.ReadResource(context.Background(), "notes://todo")
	fmt.Printf("%q %v\n", contents[0].Text, err)
	_, err = srv.ReadResource(context.Background(), "notes://groceries")
	fmt.Println(err, server.IsResourceNotFound(err))

	// Over the protocol, the same read as a request of MCP 2026-07-28.
	var out strings.Builder
	_ = srv.Serve(context.Background(), strings.NewReader(
		`{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"notes://todo","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`+"\n"), &out)
	fmt.Print(out.String())
	// Output:
	// "buy milk\n" <nil>
	// Resource not found: notes://groceries true
	// {"jsonrpc":"2.0","id":1,"result":{"contents":[{"uri":"notes://todo","mimeType":"text/plain","text":"buy milk\n"}],"resultType":"complete","ttlMs":0,"cacheScope":"private","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"toolserver","title":"toolserver","version":"devel"}}}}
}
