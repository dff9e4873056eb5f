package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"
)

// scriptStep is one canned answer of a scripted model.
type scriptStep struct {
	// Content is the text of the answer.
	Content string `json:"content,omitempty"`
	// ToolCalls are the calls the answer makes.
	ToolCalls []scriptCall `json:"tool_calls,omitempty"`
	// FinishReason overrides the reason sent at the end ("stop" or
	// "tool_calls"); "length" says the answer was cut off.
	FinishReason string `json:"finish_reason,omitempty"`
	// Cut ends the stream without a finish reason or [DONE], as a
	// dropped connection would.
	Cut bool `json:"cut,omitempty"`
	// CutInCall ends the stream that way halfway through the arguments
	// of this call (counted from 1): the calls after it never arrive.
	CutInCall int `json:"cut_in_call,omitempty"`
}

// scriptCall is a scripted tool call. Arguments is a JSON value, sent as
// its text; ArgumentsText, when set, is sent exactly, cut-off calls
// included.
type scriptCall struct {
	Name          string          `json:"name"`
	Arguments     json.RawMessage `json:"arguments,omitempty"`
	ArgumentsText *string         `json:"arguments_text,omitempty"`
	// PauseMS holds the stream this long after the call, as a model that
	// is slow to write the next one.
	PauseMS int `json:"pause_ms,omitempty"`
}

// loadScript reads a script file: a JSON array of steps.
func loadScript(path string) ([]scriptStep, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("--script: %w", err)
	}
	var steps []scriptStep
	if err := json.Unmarshal(b, &steps); err != nil {
		return nil, fmt.Errorf("--script %s: want a JSON array of steps such as {\"content\": \"...\"} or {\"tool_calls\": [{\"name\": \"...\", \"arguments\": {...}}]}: %w", path, err)
	}
	if len(steps) == 0 {
		return nil, fmt.Errorf("--script %s has no steps", path)
	}
	return steps, nil
}

// scriptServer is an OpenAI-compatible /chat/completions endpoint that
// answers each request with the next step of a script, streamed as
// server-sent events cut into pieces of ChunkBytes bytes wherever they
// fall (inside a "data:" prefix, a JSON string, a UTF-8 character), each
// piece flushed on its own. It keeps the requests it received.
type scriptServer struct {
	Steps      []scriptStep
	ChunkBytes int    // default 7
	LineEnd    string // "\n" (default) or "\r\n"

	mu       sync.Mutex
	next     int
	requests []chatRequest
	ended    []time.Time // when each answer's stream was written out
	received []time.Time // when each request arrived
}

// Received returns when each request so far arrived.
func (s *scriptServer) Received() []time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Time(nil), s.received...)
}

// Ended returns when the stream of each answer so far was written out.
func (s *scriptServer) Ended() []time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Time(nil), s.ended...)
}

// Requests returns the requests received so far.
func (s *scriptServer) Requests() []chatRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]chatRequest(nil), s.requests...)
}

func (s *scriptServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/chat/completions") {
		http.Error(w, `{"error":{"message":"only POST /chat/completions is served"}}`, http.StatusNotFound)
		return
	}
	var req chatRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, fmt.Sprintf(`{"error":{"message":%q}}`, "the request is not JSON: "+err.Error()), http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	s.requests = append(s.requests, req)
	s.received = append(s.received, time.Now())
	i := s.next
	s.next++
	s.mu.Unlock()
	if i >= len(s.Steps) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusInternalServerError)
		fmt.Fprintf(w, `{"error":{"message":"the script has no step %d; it has %d"}}`, i+1, len(s.Steps))
		return
	}
	if !req.Stream {
		http.Error(w, `{"error":{"message":"this script server only streams; send \"stream\": true"}}`, http.StatusBadRequest)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	n := s.ChunkBytes
	if n <= 0 {
		n = 7
	}
	flusher, _ := w.(http.Flusher)
	for _, seg := range s.events(i, s.Steps[i]) {
		time.Sleep(seg.pause)
		body := seg.data
		for len(body) > 0 {
			k := min(n, len(body))
			if _, err := w.Write(body[:k]); err != nil {
				return
			}
			body = body[k:]
			if flusher != nil {
				flusher.Flush()
			}
		}
	}
	s.mu.Lock()
	s.ended = append(s.ended, time.Now())
	s.mu.Unlock()
}

// segment is a part of an answer's stream, sent after a pause.
type segment struct {
	pause time.Duration
	data  []byte
}

// events renders one step as the event stream of a chat completion, in
// segments split where the script pauses.
func (s *scriptServer) events(i int, st scriptStep) []segment {
	end := s.LineEnd
	if end == "" {
		end = "\n"
	}
	var b strings.Builder
	var segs []segment
	var pause time.Duration
	cutHere := func(next time.Duration) {
		segs = append(segs, segment{pause: pause, data: []byte(b.String())})
		b.Reset()
		pause = next
	}
	id := fmt.Sprintf("chatcmpl-script-%d", i+1)
	created := time.Now().Unix()
	event := func(delta map[string]any, finish *string) {
		ch := map[string]any{
			"id": id, "object": "chat.completion.chunk", "created": created, "model": "script",
			"choices": []map[string]any{{"index": 0, "delta": delta, "finish_reason": finish}},
		}
		data, _ := json.Marshal(ch)
		b.WriteString("data: ")
		b.Write(data)
		b.WriteString(end + end)
	}
	b.WriteString(": scripted answer " + fmt.Sprint(i+1) + end + end)
	event(map[string]any{"role": "assistant", "content": ""}, nil)
	for _, piece := range pieces(st.Content, 5) {
		event(map[string]any{"content": piece}, nil)
	}
	for k, c := range st.ToolCalls {
		var compact bytes.Buffer
		_ = json.Compact(&compact, c.Arguments)
		args := compact.String()
		if c.ArgumentsText != nil {
			args = *c.ArgumentsText
		}
		cut := st.CutInCall == k+1
		if cut {
			r := []rune(args)
			args = string(r[:len(r)/2])
		}
		event(map[string]any{"tool_calls": []map[string]any{{
			"index": k, "id": fmt.Sprintf("call_%d_%d", i+1, k+1), "type": "function",
			"function": map[string]any{"name": c.Name, "arguments": ""},
		}}}, nil)
		for _, piece := range pieces(args, 4) {
			event(map[string]any{"tool_calls": []map[string]any{{
				"index": k, "function": map[string]any{"arguments": piece},
			}}}, nil)
		}
		if cut {
			cutHere(0)
			return segs
		}
		if c.PauseMS > 0 {
			cutHere(time.Duration(c.PauseMS) * time.Millisecond)
		}
	}
	if st.Cut {
		cutHere(0)
		return segs
	}
	finish := st.FinishReason
	if finish == "" {
		finish = "stop"
		if len(st.ToolCalls) > 0 {
			finish = "tool_calls"
		}
	}
	event(map[string]any{}, &finish)
	b.WriteString("data: [DONE]" + end + end)
	cutHere(0)
	return segs
}

// pieces cuts s into pieces of n characters (whole characters: the API
// sends valid strings; it is the byte stream that is cut anywhere).
func pieces(s string, n int) []string {
	var out []string
	r := []rune(s)
	for len(r) > 0 {
		k := min(n, len(r))
		out = append(out, string(r[:k]))
		r = r[k:]
	}
	return out
}
