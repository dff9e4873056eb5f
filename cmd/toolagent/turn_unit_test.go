package main

import (
	"context"
	"encoding/json"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/stdiotools/toolserver/i18n"
	"github.com/stdiotools/toolserver/toolcall"
)

// echoTools answers every call with its arguments and keeps what it ran.
type echoTools struct {
	mu  sync.Mutex
	ran []string
}

func (e *echoTools) callTool(_ context.Context, name string, args json.RawMessage) (mcpResult, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.ran = append(e.ran, name+" "+string(args))
	return mcpResult{Text: "ran " + string(args)}, nil
}

// testAgent is an agent over tools with one safe tool, "look", and one
// that writes, "put", both taking {"n": integer}.
func testAgent(t *testing.T, tools tools, lang i18n.Lang) *agent {
	t.Helper()
	s, err := toolcall.CompileSchema([]byte(`{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"],"additionalProperties":false}`))
	if err != nil {
		t.Fatal(err)
	}
	return &agent{tools: tools, show: &progress{w: io.Discard, lang: lang}, lang: lang,
		safe: map[string]bool{"look": true}, schemas: map[string]*toolcall.Schema{"look": s, "put": s},
		limits: limits{MaxSteps: 3, ResultBudget: 1000, Parallel: 2}}
}

// streamCall makes a call of a reply at index i.
func streamCall(i int, name string) *streamedCall {
	c := newStreamedCall()
	c.Index = i
	c.add("call_"+name, name, "")
	return c
}

func TestACallThatClosesFirstWaitsForTheCallsBeforeIt(t *testing.T) {
	a := testAgent(t, &echoTools{}, i18n.English)
	tr := a.newTurn(context.Background(), nil)
	first, second := streamCall(0, "look"), streamCall(1, "look")
	tr.watch(first)
	first.add("", "", `{"n": `)
	tr.watch(first)
	second.add("", "", `{"n": 2}`)
	tr.watch(second)
	if len(tr.calls) != 0 {
		t.Fatalf("the second call was admitted before the first closed: %d admitted", len(tr.calls))
	}
	first.add("", "", `1}`)
	tr.watch(first)
	if len(tr.calls) != 2 || tr.calls[0].index != 0 || tr.calls[1].index != 1 {
		t.Fatalf("admitted %d calls, want both in order", len(tr.calls))
	}
	tr.wait()
	if got := tr.answer(tr.calls[0]) + " | " + tr.answer(tr.calls[1]); got != `ran {"n": 1} | ran {"n": 2}` {
		t.Errorf("answers: %s", got)
	}
}

func TestTheAgentsOwnMessagesComeInChinese(t *testing.T) {
	a := testAgent(t, &echoTools{}, i18n.Chinese)
	tr := a.newTurn(context.Background(), nil)
	for i, args := range []string{`{"n": 1}`, `{ "n" : 1 }`, `{"n": "one"}`} {
		c := streamCall(i, "look")
		tr.watch(c)
		c.add("", "", args)
		tr.watch(c)
	}
	tr.wait()
	if got := tr.answer(tr.calls[1]); !strings.HasPrefix(got, "与 call_look 的调用相同，只执行了一次；其结果：\n") {
		t.Errorf("the repeat reads %q", got)
	}
	if got := tr.answer(tr.calls[2]); got != "未执行：参数不符合 look 的模式。/n：需要整数，却给了字符串。请修正后再调用。" {
		t.Errorf("the refusal reads %q", got)
	}
}

func TestUnsafeToolsAreBarriersAndSafeOnesAreNot(t *testing.T) {
	e := &echoTools{}
	a := testAgent(t, e, i18n.English)
	tr := a.newTurn(context.Background(), nil)
	for i, name := range []string{"look", "put", "look", "nope"} {
		c := streamCall(i, name)
		tr.watch(c)
		c.add("", "", `{"n": `+string(rune('1'+i))+`}`)
		tr.watch(c)
	}
	c := tr.calls
	if c[0].write || c[0].hold || len(c[0].deps) != 0 {
		t.Errorf("the first read must start at once: %+v", c[0])
	}
	if !c[1].write || !c[1].hold || len(c[1].deps) != 1 || c[1].deps[0] != c[0] {
		t.Errorf("the write must wait for the read and the reply's end: %+v", c[1])
	}
	if c[2].write || len(c[2].deps) != 1 || c[2].deps[0] != c[1] {
		t.Errorf("the read after the write must wait for it: %+v", c[2])
	}
	if !c[3].write || len(c[3].deps) != 2 || c[3].deps[0] != c[2] || c[3].deps[1] != c[1] {
		t.Errorf("a tool not known to be safe is a barrier: %+v", c[3])
	}
	tr.wait()
	if len(e.ran) != 4 || e.ran[1] != `put {"n": 2}` || e.ran[3] != `nope {"n": 4}` {
		t.Errorf("ran %q", e.ran)
	}
}

func TestTheLiveBlockShowsEachCallRunningWaitingOrDone(t *testing.T) {
	var b strings.Builder
	p := &progress{w: &b, live: true}
	read := &turnCall{index: 0, line: `look(n=1)`}
	write := &turnCall{index: 1, line: `put(n=2)`}
	p.admitted(read, false)
	p.running(read)
	p.admitted(write, true)
	read.res = mcpResult{Text: "ran\nwell"}
	p.finished(read)
	p.note("a note")
	got := b.String()
	// The last drawing, after the note: both lines, the first one done.
	want := "\x1b[2F\x1b[J· a note\n\x1b[J[1] ✓ look(n=1)  0s: ran\\nwell\n[2] · put(n=2)  waiting\n"
	if !strings.HasSuffix(got, want) {
		t.Errorf("the block ends %q, want %q", got[max(0, len(got)-len(want)-20):], want)
	}
	if !strings.Contains(got, "[1] → look(n=1)  running\n[2] · put(n=2)  waiting\n") {
		t.Errorf("no drawing shows the read running and the write waiting: %q", got)
	}
}
