package main

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/stdiotools/toolserver/i18n"
)

// textModel answers its first request with text, every later one "done",
// and keeps what it was asked.
type textModel struct {
	first string
	asked [][]message
}

func (m *textModel) complete(_ context.Context, msgs []message, _ []chatTool, _ func(*streamedCall)) (*reply, error) {
	m.asked = append(m.asked, slices.Clone(msgs))
	if len(m.asked) > 1 {
		return &reply{Content: "done", FinishReason: "stop"}, nil
	}
	return &reply{Content: m.first, FinishReason: "length"}, nil
}

func TestInTextModeTheCallsBeforeACutRunAndTheModelIsToldWhereItStopped(t *testing.T) {
	e := &echoTools{}
	a := testAgent(t, e, i18n.English)
	a.known = map[string]bool{"look": true, "put": true}
	m := &textModel{first: "Looking twice.\n" + `{"name": "look", "arguments": {"n": 1}}` + "\n" + `{"name": "put", "arguments": {"n": 2`}
	a.model = m
	if final, err := a.run(context.Background(), []message{{Role: "user", Content: text("go")}}); err != nil || final != "done" {
		t.Fatalf("run: %q, %v", final, err)
	}
	if !slices.Equal(e.ran, []string{`look {"n":1}`}) {
		t.Errorf("ran %q, want the whole call before the cut and nothing else", e.ran)
	}
	msgs := m.asked[1][1:]
	if len(msgs) != 3 || msgs[0].Role != "assistant" || !strings.Contains(content(msgs[1]), "Result of look") {
		t.Fatalf("want the reply, the result and the notice: %+v", msgs)
	}
	notice := content(msgs[2])
	want := `Your call 2 (put) did not run: it was cut off at /arguments/n. Send it again, whole, with any calls meant to follow it. What arrived of it: {"name": "put", "arguments": {"n": 2`
	if msgs[2].Role != "user" || !strings.HasPrefix(notice, want) || !strings.HasSuffix(notice, "Your other calls were answered above.") {
		t.Errorf("the notice reads %q, want it to begin %q", notice, want)
	}
}

func TestATextModeReplyCutInItsFirstCallIsAskedForAgainWithWhereItStopped(t *testing.T) {
	e := &echoTools{}
	a := testAgent(t, e, i18n.Chinese)
	a.known = map[string]bool{"look": true}
	m := &textModel{first: `{"name": "look", "arguments": {"n"`}
	a.model = m
	if final, err := a.run(context.Background(), []message{{Role: "user", Content: text("go")}}); err != nil || final != "done" {
		t.Fatalf("run: %q, %v", final, err)
	}
	if len(e.ran) != 0 {
		t.Errorf("ran %q", e.ran)
	}
	msgs := m.asked[1][1:]
	if len(msgs) != 2 || content(msgs[0]) != m.first {
		t.Fatalf("want the reply and the notice: %+v", msgs)
	}
	want := `你的第 1 个调用（look）未执行：它在 /arguments/n 处被截断。请重新发送完整的该调用，以及之后原本要发送的调用。已收到的内容为：{"name": "look", "arguments": {"n"`
	if got := content(msgs[1]); got != want {
		t.Errorf("the notice reads %q, want %q", got, want)
	}
}
