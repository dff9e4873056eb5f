// Command toolagent runs an agent loop: it starts an MCP server over
// stdio (toolserver by default), offers its tools to a model behind an
// OpenAI-compatible /chat/completions endpoint, runs the calls the model
// makes, and prints the model's final answer.
//
//	toolagent --root ./playground "How many lines does notes.txt have?"
//
// The endpoint comes from OPENAI_COMPATIBLE_BASE_URL,
// OPENAI_COMPATIBLE_API_KEY and MODEL. With --script FILE a scripted model
// (a JSON list of canned answers) stands in for it, served on loopback as
// the same kind of endpoint, so the whole loop runs offline:
//
//	toolagent --root testdata/playground --script cmd/toolagent/testdata/summary.json "Summarize the notes"
//
// Answers are streamed; the arguments of each tool call are parsed as
// they arrive, checked against the tool's input schema (a mismatch is
// shown at once), and shown live on a terminal. The calls of a reply run
// while it streams (see turn): a read-only call starts as soon as its
// JSON closes, reads run in parallel up to --parallel, each write waits
// for the calls before it and the reply's end, identical calls run once,
// and the answers go back in the model's order. A call cut off by the end
// of the stream is reported to the model, with what was parsed of it and
// where it stopped, to be sent again; the calls before it keep their
// answers.
//
// The loop stops when the model answers without a call (exit 0), or with
// exit 1 at the step limit, when a turn only repeats the calls of the one
// before, when a reply is cut off twice in a row with nothing to run, or
// when the model or the server fails. A model without native tool calls
// may write its calls as JSON in its text; they are found with
// toolcall.Extract.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/stdiotools/toolserver/i18n"
	"github.com/stdiotools/toolserver/toolcall"
)

// defaultParallel is the most safe calls of one turn that run at once
// unless --parallel says otherwise: 10, the bound Claude Code applies to
// the tool calls of one reply, so that a turn run here takes what it
// takes in a common host. A model rarely sends more reads in one reply.
const defaultParallel = 10

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr, isTerminal(os.Stderr))
	stop()
	os.Exit(code)
}

// Exit codes.
const (
	exitOK      = 0
	exitStopped = 1 // the loop stopped without a final answer
	exitUsage   = 2
)

// config holds the command line.
type config struct {
	root, server, script, system string
	maxSteps, resultBudget       int
	parallel                     int
	safeTools, lang, check       string
	textTools                    bool
	idle                         time.Duration
}

