package server_test

import (
	"bytes"
	"context"
	"encoding/json"
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
	srv := server.New(server.Options{MaxRepeats: -1}) // the same call over and over is the point here
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

type echoArgs struct {
	Text string `json:"text" chars:"text" description:"t"`
}

type echoOut struct {
	Text string `json:"text" description:"t"`
}

// BenchmarkEngine compares a trivial handler called directly with the same
// handler called through the engine (validation, timeout, retry loop,
// result encoding) by CallTool: the difference is the engine's cost.
func BenchmarkEngine(b *testing.B) {
	h := func(ctx context.Context, call *server.Call, in echoArgs) (echoOut, error) {
		return echoOut(in), nil
	}
	b.Run("handler", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			if _, err := h(context.Background(), nil, echoArgs{Text: "hi"}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("engine", func(b *testing.B) {
		srv := server.New(server.Options{})
		if err := server.AddTool(srv, server.ToolSpec{Name: "echo", Description: "d"}, h); err != nil {
			b.Fatal(err)
		}
		args := json.RawMessage(`{"text":"hi"}`)
		b.ReportAllocs()
		for range b.N {
			if res, err := srv.CallTool(context.Background(), "echo", args); err != nil || res.IsError {
				b.Fatal(err, res)
			}
		}
	})
}
