package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// subscriptionLine makes the request of one fuzzed line of a session: its
// first byte picks the method, and the rest is its params if they are a
// JSON object, or else the URI it names (with a, b and c seeded as the
// fake watches' "missing", "broken" and "slow" notes).
func subscriptionLine(id int, line string) string {
	if line == "" {
		return ""
	}
	pick, rest := line[0], line[1:]
	var params string
	var obj map[string]json.RawMessage
	if json.Unmarshal([]byte(rest), &obj) == nil && obj != nil {
		params = rest
	} else {
		uri, _ := json.Marshal("notes://n/" + rest)
		switch pick % 4 {
		case 2:
			params = `{` + modernMeta + `,"notifications":{"resourceSubscriptions":[` + string(uri) + `]}}`
		case 3:
			params = `{"requestId":` + strconv.Itoa(id-1) + `}`
		default:
			params = `{"uri":` + string(uri) + `}`
		}
	}
	switch pick % 4 {
	case 0:
		return `{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"method":"resources/subscribe","params":` + params + `}`
	case 1:
		return `{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"method":"resources/unsubscribe","params":` + params + `}`
	case 2:
		return `{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"method":"subscriptions/listen","params":` + params + `}`
	}
	return `{"jsonrpc":"2.0","method":"notifications/cancelled","params":` + params + `}`
}

// FuzzSubscriptions runs sessions of subscribes, unsubscribes, listens
// and cancellations, their params fuzzed, against a server with a bound
// of three subscriptions and watches that fail in each way (not found,
// broken, set after their timeout). Whatever the params, every request is
// answered exactly once (a listen stream at the end of the session at the
// latest), but one a cancellation named, which may go unanswered; every watch set is stopped once the session is over, and no
// place of the bound stays taken.
func FuzzSubscriptions(f *testing.F) {
	for _, seed := range []string{
		"\x00a.md\n\x00a.md\n\x01a.md\n\x02b.md\n\x03",
		"\x00missing\n\x00broken\n\x02missing\n\x02broken",
		"\x00a\n\x00b\n\x00c\n\x00d\n\x02e\n\x01a\n\x02e",
		"\x00slow\n\x02slow\n\x03",
		"\x00{\"uri\":7}\n\x01{}\n\x02{\"notifications\":{\"resourceSubscriptions\":[\"notes://n/a\",\"notes://n/a\",\"x://y\"]}}",
		"\x02{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\"},\"notifications\":{\"resourceSubscriptions\":[\"notes://n/a\",\"notes://n/b\",\"notes://n/c\"]}}\n\x03{\"requestId\":0}",
		"\x00../a\n\x00%00\n\x00\xff\n\x02\n\x00",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, input string) {
		srv, fw := watchServer(t, Options{UpdateDelay: time.Millisecond, MaxSubscriptions: 3})
		var in strings.Builder
		in.WriteString(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"f","version":"1"}}}` + "\n")
		in.WriteString(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n")
		want := map[string]bool{`"init"`: true}
		cancelled := map[string]bool{} // may go unanswered, as MCP asks
		for i, line := range strings.Split(input, "\n") {
			if len(line) > 2000 || strings.ContainsAny(line, "\r") || !utf8.ValidString(line) {
				continue // the envelope's to refuse (FuzzServe)
			}
			req := subscriptionLine(i, line)
			if req == "" {
				continue
			}
			in.WriteString(req + "\n")
			if strings.Contains(req, `"id":`+strconv.Itoa(i)+`,"method"`) {
				want[strconv.Itoa(i)] = true
			}
			var c struct {
				Method string
				Params struct{ RequestID json.RawMessage }
			}
			if json.Unmarshal([]byte(req), &c) == nil && c.Method == "notifications/cancelled" {
				cancelled[string(c.Params.RequestID)] = true
			}
		}
		var out bytes.Buffer
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		if err := srv.Serve(ctx, strings.NewReader(in.String()), &out); err != nil {
			t.Fatalf("Serve: %v", err)
		}
		got := map[string]int{}
		output := out.String()
		sc := bufio.NewScanner(&out)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var m struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
			}
			if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
				t.Fatalf("not JSON: %s", sc.Bytes())
			}
			if m.Method == "" {
				got[string(m.ID)]++
			}
		}
		for id := range want {
			if got[id] != 1 && !(cancelled[id] && got[id] == 0) {
				t.Errorf("request %s answered %d times; output:\n%s", id, got[id], output)
			}
		}
		for id, n := range got {
			if !want[id] && id != "" {
				t.Errorf("a response to %s, which no request carried (%d)", id, n)
			}
		}
		fw.waitCount(t, "", 0)
		srv.subs.mu.Lock()
		left := len(srv.subs.n)
		srv.subs.mu.Unlock()
		if left != 0 {
			t.Errorf("%d clients still hold places of the bound after the session", left)
		}
	})
}
