package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
)

func TestBadLinesAreAnsweredAndTheSessionGoesOn(t *testing.T) {
	cases := []struct {
		name string
		in   string
		want string
	}{
		{"malformed JSON is a parse error without an id",
			`{"jsonrpc":"2.0","id":1,"method":"ping"`,
			`{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error: the message is not valid JSON (it ends after 39 bytes, before the value is complete)"}}`},
		{"a stray character is a parse error at its offset",
			`{"jsonrpc":"2.0",'id':1}`,
			`{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error: the message is not valid JSON (byte offset 18: invalid character '\\'' looking for beginning of object key string)"}}`},
		{"invalid UTF-8 is refused with its offset",
			"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"p\xffing\"}",
			`{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error: the message is not valid UTF-8 (bad byte at offset 35); send UTF-8 text"}}`},
		{"a batch is refused",
			`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`,
			`{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request: batches are not supported; send one JSON-RPC message per line"}}`},
		{"a string is not a message",
			`"ping"`,
			`{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request: a message must be a JSON object, got a string"}}`},
		{"a number is not a message",
			`42`,
			`{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request: a message must be a JSON object, got a number"}}`},
		{"a missing jsonrpc member is refused with the id",
			`{"id":7,"method":"ping"}`,
			`{"jsonrpc":"2.0","id":7,"error":{"code":-32600,"message":"Invalid Request: the \"jsonrpc\" member is missing; add \"jsonrpc\":\"2.0\""}}`},
		{"a wrong jsonrpc version is refused",
			`{"jsonrpc":"1.0","id":7,"method":"ping"}`,
			`{"jsonrpc":"2.0","id":7,"error":{"code":-32600,"message":"Invalid Request: \"jsonrpc\" must be \"2.0\", got \"1.0\""}}`},
		{"jsonrpc as a number is refused",
			`{"jsonrpc":2.0,"id":7,"method":"ping"}`,
			`{"jsonrpc":"2.0","id":7,"error":{"code":-32600,"message":"Invalid Request: \"jsonrpc\" must be \"2.0\", got 2.0"}}`},
		{"member names are case-sensitive",
			`{"jsonrpc":"2.0","ID":7,"Method":"ping"}`,
			`{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request: the \"method\" member is missing; every request needs a method name"}}`},
		{"a missing method is refused",
			`{"jsonrpc":"2.0","id":"a"}`,
			`{"jsonrpc":"2.0","id":"a","error":{"code":-32600,"message":"Invalid Request: the \"method\" member is missing; every request needs a method name"}}`},
		{"a method that is not a string is refused",
			`{"jsonrpc":"2.0","id":1,"method":5}`,
			`{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"Invalid Request: \"method\" must be a string, got a number"}}`},
		{"a null id is refused",
			`{"jsonrpc":"2.0","id":null,"method":"ping"}`,
			`{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request: \"id\" must not be null; use a string or a non-negative integer"}}`},
		{"a fractional id is refused",
			`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`,
			`{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request: \"id\" must be an integer without fraction or exponent, got 1.5; use a string or a non-negative integer"}}`},
		{"an id with an exponent is refused",
			`{"jsonrpc":"2.0","id":1e3,"method":"ping"}`,
			`{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request: \"id\" must be an integer without fraction or exponent, got 1e3; use a string or a non-negative integer"}}`},
		{"a negative id is refused",
			`{"jsonrpc":"2.0","id":-1,"method":"ping"}`,
			`{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request: \"id\" must not be negative, got -1; use a string or a non-negative integer"}}`},
		{"a boolean id is refused",
			`{"jsonrpc":"2.0","id":true,"method":"ping"}`,
			`{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request: \"id\" must not be a boolean; use a string or a non-negative integer"}}`},
		{"an object id is refused",
			`{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`,
			`{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request: \"id\" must not be an object; use a string or a non-negative integer"}}`},
		{"an array id is refused",
			`{"jsonrpc":"2.0","id":[1],"method":"ping"}`,
			`{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request: \"id\" must not be an array; use a string or a non-negative integer"}}`},
		{"a duplicated member is refused",
			`{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}`,
			`{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request: member \"id\" appears twice; send it once"}}`},
		{"params that are not an object are invalid params",
			`{"jsonrpc":"2.0","id":3,"method":"ping","params":[1]}`,
			`{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"Invalid params: \"params\" must be a JSON object, got an array"}}`},
		{"a message both request and response is refused",
			`{"jsonrpc":"2.0","id":3,"method":"ping","result":{}}`,
			`{"jsonrpc":"2.0","id":3,"error":{"code":-32600,"message":"Invalid Request: a request must not carry \"result\" or \"error\""}}`},
		{"an id of zero comes back as zero",
			`{"jsonrpc":"2.0","id":0,"method":"ping"}`,
			`{"jsonrpc":"2.0","id":0,"result":{}}`},
		{"an id above 2^64 comes back digit for digit",
			`{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"ping"}`,
			`{"jsonrpc":"2.0","id":123456789012345678901234567890,"result":{}}`},
		{"an id above 2^53 comes back digit for digit",
			`{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}`,
			`{"jsonrpc":"2.0","id":9007199254740993,"result":{}}`},
		{"a string id comes back as sent, escapes included",
			`{"jsonrpc":"2.0","id":"a\u00e9\"b","method":"ping"}`,
			`{"jsonrpc":"2.0","id":"a\u00e9\"b","result":{}}`},
		{"a string id that looks like a number stays a string",
			`{"jsonrpc":"2.0","id":"0","method":"ping"}`,
			`{"jsonrpc":"2.0","id":"0","result":{}}`},
		{"white space around the message is allowed",
			"  {\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"ping\"} \r",
			`{"jsonrpc":"2.0","id":5,"result":{}}`},
		{"unknown members are ignored",
			`{"jsonrpc":"2.0","id":5,"method":"ping","extra":{"x":[1,"}"]}}`,
			`{"jsonrpc":"2.0","id":5,"result":{}}`},
		{"null params count as none",
			`{"jsonrpc":"2.0","id":5,"method":"ping","params":null}`,
			`{"jsonrpc":"2.0","id":5,"result":{}}`},
	}
	c := serve(t, New(Options{}))
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c.t = t
			c.send(tc.in)
			if got := c.recv(); got != tc.want {
				t.Errorf("\n got  %s\n want %s", got, tc.want)
			}
			c.quiet() // the session is still alive and nothing else was written
		})
	}
}

