//go:build !windows

package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
)

// fakeEnv, when set in the environment of the test binary, makes it a fake
// MCP server instead of running the tests; its value is the mode:
//
//	ok        answers initialize, tools/list and tools/call properly
//	notify    ok, but sends a notification before every tools/call answer
//	rpcerror  answers tools/call with a JSON-RPC error
//	iserror   answers tools/call with result.isError = true
//	badid     answers tools/call with a wrong id
//	nocalc    ok, but tools/list does not offer calc
//	hang      ok, but never answers tools/call
//	noid      answers tools/call with an error response without id
//	files     ok, and serves the file tools of fakeFileTool in the folder
//	          named by fakeRootEnv
//	http      serves read_file of fakeFileTool over Streamable HTTP, at the
//	          address of its -http flag (fakeHTTPServer)
const fakeEnv = "TOOLBENCH_TEST_FAKE"

// fakeRootEnv names the folder of the fake's file tools.
const fakeRootEnv = "TOOLBENCH_TEST_FAKE_ROOT"

// TestMain lets the test binary stand in for the targets: run with the
// argument "echo", "floor" or "httpfloor" it is that subcommand, with fakeEnv set it is
// a fake MCP server.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == "echo" {
		if err := echoMain(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	if len(os.Args) > 1 && os.Args[1] == "floor" {
		if err := floorMain(os.Args[2:]); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	if len(os.Args) > 1 && os.Args[1] == "httpfloor" {
		if err := httpFloorMain(os.Args[2:]); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	if mode := os.Getenv(fakeEnv); mode == fakeHTTP {
		if err := fakeHTTPServer(os.Args[1:]); err != nil {
			fmt.Fprintln(os.Stderr, "fake HTTP server:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	if mode := os.Getenv(fakeEnv); mode != "" {
		if err := fakeServer(mode, os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "fake server:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// quickExit keeps a race-enabled test binary from sleeping a second at
// exit (the race runtime's atexit_sleep_ms), which every cold start and
// close would wait for.
func quickExit() string {
	return "GORACE=" + strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0")
}

// fakeSpec is a target that runs the test binary as a fake server.
func fakeSpec(mode string) Spec {
	return Spec{Label: "fake-" + mode, Argv: []string{os.Args[0]}, Env: []string{fakeEnv + "=" + mode, quickExit()}}
}

// echoSpec is a target that runs the test binary as the echo.
func echoSpec() Spec {
	return Spec{Label: "echo", Argv: []string{os.Args[0], "echo"}, Env: []string{quickExit()}, Echo: true}
}

// fakeResponse puts the id last, so that topLevelMember has to skip the result.
type fakeResponse struct {
	JSONRPC string `json:"jsonrpc"`
	Result  any    `json:"result,omitempty"`
	Error   any    `json:"error,omitempty"`
	ID      any    `json:"id,omitempty"`
}

// fakeServer is a minimal MCP server over newline-delimited JSON-RPC with
// the tools calc (always "2") and read_file (arguments {"size":N}: a text
// of N bytes).
func fakeServer(mode string, in io.Reader, out io.Writer) error {
	r := bufio.NewReaderSize(in, 1<<20)
	w := bufio.NewWriterSize(out, 1<<16)
	send := func(v any) error {
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		if _, err := w.Write(append(b, '\n')); err != nil {
			return err
		}
		return w.Flush()
	}
	for {
		line, err := r.ReadBytes('\n')
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				Name      string          `json:"name"`
				Arguments json.RawMessage `json:"arguments"`
			} `json:"params"`
		}
		if err := json.Unmarshal(line, &req); err != nil {
			return fmt.Errorf("bad request %q: %v", line, err)
		}
		var args struct {
			Size int `json:"size"`
		}
		_ = json.Unmarshal(req.Params.Arguments, &args) // the file tools' arguments differ
		if req.ID == nil {
			continue // a notification
		}
		resp := fakeResponse{JSONRPC: "2.0", ID: req.ID}
		switch req.Method {
		case "initialize":
			resp.Result = map[string]any{
				"protocolVersion": protocolVersion,
				"capabilities":    map[string]any{"tools": map[string]any{}},
				"serverInfo":      map[string]any{"name": "fake", "version": "1"},
			}
		case "tools/list":
			tools := []map[string]any{{"name": "read_file"}}
			if mode != "nocalc" {
				tools = append(tools, map[string]any{"name": "calc"})
			}
			if mode == "files" {
				for _, name := range []string{"list_directory", "write_file", "edit_file"} {
					tools = append(tools, map[string]any{"name": name})
				}
			}
			resp.Result = map[string]any{"tools": tools}
		case "tools/call":
			text := "2"
			if req.Params.Name == "read_file" {
				text = strings.Repeat("a", args.Size)
			}
			resp.Result = map[string]any{"content": []map[string]any{{"type": "text", "text": text}}}
			switch mode {
			case "files":
				text, isErr := fakeFileTool(os.Getenv(fakeRootEnv), req.Params.Name, req.Params.Arguments)
				resp.Result = map[string]any{"content": []map[string]any{{"type": "text", "text": text}}, "isError": isErr}
			case "notify":
				if err := send(map[string]any{"jsonrpc": "2.0", "method": "notifications/message",
					"params": map[string]any{"level": "info", "data": "working"}}); err != nil {
					return err
				}
			case "rpcerror":
				resp.Result = nil
				resp.Error = map[string]any{"code": -32603, "message": "boom"}
			case "iserror":
				resp.Result = map[string]any{"isError": true, "content": []map[string]any{{"type": "text", "text": "no such file"}}}
			case "badid":
				resp.ID = 999999
			case "hang":
				continue
			case "noid":
				resp.ID, resp.Result = nil, nil
				resp.Error = map[string]any{"code": -32700, "message": "parse error"}
			}
		default:
			resp.Error = map[string]any{"code": -32601, "message": "method not found"}
		}
		if err := send(resp); err != nil {
			return err
		}
	}
}
