package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

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
}

// limits are the agent's stopping rules.
type limits struct {
	// MaxSteps is the most requests to the model, retries included.
	MaxSteps int
	// ResultBudget is the most characters of one tool result given to
	// the model; the middle of a longer one is cut.
	ResultBudget int
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
	retried := false
	for step := 1; step <= a.limits.MaxSteps; step++ {
		rep, err := a.model.complete(ctx, msgs, a.offer, a.show.streaming)
		if err != nil {
			return "", err
		}
		calls, textMode, cut := a.callsIn(rep)
		if cut != "" {
			if retried {
				return "", fmt.Errorf("%w: %s", errCutTwice, cut)
			}
			retried = true
			a.show.note("the model's call was cut off (%s); asking again", cut)
			continue
		}
		retried = false
		if len(calls) == 0 {
			return strings.TrimSpace(rep.Content), nil
		}
		// A turn that only repeats calls of the turn before, with the same
		// arguments, makes no progress: the model is looping.
		turn := make(map[string]bool, len(calls))
		repeat := lastTurn != nil
		for _, c := range calls {
			key := c.Name + " " + canonical(c.Arguments())
			turn[key] = true
			repeat = repeat && lastTurn[key]
		}
		if repeat {
			return "", fmt.Errorf("%w: %s %s", errRepeat, calls[0].Name, calls[0].Arguments())
		}
		lastTurn = turn
		msgs = append(msgs, assistantMessage(rep, calls, textMode))
		var results []string
		for _, c := range calls {
			a.show.calling(c)
			res, err := a.tools.callTool(ctx, c.Name, json.RawMessage(c.Arguments()))
			if err != nil {
				return "", err
			}
			a.show.result(res)
			content := trim(res.Text, a.limits.ResultBudget)
			if res.IsError {
				content = "Error: " + content
			}
			if textMode {
				results = append(results, fmt.Sprintf("Result of %s:\n%s", c.Name, content))
				continue
			}
			msgs = append(msgs, message{Role: "tool", ToolCallID: c.ID, Content: text(content)})
		}
		if textMode {
			msgs = append(msgs, message{Role: "user", Content: text(strings.Join(results, "\n\n"))})
		}
	}
	return "", errStepLimit
}

// callsIn returns the calls of a reply: its native tool calls or, when it
// has none, the calls Extract finds in its text (textMode). cut says why
// the reply holds a call that was cut off, if it does.
func (a *agent) callsIn(rep *reply) (calls []*streamedCall, textMode bool, cut string) {
	if len(rep.Calls) > 0 {
		for i, c := range rep.Calls {
			if c.err != nil {
				return nil, false, fmt.Sprintf("call %d, %s: %v", i+1, c.Name, c.err)
			}
			if c.Name == "" {
				return nil, false, fmt.Sprintf("call %d has no name", i+1)
			}
			if c.ID == "" {
				c.ID = "call_" + strconv.Itoa(i+1)
			}
		}
		if rep.FinishReason == "length" || rep.FinishReason == "cut" {
			return nil, false, "the answer stopped at the length limit"
		}
		return rep.Calls, false, ""
	}
	res := toolcall.Extract(rep.Content)
	switch res.Kind {
	case toolcall.Incomplete:
		return nil, false, res.Reason
	case toolcall.Calls:
		for i, c := range res.Calls {
			if !a.known[c.Name] {
				continue // a JSON example in a final answer, not a call
			}
			sc := newStreamedCall()
			sc.ID, sc.Name = "text_"+strconv.Itoa(i+1), c.Name
			sc.add("", "", string(c.Arguments))
			sc.close()
			calls = append(calls, sc)
		}
		return calls, true, ""
	}
	return nil, false, ""
}

// assistantMessage is the model's turn as it goes back into the
// conversation: its text and, for native calls, the calls themselves.
func assistantMessage(rep *reply, calls []*streamedCall, textMode bool) message {
	m := message{Role: "assistant"}
	if rep.Content != "" || textMode {
		m.Content = text(rep.Content)
	}
	if textMode {
		return m
	}
	for _, c := range calls {
		m.ToolCalls = append(m.ToolCalls, toolCall{ID: c.ID, Type: "function",
			Function: functionCall{Name: c.Name, Arguments: c.Arguments()}})
	}
	return m
}

// canonical writes JSON with sorted keys and no spaces, so that two ways
// of writing the same arguments compare equal; text that is not JSON is
// returned as is.
func canonical(s string) string {
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	var v any
	if d.Decode(&v) != nil {
		return s
	}
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	if e.Encode(v) != nil {
		return s
	}
	return strings.TrimSpace(b.String())
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
