package fs

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stdiotools/toolserver/security"
	"github.com/stdiotools/toolserver/server"
)

// session is an MCP client talking to a server that asks for
// confirmations; it answers every elicitation with answer and records
// the messages.
type session struct {
	t      *testing.T
	mu     sync.Mutex
	w      io.Writer
	answer string
	asked  []string
	resps  chan map[string]json.RawMessage
	nextID int
	// hold, when set, receives each confirmation's message, and the
	// answer waits until the test sends on it again: the user is
	// thinking.
	hold chan string
}

// newSession serves e's tools with confirmations required, over pipes, to
// a client that can answer them.
func newSession(t *testing.T, e *env) *session {
	t.Helper()
	return newSessionWith(t, e, server.Options{AllowAdmin: true, ConfirmWrites: true})
}

// newSessionWith is newSession with the server's options opts.
func newSessionWith(t *testing.T, e *env, opts server.Options) *session {
	t.Helper()
	srv := server.New(opts)
	if err := Register(srv, e.sb); err != nil {
		t.Fatal(err)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = srv.Serve(ctx, inR, outW)
		outW.Close()
	}()
	s := &session{t: t, w: inW, answer: "accept", resps: make(chan map[string]json.RawMessage, 16)}
	go s.read(outR)
	t.Cleanup(func() {
		inW.Close()
		cancel()
		<-done
	})
	s.request("initialize", `{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{}},"clientInfo":{"name":"test","version":"1"}}`)
	s.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return s
}

// send writes one message to the server.
func (s *session) send(line string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := io.WriteString(s.w, line+"\n"); err != nil {
		s.t.Errorf("write: %v", err)
	}
}

// read answers elicitations and passes every other message on.
func (s *session) read(r io.Reader) {
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			s.t.Errorf("bad message %q", sc.Text())
			continue
		}
		if string(m["method"]) == `"elicitation/create"` {
			var p struct{ Message string }
			_ = json.Unmarshal(m["params"], &p)
			s.mu.Lock()
			s.asked = append(s.asked, p.Message)
			answer, hold := s.answer, s.hold
			s.mu.Unlock()
			if hold != nil {
				hold <- p.Message
				<-hold
			}
			s.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"action":%q}}`, m["id"], answer))
			continue
		}
		if _, ok := m["id"]; ok {
			s.resps <- m
		}
	}
}

// request sends a request and returns its result.
func (s *session) request(method, params string) json.RawMessage {
	s.t.Helper()
	s.mu.Lock()
	s.nextID++
	id := s.nextID
	s.mu.Unlock()
	s.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`, id, method, params))
	select {
	case m := <-s.resps:
		if string(m["id"]) != fmt.Sprint(id) {
			s.t.Fatalf("response for id %s, want %d", m["id"], id)
		}
		if e, ok := m["error"]; ok {
			s.t.Fatalf("%s: error %s", method, e)
		}
		return m["result"]
	case <-time.After(10 * time.Second):
		s.t.Fatalf("%s: no response", method)
	}
	return nil
}

