package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"runtime/debug"
	"strings"
	"time"

	"github.com/stdiotools/toolserver/security"
	"github.com/stdiotools/toolserver/server"
)

// config is what the flags say.
type config struct {
	roots           []rootFlag // --root and --read-only-root, in order (roots.go)
	logLevel        string
	maxMessageBytes int
	maxInFlight     int
	maxSubs         int
	memoryLimitMiB  int
	memoryBudgetMiB int
	lang            string
	readOnly        bool
	tools           []string // --tools: the only tools served
	disableTools    []string // --disable-tools
	allowAdmin      bool
	confirmWrites   bool
	stateKeyFile    string
	nonceDir        string
	lockDir         string
	maxCalls        int
	callsPerSecond  float64
	toolTimeout     time.Duration
	maxRepeats      int
	maxWriteBytes   int64
	maxEditBytes    int64
	metricsAddr     string
	version         bool
	jsonArgs        onceFlag   // call only
	http            httpConfig // serve only (http.go)
}

// onceFlag is a string flag that remembers how often it was given, so that
// a second --json is refused instead of silently replacing the first.
type onceFlag struct {
	value string
	n     int
}

func (f *onceFlag) String() string     { return f.value }
func (f *onceFlag) Set(s string) error { f.value, f.n = s, f.n+1; return nil }

// newConfig returns the flag set of a subcommand and the config it fills.
func newConfig(cmd string, stderr io.Writer) (*config, *flag.FlagSet) {
	cfg := &config{}
	fs := flag.NewFlagSet("toolserver", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Var(rootsValue{list: &cfg.roots}, "root", "a folder the tools work in, as DIR or NAME=DIR; nothing outside the roots is read or changed (required; repeat it for several roots)")
	fs.Var(rootsValue{list: &cfg.roots, readOnly: true}, "read-only-root", "a folder the tools may read but never change, as DIR or NAME=DIR; may be repeated and mixed with --root")
	fs.StringVar(&cfg.logLevel, "log-level", "info", "stderr log level: debug, info, warn, error (tools and call: error unless set)")
	fs.IntVar(&cfg.maxMessageBytes, "max-message-bytes", server.DefaultMaxMessageBytes, "largest JSON-RPC message accepted, in bytes")
	fs.IntVar(&cfg.maxInFlight, "max-inflight", 64, "tool calls running at once; further calls wait in line, and beyond 256 are answered as busy")
	fs.IntVar(&cfg.maxSubs, "max-subscriptions", 100, "resources one client may watch at once (a stdio session, or an HTTP principal's listen streams, each stream counting one more)")
	fs.IntVar(&cfg.memoryLimitMiB, "memory-limit-mib", defaultMemoryLimitMiB, "soft memory limit of the server in MiB (Go's GOMEMLIMIT; the default applies unless GOMEMLIMIT is set; 0: none)")
	fs.IntVar(&cfg.memoryBudgetMiB, "memory-budget-mib", server.DefaultMemoryBudget>>20, "MiB the calls in flight may hold at once for their data (a file read or edited); a call that would go past it waits for others to finish")
	fs.StringVar(&cfg.lang, "lang", "en", "language of the error messages the model reads: en or zh")
	fs.BoolVar(&cfg.readOnly, "read-only", false, "serve only tools that read; nothing can be changed")
	fs.Func("tools", "serve only these tools, as a comma-separated list of names (repeatable), so that the others cost the model no context", nameList(&cfg.tools))
	fs.Func("disable-tools", "serve every tool but these, as a comma-separated list of names (repeatable)", nameList(&cfg.disableTools))
	fs.BoolVar(&cfg.allowAdmin, "allow-admin", false, "also serve admin tools (delete_file)")
	fs.BoolVar(&cfg.confirmWrites, "confirm-writes", false, "ask the user (MCP elicitation) before every change; clients without elicitation get a refusal")
	fs.StringVar(&cfg.nonceDir, "nonce-dir", "", "directory, outside the root, where the confirmations accepted over MCP 2026-07-28 are recorded, so that each is accepted once by every process sharing it (default: each process remembers its own)")
	fs.StringVar(&cfg.lockDir, "lock-dir", "", "private directory, outside the roots, holding the lock file that keeps the changes of one file by several toolserver processes apart; processes writing the same files must share it, on the shared volume across machines (Linux; default: toolserver-UID in the temporary directory)")
	fs.StringVar(&cfg.stateKeyFile, "state-key-file", "", "file holding the key (at least 32 bytes) that seals the state of a confirmation asked over MCP 2026-07-28; processes serving the same clients must share it (default: a key made at start)")
	fs.IntVar(&cfg.maxCalls, "max-calls", 0, "tool calls one session may make (0: no limit)")
	fs.Float64Var(&cfg.callsPerSecond, "calls-per-second", 0, "rate limit for tool calls, with bursts of one second's worth (0: no limit)")
	fs.DurationVar(&cfg.toolTimeout, "tool-timeout", 30*time.Second, "longest a tool call may run before the model is told it ran out of time")
	fs.StringVar(&cfg.metricsAddr, "metrics-addr", "", "serve Prometheus metrics over HTTP at this address, such as :9464 (loopback when no host is given; off when empty)")
	fs.Int64Var(&cfg.maxWriteBytes, "max-write-bytes", security.DefaultMaxWriteBytes, "most bytes one call may write: a file written, edited or copied (its full size, holes included), a directory copied")
	fs.Int64Var(&cfg.maxEditBytes, "max-edit-bytes", security.DefaultMaxEditBytes, "largest file edit_file changes; each edit reserves three times its size from the memory budget")
	fs.IntVar(&cfg.maxRepeats, "max-repeats", 4, "identical tool calls allowed back to back before the next is refused as a loop (-1: no limit)")
	fs.BoolVar(&cfg.version, "version", false, "print the version and exit")
	if cmd == "serve" {
		addHTTPFlags(fs, &cfg.http)
	}
	if cmd == "call" {
		fs.Var(&cfg.jsonArgs, "json", `the arguments as one JSON object, e.g. '{"expr":"1/3"}' (instead of key=value)`)
	}
	fs.Usage = func() { usage(fs, cmd) }
	return cfg, fs
}

// nameList returns the parser of a flag that adds comma-separated names to
// *list, refusing an empty one.
func nameList(list *[]string) func(string) error {
	return func(v string) error {
		for name := range strings.SplitSeq(v, ",") {
			name = strings.TrimSpace(name)
			if name == "" {
				return errors.New("a tool name is empty; give names separated by commas, as read_file,grep")
			}
			*list = append(*list, name)
		}
		return nil
	}
}

// defaultMemoryLimitMiB is the server's soft memory limit unless
// --memory-limit-mib or GOMEMLIMIT says otherwise: the garbage collector
// works harder as the heap nears it, well below the 256 MiB the server
// means to stay under.
const defaultMemoryLimitMiB = 192

// maxMiB is the most MiB a flag may give: more would not fit in the
// int64 bytes that the server and the runtime take, and shifting it to
// bytes would wrap around to a small or negative size.
const maxMiB int64 = math.MaxInt64 >> 20

// version is the module version the binary was built from.
func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "devel"
}

