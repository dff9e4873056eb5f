//go:build !windows

package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
)

// The context measure: what a model reads of a server, counted in bytes.
// A host forwards each tool's name, description and input schema to the
// model on every turn, and the text of each result once; both crowd the
// context the model reasons in. "toolbench context" counts them for two
// servers side by side in one run, on files it prepares.

// contextRoot is the folder layout the context measure prepares: what
// each common result is asked about.
const (
	ctxListDir   = "list"        // 1,000 files
	ctxTreeDir   = "tree"        // 4 folders a level, 3 levels deep, 3 files in each
	ctxGrepDir   = "grep"        // 10 files of 10 matching lines each
	ctxReadFile  = "read-1k.txt" // 1 KiB of text
	ctxMissing   = "missing.txt" // never created
	ctxGrepQuery = "needle"
	ctxListFiles = 1000
)

// ToolBytes is what a model reads of one tool in tools/list.
type ToolBytes struct {
	Name        string `json:"name"`
	Description int    `json:"description"`
	InputSchema int    `json:"inputSchema"`
	// OutputSchema is not forwarded to the model by the hosts measured,
	// but it is in every tools/list answer.
	OutputSchema int `json:"outputSchema"`
}

// Model returns the bytes a host forwards: name, description and the
// compact input schema.
func (t ToolBytes) Model() int { return len(t.Name) + t.Description + t.InputSchema }

// ResultBytes is what a model reads of one result.
type ResultBytes struct {
	Name       string `json:"name"`
	Tool       string `json:"tool"` // "" when the server has no such tool
	Text       int    `json:"text"` // the bytes of every text content
	Structured int    `json:"structuredContent"`
	IsError    bool   `json:"isError"`
}

// ContextFigures is the context measure of one server.
type ContextFigures struct {
	Label   string        `json:"label"`
	Argv    string        `json:"argv"`
	Tools   []ToolBytes   `json:"tools"`
	List    int           `json:"toolsListLine"` // the whole tools/list response line
	Results []ResultBytes `json:"results"`
}

// Model returns the model-facing bytes of tools/list: of every tool, or of
// those named in only when only is not nil.
func (f *ContextFigures) Model(only map[string]bool) (model, desc, schema int) {
	for _, t := range f.Tools {
		if only != nil && !only[t.Name] {
			continue
		}
		model += t.Model()
		desc += t.Description
		schema += t.InputSchema
	}
	return model, desc, schema
}

// contextCall is one common result: the tool and arguments each kind of
// server is asked. Paths are relative to the root for toolserver, and
// absolute for the reference server, which resolves relative paths
// against its working directory.
type contextCall struct {
	name string
	// ours and theirs are the tool names; "" when the server lacks one.
	ours, theirs string
	args         func(root string, absolute bool) map[string]any
}

func contextCalls() []contextCall {
	p := func(root, rel string, absolute bool) string {
		if absolute {
			return filepath.Join(root, rel)
		}
		return rel
	}
	return []contextCall{
		{"list_directory of 1,000 files", "list_directory", "list_directory", func(root string, abs bool) map[string]any {
			return map[string]any{"path": p(root, ctxListDir, abs)}
		}},
		{"directory_tree of 84 folders, 252 files", "directory_tree", "directory_tree", func(root string, abs bool) map[string]any {
			return map[string]any{"path": p(root, ctxTreeDir, abs)}
		}},
		{"search_files of 64 names", "search_files", "search_files", func(root string, abs bool) map[string]any {
			if abs {
				return map[string]any{"path": p(root, ctxTreeDir, abs), "pattern": "**/f1.txt"}
			}
			return map[string]any{"path": ctxTreeDir, "pattern": "**/f1.txt"}
		}},
		{"grep of 100 matches", "grep", "", func(root string, abs bool) map[string]any {
			return map[string]any{"path": p(root, ctxGrepDir, abs), "query": ctxGrepQuery, "max_results": 100}
		}},
		{"read of 1 KiB", "read_file", "read_text_file", func(root string, abs bool) map[string]any {
			return map[string]any{"path": p(root, ctxReadFile, abs)}
		}},
		{"read of a file not found", "read_file", "read_text_file", func(root string, abs bool) map[string]any {
			return map[string]any{"path": p(root, ctxMissing, abs)}
		}},
	}
}

