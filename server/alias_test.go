package server

import (
	"context"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// TestArgumentsOutliveTheNextLine holds the reader to its promise that
// each line is read into bytes of its own: the id, the arguments'
// members and the names viewString shares point into the line, and a
// call decodes its arguments on its worker, which may run after the
// reader has read the lines that follow. The first two calls wait, before
// their arguments are decoded, until the last has reached the policies
// (so every line was read); then each answer must carry its own id and
// its own text. Short lines come out of the reader's 64 KiB buffer, long
// ones are gathered into room sized like the last long line; a reader
// that reused either fails here (checked by making it do so), while
// -race sees nothing, as the bytes change between the calls' turns.
func TestArgumentsOutliveTheNextLine(t *testing.T) {
	type in struct {
		Text string `json:"text" chars:"text" description:"Text."`
	}
	type out struct {
		Length int    `json:"length"`
		Head   string `json:"head"`
		Same   bool   `json:"same"`
	}
	for _, size := range []int{1000, 60 << 10, 200 << 10, 1 << 20} {
		t.Run(strconv.Itoa(size), func(t *testing.T) {
			var mu sync.Mutex
			arrived := map[string]chan struct{}{}
			wait := func(id string) chan struct{} {
				mu.Lock()
				defer mu.Unlock()
				if arrived[id] == nil {
					arrived[id] = make(chan struct{})
				}
				return arrived[id]
			}
			// The first two calls wait for the last: the first long line is
			// gathered in pieces, the second into room sized like the first.
			hold := func(next ToolHandler) ToolHandler {
				return func(ctx context.Context, c *Call) (*CallToolResult, error) {
					id := string(c.ID)
					close(wait(id))
					if id == "1" || id == "2" {
						select {
						case <-wait("6"):
						case <-ctx.Done():
						}
					}
					return next(ctx, c)
				}
			}
			srv := New(Options{Logger: nopLogger(), MaxRepeats: -1, MaxInFlight: 8, Policies: []Policy{hold}})
			err := AddTool(srv, ToolSpec{Name: "measure", Description: "Measures a text."},
				func(_ context.Context, _ *Call, a in) (out, error) {
					same := strings.Count(a.Text, a.Text[:1]) == len(a.Text)
					return out{Length: len(a.Text), Head: a.Text[:1], Same: same}, nil
				})
			if err != nil {
				t.Fatal(err)
			}
			c := serve(t, srv)
			c.initialize()
			letters := "abcdef"
			for i := range letters {
				c.send(`{"jsonrpc":"2.0","id":` + strconv.Itoa(i+1) + `,"method":"tools/call","params":{"name":"measure","arguments":{"text":"` +
					strings.Repeat(letters[i:i+1], size) + `"}}}`)
			}
			// Each answer carries its own id and its own call's text: the
			// id is read from the line as well, so a line overwritten
			// would show as an id answered twice.
			seen := map[int]bool{}
			for range letters {
				m := decode(t, c.recv())
				id := int(m["id"].(float64))
				if seen[id] || id < 1 || id > len(letters) {
					t.Errorf("id %d answered twice or not sent", id)
					continue
				}
				seen[id] = true
				got := m["result"].(map[string]any)["structuredContent"]
				want := map[string]any{"length": float64(size), "head": letters[id-1 : id], "same": true}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("call %d decoded %v, want %v", id, got, want)
				}
			}
		})
	}
}