// callTool calls a tool and returns its text and whether it is an error;
// asked is what the user was asked to confirm meanwhile.
func (s *session) callTool(tool, args string) (text string, isError bool, asked []string) {
	s.t.Helper()
	s.mu.Lock()
	s.asked = nil
	s.mu.Unlock()
	raw := s.request("tools/call", fmt.Sprintf(`{"name":%q,"arguments":%s}`, tool, args))
	var res struct {
		Content []struct{ Text string }
		IsError bool
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		s.t.Fatal(err)
	}
	var parts []string
	for _, c := range res.Content {
		parts = append(parts, c.Text)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return strings.Join(parts, "\n"), res.IsError, s.asked
}

func TestWritesAskForConfirmationWithAConcreteMessage(t *testing.T) {
	tests := []struct {
		name, tool, args, asked string
	}{
		{"write_file names the new file and its size", "write_file", `{"path":"new.txt","content":"hello"}`,
			`Create "new.txt" with 5 bytes.`},
		{"write_file says it overwrites, and the sizes", "write_file", `{"path":"w.txt","content":"hello"}`,
			`Overwrite "w.txt" (3 bytes now) with 5 bytes.`},
		{"edit_file counts the edits and lines", "edit_file", `{"path":"e.txt","edits":[{"old_text":"two","new_text":"2\n3"}]}`,
			`Edit "e.txt": 1 edit, 2 lines added and 1 line removed (11 bytes, then 11 bytes).`},
		{"append_file names what it adds to and the sizes", "append_file", `{"path":"ap.txt","content":"12"}`,
			`Append 2 bytes to "ap.txt" (3 bytes now).`},
		{"append_file says it creates a missing file", "append_file", `{"path":"log.txt","content":"12"}`,
			`Create "log.txt" with 2 bytes.`},
		{"create_directory names the missing parents", "create_directory", `{"path":"x/y/z"}`,
			`Create the directory "x/y/z" and 2 missing parents.`},
		{"copy_file names what it copies and replaces", "copy_file", `{"source":"c.txt","destination":"c2.txt","overwrite":true}`,
			`Copy the file "c.txt" (4 bytes) to "c2.txt", replacing the file "c2.txt" (3 bytes).`},
		{"copy_file counts a directory's content", "copy_file", `{"source":"cd","destination":"cd2"}`,
			`Copy the directory "cd" (2 files and 1 subdirectory, 8 bytes) to "cd2".`},
		{"move_file names both paths", "move_file", `{"source":"m.txt","destination":"md/m.txt"}`,
			`Move the file "m.txt" (3 bytes) to "md/m.txt".`},
		{"delete_file counts what goes and warns", "delete_file", `{"path":"dd","recursive":true}`,
			`Delete the directory "dd" and everything in it: 2 files and 1 subdirectory, 8 bytes. This cannot be undone.`},
	}
	e := newMemEnv(t, security.Limits{})
	e.write(t, "w.txt", "www")
	e.write(t, "ap.txt", "abc")
	e.write(t, "e.txt", "one\ntwo\nsix")
	e.write(t, "c.txt", "cccc")
	e.write(t, "c2.txt", "old")
	e.write(t, "m.txt", "mmm")
	e.mkdir(t, "md")
	for _, d := range []string{"cd", "dd"} {
		e.write(t, d+"/f1", "1234")
		e.write(t, d+"/sub/f2", "5678")
	}
	s := newSession(t, e)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := e.snapshot(t)
			s.answer = "decline"
			txt, isErr, asked := s.callTool(tt.tool, tt.args)
			if !isErr || len(asked) != 1 || asked[0] != tt.asked {
				t.Fatalf("declined: %q (error %v), asked %q; want to be asked %q", txt, isErr, asked, tt.asked)
			}
			wantContains(t, txt, "The user declined this change; nothing was changed.")
			if after := e.snapshot(t); after != before {
				t.Fatalf("a declined %s changed the tree:\n%s", tt.tool, after)
			}
			s.answer = "accept"
			txt, isErr, asked = s.callTool(tt.tool, tt.args)
			if isErr || len(asked) != 1 {
				t.Fatalf("accepted: %q (error %v), asked %q", txt, isErr, asked)
			}
			if after := e.snapshot(t); after == before {
				t.Errorf("an accepted %s changed nothing", tt.tool)
			}
		})
	}
	t.Run("dry runs and calls that change nothing ask nothing", func(t *testing.T) {
		for _, c := range [][2]string{
			{"write_file", `{"path":"w.txt","content":"x","dry_run":true}`},
			{"edit_file", `{"path":"e.txt","edits":[{"old_text":"one","new_text":"1"}],"dry_run":true}`},
			{"append_file", `{"path":"e.txt","content":"x","dry_run":true}`},
			{"edit_file", `{"path":"e.txt","edits":[{"old_text":"one","new_text":"one"}]}`},
			{"create_directory", `{"path":"x/y/z"}`},
			{"create_directory", `{"path":"q","dry_run":true}`},
			{"copy_file", `{"source":"e.txt","destination":"q.txt","dry_run":true}`},
			{"move_file", `{"source":"e.txt","destination":"q.txt","dry_run":true}`},
			{"delete_file", `{"path":"e.txt","dry_run":true}`},
			{"read_file", `{"path":"e.txt"}`},
		} {
			if txt, isErr, asked := s.callTool(c[0], c[1]); isErr || len(asked) != 0 {
				t.Errorf("%s %s: %q (error %v), asked %q", c[0], c[1], txt, isErr, asked)
			}
		}
	})
}

// whileAsking calls tool with args in s, and runs meanwhile, while the
// user has been asked to confirm and has not answered yet, and then
// returns the call's text and whether it is an error.
func (s *session) whileAsking(tool, args string, meanwhile func()) (string, bool) {
	s.t.Helper()
	hold := make(chan string)
	s.mu.Lock()
	s.hold = hold
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.hold = nil
		s.mu.Unlock()
	}()
	type answer struct {
		text  string
		isErr bool
	}
	done := make(chan answer, 1)
	go func() {
		text, isErr, _ := s.callTool(tool, args)
		done <- answer{text, isErr}
	}()
	select {
	case <-hold:
	case a := <-done:
		s.t.Fatalf("%s answered without asking: %s", tool, a.text)
	}
	meanwhile()
	hold <- ""
	a := <-done
	return a.text, a.isErr
}