// prepareContextRoot writes the measure's files into root, a new or empty
// folder, or leaves a root prepared before as it is.
func prepareContextRoot(root string) error {
	if _, err := os.Stat(filepath.Join(root, ctxReadFile)); err == nil {
		return nil
	}
	if err := os.MkdirAll(filepath.Join(root, ctxListDir), 0o755); err != nil {
		return err
	}
	for i := range ctxListFiles {
		if err := os.WriteFile(filepath.Join(root, ctxListDir, fmt.Sprintf("file-%04d.txt", i)), []byte("x\n"), 0o644); err != nil {
			return err
		}
	}
	var tree func(dir string, depth int) error
	tree = func(dir string, depth int) error {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		for i := range 3 {
			if err := os.WriteFile(filepath.Join(dir, "f"+strconv.Itoa(i)+".txt"), []byte("leaf\n"), 0o644); err != nil {
				return err
			}
		}
		if depth == 3 {
			return nil
		}
		for i := range 4 {
			if err := tree(filepath.Join(dir, "d"+strconv.Itoa(i)), depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	// The top folder itself has no files of its own: 4 + 16 + 64 folders
	// below it, each with 3 files.
	for i := range 4 {
		if err := tree(filepath.Join(root, ctxTreeDir, "d"+strconv.Itoa(i)), 1); err != nil {
			return err
		}
	}
	if err := os.MkdirAll(filepath.Join(root, ctxGrepDir), 0o755); err != nil {
		return err
	}
	for i := range 10 {
		var b strings.Builder
		for j := range 20 {
			if j%2 == 0 {
				fmt.Fprintf(&b, "line %d has the %s in it\n", j, ctxGrepQuery)
			} else {
				fmt.Fprintf(&b, "line %d does not\n", j)
			}
		}
		if err := os.WriteFile(filepath.Join(root, ctxGrepDir, fmt.Sprintf("g%d.txt", i)), []byte(b.String()), 0o644); err != nil {
			return err
		}
	}
	text := bytes.Repeat([]byte("0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcde\n"), 16)
	return os.WriteFile(filepath.Join(root, ctxReadFile), text, 0o644)
}

// contextSession is a line-delimited JSON-RPC session with one server.
type contextSession struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
	id  int
}

func startContextSession(ctx context.Context, argv []string) (*contextSession, error) {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", argv[0], err)
	}
	s := &contextSession{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<20)}
	if _, err := s.request("initialize", map[string]any{
		"protocolVersion": "2025-11-25",
		"capabilities":    map[string]any{},
		"clientInfo":      map[string]any{"name": "toolbench", "version": "1"},
	}); err != nil {
		s.close()
		return nil, err
	}
	if _, err := io.WriteString(in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n"); err != nil {
		s.close()
		return nil, err
	}
	return s, nil
}

// request sends one request and returns its response line, skipping
// notifications and the server's own requests.
func (s *contextSession) request(method string, params any) ([]byte, error) {
	s.id++
	msg, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": s.id, "method": method, "params": params})
	if err != nil {
		return nil, err
	}
	if _, err := s.in.Write(append(msg, '\n')); err != nil {
		return nil, fmt.Errorf("%s: write: %w", method, err)
	}
	for {
		line, err := s.out.ReadBytes('\n')
		if err != nil {
			return nil, fmt.Errorf("%s: read: %w", method, err)
		}
		var head struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Error  *struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		if err := json.Unmarshal(line, &head); err != nil {
			return nil, fmt.Errorf("%s: %w", method, err)
		}
		if head.Method != "" || string(head.ID) != strconv.Itoa(s.id) {
			continue
		}
		if head.Error != nil {
			return nil, fmt.Errorf("%s: %s", method, head.Error.Message)
		}
		return bytes.TrimRight(line, "\r\n"), nil
	}
}

func (s *contextSession) close() {
	s.in.Close()
	done := make(chan struct{})
	go func() { s.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		s.cmd.Process.Kill()
		<-done
	}
}

