package main

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stdiotools/toolserver/i18n"
)

// cutModel streams, on its first request, a reply of calls cut after its
// first cut events (each call's name, then each byte of its arguments, is
// one event); every later request it answers "done". It keeps what it was
// asked.
type cutModel struct {
	calls [][2]string // name, arguments
	cut   int
	asked [][]message
}

// events is the number of events of the whole reply.
func (m *cutModel) events() int {
	n := 0
	for _, c := range m.calls {
		n += 1 + len(c[1])
	}
	return n
}

func (m *cutModel) complete(_ context.Context, msgs []message, _ []chatTool, watch func(*streamedCall)) (*reply, error) {
	m.asked = append(m.asked, slices.Clone(msgs))
	if len(m.asked) > 1 {
		return &reply{Content: "done", FinishReason: "stop"}, nil
	}
	var sse strings.Builder
	event := func(v any) {
		b, _ := json.Marshal(v)
		fmt.Fprintf(&sse, "data: %s\n\n", b)
	}
	delta := func(i int, id, name, args string) {
		fn := map[string]string{"arguments": args}
		if name != "" {
			fn["name"] = name
		}
		event(map[string]any{"choices": []any{map[string]any{"delta": map[string]any{
			"tool_calls": []any{map[string]any{"index": i, "id": id, "function": fn}}}}}})
	}
	sent := 0
	for i, c := range m.calls {
		if sent == m.cut {
			break
		}
		delta(i, fmt.Sprintf("id_%d", i+1), c[0], "")
		sent++
		for k := 0; k < len(c[1]) && sent < m.cut; k++ {
			delta(i, "", "", c[1][k:k+1])
			sent++
		}
	}
	if m.cut == m.events() {
		event(map[string]any{"choices": []any{map[string]any{"delta": map[string]any{}, "finish_reason": "tool_calls"}}})
		sse.WriteString("data: [DONE]\n\n")
	}
	return readStream(strings.NewReader(sse.String()), watch)
}

// TestEveryCutOfAReplyAnswersEachWholeCallOnceAndAsksForTheRest cuts a
// reply of four calls (a read, the same read written otherwise, a write,
// another read) after every event, down to each byte of the arguments,
// and checks the turn that follows: each call whose JSON closed before the
// cut runs once (the repeat not at all), nothing else runs, every call
// the assistant message carries is answered exactly once and in order,
// and the call the cut went through is reported, never one that ran.
func TestEveryCutOfAReplyAnswersEachWholeCallOnceAndAsksForTheRest(t *testing.T) {
	calls := [][2]string{{"look", `{"n":1}`}, {"look", `{ "n" : 1 }`}, {"put", `{"n":2}`}, {"look", `{"n":3}`}}
	total := (&cutModel{calls: calls}).events()
	for cut := 1; cut <= total; cut++ {
		e := &echoTools{}
		a := testAgent(t, e, i18n.English)
		m := &cutModel{calls: calls, cut: cut}
		a.model = m
		final, err := a.run(context.Background(), []message{{Role: "user", Content: text("go")}})
		if err != nil || final != "done" {
			t.Fatalf("cut after %d events: %q, %v", cut, final, err)
		}
		// Which calls closed, and which one the cut went through.
		whole, cutIn, sent := 0, -1, 0
		for i, c := range calls {
			if sent >= cut {
				break
			}
			sent += 1 + len(c[1])
			if sent <= cut {
				whole++
			} else {
				cutIn = i
			}
		}
		var wantRan []string
		for i, c := range calls[:whole] {
			if i != 1 { // the repeat of the first
				wantRan = append(wantRan, c[0]+" "+c[1])
			}
		}
		if !slices.Equal(e.ran, wantRan) {
			t.Errorf("cut after %d events: ran %q, want %q", cut, e.ran, wantRan)
		}
		if len(m.asked) != 2 {
			t.Fatalf("cut after %d events: %d requests, want 2", cut, len(m.asked))
		}
		msgs := m.asked[1][1:]
		var ids []string
		if whole > 0 {
			asst := msgs[0]
			for k, tc := range asst.ToolCalls {
				ids = append(ids, tc.ID)
				if ans := msgs[1+k]; ans.Role != "tool" || ans.ToolCallID != tc.ID {
					t.Errorf("cut after %d events: message %d answers %q, want %q", cut, 1+k, ans.ToolCallID, tc.ID)
				}
			}
			msgs = msgs[1+len(asst.ToolCalls):]
		}
		var wantIDs []string
		for i := range whole {
			wantIDs = append(wantIDs, fmt.Sprintf("id_%d", i+1))
		}
		if !slices.Equal(ids, wantIDs) {
			t.Errorf("cut after %d events: the assistant message carries %q, want %q", cut, ids, wantIDs)
		}
		if cutIn < 0 {
			if len(msgs) != 0 {
				t.Errorf("cut after %d events (none cut): then %d messages", cut, len(msgs))
			}
			continue
		}
		if len(msgs) != 1 || msgs[0].Role != "user" {
			t.Fatalf("cut after %d events: after the answers %d messages, want the notice", cut, len(msgs))
		}
		notice := content(msgs[0])
		if !strings.Contains(notice, fmt.Sprintf("call %d (%s)", cutIn+1, calls[cutIn][0])) {
			t.Errorf("cut after %d events: the notice does not name call %d: %q", cut, cutIn+1, notice)
		}
		if !strings.Contains(notice, "Send it again, whole, with any calls meant to follow it.") {
			t.Errorf("cut after %d events: the notice does not ask for the call and those after it: %q", cut, notice)
		}
		if said := strings.Contains(notice, "answered above"); said != (whole > 0) {
			t.Errorf("cut after %d events, %d calls run: the notice reads %q", cut, whole, notice)
		}
	}
}

func TestACallWithoutANameAmidWholeOnesIsAskedForAloneInEitherLanguage(t *testing.T) {
	noName := streamCall(1, "")
	cut := streamCall(3, "look")
	cut.add("", "", `{"n":`)
	cut.close()
	troubles := []trouble{{call: noName}, {call: cut, last: true}}
	for _, tt := range []struct {
		lang i18n.Lang
		want string
	}{
		{i18n.English, "Your call 2 did not run: it has no tool name. Send it again, whole.\n" +
			"Your call 4 (look) did not run: it was cut off at /n. Send it again, whole, with any calls meant to follow it. Its arguments so far were: {\"n\":\n" +
			"Your other calls were answered above."},
		{i18n.Chinese, "你的第 2 个调用未执行：它没有工具名称。请重新发送完整的该调用。\n" +
			"你的第 4 个调用（look）未执行：它在 /n 处被截断。请重新发送完整的该调用，以及之后原本要发送的调用。已收到的参数为：{\"n\":\n" +
			"你的其他调用已在上方答复。"},
	} {
		a := testAgent(t, &echoTools{}, tt.lang)
		if got := a.troubleNotice(troubles, true); got != tt.want {
			t.Errorf("%v: the notice reads\n%s\nwant\n%s", tt.lang, got, tt.want)
		}
	}
}