func TestAConfirmationHoldsNoLockAndTheEditAppliesToTheFileAsItIsThen(t *testing.T) {
	bothFS(t, security.Limits{}, func(t *testing.T, e *env) {
		s := newSession(t, e)
		e.write(t, "f.txt", "alpha\nbeta\ngamma\n")
		txt, isErr := s.whileAsking("edit_file", `{"path":"f.txt","edits":[{"old_text":"beta","new_text":"BETA"}]}`, func() {
			// Another writer changes another line while the user thinks;
			// it must not wait for the answer.
			done := make(chan struct{})
			go func() {
				defer close(done)
				e.ok(t, "edit_file", `{"path":"f.txt","edits":[{"old_text":"gamma","new_text":"GAMMA"}]}`)
			}()
			select {
			case <-done:
			case <-time.After(5 * time.Second):
				t.Fatal("a write waited for the confirmation of another")
			}
		})
		if isErr {
			t.Fatalf("the confirmed edit failed: %s", txt)
		}
		if got := e.read(t, "f.txt"); got != "alpha\nBETA\nGAMMA\n" {
			t.Errorf("f.txt = %q, want both edits", got)
		}

		e.write(t, "g.txt", "alpha\nbeta\n")
		txt, isErr = s.whileAsking("edit_file", `{"path":"g.txt","edits":[{"old_text":"beta","new_text":"BETA"}]}`, func() {
			e.ok(t, "write_file", `{"path":"g.txt","content":"alpha\ndelta\n"}`)
		})
		if !isErr || !strings.Contains(txt, "edits[0].old_text was not found in \"g.txt\"") || !strings.Contains(txt, "the file was not changed") {
			t.Errorf("an edit whose text went while the user was asked: %q (error %v)", txt, isErr)
		}
		if got := e.read(t, "g.txt"); got != "alpha\ndelta\n" {
			t.Errorf("g.txt = %q, want it as the other writer left it", got)
		}
	})
}

func TestAConfirmedWriteChecksTheExpectedVersionAgain(t *testing.T) {
	e := newRealEnv(t, security.Limits{})
	s := newSession(t, e)
	e.write(t, "f.txt", "one\n")
	v := e.versionOfFile(t, "f.txt")
	txt, isErr := s.whileAsking("write_file", `{"path":"f.txt","content":"two\n","expected_version":"`+v+`"}`, func() {
		e.ok(t, "append_file", `{"path":"f.txt","content":"more\n"}`)
	})
	if !isErr || !strings.Contains(txt, "changed since it was read") {
		t.Errorf("a write whose file changed while the user was asked: %q (error %v)", txt, isErr)
	}
	if got := e.read(t, "f.txt"); got != "one\nmore\n" {
		t.Errorf("f.txt = %q", got)
	}
}

func TestAConfirmedChangeIsRefusedWhenTheQuestionWouldNowBeAnother(t *testing.T) {
	bothFS(t, security.Limits{}, func(t *testing.T, e *env) {
		s := newSession(t, e)
		// The user approved creating new.txt; meanwhile another writer
		// created it: writing now would replace what the user never saw.
		txt, isErr := s.whileAsking("write_file", `{"path":"new.txt","content":"mine\n"}`, func() {
			e.ok(t, "write_file", `{"path":"new.txt","content":"theirs\n"}`)
		})
		if !isErr || !strings.Contains(txt, `"new.txt" changed while the user was being asked`) || !strings.Contains(txt, "nothing was changed") {
			t.Errorf("a create approved for a file made meanwhile: %q (error %v)", txt, isErr)
		}
		if got := e.read(t, "new.txt"); got != "theirs\n" {
			t.Errorf("new.txt = %q, want the other writer's", got)
		}
		// An edit approved with sizes the file no longer has.
		e.write(t, "f.txt", "alpha\nbeta\n")
		txt, isErr = s.whileAsking("edit_file", `{"path":"f.txt","edits":[{"old_text":"beta","new_text":"BETA"}]}`, func() {
			e.ok(t, "append_file", `{"path":"f.txt","content":"gamma\n"}`)
		})
		if !isErr || !strings.Contains(txt, "changed while the user was being asked") {
			t.Errorf("an edit approved on a file that grew meanwhile: %q (error %v)", txt, isErr)
		}
		if got := e.read(t, "f.txt"); got != "alpha\nbeta\ngamma\n" {
			t.Errorf("f.txt = %q", got)
		}
	})
}
