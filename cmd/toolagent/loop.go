package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/stdiotools/toolserver/i18n"
	"github.com/stdiotools/toolserver/toolcall"
)

// model answers a conversation; chatClient is the real one.
type model interface {
	complete(ctx context.Context, msgs []message, tools []chatTool, watch func(*streamedCall)) (*reply, error)
}

// tools is the MCP server as the loop needs it.
type tools interface {
	callTool(ctx context.Context, name string, args json.RawMessage) (mcpResult, error)
}

// agent runs the loop: ask the model, run the calls it makes, give it the
// results, until it answers without a call.
type agent struct {
	model  model
	tools  tools
	offer  []chatTool // the tools as functions; empty in text mode
	known  map[string]bool
	show   *progress
	limits limits
	// safe holds the tools that may run in parallel and before the reply
	// ends: those with readOnlyHint, and those named by --safe-tools.
	safe map[string]bool
	// schemas holds each tool's compiled input schema, for checking its
	// calls while they stream.
	schemas map[string]*toolcall.Schema
	// warnOnly runs a call whose arguments break its schema, rather than
	// answering it with what to fix (--check warn).
	warnOnly bool
	lang     i18n.Lang
}

// limits are the agent's stopping rules.
type limits struct {
	// MaxSteps is the most requests to the model, retries included.
	MaxSteps int
	// ResultBudget is the most characters of one tool result given to
	// the model; the middle of a longer one is cut.
	ResultBudget int
	// Parallel is the most calls of a turn that run at once.
	Parallel int
}

// Errors that stop the loop.
var (
	errStepLimit = errors.New("the step limit was reached before the model gave a final answer")
	errRepeat    = errors.New("the model repeated its last calls with the same arguments")
	errCutTwice  = errors.New("the model's tool call was cut off twice in a row")
)

// run drives the conversation that msgs begins and returns the model's
// final answer.
func (a *agent) run(ctx context.Context, msgs []message) (string, error) {
	var lastTurn map[string]bool // the calls of the previous turn
	cutBefore := false           // the last reply was cut off with nothing to run
	for step := 1; step <= a.limits.MaxSteps; step++ {
		t := a.newTurn(ctx, lastTurn)
		rep, err := a.model.complete(ctx, msgs, a.offer, t.watch)
		if err != nil {
			t.abort()
			return "", err
		}
		calls, troubles, textMode := a.callsIn(rep)
		if len(calls) == 0 && len(troubles) > 0 {
			t.abort()
			a.show.turnDone()
			cut := troubles[0].why
			if cutBefore {
				return "", fmt.Errorf("%w: %s", errCutTwice, cut)
			}
			cutBefore = true
			a.show.note("the model's call was cut off (%s); asking again", cut)
			if rep.Content != "" {
				msgs = append(msgs, message{Role: "assistant", Content: text(rep.Content)})
			}
			msgs = append(msgs, message{Role: "user", Content: text(a.troubleNotice(troubles, false))})
			continue
		}
		cutBefore = false
		if len(calls) == 0 {
			t.abort()
			a.show.turnDone()
			return strings.TrimSpace(rep.Content), nil
		}
		t.admitRest(calls)
		// A turn that only repeats calls of the turn before, with the same
		// arguments, makes no progress: the model is looping. Its repeats
		// were held back, so nothing of it has run.
		turnKeys := make(map[string]bool, len(t.calls))
		repeat := lastTurn != nil && len(troubles) == 0
		for _, tc := range t.calls {
			turnKeys[tc.key] = true
			repeat = repeat && lastTurn[tc.key]
		}
		if repeat {
			t.abort()
			return "", fmt.Errorf("%w: %s %s", errRepeat, t.calls[0].name, t.calls[0].args)
		}
		lastTurn = turnKeys
		t.wait()
		a.show.turnDone()
		if err := t.failed(); err != nil {
			return "", err
		}
		msgs = append(msgs, a.answers(t, rep, textMode)...)
		if len(troubles) > 0 {
			a.show.note("%s; the calls before it ran, and the model is asked to send it again", troubles[0].why)
			msgs = append(msgs, message{Role: "user", Content: text(a.troubleNotice(troubles, true))})
		}
	}
	return "", errStepLimit
}

