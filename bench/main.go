//go:build !windows

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"
)

// Flag defaults.
const (
	defaultTool        = "calc"
	defaultArgs        = `{"expr":"1+1"}`
	defaultPayloadTool = "read_file"
	defaultN           = 2000
	defaultWarmup      = 200
	defaultRound       = 100
	defaultCold        = 30
	defaultCalls       = 20000
	defaultK           = 16
	defaultRounds      = 10
	defaultPayloadN    = 200
	defaultStall       = 30 * time.Second
	defaultTimeout     = 15 * time.Minute
	defaultListN       = 1000
	defaultWriteN      = 10
	defaultMemCalls    = 160
)

// reportedError is a command-line error that the flag package has already
// printed, with the usage.
type reportedError struct{ error }

// config is what the command line asks for.
type config struct {
	server []string
	// baseline, when set, replaces the echo as B: a second server to
	// compare with, such as the same server before a change.
	baseline []string
	// suite names a suite of measures to run instead (peers or http), in root,
	// with sdk the go-sdk peer's command line.
	suite string
	root  string
	sdk   []string
	// plan sets the sizes of the suite's files; its zero value is the
	// real sizes (tests set less).
	plan    suitePlan
	opts    Options
	cpu     string
	json    bool
	quiet   bool
	timeout time.Duration
}

func main() {
	if len(os.Args) > 1 && os.Args[1] == "echo" {
		if err := echoMain(); err != nil {
			fmt.Fprintln(os.Stderr, "toolbench echo:", err)
			os.Exit(1)
		}
		return
	}
	if len(os.Args) > 1 && os.Args[1] == "floor" {
		if err := floorMain(os.Args[2:]); err != nil {
			fmt.Fprintln(os.Stderr, "toolbench floor:", err)
			os.Exit(1)
		}
		return
	}
	if len(os.Args) > 1 && os.Args[1] == "context" {
		switch err := contextMain(os.Args[2:], os.Stdout, os.Stderr); {
		case errors.Is(err, flag.ErrHelp):
		case err != nil:
			fmt.Fprintln(os.Stderr, "toolbench context:", err)
			os.Exit(1)
		}
		return
	}
	if len(os.Args) > 1 && os.Args[1] == "httpfloor" {
		if err := httpFloorMain(os.Args[2:]); err != nil {
			fmt.Fprintln(os.Stderr, "toolbench httpfloor:", err)
			os.Exit(1)
		}
		return
	}
	os.Exit(realMain(os.Args[1:], os.Stdout, os.Stderr))
}

// realMain runs the benchmark for the command-line args and returns the
// exit code: 0 done, 1 failed, 2 bad command line.
func realMain(args []string, stdout, stderr io.Writer) int {
	cfg, err := parseConfig(args, stderr)
	switch {
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, new(reportedError)):
		return 2
	case err != nil:
		fmt.Fprintln(stderr, "toolbench:", err)
		return 2
	}
	cpus, cpuList, err := pin(cfg.cpu, args)
	if err != nil {
		fmt.Fprintln(stderr, "toolbench: -cpu:", err)
		return 1
	}
	pinned := len(cpus) == 1
	if !pinned {
		fmt.Fprintf(stderr, "toolbench: warning: not pinned to one CPU (allowed: %s): each target may settle on a CPU of its own, and a wake-up across CPUs costs more than a server does, so ratios are unreliable; use -cpu 0 or taskset -c 0\n", cpuList)
	}
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintln(stderr, "toolbench:", err)
		return 1
	}
	if cfg.suite != "" {
		return suiteMain(cfg, self, cpuList, pinned, stdout, stderr)
	}
	specs := [2]Spec{
		{Label: filepath.Base(cfg.server[0]), Argv: cfg.server},
		{Label: "echo", Argv: []string{self, "echo"}, Echo: true},
	}
	if len(cfg.baseline) > 0 {
		specs[1] = Spec{Label: "baseline", Argv: cfg.baseline}
	}

	res, ok := measured(cfg, stderr, func(ctx context.Context, log io.Writer) (*Results, error) {
		return run(ctx, specs, cfg.opts, log)
	})
	if !ok {
		return 1
	}
	rep := Report{
		Targets:  [2]string{specs[0].Label, specs[1].Label},
		Server:   cfg.server,
		Baseline: cfg.baseline,
		CPUs:     cpuList,
		Pinned:   pinned,
		Options:  cfg.opts,
		Rows:     rows(res, cfg.opts, len(cfg.baseline) == 0),
		Results:  res,
	}
	write := writeTable
	if cfg.json {
		write = writeJSON
	}
	if err := write(stdout, rep); err != nil {
		fmt.Fprintln(stderr, "toolbench:", err)
		return 1
	}
	return 0
}

