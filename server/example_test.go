package server_test

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/stdiotools/toolserver/security"
	"github.com/stdiotools/toolserver/server"
)

// GreetArgs are the arguments of the greet tool. Tags give the schema:
// "name" is required, limited to the ident character class and 1 to 40
// characters; "times" is optional with a default.
type GreetArgs struct {
	Name  string `json:"name" chars:"ident" minLength:"1" maxLength:"40" description:"Who to greet."`
	Times int    `json:"times" default:"1" minimum:"1" maximum:"3" description:"How many times."`
}

// Greeting is the result of the greet tool.
type Greeting struct {
	Text string `json:"text" description:"The greeting."`
}

func Example() {
	srv := server.New(server.Options{})
	err := server.AddTool(srv, server.ToolSpec{
		Name:        "greet",
		Description: "Greets someone by name.",
		Level:       security.Read,
	}, func(ctx context.Context, call *server.Call, in GreetArgs) (Greeting, error) {
		return Greeting{Text: strings.Repeat("Hello, "+in.Name+"! ", in.Times)}, nil
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	requests := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"example","version":"1"}}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"greet","arguments":{"name":"Ada","times":"2"}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"greet","arguments":{"name":"Ada Lovelace","colour":"red"}}}`,
	}, "\n")
	// Serve answers until its input ends. The first line of output is the
	// initialize result; print the two tool results.
	var out strings.Builder
	_ = srv.Serve(context.Background(), strings.NewReader(requests), &out)
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	for _, l := range lines[1:] {
		fmt.Fprintln(os.Stdout, l)
	}
	// Unordered output:
	// {"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"{\"text\":\"Hello, Ada! Hello, Ada! \"}"}],"structuredContent":{"text":"Hello, Ada! Hello, Ada! "}}}
	// {"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"\"name\": character ' ' at position 4 is not allowed; use letters, digits, '_' and '-'\nunknown argument \"colour\"; allowed: \"name\", \"times\""}],"isError":true,"_meta":{"io.github.stdiotools/problems":[{"kind":"out_of_range","message":"\"name\": character ' ' at position 4 is not allowed; use letters, digits, '_' and '-'","path":"name","rule":"chars"},{"kind":"unknown_argument","message":"unknown argument \"colour\"; allowed: \"name\", \"times\"","path":"colour","rule":"additionalProperties"}]}}}
}
