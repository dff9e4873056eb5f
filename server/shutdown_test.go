package server

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"
)

// afterWriter counts the writes that come after it is told Serve returned.
type afterWriter struct {
	mu     sync.Mutex
	b      bytes.Buffer
	served bool
	late   int
}

func (w *afterWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.served {
		w.late++
	}
	return w.b.Write(p)
}

// TestCallsArrivingDuringShutdownAreTurnedAway stops a session by its
// context while the client keeps sending calls: the calls that arrive
// once the server is draining get an error instead of starting (they used
// to start unwaited, racing the wait for the running ones), and nothing is
// written after Serve returns, not even by a tool that ignores
// cancellation.
func TestCallsArrivingDuringShutdownAreTurnedAway(t *testing.T) {
	srv := New(Options{ShutdownGrace: 20 * time.Millisecond, MaxInFlight: 4, MaxRepeats: -1})
	_ = AddTool(srv, ToolSpec{Name: "stubborn", Description: "d"}, func(ctx context.Context, call *Call, in readArgs) (writeOut, error) {
		time.Sleep(15 * time.Millisecond) // ignores ctx, like a tool inside a system call
		return writeOut{Tag: in.Path}, nil
	})
	r, w := io.Pipe()
	out := &afterWriter{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, r, out) }()
	fmt.Fprintln(w, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`)
	sent := make(chan struct{})
	go func() {
		defer close(sent)
		for i := 1; ; i++ {
			if _, err := fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"stubborn","arguments":{"path":"p%d"}}}`+"\n", i, i); err != nil {
				return
			}
		}
	}()
	time.Sleep(30 * time.Millisecond)
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	out.mu.Lock()
	out.served = true
	text := out.b.String()
	out.mu.Unlock()
	time.Sleep(40 * time.Millisecond) // longer than a stubborn call
	w.Close()
	<-sent
	out.mu.Lock()
	defer out.mu.Unlock()
	if out.late != 0 {
		t.Errorf("%d writes after Serve returned", out.late)
	}
	if !strings.Contains(text, "shutting down") {
		t.Errorf("no call was turned away while draining:\n%.2000s", text)
	}
}
