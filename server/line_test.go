package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stdiotools/toolserver/i18n"
)

// largeTexts are texts of every class the escaper treats apart (quotes,
// backslashes, controls, U+2028 and U+2029, invalid UTF-8, runes of two
// to four bytes), long enough to be written in pieces, with the special
// characters falling on every offset around the chunk boundaries.
func largeTexts() map[string]string {
	odd := "é\"\\\n\t\x01\u2028\u2029🙂静\xff\xe6\x97"
	return map[string]string{
		"plain":            strings.Repeat("plain ascii text ", 2*chunkSize/17),
		"escapes":          strings.Repeat("a"+odd, chunkSize/len(odd)*3),
		"offset escapes":   strings.Repeat("ab"+odd+"c", chunkSize/len(odd)*3),
		"rune at boundary": strings.Repeat("x", chunkSize-40) + strings.Repeat("🙂\u2028", 40) + strings.Repeat("y", chunkSize),
		"invalid at end":   strings.Repeat("z", 3*chunkSize) + "\xf0\x9f\x99",
		"controls only":    strings.Repeat("\x00\x1f", chunkSize),
	}
}

// writeLine writes l as stdio does, through a buffer of size bytes,
// recording each write.
func writeLine(t *testing.T, l *line, size int) ([]byte, []int) {
	t.Helper()
	var out recordingWriter
	if err := l.writeTo(&out, make([]byte, size), "", "\n"); err != nil {
		t.Fatal(err)
	}
	return out.buf.Bytes(), out.writes
}

type recordingWriter struct {
	buf    bytes.Buffer
	writes []int
}

func (w *recordingWriter) Write(p []byte) (int, error) {
	w.writes = append(w.writes, len(p))
	return w.buf.Write(p)
}

