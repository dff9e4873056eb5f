// Package server is a Model Context Protocol (MCP) server for tools,
// spoken as newline-delimited JSON-RPC 2.0 over a pipe: the stdio
// transport that agent hosts use to launch a tool server as a subprocess.
//
// A tool is a Go function over two plain structs. [AddTool] derives the
// JSON Schemas of the arguments and of the result from the structs' tags
// (see package schemagen), checks every call's arguments against them
// before the function runs, and turns what comes back into an MCP result.
// [Server.Serve] then runs one session:
//
//	srv := server.New(server.Options{Logger: log})
//	if err := server.AddTool(srv, server.ToolSpec{Name: "greet", Description: "Greets someone."}, greet); err != nil {
//		return err
//	}
//	return srv.Serve(ctx, os.Stdin, os.Stdout)
//
// # Errors
//
// MCP separates two kinds of failure, and so does this package. A request
// the server cannot act on (malformed JSON, an unknown method, an unknown
// tool, params that are not an object) is answered with a JSON-RPC error.
// Everything that goes wrong once a tool is chosen (invalid arguments, the
// tool's own error, a panic) is a result with isError set and a short
// sentence the model can act on; the model sees it and can correct itself.
//
// # Concurrency
//
// Protocol methods (initialize, ping, tools/list, logging/setLevel) are
// answered in arrival order by the reader. Tool calls run concurrently, up
// to [Options.MaxInFlight]; beyond that the reader stops reading until a
// call finishes, so a flood of requests costs no memory. Responses may come
// out of order; clients match them by id. notifications/cancelled cancels a
// call's context and suppresses its response.
package server