// compactLen returns the length of raw without insignificant space, as a
// host that forwards the schema compacts it; 0 for no value.
func compactLen(raw json.RawMessage) (int, error) {
	if len(raw) == 0 {
		return 0, nil
	}
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return 0, err
	}
	return b.Len(), nil
}

// measureContext asks the server of argv for its tools and the common
// results, the reference when theirs is set.
func measureContext(ctx context.Context, label string, argv []string, root string, theirs bool) (*ContextFigures, error) {
	s, err := startContextSession(ctx, argv)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", label, err)
	}
	defer s.close()
	f := &ContextFigures{Label: label, Argv: strings.Join(argv, " ")}
	line, err := s.request("tools/list", map[string]any{})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", label, err)
	}
	f.List = len(line)
	var list struct {
		Result struct {
			Tools []struct {
				Name         string          `json:"name"`
				Description  string          `json:"description"`
				InputSchema  json.RawMessage `json:"inputSchema"`
				OutputSchema json.RawMessage `json:"outputSchema"`
			} `json:"tools"`
		} `json:"result"`
	}
	if err := json.Unmarshal(line, &list); err != nil {
		return nil, fmt.Errorf("%s: tools/list: %w", label, err)
	}
	have := map[string]bool{}
	for _, t := range list.Result.Tools {
		in, err := compactLen(t.InputSchema)
		if err != nil {
			return nil, fmt.Errorf("%s: %s's input schema: %w", label, t.Name, err)
		}
		out, err := compactLen(t.OutputSchema)
		if err != nil {
			return nil, fmt.Errorf("%s: %s's output schema: %w", label, t.Name, err)
		}
		f.Tools = append(f.Tools, ToolBytes{Name: t.Name, Description: len(t.Description), InputSchema: in, OutputSchema: out})
		have[t.Name] = true
	}
	for _, c := range contextCalls() {
		tool := c.ours
		if theirs {
			tool = c.theirs
		}
		r := ResultBytes{Name: c.name}
		if tool != "" && have[tool] {
			r.Tool = tool
			line, err := s.request("tools/call", map[string]any{"name": tool, "arguments": c.args(root, theirs)})
			if err != nil {
				return nil, fmt.Errorf("%s: %s: %w", label, c.name, err)
			}
			if err := countResult(line, &r); err != nil {
				return nil, fmt.Errorf("%s: %s: %w", label, c.name, err)
			}
		}
		f.Results = append(f.Results, r)
	}
	return f, nil
}

// countResult fills r with the sizes of the result in line.
func countResult(line []byte, r *ResultBytes) error {
	var resp struct {
		Result struct {
			Content []struct {
				Type string `json:"type"`
				Text string `json:"text"`
			} `json:"content"`
			Structured json.RawMessage `json:"structuredContent"`
			IsError    bool            `json:"isError"`
		} `json:"result"`
	}
	if err := json.Unmarshal(line, &resp); err != nil {
		return err
	}
	for _, c := range resp.Result.Content {
		r.Text += len(c.Text)
	}
	n, err := compactLen(resp.Result.Structured)
	if err != nil {
		return err
	}
	r.Structured, r.IsError = n, resp.Result.IsError
	return nil
}

// contextMain runs "toolbench context".
func contextMain(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("toolbench context", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, `usage: toolbench context -root DIR -server 'toolserver --root DIR' -reference 'mcp-server-filesystem DIR' [-json]

Counts what a model reads of two stdio MCP servers, side by side: the
model-facing bytes of tools/list (each tool's name, description and compact
input schema) for every tool and for the tools both serve by name, and the
text and structuredContent bytes of common results, on files it prepares
in DIR (a new or empty folder, or one prepared before). Give DIR to both
servers. bench/reference.sh installs the reference filesystem server.
`)
		fs.PrintDefaults()
	}
	root := fs.String("root", "", "a new or empty folder to prepare the files in; give it to both servers")
	server := fs.String("server", "", "toolserver's command line, split on spaces")
	reference := fs.String("reference", "", "the reference server's command line, split on spaces")
	asJSON := fs.Bool("json", false, "print the figures as JSON")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *root == "" || *server == "" || *reference == "" {
		fs.Usage()
		return errors.New("-root, -server and -reference are required")
	}
	abs, err := filepath.Abs(*root)
	if err != nil {
		return err
	}
	if err := prepareContextRoot(abs); err != nil {
		return fmt.Errorf("prepare %s: %w", abs, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	ours, err := measureContext(ctx, "toolserver", strings.Fields(*server), abs, false)
	if err != nil {
		return err
	}
	theirs, err := measureContext(ctx, "reference", strings.Fields(*reference), abs, true)
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode([]*ContextFigures{ours, theirs})
	}
	return writeContextTable(stdout, ours, theirs)
}