// parseConfig reads the command line. The server is -server, split on
// spaces, or everything after the flags ("-- cmd args…").
func parseConfig(args []string, stderr io.Writer) (config, error) {
	var cfg config
	o := &cfg.opts
	fs := flag.NewFlagSet("toolbench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `Usage: toolbench [flags] -server 'cmd args'
       toolbench [flags] -- cmd args
       toolbench -suite peers -root DIR -server 'cmd --root DIR …' -sdk 'sdkpeer -root DIR' [flags]
       toolbench -suite http -root DIR -server 'cmd --root DIR --http ADDR …' -sdk 'sdkpeer -root DIR -http ADDR' [flags]

Measures an MCP stdio server (A) against a line echo (B), interleaved,
and prints medians and the ratio A/B. With -suite peers, measures start,
reads, calls/s, memory, listing and writes against the go-sdk peer
(go -C bench build ./internal/sdkpeer), the echo and a floor of the work,
each held to its goal, in a folder it prepares. With -suite http, measures
read_file of 1 KiB over Streamable HTTP against the go-sdk peer and a bare
net/http handler. See "go -C bench doc".

Flags:
`)
		fs.PrintDefaults()
	}
	server := fs.String("server", "", "the MCP server command line, split on spaces (or give it after --)")
	baseline := fs.String("baseline", "", "a second MCP server command line to measure as B instead of the echo (no goals then), such as the same server before a change")
	only := fs.String("only", "", "comma-separated measures: rtt,cold,throughput,payload (default all; payload only with -payload-args)")
	fs.StringVar(&o.Tool, "tool", defaultTool, "tool to call in rtt and throughput")
	fs.StringVar(&o.Args, "args", defaultArgs, "JSON arguments of -tool")
	fs.IntVar(&o.N, "n", defaultN, "rtt: measured round trips per target")
	fs.IntVar(&o.Warmup, "warmup", defaultWarmup, "rtt: warm-up round trips per target (also throughput warm-up calls)")
	fs.IntVar(&o.Round, "round", defaultRound, "rtt: round trips per target per interleaved round (at most; rounds are made even)")
	fs.IntVar(&o.Cold, "cold", defaultCold, "cold: starts per target")
	fs.IntVar(&o.Calls, "calls", defaultCalls, "throughput: calls per target")
	fs.IntVar(&o.K, "k", defaultK, "throughput: requests in flight")
	fs.IntVar(&o.Rounds, "rounds", defaultRounds, "throughput: interleaved rounds the calls are split into (made even)")
	fs.StringVar(&o.PayloadTool, "payload-tool", defaultPayloadTool, "payload: tool with a big response")
	fs.StringVar(&o.PayloadArgs, "payload-args", "", `payload: JSON arguments of -payload-tool, e.g. '{"path":"big.txt"}' (empty: no payload measure)`)
	fs.IntVar(&o.PayloadN, "payload-n", defaultPayloadN, "payload: measured calls per target")
	fs.BoolVar(&o.Check, "check", true, "check every server response (false: check only its id, so an echo can stand as the server)")
	fs.DurationVar(&o.Stall, "stall", defaultStall, "abort when a round or a start takes longer than this")
	fs.StringVar(&cfg.suite, "suite", "", "run a suite of measures instead: peers or http (needs -root and -sdk; the -only, -tool, -args, -payload-* and -baseline flags do not apply)")
	fs.StringVar(&cfg.root, "root", "", "suite: a new or empty folder to prepare the files in (or one prepared before); give it to the servers too")
	sdk := fs.String("sdk", "", "suite: the go-sdk peer's command line, split on spaces, e.g. '/tmp/bench-sdk -root DIR' (with -suite http: '/tmp/bench-sdk -root DIR -http 127.0.0.1:PORT')")
	fs.IntVar(&o.ListN, "list-n", defaultListN, "suite peers: measured listings per target")
	fs.IntVar(&o.WriteN, "write-n", defaultWriteN, "suite peers: measured writes and edits per target and size")
	fs.IntVar(&o.MemCalls, "mem-calls", defaultMemCalls, "suite peers: calls of each memory measure")
	fs.StringVar(&cfg.cpu, "cpu", "", "CPU list to pin toolbench and all targets to, e.g. 0 (re-executes under taskset)")
	fs.BoolVar(&cfg.json, "json", false, "print a JSON object instead of the table")
	fs.BoolVar(&cfg.quiet, "q", false, "no progress lines on stderr")
	fs.DurationVar(&cfg.timeout, "timeout", defaultTimeout, "abort the whole run after this long")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return cfg, err
		}
		return cfg, reportedError{err}
	}

	switch {
	case *server != "" && fs.NArg() > 0:
		return cfg, errors.New("give the server either with -server or after --, not both")
	case *server != "":
		cfg.server = strings.Fields(*server)
	default:
		cfg.server = fs.Args()
	}
	if len(cfg.server) == 0 {
		return cfg, errors.New("no server: use -server 'cmd args' or -- cmd args")
	}
	cfg.baseline = strings.Fields(*baseline)
	cfg.sdk = strings.Fields(*sdk)
	if cfg.suite != "" {
		return cfg, checkSuiteConfig(&cfg, fs)
	}

	if *only == "" {
		for _, m := range allMeasures() {
			if m != measurePayload || o.PayloadArgs != "" {
				o.Measures = append(o.Measures, m)
			}
		}
	} else {
		asked := strings.Split(*only, ",")
		for _, m := range asked {
			if !slices.Contains(allMeasures(), strings.TrimSpace(m)) {
				return cfg, fmt.Errorf("-only: unknown measure %q (want rtt, cold, throughput, payload)", m)
			}
		}
		for _, m := range allMeasures() {
			if slices.ContainsFunc(asked, func(a string) bool { return strings.TrimSpace(a) == m }) {
				o.Measures = append(o.Measures, m)
			}
		}
	}
	if o.has(measurePayload) && o.PayloadArgs == "" {
		return cfg, errors.New("the payload measure needs -payload-args")
	}

	for _, c := range []struct {
		name string
		v    int
	}{{"n", o.N}, {"round", o.Round}, {"cold", o.Cold}, {"calls", o.Calls}, {"k", o.K}, {"rounds", o.Rounds}, {"payload-n", o.PayloadN}} {
		if c.v < 1 {
			return cfg, fmt.Errorf("-%s must be at least 1", c.name)
		}
	}
	if o.Warmup < 0 {
		return cfg, errors.New("-warmup must not be negative")
	}
	if o.Stall <= 0 || cfg.timeout <= 0 {
		return cfg, errors.New("-stall and -timeout must be positive")
	}
	if _, err := newCallTemplate(o.Tool, o.Args); err != nil {
		return cfg, fmt.Errorf("-tool/-args: %w", err)
	}
	if o.PayloadArgs != "" {
		if _, err := newCallTemplate(o.PayloadTool, o.PayloadArgs); err != nil {
			return cfg, fmt.Errorf("-payload-tool/-payload-args: %w", err)
		}
	}
	if cfg.cpu != "" {
		if _, err := parseCPUList(cfg.cpu); err != nil {
			return cfg, fmt.Errorf("-cpu: %w", err)
		}
	}
	return cfg, nil
}

// measured runs measure until an interrupt or cfg.timeout, with its
// progress on stderr unless cfg.quiet, and reports its error there: ok is
// false when it failed.
func measured[T any](cfg config, stderr io.Writer, measure func(ctx context.Context, log io.Writer) (T, error)) (_ T, ok bool) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, cfg.timeout)
	defer cancel()
	log := stderr
	if cfg.quiet {
		log = io.Discard
	}
	res, err := measure(ctx, log)
	if err != nil {
		if ctx.Err() != nil {
			err = fmt.Errorf("%w (%v)", err, context.Cause(ctx))
		}
		fmt.Fprintln(stderr, "toolbench:", err)
		return res, false
	}
	return res, true
}
