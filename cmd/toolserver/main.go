// Command toolserver is an MCP server for AI agents: sandboxed file tools
// and an exact calculator, spoken in JSON-RPC over stdio or over
// Streamable HTTP.
//
// An agent host launches it as a subprocess, speaking over its stdin and
// stdout:
//
//	toolserver --root ./playground
//
// or it serves remote clients, and many processes may share one tree:
//
//	toolserver --root ./playground --http 127.0.0.1:8080
//
// Two one-shot subcommands run the same tools, with the same checks, for
// people and scripts:
//
//	toolserver tools --root DIR                  print the tools and their schemas
//	toolserver call --root DIR TOOL key=value …  run one tool and print its result
//
// Run toolserver --help for every flag and a client configuration snippet.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/stdiotools/toolserver/metrics"
	"github.com/stdiotools/toolserver/server"
)

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Getenv, os.Stdin, os.Stdout, os.Stderr))
}

// Exit codes.
const (
	exitOK        = 0
	exitToolError = 1 // the tool ran and reported an error
	exitUsage     = 2 // the command line or the request was wrong
)

// flagSet reports whether the command line set the flag name.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// splitFlags separates the flags of a command line, with their values, from
// its other words, so that flags may come anywhere: before the tool name,
// after it, between its arguments. A word is a flag when it starts with a
// dash (a lone "-" does not); a flag that takes a value and is not written
// --name=value takes the next word, whatever it is, just as fs.Parse would.
// "--" ends the flags: every word after it is an operand. Unknown flags stay
// among the flags for fs.Parse to report.
func splitFlags(fs *flag.FlagSet, args []string) (flags, operands []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return flags, append(operands, args[i+1:]...)
		case len(a) < 2 || a[0] != '-':
			operands = append(operands, a)
			continue
		}
		flags = append(flags, a)
		name := strings.TrimPrefix(a[1:], "-")
		if strings.Contains(name, "=") {
			continue
		}
		f := fs.Lookup(name)
		if f == nil {
			continue
		}
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
			continue
		}
		if i+1 < len(args) {
			i++
			flags = append(flags, args[i])
		}
	}
	return flags, operands
}

// run is main without the process: it returns the exit code.
func run(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) int {
	cmd := "serve"
	if len(args) > 0 && (args[0] == "tools" || args[0] == "call") {
		cmd, args = args[0], args[1:]
	}
	cfg, fs := newConfig(cmd, stderr)
	var operands []string
	if cmd == "call" {
		args, operands = splitFlags(fs, args)
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if cfg.version {
		fmt.Fprintln(stdout, "toolserver", version())
		return exitOK
	}
	if cmd == "serve" && fs.NArg() > 0 {
		fmt.Fprintf(stderr, "toolserver: unexpected argument %q; subcommands are tools and call (see --help)\n", fs.Arg(0))
		return exitUsage
	}
	if cmd != "serve" && !flagSet(fs, "log-level") {
		cfg.logLevel = "error" // a one-shot command prints its result (and its failure), not the server's log
	}
	log, err := newLogger(cfg.logLevel, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "toolserver:", err)
		return exitUsage
	}
	// Metrics are kept only when they are served: otherwise the server has
	// no observer, and nothing metrics-related is made.
	var m *metrics.Metrics
	var observer server.Observer
	if cmd == "serve" && cfg.metricsAddr != "" {
		m = metrics.New()
		observer = m
	}
	var tracer server.Tracer
	if cmd == "serve" {
		var stopTracing func()
		tracer, stopTracing = startTracing(getenv, log)
		defer stopTracing()
	}
	srv, closeRoot, err := build(cfg, observer, tracer, log)
	if err != nil {
		fmt.Fprintln(stderr, "toolserver:", err)
		return exitUsage
	}
	defer closeRoot()
	switch cmd {
	case "tools":
		return listTools(srv, stdout, stderr)
	case "call":
		return callTool(ctx, srv, append(operands, fs.Args()...), cfg.jsonArgs, stdout, stderr)
	default:
		if cfg.memoryLimitMiB < 0 {
			fmt.Fprintf(stderr, "toolserver: --memory-limit-mib %d must not be negative (0: no limit)\n", cfg.memoryLimitMiB)
			return exitUsage
		}
		if int64(cfg.memoryLimitMiB) > maxMiB {
			fmt.Fprintf(stderr, "toolserver: --memory-limit-mib %d is too large; the most is %d\n", cfg.memoryLimitMiB, maxMiB)
			return exitUsage
		}
		if !flagSet(fs, "memory-limit-mib") && getenv("GOMEMLIMIT") != "" {
			cfg.memoryLimitMiB = 0 // the runtime read GOMEMLIMIT already
		}
		return serve(ctx, srv, m, cfg, log, stdin, stdout, stderr)
	}
}
