package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/sourcegraph/jsonrpc2"
)

// protocolVersion is the MCP version the agent asks for.
const protocolVersion = "2025-11-25"

// mcpClient runs an MCP server as a subprocess and talks to it over its
// stdin and stdout.
type mcpClient struct {
	cmd  *exec.Cmd
	conn *jsonrpc2.Conn
	done chan error // the process's exit
	// logs receives the server's notifications/message, for the terminal.
	logs func(level, text string)
	// grace is how long the server may take to exit once its stdin is
	// closed, before it is killed; default exitGrace.
	grace time.Duration
}

// mcpTool is a tool as tools/list describes it.
type mcpTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"inputSchema"`
	Annotations struct {
		// ReadOnlyHint says the tool changes nothing: its calls may run in
		// parallel and before the model's reply ends.
		ReadOnlyHint bool `json:"readOnlyHint"`
	} `json:"annotations"`
}

// mcpResult is a tools/call result: the text the model reads.
type mcpResult struct {
	Text    string
	IsError bool
}

// startMCP starts argv and performs the MCP handshake. The server's
// stderr goes to errOut.
func startMCP(ctx context.Context, argv []string, errOut io.Writer, logs func(level, text string)) (*mcpClient, error) {
	if len(argv) == 0 {
		return nil, errors.New("no MCP server command")
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stderr = errOut
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting the MCP server %q: %w", argv[0], err)
	}
	c := &mcpClient{cmd: cmd, done: make(chan error, 1), logs: logs}
	c.conn = jsonrpc2.NewConn(ctx, jsonrpc2.NewPlainObjectStream(pipe{stdout, stdin}), jsonrpc2.HandlerWithError(c.handle),
		jsonrpc2.SetLogger(quiet{})) // what goes wrong reaches the caller as an error
	go func() {
		// Reap the process only once its output has been read to the end:
		// Wait closes the pipe, which would cut short a read in progress.
		<-c.conn.DisconnectNotify()
		c.done <- cmd.Wait()
	}()
	var init struct {
		ProtocolVersion string `json:"protocolVersion"`
		ServerInfo      struct {
			Name, Version string
		} `json:"serverInfo"`
	}
	params := map[string]any{
		"protocolVersion": protocolVersion,
		"capabilities":    map[string]any{},
		"clientInfo":      map[string]string{"name": "toolagent", "version": "1"},
	}
	if err := c.call(ctx, "initialize", params, &init); err != nil {
		c.close()
		return nil, fmt.Errorf("the MCP server %q did not complete the handshake: %w", argv[0], err)
	}
	if err := c.conn.Notify(ctx, "notifications/initialized", nil); err != nil {
		c.close()
		return nil, err
	}
	return c, nil
}

// handle answers what the server sends: its log messages are shown;
// requests (the agent offers no client capabilities) get -32601.
func (c *mcpClient) handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
	if req.Notif {
		if req.Method == "notifications/message" && req.Params != nil && c.logs != nil {
			var m struct {
				Level string `json:"level"`
				Data  any    `json:"data"`
			}
			if json.Unmarshal(*req.Params, &m) == nil {
				b, _ := json.Marshal(m.Data)
				c.logs(m.Level, string(b))
			}
		}
		return nil, nil
	}
	return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeMethodNotFound, Message: "toolagent does not serve " + req.Method}
}

func (c *mcpClient) call(ctx context.Context, method string, params, result any) error {
	select {
	case <-c.conn.DisconnectNotify():
		return errors.New("the MCP server has exited")
	default:
	}
	return c.conn.Call(ctx, method, params, result)
}

// listTools returns every tool, following the pages.
func (c *mcpClient) listTools(ctx context.Context) ([]mcpTool, error) {
	var all []mcpTool
	cursor := ""
	for page := 0; page < 1000; page++ {
		params := map[string]any{}
		if cursor != "" {
			params["cursor"] = cursor
		}
		var res struct {
			Tools      []mcpTool `json:"tools"`
			NextCursor string    `json:"nextCursor"`
		}
		if err := c.call(ctx, "tools/list", params, &res); err != nil {
			return nil, fmt.Errorf("listing the tools: %w", err)
		}
		all = append(all, res.Tools...)
		if res.NextCursor == "" {
			return all, nil
		}
		cursor = res.NextCursor
	}
	return nil, errors.New("listing the tools: the server kept sending pages")
}

// callTool runs one tool. A protocol error (an unknown tool, arguments
// that are not an object) comes back as an error result too: the model
// reads it and can correct itself.
func (c *mcpClient) callTool(ctx context.Context, name string, args json.RawMessage) (mcpResult, error) {
	var res struct {
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
		IsError bool `json:"isError"`
	}
	err := c.call(ctx, "tools/call", map[string]any{"name": name, "arguments": args}, &res)
	var rpcErr *jsonrpc2.Error
	if errors.As(err, &rpcErr) {
		return mcpResult{Text: rpcErr.Message, IsError: true}, nil
	}
	if err != nil {
		return mcpResult{}, fmt.Errorf("calling %s: %w", name, err)
	}
	var parts []string
	for _, b := range res.Content {
		switch b.Type {
		case "text":
			parts = append(parts, b.Text)
		default:
			parts = append(parts, "["+b.Type+" content]")
		}
	}
	return mcpResult{Text: strings.Join(parts, "\n"), IsError: res.IsError}, nil
}

// exitGrace is how long a server may take by default to exit once its
// stdin is closed, before it is killed.
const exitGrace = 5 * time.Second

// close ends the session: closing the server's stdin asks it to exit; one
// that does not within exitGrace is killed.
func (c *mcpClient) close() error {
	_ = c.conn.Close()
	grace := c.grace
	if grace <= 0 {
		grace = exitGrace
	}
	var werr error
	select {
	case werr = <-c.done:
	case <-time.After(grace):
		_ = c.cmd.Process.Kill()
		<-c.done
		return fmt.Errorf("the MCP server did not exit within %v of its input closing; killed it", grace)
	}
	if werr != nil {
		var ee *exec.ExitError
		if errors.As(werr, &ee) {
			return fmt.Errorf("the MCP server exited with %v", ee)
		}
		return werr
	}
	return nil
}

// pipe joins the server's stdout and stdin into one connection.
type pipe struct {
	io.ReadCloser
	w io.WriteCloser
}

func (p pipe) Write(b []byte) (int, error) { return p.w.Write(b) }

func (p pipe) Close() error {
	werr := p.w.Close()
	rerr := p.ReadCloser.Close()
	if werr != nil && !errors.Is(werr, os.ErrClosed) {
		return werr
	}
	if rerr != nil && !errors.Is(rerr, os.ErrClosed) {
		return rerr
	}
	return nil
}

// quiet drops jsonrpc2's own log lines.
type quiet struct{}

func (quiet) Printf(string, ...any) {}
