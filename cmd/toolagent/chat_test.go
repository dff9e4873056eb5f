package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stdiotools/toolserver/i18n"
)

// stream renders SSE events, one per data line.
func stream(events ...string) string {
	var b strings.Builder
	for _, e := range events {
		b.WriteString("data: " + e + "\n\n")
	}
	return b.String()
}

func callsOf(r *reply) string {
	var parts []string
	for _, c := range r.Calls {
		parts = append(parts, c.ID+":"+c.Name+c.Arguments())
	}
	return strings.Join(parts, " ")
}

func TestReadStreamToolCallDeltas(t *testing.T) {
	tests := []struct {
		name, in, want, err string
	}{
		{name: "OpenAI's deltas, two calls interleaved",
			in: stream(`{"choices":[{"delta":{"tool_calls":[{"index":0,"id":"a","function":{"name":"f","arguments":""}}]}}]}`,
				`{"choices":[{"delta":{"tool_calls":[{"index":1,"id":"b","function":{"name":"g","arguments":"{\"y\""}}]}}]}`,
				`{"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"x\":1}"}}]}}]}`,
				`{"choices":[{"delta":{"tool_calls":[{"index":1,"function":{"arguments":":2}"}}]}}]}`,
				`{"choices":[{"delta":{},"finish_reason":"tool_calls"}]}`, `[DONE]`),
			want: `a:f{"x":1} b:g{"y":2}`},
		{name: "no index: each new id is a new call",
			in: stream(`{"choices":[{"delta":{"tool_calls":[{"id":"a","function":{"name":"read_file","arguments":"{\"path\":\"a\"}"}}]}}]}`,
				`{"choices":[{"delta":{"tool_calls":[{"id":"b","function":{"name":"read_file","arguments":"{\"path\":\"b\"}"}}]}}]}`, `[DONE]`),
			want: `a:read_file{"path":"a"} b:read_file{"path":"b"}`},
		{name: "a name repeated in every delta is kept once",
			in: stream(`{"choices":[{"delta":{"tool_calls":[{"index":0,"id":"a","function":{"name":"calc","arguments":"{\"expr\""}}]}}]}`,
				`{"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"name":"calc","arguments":":\"1\"}"}}]}}]}`, `[DONE]`),
			want: `a:calc{"expr":"1"}`},
		{name: "an index the stream skipped is dropped",
			in:   stream(`{"choices":[{"delta":{"tool_calls":[{"index":1,"id":"b","function":{"name":"g","arguments":"{}"}}]}}]}`, `[DONE]`),
			want: `b:g{}`},
		{name: "a negative index is an error",
			in:  stream(`{"choices":[{"delta":{"tool_calls":[{"index":-1,"id":"a","function":{"name":"f"}}]}}]}`),
			err: "index -1"},
		{name: "a huge index is an error, not a huge allocation",
			in:  stream(`{"choices":[{"delta":{"tool_calls":[{"index":100000000,"id":"a","function":{"name":"f"}}]}}]}`),
			err: "index 100000000"},
		{name: "an error event is reported",
			in:  stream(`{"error":{"message":"overloaded"}}`),
			err: "overloaded"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep, err := readStream(strings.NewReader(tt.in), nil)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil || callsOf(rep) != tt.want {
				t.Fatalf("got %q %v, want %q", callsOf(rep), err, tt.want)
			}
		})
	}
}

func TestCompleteReadsAnAnswerThatIsNotAStream(t *testing.T) {
	tests := []struct {
		name, ctype, body, want, err string
	}{
		{name: "a whole completion", ctype: "application/json",
			body: `{"choices":[{"message":{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"calc","arguments":"{\"expr\":\"1+1\"}"}}]},"finish_reason":"tool_calls"}]}`,
			want: `c1:calc{"expr":"1+1"}`},
		{name: "an error sent with status 200", ctype: "application/json",
			body: `{"error":{"message":"Rate limit reached"}}`, err: "Rate limit reached"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", tt.ctype)
				_, _ = w.Write([]byte(tt.body))
			}))
			defer hs.Close()
			c := &chatClient{baseURL: hs.URL, model: "m", http: hs.Client()}
			rep, err := c.complete(context.Background(), nil, nil, nil)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil || callsOf(rep) != tt.want {
				t.Fatalf("got %q %v", callsOf(rep), err)
			}
		})
	}
}

func TestAStalledStreamIsGivenUp(t *testing.T) {
	release := make(chan struct{})
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = w.Write([]byte(stream(`{"choices":[{"delta":{"content":"Hel"}}]}`)))
		w.(http.Flusher).Flush()
		select { // then nothing, until the client goes away
		case <-r.Context().Done():
		case <-release:
		}
	}))
	defer hs.Close()
	defer close(release)
	c := &chatClient{baseURL: hs.URL, model: "m", http: hs.Client(), idle: 50 * time.Millisecond}
	_, err := c.complete(context.Background(), nil, nil, nil)
	if err == nil || !strings.Contains(err.Error(), "sent nothing for 50ms") {
		t.Fatalf("err = %v", err)
	}
}

func TestAServerThatIgnoresTheEndOfItsInputIsKilled(t *testing.T) {
	// A server that answers initialize, then neither reads nor exits.
	script := `read line; id=$(echo "$line" | sed 's/.*"id":\([0-9]*\).*/\1/'); ` +
		`echo '{"jsonrpc":"2.0","id":'"$id"',"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"stuck","version":"1"}}}'; ` +
		`exec sleep 60`
	c, err := startMCP(context.Background(), []string{"sh", "-c", script}, &lockedBuffer{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	c.grace = 100 * time.Millisecond
	if err := c.close(); err == nil || !strings.Contains(err.Error(), "killed it") {
		t.Fatalf("err = %v", err)
	}
}

func TestCallsAreNumberedInTheOrderTheyAppearWhateverIndexTheStreamGives(t *testing.T) {
	// Some endpoints count a text block as index 0, so the calls are 1 and 2.
	in := stream(`{"choices":[{"delta":{"content":"Reading."}}]}`,
		`{"choices":[{"delta":{"tool_calls":[{"index":1,"id":"a","function":{"name":"look","arguments":"{\"n\":1}"}}]}}]}`,
		`{"choices":[{"delta":{"tool_calls":[{"index":2,"id":"b","function":{"name":"look","arguments":"{\"n\":2}"}}]}}]}`, `[DONE]`)
	a := testAgent(t, &echoTools{}, i18n.English)
	tr := a.newTurn(context.Background(), nil)
	admitted := 0
	rep, err := readStream(strings.NewReader(in), func(c *streamedCall) {
		tr.watch(c)
		admitted = len(tr.calls)
	})
	if err != nil {
		t.Fatal(err)
	}
	// Each call started as its JSON closed, not at the end of the reply.
	if admitted != 2 {
		t.Errorf("%d calls admitted while the reply streamed, want 2", admitted)
	}
	for i, c := range rep.Calls {
		if c.Index != i {
			t.Errorf("call %q is numbered %d, want %d", c.ID, c.Index, i)
		}
	}
	tr.wait()
}
