package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/stdiotools/toolserver/security"
	"github.com/stdiotools/toolserver/server"
)

// The test binary doubles as an MCP server whose tools sleep and record
// when each call starts and ends: run as "toolagent.test -slowtools LOG",
// it serves slow_read (read-only) and slow_write on stdio and appends
// one JSON line per start and end to LOG.

// slowArgs are the arguments of both slow tools.
type slowArgs struct {
	Name string `json:"name" description:"A label for the call, recorded in the log."`
	MS   int    `json:"ms" description:"How long the call sleeps, in milliseconds." minimum:"0" maximum:"10000"`
	Fail bool   `json:"fail,omitempty" description:"Whether the call fails after its sleep."`
}

// slowResult says which call answered.
type slowResult struct {
	Name string `json:"name"`
}

// slowEvent is one line of the log.
type slowEvent struct {
	Event string    `json:"event"` // "start" or "end"
	Name  string    `json:"name"`
	Tool  string    `json:"tool"`
	At    time.Time `json:"at"`
}

// serveSlowTools serves the slow tools on stdio until stdin closes.
func serveSlowTools(logPath string) error {
	f, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	defer f.Close()
	var mu sync.Mutex
	record := func(event, tool, name string) {
		b, _ := json.Marshal(slowEvent{Event: event, Name: name, Tool: tool, At: time.Now()})
		mu.Lock()
		defer mu.Unlock()
		f.Write(append(b, '\n'))
	}
	s := server.New(server.Options{Name: "slowtools"})
	for _, spec := range []server.ToolSpec{
		{Name: "slow_read", Description: "Sleeps, then answers with its name; changes nothing.", Level: security.Read},
		{Name: "slow_write", Description: "Sleeps, then answers with its name, as a write would.", Level: security.Write, Idempotent: true},
	} {
		tool := spec.Name
		err := server.AddTool(s, spec, func(ctx context.Context, _ *server.Call, in slowArgs) (slowResult, error) {
			record("start", tool, in.Name)
			defer record("end", tool, in.Name)
			select {
			case <-time.After(time.Duration(in.MS) * time.Millisecond):
			case <-ctx.Done():
				return slowResult{}, ctx.Err()
			}
			if in.Fail {
				return slowResult{}, fmt.Errorf("%s failed, as asked", in.Name)
			}
			return slowResult{Name: in.Name}, nil
		})
		if err != nil {
			return err
		}
	}
	return s.Serve(context.Background(), os.Stdin, os.Stdout)
}

// slowLog reads the log of a slow server: the events in the order written.
func slowLog(t testing.TB, path string) []slowEvent {
	t.Helper()
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var evs []slowEvent
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var e slowEvent
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("log line %q: %v", sc.Text(), err)
		}
		evs = append(evs, e)
	}
	return evs
}

// span is when one call ran.
type span struct {
	tool        string
	start, stop time.Time
	runs        int
}

// spans gathers the log by call name.
func spans(evs []slowEvent) map[string]*span {
	out := map[string]*span{}
	for _, e := range evs {
		s := out[e.Name]
		if s == nil {
			s = &span{tool: e.Tool}
			out[e.Name] = s
		}
		if e.Event == "start" {
			s.start = e.At
			s.runs++
		} else {
			s.stop = e.At
		}
	}
	return out
}