func TestOverLongLinesAreDiscardedAndNamed(t *testing.T) {
	c := serve(t, New(Options{MaxMessageBytes: 100}))
	long := `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"` + strings.Repeat("x", 200_000) + `"}}`
	c.send(long)
	want := `{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request: the message is longer than the limit of 100 bytes (--max-message-bytes) and was discarded"}}`
	if got := c.recv(); got != want {
		t.Fatalf("got %s", got)
	}
	head, tail := `{"jsonrpc":"2.0","id":2,"method":"ping","params":{"pad":"`, `"}}`
	exact := head + strings.Repeat("y", 100-len(head)-len(tail)) + tail
	if len(exact) != 100 {
		t.Fatalf("test line is %d bytes", len(exact))
	}
	c.send(exact)
	if got := c.recv(); got != `{"jsonrpc":"2.0","id":2,"result":{}}` {
		t.Fatalf("a line of exactly the limit was refused: %s", got)
	}
	c.send(exact[:99] + ` }`)
	if got := c.recv(); !strings.Contains(got, "longer than the limit") {
		t.Fatalf("a line one byte over the limit was accepted: %s", got)
	}
	c.quiet()
}

func TestReadLineDoesNotBufferAnOverLongLine(t *testing.T) {
	// A 64 MiB line against a 1 KiB limit: the reader must keep only its
	// own buffer, never the line.
	line := bytes.Repeat([]byte("z"), 64<<20)
	line = append(line, "\n{}\n"...)
	s := newStream(bytes.NewReader(line), &bytes.Buffer{}, 1024, nopLogger())
	if _, err := s.readLine(); err != errTooLong {
		t.Fatalf("got %v, want errTooLong", err)
	}
	got, err := s.readLine()
	if err != nil || string(got) != "{}" {
		t.Fatalf("next line = %q, %v", got, err)
	}
	if s.r.Size() > 64<<10 {
		t.Fatalf("reader grew to %d bytes", s.r.Size())
	}
}

