package server_test

import (
	"bytes"
	"context"
	"io"
	"strconv"
	"testing"

	"github.com/stdiotools/toolserver/server"
	"github.com/stdiotools/toolserver/tools/calc"
)

// BenchmarkServeCalc measures the server's own work per tools/call of a
// trivial calc expression: framing, dispatch, validation, the tool, and
// encoding, without the pipes.
func BenchmarkServeCalc(b *testing.B) {
	// The same call over and over is the point here, all of them read at
	// once: the line of waiting calls holds them all, as a client's
	// pipelined calls wait rather than being answered as busy.
	srv := server.New(server.Options{MaxRepeats: -1, MaxQueued: b.N + 1, MaxQueuedBytes: 1 << 30})
	if err := calc.Register(srv); err != nil {
		b.Fatal(err)
	}
	var in bytes.Buffer
	in.WriteString(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"b","version":"1"}}}` + "\n")
	for i := range b.N {
		in.WriteString(`{"jsonrpc":"2.0","id":` + strconv.Itoa(i+1) + `,"method":"tools/call","params":{"name":"calc","arguments":{"expr":"1+1"}}}` + "\n")
	}
	b.ReportAllocs()
	b.ResetTimer()
	if err := srv.Serve(context.Background(), &in, io.Discard); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkServePing is the same for ping: the protocol core alone.
func BenchmarkServePing(b *testing.B) {
	srv := server.New(server.Options{})
	var in bytes.Buffer
	for i := range b.N {
		in.WriteString(`{"jsonrpc":"2.0","id":` + strconv.Itoa(i+1) + `,"method":"ping"}` + "\n")
	}
	b.ReportAllocs()
	b.ResetTimer()
	if err := srv.Serve(context.Background(), &in, io.Discard); err != nil {
		b.Fatal(err)
	}
}
