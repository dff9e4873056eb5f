package servertest_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stdiotools/toolserver/security"
	"github.com/stdiotools/toolserver/server"
	"github.com/stdiotools/toolserver/servertest"
)

type shoutArgs struct {
	Text string `json:"text" chars:"text" minLength:"1" description:"What to shout."`
}

type shoutResult struct {
	Text string `json:"text" description:"The text in capitals."`
}

func newServer() *server.Server {
	srv := server.New(server.Options{})
	_ = server.AddTool(srv, server.ToolSpec{Name: "shout", Description: "Shouts the text.", Level: security.Read},
		func(ctx context.Context, call *server.Call, in shoutArgs) (shoutResult, error) {
			return shoutResult{Text: strings.ToUpper(in.Text)}, nil
		})
	return srv
}

// A test of a tool: start the server in memory, call the tool as a client
// would, read the result.
func Example() {
	t := &testing.T{} // in a real test, the *testing.T of the test
	c := servertest.Start(t, newServer())
	res := c.CallTool("shout", map[string]any{"text": "hello"})
	fmt.Println(res.Text())
	res = c.CallTool("shout", map[string]any{"txt": "hello"})
	fmt.Println(res.IsError, res.Text())
	// Output:
	// {"text":"HELLO"}
	// true missing required argument "text" (a string); add it
	// unknown argument "txt"; did you mean "text"?
}