// answers are the messages that carry a turn back to the model: the
// model's own turn, then the answer of each call in the model's order.
func (a *agent) answers(t *turn, rep *reply, textMode bool) []message {
	m := message{Role: "assistant"}
	if rep.Content != "" || textMode {
		m.Content = text(rep.Content)
	}
	if textMode {
		var results []string
		for _, tc := range t.calls {
			results = append(results, a.msg(msgTextResult, tc.name)+"\n"+t.answer(tc))
		}
		return []message{m, {Role: "user", Content: text(strings.Join(results, "\n\n"))}}
	}
	out := []message{m}
	for _, tc := range t.calls {
		m.ToolCalls = append(m.ToolCalls, toolCall{ID: tc.id, Type: "function",
			Function: functionCall{Name: tc.name, Arguments: tc.args}})
		out = append(out, message{Role: "tool", ToolCallID: tc.id, Content: text(t.answer(tc))})
	}
	out[0] = m
	return out
}

// trouble is a call of a reply that cannot run: cut off, not JSON, or
// without a name.
type trouble struct {
	call *streamedCall
	why  string // for the terminal
	// last is set for the call a cut-off reply ended in: the calls meant
	// to follow it never came.
	last bool
	// text is set for a call written in the text (--text-tools): call
	// holds the whole call as written, and its paths start at the call.
	text bool
}

// callsIn returns the calls of a reply that can run, in order: its native
// tool calls whose JSON is whole or, when it has none, the calls Extract
// finds in its text (textMode). troubles are the calls that cannot run:
// native ones cut off, not JSON or without a name, or the call a text-mode
// reply was cut in (the whole ones before it run, as native ones do).
func (a *agent) callsIn(rep *reply) (calls []*streamedCall, troubles []trouble, textMode bool) {
	if len(rep.Calls) > 0 {
		ended := rep.FinishReason != "length" && rep.FinishReason != "cut"
		for i, c := range rep.Calls {
			last := i == len(rep.Calls)-1
			if c.ID == "" {
				c.ID = "call_" + strconv.Itoa(c.Index+1)
			}
			noArgs := !c.whole && c.err == nil && strings.TrimSpace(c.args.String()) == ""
			switch {
			case c.Name == "":
				troubles = append(troubles, trouble{call: c, why: fmt.Sprintf("call %d has no name", i+1), last: last && !ended})
			case c.whole || (noArgs && ended):
				calls = append(calls, c)
			default:
				why := "the answer stopped at the length limit"
				if c.err != nil {
					why = c.err.Error()
				}
				troubles = append(troubles, trouble{call: c, why: fmt.Sprintf("call %d, %s: %s", i+1, c.Name, why), last: last && !ended})
			}
		}
		return calls, troubles, false
	}
	res := toolcall.Extract(rep.Content)
	switch res.Kind {
	case toolcall.Incomplete:
		// The whole calls before the cut run, as native ones do; the one
		// cut off is reported with where it stopped.
		calls = a.textCalls(res.Calls)
		return calls, []trouble{textTrouble(res, len(res.Calls))}, true
	case toolcall.Calls:
		return a.textCalls(res.Calls), nil, true
	}
	return nil, nil, false
}

// textCalls are the calls Extract found in a reply's text, those of known
// tools: JSON naming no tool of the server is an example, not a call.
func (a *agent) textCalls(found []toolcall.Call) []*streamedCall {
	var calls []*streamedCall
	for i, c := range found {
		if !a.known[c.Name] {
			continue
		}
		sc := newStreamedCall()
		sc.ID, sc.Name, sc.Index = "text_"+strconv.Itoa(i+1), c.Name, i
		sc.add("", "", string(c.Arguments))
		sc.close()
		calls = append(calls, sc)
	}
	return calls
}

// textTrouble is the call a text-mode reply was cut in, or that is not a
// whole call, at index: its raw text goes through the parser, which says
// where it stopped, and gives its tool's name if that arrived.
func textTrouble(res toolcall.Result, index int) trouble {
	sc := newStreamedCall()
	sc.Index = index
	sc.watch = func(e toolcall.Event) {
		if e.Kind != toolcall.Value || (e.Path != "/name" && e.Path != "/tool" && e.Path != "/function/name") {
			return
		}
		var name string
		if json.Unmarshal(e.Value, &name) == nil && sc.Name == "" {
			sc.Name = name
		}
	}
	sc.add("", "", res.Partial)
	sc.close()
	return trouble{call: sc, why: res.Reason, last: true, text: true}
}

// trim keeps a tool result within budget characters: the head and the
// tail, with a note of what was cut between them.
func trim(s string, budget int) string {
	n := utf8.RuneCountInString(s)
	if budget <= 0 || n <= budget {
		return s
	}
	head := budget * 2 / 3
	tail := budget - head
	return s[:runeOffset(s, head)] + fmt.Sprintf("\n[… %d characters cut …]\n", n-head-tail) + s[runeOffset(s, n-tail):]
}

// runeOffset is the byte offset of the k-th character of s.
func runeOffset(s string, k int) int {
	for i := range s {
		if k == 0 {
			return i
		}
		k--
	}
	return len(s)
}
