package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/stdiotools/toolserver/server"
)

// listTools runs `toolserver tools`: the tools as tools/list gives them,
// indented for people.
func listTools(srv *server.Server, stdout, stderr io.Writer) int {
	b, err := json.MarshalIndent(srv.Tools(), "", "  ")
	if err != nil {
		fmt.Fprintln(stderr, "toolserver tools:", err)
		return exitToolError
	}
	fmt.Fprintf(stdout, "%s\n", b)
	return exitOK
}