// usage prints the help text, with a client configuration to paste.
func usage(fs *flag.FlagSet, cmd string) {
	w := fs.Output()
	switch cmd {
	case "tools":
		fmt.Fprint(w, "Usage: toolserver tools --root DIR\n\nPrints the tools this server offers, with their input and output schemas, as JSON.\n\nFlags:\n")
	case "call":
		fmt.Fprint(w, `Usage: toolserver call --root DIR TOOL [key=value ...] [key:=JSON ...]
       toolserver call --root DIR TOOL --json '{...}'

Runs one tool with exactly the checks of the protocol path and prints its
result. key=value passes a string (numbers and booleans are converted where
the schema asks for them); key:=JSON passes any JSON value; repeating a key
makes a list. Flags may come before or after TOOL; the first other word
names the tool, and after -- every word is the tool or an argument. Exits 1
when the tool reports an error, 2 on a usage error.

Examples:
  toolserver call --root . calc expr='4535/2228' precision=10
  toolserver call --root . calc --json '{"expr":"sqrt(2)"}'

Flags:
`)
	default:
		fmt.Fprint(w, `Usage: toolserver --root DIR [--root NAME=DIR ...] [--read-only-root DIR ...] [flags]
       toolserver tools --root DIR
       toolserver call --root DIR TOOL key=value ...

toolserver is a Model Context Protocol (MCP) server. An agent host starts it
and speaks JSON-RPC 2.0 on its stdin and stdout, one message per line; logs go
to stderr. Its tools work inside --root and nowhere else. With --http ADDR it
serves MCP over Streamable HTTP at http://ADDR/mcp instead (see docs/http.md).

To use it from an MCP host (Claude Desktop, VS Code, Cursor, ...), add:

  {
    "mcpServers": {
      "toolserver": {
        "command": "toolserver",
        "args": ["--root", "/path/to/your/folder"]
      }
    }
  }

With several folders, repeat --root (NAME=DIR names a root) and add folders
the tools may only read with --read-only-root; paths then name their root,
as "notes:/todo.md", and a plain path lies in the first root:

        "args": ["--root", "/home/me/src", "--read-only-root", "notes=/home/me/notes"]

Flags:
`)
	}
	fs.PrintDefaults()
}
