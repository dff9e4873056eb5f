package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// message is one message of an OpenAI-compatible chat.
type message struct {
	Role       string     `json:"role"`
	Content    *string    `json:"content"` // null for an assistant message with only tool calls
	ToolCalls  []toolCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
}

// text returns a message content pointer for s.
func text(s string) *string { return &s }

// toolCall is a call of a function by the model.
type toolCall struct {
	ID       string       `json:"id"`
	Type     string       `json:"type"` // "function"
	Function functionCall `json:"function"`
}

// functionCall names the function and carries its arguments as a JSON
// text, as the API does.
type functionCall struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// chatTool offers one MCP tool to the model as a function.
type chatTool struct {
	Type     string       `json:"type"` // "function"
	Function chatFunction `json:"function"`
}

type chatFunction struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters"`
}

// chatRequest is the body of POST /chat/completions.
type chatRequest struct {
	Model    string     `json:"model"`
	Messages []message  `json:"messages"`
	Tools    []chatTool `json:"tools,omitempty"`
	Stream   bool       `json:"stream"`
}

// reply is the model's answer to one request, assembled from its stream.
type reply struct {
	Content      string
	Calls        []*streamedCall
	FinishReason string
	// byIndex finds a streamed call by the index its deltas give.
	byIndex map[int]*streamedCall
}

// chatClient talks to an OpenAI-compatible endpoint.
type chatClient struct {
	baseURL, apiKey, model string
	http                   *http.Client
	// idle is how long the endpoint may send nothing, before its answer
	// and within its stream; default 2 minutes.
	idle time.Duration
}

func (c *chatClient) idleTimeout() time.Duration {
	if c.idle > 0 {
		return c.idle
	}
	return 2 * time.Minute
}

// idleReader restarts timer, which gives the request up, at every read
// that brings bytes.
type idleReader struct {
	r     io.Reader
	timer *time.Timer
	d     time.Duration
}

func (i *idleReader) Read(p []byte) (int, error) {
	n, err := i.r.Read(p)
	if n > 0 && i.d > 0 {
		i.timer.Reset(i.d)
	}
	return n, err
}

// complete sends the conversation and reads the streamed answer. Each
// piece of a tool call's arguments goes to the call's incremental parser
// as it arrives, and watch sees the call after every piece, and before
// the first piece of its arguments.
func (c *chatClient) complete(ctx context.Context, msgs []message, tools []chatTool, watch func(*streamedCall)) (*reply, error) {
	body, err := json.Marshal(chatRequest{Model: c.model, Messages: msgs, Tools: tools, Stream: true})
	if err != nil {
		return nil, fmt.Errorf("encoding the request: %w", err)
	}
	url := strings.TrimSuffix(c.baseURL, "/") + "/chat/completions"
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("the model endpoint %q: %w", c.baseURL, err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	if c.apiKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.apiKey)
	}
	// A stream that stops sending for IdleTimeout is given up: the
	// request's context is cancelled, which ends the read that waits.
	parent := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	req = req.WithContext(ctx)
	idle := time.AfterFunc(c.idleTimeout(), cancel)
	defer idle.Stop()
	resp, err := c.http.Do(req)
	if err != nil {
		if !idle.Stop() {
			return nil, fmt.Errorf("asking the model: no answer within %v", c.idleTimeout())
		}
		return nil, fmt.Errorf("asking the model: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 2048))
		return nil, fmt.Errorf("the model endpoint answered %s: %s", resp.Status, apiError(b))
	}
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
		// Some endpoints ignore stream: true and answer in one piece; an
		// error may come this way too.
		b, err := io.ReadAll(io.LimitReader(resp.Body, maxSSELine))
		if err != nil {
			return nil, fmt.Errorf("reading the model's answer: %w", err)
		}
		return readWhole(b, watch)
	}
	rep, err := readStream(&idleReader{r: resp.Body, timer: idle, d: c.idleTimeout()}, watch)
	if err != nil && ctx.Err() != nil && parent.Err() == nil {
		return nil, fmt.Errorf("the model's stream sent nothing for %v; gave up", c.idleTimeout())
	}
	return rep, err
}

// readWhole reads a completion that came in one piece rather than as a
// stream.
func readWhole(b []byte, watch func(*streamedCall)) (*reply, error) {
	var whole struct {
		Choices []struct {
			Message struct {
				Content   *string `json:"content"`
				ToolCalls []struct {
					ID       string       `json:"id"`
					Function functionCall `json:"function"`
				} `json:"tool_calls"`
			} `json:"message"`
			FinishReason string `json:"finish_reason"`
		} `json:"choices"`
	}
	if err := json.Unmarshal(b, &whole); err != nil || len(whole.Choices) == 0 {
		return nil, fmt.Errorf("the model endpoint answered neither a stream nor a completion: %s", apiError(b))
	}
	ch := whole.Choices[0]
	rep := &reply{FinishReason: ch.FinishReason}
	if ch.Message.Content != nil {
		rep.Content = *ch.Message.Content
	}
	for i, tc := range ch.Message.ToolCalls {
		sc := newStreamedCall()
		sc.Index = i
		sc.add(tc.ID, tc.Function.Name, "")
		if watch != nil {
			watch(sc)
		}
		sc.add("", "", tc.Function.Arguments)
		sc.close()
		if watch != nil {
			watch(sc)
		}
		rep.Calls = append(rep.Calls, sc)
	}
	return rep, nil
}

