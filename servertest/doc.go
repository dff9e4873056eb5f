// Package servertest runs a [server.Server] in memory for tests, as
// net/http/httptest does for HTTP handlers. It is for people who write
// tools with this module: register your tools on a Server, start it with
// [Start], and talk to it as a client would, over in-memory pipes, with
// the handshake already done.
//
//	c := servertest.Start(t, srv)
//	res := c.CallTool("greet", map[string]any{"name": "Ada"})
//	if res.IsError { ... }
//
// Whole sessions can be kept as transcripts (see [Transcript]): the lines
// a client sends and the lines the server must answer, replayed by
// [Transcript.Run] against a [Client]. Run the tests with -update to
// rewrite the expected lines from what the server says now: servertest
// defines that flag, so a test package that imports it must not define
// its own.
//
// Tools registered with saved schemas ([server.SavedSchemas]) are held to
// their types by [CheckSavedSchemas], which with -update also writes the
// Go file that holds them.
package servertest
