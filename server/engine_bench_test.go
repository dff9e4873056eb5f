package server

import (
	"context"
	"encoding/json"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/rs/zerolog"
)

// BenchmarkEngineOverhead splits the cost of one tools/call of a trivial
// echo tool into its layers, each sub-benchmark adding one:
//
//   - handler: the tool's function, called directly;
//   - stages: the three stages without any policy: arguments validated and
//     decoded, the handler run, its result encoded (what any way of
//     serving the tool must do);
//   - engine: the call as a session runs it, from a parsed request to the
//     response line: loop guard, limits, the worker pool, the timeout, the
//     cache and ordering policies, the stages, observation and the answer.
//
// engine minus stages is the execution engine's own cost.
func BenchmarkEngineOverhead(b *testing.B) {
	type echoIn struct {
		Text string `json:"text" chars:"text" description:"t"`
	}
	type echoOut struct {
		Text string `json:"text" description:"t"`
	}
	h := func(ctx context.Context, call *Call, in echoIn) (echoOut, error) { return echoOut(in), nil }
	srv := New(Options{MaxRepeats: -1})
	if err := AddTool(srv, ToolSpec{Name: "echo", Description: "d"}, h); err != nil {
		b.Fatal(err)
	}
	args := json.RawMessage(`{"text":"hi"}`)
	ctx := context.Background()

	b.Run("handler", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			if _, err := h(ctx, nil, echoIn{Text: "hi"}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("stages", func(b *testing.B) {
		t := srv.tools.byName["echo"]
		call := &Call{Tool: "echo", tool: t, args: args, srv: srv}
		b.ReportAllocs()
		for range b.N {
			call.done = false
			call.ran.Store(false) // a new call: it validates its arguments again
			res, err := t.handler(ctx, call)
			if err != nil {
				b.Fatal(err)
			}
			if line, err := appendCallResult(nil, json.RawMessage("1"), res); err != nil || res.IsError {
				b.Fatal(string(line), err)
			}
		}
	})
	b.Run("engine", func(b *testing.B) {
		st := newStream(strings.NewReader(""), io.Discard, 0, zerolog.Nop())
		s := newSession(ctx, srv, st)
		s.initialized.Store(true) // as after the handshake with a client without roots
		s.roots.once.Do(func() { close(s.roots.ready) })
		params := json.RawMessage(`{"name":"echo","arguments":{"text":"hi"}}`)
		var call envelope // the members of params, as the envelope finds them
		call.readParams(params, 0)
		ids := make([]json.RawMessage, b.N)
		keys := make([]string, b.N)
		for i := range ids {
			ids[i] = json.RawMessage(strconv.Itoa(i + 1))
			keys[i] = "n" + strconv.Itoa(i+1)
		}
		b.ReportAllocs()
		b.ResetTimer()
		for i := range b.N {
			env := call
			env.kind, env.id, env.key, env.method, env.params = kindRequest, ids[i], keys[i], "tools/call", params
			srv.startCall(&request{env: env, era: era{logLevel: -1}, out: st, sess: s, ctx: s.base, who: s.who})
			s.running.Wait()
		}
		b.StopTimer()
		s.drain(0)
	})
}