func TestLineInPiecesIsTheLineEncodedWhole(t *testing.T) {
	img := bytes.Repeat([]byte{0, 1, 2, 0xfe, 0xff}, 3*chunkSize/5+1)
	for name, text := range largeTexts() {
		for _, res := range []*CallToolResult{
			{Content: []Content{TextContent(text), TextContent("a note")}},
			{Content: []Content{ImageContent(img, "image/png"), TextContent(text)}, Meta: map[string]any{"k": "v"}},
			structured(i18n.English, "t", map[string]string{"text": text}),
		} {
			for _, si := range [][]byte{nil, []byte(`{"name":"s","version":"1"}`)} {
				want, err := appendCallResultEra(nil, json.RawMessage(`"id"`), res, si)
				if err != nil {
					t.Fatal(err)
				}
				l, err := encodeCallResult(new(framePool), json.RawMessage(`"id"`), res, si)
				if err != nil {
					t.Fatal(err)
				}
				if len(l.parts) == 0 {
					t.Fatalf("%s: a line of %d bytes was not split", name, len(want))
				}
				if n := l.len(); n != len(want) {
					t.Errorf("%s: len %d, want %d", name, n, len(want))
				}
				for _, size := range []int{chunkSize, 4099, 64, 7} {
					got, writes := writeLine(t, &l, size)
					if !bytes.Equal(got, want) {
						t.Fatalf("%s through %d bytes: the line differs from the one encoded whole at byte %d", name, size, firstDiff(got, want))
					}
					// Only a raw structuredContent goes out in one write, from
					// the result's own bytes; the frame's pieces are small.
					for i, n := range writes {
						if n > max(size, 512) && l.parts[len(l.parts)-1].kind != partRaw {
							t.Errorf("%s: write %d of %d bytes through a buffer of %d", name, i, n, size)
						}
					}
				}
			}
		}
	}
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

func TestSmallResultsAreEncodedWhole(t *testing.T) {
	l, err := encodeCallResult(new(framePool), json.RawMessage("1"), &CallToolResult{Content: []Content{TextContent(strings.Repeat("x", splitAbove/2))}}, nil)
	if err != nil || len(l.parts) != 0 {
		t.Fatalf("a result of half splitAbove has %d parts (%v)", len(l.parts), err)
	}
}

// FuzzLineInPieces holds a line written in pieces, every value of one
// byte or more a part, through a buffer of any size, to the line
// appendCallResultEra encodes whole.
func FuzzLineInPieces(f *testing.F) {
	f.Add("text \u2028\xff\"", []byte{1, 2, 3, 4}, `{"a":"b"}`, uint8(0), false)
	f.Add(strings.Repeat("é\n", 40), []byte{}, `[1,2]`, uint8(9), true)
	f.Fuzz(func(t *testing.T, text string, data []byte, raw string, size uint8, modern bool) {
		res := &CallToolResult{Content: []Content{TextContent(text), AudioContent(data, "audio/wav"), TextContent(raw)}}
		if json.Valid([]byte(raw)) {
			res.StructuredContent, res.encoded = json.RawMessage(raw), true
			var buf bytes.Buffer
			if json.Compact(&buf, []byte(raw)) != nil || buf.String() != raw {
				res.encoded = false // only compact JSON is written as it is
			}
		}
		var si []byte
		if modern {
			si = []byte(`{"name":"s"}`)
		}
		want, err := appendCallResultEra(nil, json.RawMessage("7"), res, si)
		if err != nil {
			return
		}
		l := &line{}
		if err := l.addCallResult(json.RawMessage("7"), res, si, 1); err != nil {
			t.Fatal(err)
		}
		if n := l.len(); n != len(want) {
			t.Fatalf("len %d, want %d", n, len(want))
		}
		if got, _ := writeLine(t, l, 6+int(size)); !bytes.Equal(got, want) {
			t.Fatalf("through %d bytes:\ngot  %q\nwant %q", 6+int(size), got, want)
		}
	})
}

// largeTool registers "large", which reports progress twice and returns
// the text it is given repeated n times, and "small", which echoes.
func largeTool(t *testing.T, srv *Server) {
	t.Helper()
	type in struct {
		Text string `json:"text"`
		N    int    `json:"n"`
	}
	rawTool(t, srv, ToolSpec{Name: "large", Description: "Repeats a text."}, func(_ context.Context, c *Call, args json.RawMessage) *CallToolResult {
		var a in
		if err := json.Unmarshal(args, &a); err != nil {
			return ErrorResult(err.Error())
		}
		c.Progress(1, 2, "half")
		c.Progress(2, 2, "all")
		return &CallToolResult{Content: []Content{TextContent(strings.Repeat(a.Text, a.N))}}
	})
	rawTool(t, srv, ToolSpec{Name: "small", Description: "Echoes its arguments."}, func(_ context.Context, _ *Call, args json.RawMessage) *CallToolResult {
		return &CallToolResult{Content: []Content{TextContent(string(args))}}
	})
}

// TestLargeAnswersAtOnceAreNeverInterleaved runs many calls with large
// answers and small ones at once, each large call reporting progress
// first: every line the client reads is one whole message, every answer
// carries its own call's text, and a call's progress comes before its
// answer.
func TestLargeAnswersAtOnceAreNeverInterleaved(t *testing.T) {
	srv := New(Options{Logger: nopLogger(), MaxRepeats: -1, MaxInFlight: 16})
	largeTool(t, srv)
	c := serve(t, srv)
	c.initialize()
	const calls = 40
	go func() {
		for i := range calls {
			unit := fmt.Sprintf("call %d says \"%c\" \u2028\n", i, 'a'+i%26)
			c.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"large","arguments":{"text":%q,"n":%d},"_meta":{"progressToken":%d}}}`,
				i, unit, 3*chunkSize/len(unit), i))
			c.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":"s%d","method":"tools/call","params":{"name":"small","arguments":{"i":%d}}}`, i, i))
		}
	}()
	progressed := map[float64]int{}
	answered := 0
	for answered < 2*calls {
		m := decode(t, c.recv())
		if m["method"] == "notifications/progress" {
			p := m["params"].(map[string]any)
			progressed[p["progressToken"].(float64)]++
			continue
		}
		answered++
		id, ok := m["id"].(float64)
		if !ok {
			continue // a small call
		}
		if progressed[id] != 2 {
			t.Errorf("call %v answered after %d progress notifications, want 2 before", id, progressed[id])
		}
		text := m["result"].(map[string]any)["content"].([]any)[0].(map[string]any)["text"].(string)
		unit := fmt.Sprintf("call %d says \"%c\" \u2028\n", int(id), 'a'+int(id)%26)
		if text != strings.Repeat(unit, 3*chunkSize/len(unit)) {
			t.Fatalf("call %v: the text is not the call's own", id)
		}
	}
}

// failingWriter fails every write once after bytes have passed.
type failingWriter struct {
	mu     sync.Mutex
	after  int
	buf    bytes.Buffer
	failed bool
}

func (w *failingWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.failed || w.buf.Len()+len(p) > w.after {
		w.failed = true
		return 0, errors.New("broken pipe")
	}
	return w.buf.Write(p)
}