// apiError picks the message out of an error body, or returns the body.
func apiError(b []byte) string {
	var e struct {
		Error struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(b, &e) == nil && e.Error.Message != "" {
		return e.Error.Message
	}
	return strings.TrimSpace(string(b))
}

// chunk is one event of a streamed chat completion.
type chunk struct {
	Choices []struct {
		Delta struct {
			Content   string `json:"content"`
			ToolCalls []struct {
				Index    *int         `json:"index"`
				ID       string       `json:"id"`
				Function functionCall `json:"function"`
			} `json:"tool_calls"`
		} `json:"delta"`
		FinishReason *string `json:"finish_reason"`
	} `json:"choices"`
	Error *struct {
		Message string `json:"message"`
	} `json:"error"`
}

// maxCallsPerReply bounds the tool calls of one answer, and so the index
// a delta may name.
const maxCallsPerReply = 64

// callFor returns the call a delta continues. The delta names it by index;
// a provider that sends no index, but each call whole with an id of its
// own, starts a new call with each new id.
//
// Calls are numbered in the order they first appear, whatever index the
// stream gives: some endpoints count a text block as index 0, and a call
// the turn waits for by number must come (see turn.watch).
func (r *reply) callFor(index *int, id string) (*streamedCall, error) {
	if index == nil {
		n := len(r.Calls)
		if n > 0 && (id == "" || r.Calls[n-1].ID == "" || r.Calls[n-1].ID == id) {
			return r.Calls[n-1], nil
		}
		return r.newCall(n)
	}
	if c := r.byIndex[*index]; c != nil {
		return c, nil
	}
	c, err := r.newCall(*index)
	if err != nil {
		return nil, err
	}
	if r.byIndex == nil {
		r.byIndex = map[int]*streamedCall{}
	}
	r.byIndex[*index] = c
	return c, nil
}

// newCall starts the next call of the reply, which the stream names by
// index.
func (r *reply) newCall(index int) (*streamedCall, error) {
	if index < 0 || index >= maxCallsPerReply || len(r.Calls) >= maxCallsPerReply {
		return nil, fmt.Errorf("the model's stream sent a tool call with index %d; at most %d calls are taken from one answer", index, maxCallsPerReply)
	}
	sc := newStreamedCall()
	sc.Index = len(r.Calls)
	r.Calls = append(r.Calls, sc)
	return sc, nil
}

// errNoDone is a stream that ended without its [DONE] event or a finish
// reason: the answer may be cut off.
var errNoDone = errors.New("the stream ended before the model finished")

// readStream assembles a reply from the events of a streamed completion.
func readStream(r io.Reader, watch func(*streamedCall)) (*reply, error) {
	sse := newSSEReader(r)
	rep := &reply{}
	var content strings.Builder
	finished := false
	for {
		data, err := sse.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("reading the model's stream: %w", err)
		}
		if string(bytes.TrimSpace(data)) == "[DONE]" {
			finished = true
			break
		}
		var ch chunk
		if err := json.Unmarshal(data, &ch); err != nil {
			return nil, fmt.Errorf("the model's stream sent an event that is not JSON: %.80q", data)
		}
		if ch.Error != nil {
			return nil, fmt.Errorf("the model's stream reported an error: %s", ch.Error.Message)
		}
		for _, choice := range ch.Choices {
			content.WriteString(choice.Delta.Content)
			for _, d := range choice.Delta.ToolCalls {
				sc, err := rep.callFor(d.Index, d.ID)
				if err != nil {
					return nil, err
				}
				// watch sees the call once its name is known and before
				// its arguments are read, so that it can follow them.
				sc.add(d.ID, d.Function.Name, "")
				if watch != nil && d.Function.Arguments != "" {
					watch(sc)
				}
				sc.add("", "", d.Function.Arguments)
				if watch != nil {
					watch(sc)
				}
			}
			if choice.FinishReason != nil && *choice.FinishReason != "" {
				rep.FinishReason = *choice.FinishReason
				finished = true
			}
		}
	}
	rep.Content = content.String()
	calls := rep.Calls[:0]
	for _, sc := range rep.Calls {
		if sc.ID == "" && sc.Name == "" && sc.args.Len() == 0 {
			continue // a call whose deltas carried nothing
		}
		sc.close()
		calls = append(calls, sc)
	}
	rep.Calls = calls
	if !finished {
		rep.FinishReason = "cut"
		if len(rep.Calls) == 0 && rep.Content == "" {
			return nil, errNoDone
		}
	}
	return rep, nil
}