func TestReadLineReadsLongLinesOfEverySizeInTurn(t *testing.T) {
	// Each long line is read into room as long as the one before, and an
	// eighth: lines shorter than that, as long, longer, over the limit
	// after a guess, and short ones in between must all come out whole.
	const limit = 1 << 20
	sizes := []int{200_000, 150_000, 300_000, 330_000, 400_000, limit + 1, 500_000, 10, 70_000, 65_536, 65_537, limit}
	var in bytes.Buffer
	var want []string
	for i, n := range sizes {
		line := bytes.Repeat([]byte{byte('a' + i)}, n)
		copy(line, fmt.Sprintf("line %d of %d bytes:", i, n))
		end := "\n"
		if i%2 == 1 {
			end = "\r\n"
		}
		in.Write(line)
		in.WriteString(end)
		want = append(want, string(line))
	}
	s := newStream(&in, &bytes.Buffer{}, limit, nopLogger())
	for i, n := range sizes {
		got, err := s.readLine()
		if n > limit {
			if err != errTooLong {
				t.Fatalf("line %d of %d bytes: %v, want errTooLong", i, n, err)
			}
			continue
		}
		if err != nil || string(got) != want[i] {
			t.Fatalf("line %d of %d bytes: read %d bytes (%v), not the line", i, n, len(got), err)
		}
	}
	if got, err := s.readLine(); len(got) != 0 || err != io.EOF {
		t.Fatalf("after the lines: %q, %v", got, err)
	}
}

func TestResponsesFromTheClientAreNotAnswered(t *testing.T) {
	c := serve(t, New(Options{}))
	for _, l := range []string{
		`{"jsonrpc":"2.0","id":99,"result":{}}`,
		`{"jsonrpc":"2.0","id":"x","error":{"code":1,"message":"no"}}`,
		`{"jsonrpc":"2.0","id":123456789012345678901234567890,"result":{}}`,
	} {
		c.send(l)
	}
	c.quiet()
}

func TestNotificationsNeverGetAResponse(t *testing.T) {
	c := serve(t, New(Options{}))
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	c.send(`{"jsonrpc":"2.0","method":"notifications/whatever","params":{"a":1}}`)
	c.send(`{"jsonrpc":"2.0","method":"tools/list"}`)
	c.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":12345}}`)
	c.quiet()
}

func TestBlankLinesAreSkipped(t *testing.T) {
	c := serve(t, New(Options{}))
	c.send("")
	c.send("   \t")
	c.quiet()
}

func TestEveryLineIsOneMessage(t *testing.T) {
	// A result whose text holds newlines and HTML stays on one line and
	// keeps <, > and & as they are.
	srv := New(Options{})
	rawTool(t, srv, ToolSpec{Name: "nl", Description: "writes lines"}, func(ctx context.Context, call *Call, args json.RawMessage) *CallToolResult {
		return &CallToolResult{Content: []Content{TextContent("a\nb\r\n<c> & \u2028")}}
	})
	c := serve(t, srv)
	c.initialize()
	c.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"nl"}}`)
	got := c.recv()
	want := `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"a\nb\r\n<c> & \u2028"}]}}`
	if got != want {
		t.Fatalf("\n got  %s\n want %s", got, want)
	}
}

func ExampleServer_Serve() {
	in := strings.NewReader("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\nnot json\n")
	var out bytes.Buffer
	srv := New(Options{})
	_ = srv.Serve(context.Background(), in, &out)
	fmt.Print(out.String())
	// Output:
	// {"jsonrpc":"2.0","id":1,"result":{}}
	// {"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error: the message is not valid JSON (byte offset 2: invalid character 'o' in literal null (expecting 'u'))"}}
}