func TestAWriteErrorMidAnswerEndsTheOutput(t *testing.T) {
	srv := New(Options{Logger: nopLogger(), MaxRepeats: -1})
	largeTool(t, srv)
	inR, inW := io.Pipe()
	out := &failingWriter{after: 100_000}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(context.Background(), inR, out) }()
	send := func(s string) {
		if _, err := io.WriteString(inW, s+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}`)
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"large","arguments":{"text":"0123456789","n":50000}}}`)
	deadline := time.Now().Add(5 * time.Second)
	for {
		out.mu.Lock()
		failed := out.failed
		out.mu.Unlock()
		if failed || time.Now().After(deadline) {
			break
		}
		time.Sleep(time.Millisecond)
	}
	send(`{"jsonrpc":"2.0","id":2,"method":"ping"}`)
	inW.Close()
	err := <-done
	if err == nil || !strings.Contains(err.Error(), "broken pipe") {
		t.Fatalf("Serve returned %v, want the write error", err)
	}
	out.mu.Lock()
	defer out.mu.Unlock()
	got := out.buf.String()
	_, answer, _ := strings.Cut(got, "\n") // after initialize's
	if !strings.HasPrefix(answer, `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"0123`) || strings.Contains(answer, `"id":2`) {
		t.Fatalf("output after the failed write: %.120q … (%d bytes)", got, len(got))
	}
}

// TestLargeAnswersOverHTTP checks a large answer as the JSON reply, with
// the length it announces, and as the SSE event after its progress.
func TestLargeAnswersOverHTTP(t *testing.T) {
	srv := New(Options{Logger: nopLogger(), MaxRepeats: -1})
	largeTool(t, srv)
	ts := httptest.NewServer(srv.HTTPHandler(HTTPOptions{}))
	t.Cleanup(ts.Close)
	unit := "line \"quoted\" \u2028 é\n"
	want, err := appendCallResult(nil, json.RawMessage("5"), &CallToolResult{Content: []Content{TextContent(strings.Repeat(unit, 20000))}})
	if err != nil {
		t.Fatal(err)
	}
	want = bytes.TrimSuffix(want, []byte("\n"))

	r := post(t, ts, "POST", `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"large","arguments":{"text":"line \"quoted\" \u2028 é\n","n":20000}}}`,
		map[string]string{"Accept": "application/json"})
	if r.status != 200 || r.header.Get("Content-Type") != "application/json" || r.header.Get("Content-Length") != strconv.Itoa(len(want)) {
		t.Fatalf("JSON reply: %d %v, want Content-Length %d", r.status, r.header, len(want))
	}
	if r.body != string(want) {
		t.Fatalf("JSON reply differs from the line encoded whole at byte %d", firstDiff([]byte(r.body), want))
	}

	r = post(t, ts, "POST", `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"large","arguments":{"text":"line \"quoted\" \u2028 é\n","n":20000},"_meta":{"progressToken":"p"}}}`, nil)
	if r.status != 200 || r.header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("SSE reply: %d %v", r.status, r.header)
	}
	events := strings.Split(strings.TrimSuffix(r.body, "\n\n"), "\n\n")
	if len(events) != 3 || !strings.Contains(events[0], "notifications/progress") || !strings.Contains(events[1], "notifications/progress") {
		t.Fatalf("want two progress events and the answer, got %d events", len(events))
	}
	if events[2] != "event: message\ndata: "+string(want) {
		t.Fatalf("the answer's event differs from the line encoded whole")
	}
}

// TestFramePoolKeepsOnlyFramesOfBoundedSize holds the frame pool at its
// bound: a frame given back is used again for a line it has room for,
// never for one it has not, and one past maxPooledFrame is not kept.
func TestFramePoolKeepsOnlyFramesOfBoundedSize(t *testing.T) {
	var fp framePool
	if b := fp.get(10); len(b) != 0 || cap(b) < 10 {
		t.Fatalf("a new frame: len %d cap %d", len(b), cap(b))
	}
	for _, tc := range []struct {
		name  string
		given int // the frame given back
		asked int
		same  bool
	}{
		{"room enough", 1024, 1000, true},
		{"exactly the room", 1024, 1024, true},
		{"a byte too few", 1024, 1025, false},
		{"at the bound", maxPooledFrame, maxPooledFrame, true},
		{"past the bound", maxPooledFrame + 1, 10, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var fp framePool
			given := make([]byte, 5, tc.given)
			fp.put(given)
			got := fp.get(tc.asked)
			if len(got) != 0 || cap(got) < tc.asked {
				t.Fatalf("got len %d cap %d for %d bytes", len(got), cap(got), tc.asked)
			}
			// sync.Pool may drop what it was given (under the race
			// detector it does so at random), so only reuse where it must
			// not happen is certain.
			if same := cap(got) == cap(given) && &got[:1][0] == &given[:1][0]; same && !tc.same {
				t.Fatalf("a frame of %d bytes was used for %d bytes", tc.given, tc.asked)
			}
		})
	}
}