// run is main without the process.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer, live bool) int {
	var cfg config
	fs := flag.NewFlagSet("toolagent", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&cfg.root, "root", "", "the folder toolserver works in (passed as its --root)")
	fs.StringVar(&cfg.server, "server", "", `the MCP server command, split on spaces (default "toolserver --root ROOT --log-level warn")`)
	fs.StringVar(&cfg.script, "script", "", "a JSON file of canned model answers to run offline instead of a real model")
	fs.StringVar(&cfg.system, "system", "", "a system message for the model")
	fs.IntVar(&cfg.maxSteps, "max-steps", 10, "the most requests to the model")
	fs.IntVar(&cfg.resultBudget, "result-budget", 8000, "the most characters of one tool result given to the model")
	fs.DurationVar(&cfg.idle, "idle", 2*time.Minute, "give up on the model when it sends nothing for this long")
	fs.IntVar(&cfg.parallel, "parallel", defaultParallel, "the most calls of one turn that run at once")
	fs.StringVar(&cfg.safeTools, "safe-tools", "", "tools, comma-separated, to run in parallel and while the model still streams, as if they had readOnlyHint")
	fs.StringVar(&cfg.check, "check", "refuse", `a call whose arguments break the tool's schema: "refuse" answers it with what to fix, without running it; "warn" shows the mismatch and runs it, for servers that coerce arguments`)
	fs.StringVar(&cfg.lang, "lang", "en", `the language of the agent's own messages to the model: "en" or "zh"`)
	fs.BoolVar(&cfg.textTools, "text-tools", false, "for models without native tool calls: describe the tools in the system message and read calls from the text")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: toolagent [flags] PROMPT...")
		fmt.Fprintln(stderr, "\nRuns a model with the tools of an MCP server until it answers. The model is")
		fmt.Fprintln(stderr, "OPENAI_COMPATIBLE_BASE_URL (with OPENAI_COMPATIBLE_API_KEY) and MODEL, or --script.")
		fmt.Fprintln(stderr, "\nFlags:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	prompt := strings.TrimSpace(strings.Join(fs.Args(), " "))
	usage := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "toolagent: "+format+"\n", a...)
		return exitUsage
	}
	if prompt == "" {
		return usage("no prompt; give it after the flags, such as: toolagent --root DIR \"List the files\"")
	}
	if cfg.maxSteps < 1 || cfg.resultBudget < 100 || cfg.idle <= 0 || cfg.parallel < 1 {
		return usage("--max-steps and --parallel must be at least 1, --result-budget at least 100, and --idle positive")
	}
	lang, err := i18n.Parse(cfg.lang)
	if err != nil {
		return usage("--lang: %v", err)
	}
	if cfg.check != "refuse" && cfg.check != "warn" {
		return usage(`--check is "refuse" or "warn", not %q`, cfg.check)
	}
	argv, err := serverCommand(&cfg)
	if err != nil {
		return usage("%v", err)
	}
	chat := &chatClient{baseURL: getenv("OPENAI_COMPATIBLE_BASE_URL"), apiKey: getenv("OPENAI_COMPATIBLE_API_KEY"),
		model: getenv("MODEL"), http: &http.Client{}, idle: cfg.idle}
	if cfg.script != "" {
		steps, err := loadScript(cfg.script)
		if err != nil {
			return usage("%v", err)
		}
		url, stopScript, err := serveScript(&scriptServer{Steps: steps})
		if err != nil {
			return usage("%v", err)
		}
		defer stopScript()
		chat.baseURL, chat.apiKey, chat.model = url, "", "script"
	}
	if chat.baseURL == "" || chat.model == "" {
		return usage("set OPENAI_COMPATIBLE_BASE_URL and MODEL (and OPENAI_COMPATIBLE_API_KEY if the endpoint needs one), or use --script FILE")
	}

	show := &progress{w: stderr, live: live, lang: lang}
	srv, err := startMCP(ctx, argv, stderr, func(level, text string) { show.note("server %s: %s", level, clip(text, 120)) })
	if err != nil {
		fmt.Fprintln(stderr, "toolagent:", err)
		return exitStopped
	}
	defer func() {
		if err := srv.close(); err != nil {
			fmt.Fprintln(stderr, "toolagent:", err)
		}
	}()
	list, err := srv.listTools(ctx)
	if err != nil {
		fmt.Fprintln(stderr, "toolagent:", err)
		return exitStopped
	}
	a := &agent{model: chat, tools: srv, show: show, known: map[string]bool{}, lang: lang, warnOnly: cfg.check == "warn",
		safe: map[string]bool{}, schemas: map[string]*toolcall.Schema{},
		limits: limits{MaxSteps: cfg.maxSteps, ResultBudget: cfg.resultBudget, Parallel: cfg.parallel}}
	for _, name := range strings.Split(cfg.safeTools, ",") {
		if name = strings.TrimSpace(name); name != "" {
			a.safe[name] = true
		}
	}
	for _, t := range list {
		a.known[t.Name] = true
		a.safe[t.Name] = a.safe[t.Name] || t.Annotations.ReadOnlyHint
		if s, err := toolcall.CompileSchema(t.InputSchema); err == nil {
			a.schemas[t.Name] = s
		} else {
			show.note("the schema of %s cannot be checked here (%v); the server checks its calls", t.Name, err)
		}
		if !cfg.textTools {
			a.offer = append(a.offer, chatTool{Type: "function", Function: chatFunction{Name: t.Name, Description: t.Description, Parameters: t.InputSchema}})
		}
	}
	var msgs []message
	system := cfg.system
	if cfg.textTools {
		system = strings.TrimSpace(system + "\n\n" + textToolsPrompt(list))
	}
	if system != "" {
		msgs = append(msgs, message{Role: "system", Content: text(system)})
	}
	msgs = append(msgs, message{Role: "user", Content: text(prompt)})
	answer, err := a.run(ctx, msgs)
	if err != nil {
		fmt.Fprintln(stderr, "toolagent:", err)
		return exitStopped
	}
	fmt.Fprintln(stdout, answer)
	return exitOK
}

// serverCommand returns the MCP server's command line.
func serverCommand(cfg *config) ([]string, error) {
	if cfg.server != "" {
		return strings.Fields(cfg.server), nil
	}
	if cfg.root == "" {
		return nil, errors.New("--root is required (or give the whole server command with --server)")
	}
	bin := "toolserver"
	if self, err := os.Executable(); err == nil {
		// A toolserver built next to toolagent comes first.
		if p := filepath.Join(filepath.Dir(self), "toolserver"); fileExists(p) {
			bin = p
		}
	}
	if !filepath.IsAbs(bin) {
		p, err := exec.LookPath(bin)
		if err != nil {
			return nil, errors.New("toolserver is not on PATH; install it (go install github.com/stdiotools/toolserver/cmd/toolserver@latest) or give --server")
		}
		bin = p
	}
	// Only the server's warnings: its info lines would bury the progress lines.
	return []string{bin, "--root", cfg.root, "--log-level", "warn"}, nil
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}

// serveScript serves a scripted model on a loopback port and returns its
// base URL and the function that stops it.
func serveScript(s *scriptServer) (string, func(), error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, fmt.Errorf("serving the script: %w", err)
	}
	hs := &http.Server{Handler: s}
	go func() { _ = hs.Serve(ln) }()
	return "http://" + ln.Addr().String() + "/v1", func() { _ = hs.Close() }, nil
}

// textToolsPrompt describes the tools for a model that writes its calls
// in its text.
func textToolsPrompt(list []mcpTool) string {
	var b strings.Builder
	b.WriteString("You can use tools. To call one, answer with only a JSON object such as ")
	b.WriteString(`{"name": "TOOL", "arguments": {...}}` + " (several calls: a JSON array of them). ")
	b.WriteString("The results come back in the next message. When you have the answer, reply in plain text without JSON.\n\nTools:\n")
	for _, t := range list {
		fmt.Fprintf(&b, "- %s: %s\n  arguments schema: %s\n", t.Name, firstLine(t.Description), compact(t.InputSchema))
	}
	return b.String()
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

func compact(raw json.RawMessage) string {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return string(raw)
	}
	return b.String()
}

// isTerminal reports whether f is a terminal, for live progress.
func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