// shared returns the names of the tools both servers serve.
func shared(a, b *ContextFigures) map[string]bool {
	in := map[string]bool{}
	for _, t := range b.Tools {
		in[t.Name] = true
	}
	both := map[string]bool{}
	for _, t := range a.Tools {
		if in[t.Name] {
			both[t.Name] = true
		}
	}
	return both
}

func ratio(a, b int) string {
	if b == 0 {
		return "—"
	}
	return fmt.Sprintf("%.2fx", float64(a)/float64(b))
}

// writeContextTable prints the figures of a against b.
func writeContextTable(w io.Writer, a, b *ContextFigures) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "tools/list\t%s\t%s\tratio\t\n", a.Label, b.Label)
	both := shared(a, b)
	am, ad, as := a.Model(nil)
	bm, bd, bs := b.Model(nil)
	cam, _, _ := a.Model(both)
	cbm, _, _ := b.Model(both)
	fmt.Fprintf(tw, "tools\t%d\t%d\t\t\n", len(a.Tools), len(b.Tools))
	fmt.Fprintf(tw, "model-facing bytes, all tools\t%d\t%d\t%s\t\n", am, bm, ratio(am, bm))
	fmt.Fprintf(tw, "model-facing bytes, tools both serve (%d)\t%d\t%d\t%s\t\n", len(both), cam, cbm, ratio(cam, cbm))
	fmt.Fprintf(tw, "descriptions\t%d\t%d\t%s\t\n", ad, bd, ratio(ad, bd))
	fmt.Fprintf(tw, "input schemas\t%d\t%d\t%s\t\n", as, bs, ratio(as, bs))
	ao, bo := 0, 0
	for _, t := range a.Tools {
		ao += t.OutputSchema
	}
	for _, t := range b.Tools {
		bo += t.OutputSchema
	}
	fmt.Fprintf(tw, "output schemas (not forwarded)\t%d\t%d\t%s\t\n", ao, bo, ratio(ao, bo))
	fmt.Fprintf(tw, "whole tools/list line\t%d\t%d\t%s\t\n", a.List, b.List, ratio(a.List, b.List))
	fmt.Fprintf(tw, "\t\t\t\t\n")
	fmt.Fprintf(tw, "result (text bytes; structuredContent)\t%s\t%s\tratio\t\n", a.Label, b.Label)
	for i, ra := range a.Results {
		rb := b.Results[i]
		cell := func(r ResultBytes) string {
			if r.Tool == "" {
				return "no such tool"
			}
			return fmt.Sprintf("%d; %d", r.Text, r.Structured)
		}
		rat := "—"
		if ra.Tool != "" && rb.Tool != "" {
			rat = ratio(ra.Text, rb.Text)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t\n", ra.Name, cell(ra), cell(rb), rat)
	}
	fmt.Fprintf(tw, "\t\t\t\t\n")
	fmt.Fprintf(tw, "per tool (model-facing bytes)\t%s\t%s\tratio\t\n", a.Label, b.Label)
	byName := map[string]ToolBytes{}
	for _, t := range b.Tools {
		byName[t.Name] = t
	}
	names := make([]string, 0, len(a.Tools))
	for _, t := range a.Tools {
		names = append(names, t.Name)
	}
	slices.Sort(names)
	for _, n := range names {
		i := slices.IndexFunc(a.Tools, func(t ToolBytes) bool { return t.Name == n })
		ta := a.Tools[i]
		if tb, ok := byName[n]; ok {
			fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t\n", n, ta.Model(), tb.Model(), ratio(ta.Model(), tb.Model()))
		} else {
			fmt.Fprintf(tw, "%s\t%d\t—\t\t\n", n, ta.Model())
		}
	}
	return tw.Flush()
}
