package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/rs/zerolog"
	"github.com/stdiotools/toolserver/i18n"
	"github.com/stdiotools/toolserver/metrics"
	"github.com/stdiotools/toolserver/security"
	"github.com/stdiotools/toolserver/server"
	"github.com/stdiotools/toolserver/tools/calc"
	"github.com/stdiotools/toolserver/tools/fs"
)

// build checks the configuration and returns a server with every tool
// registered, and the function that closes the root when the server is
// done with it. The server reports its calls to observer and their spans
// to tracer, each unless it is nil.
func build(cfg *config, observer server.Observer, tracer server.Tracer, log zerolog.Logger) (*server.Server, func() error, error) {
	if len(cfg.roots) == 0 {
		return nil, nil, fmt.Errorf("--root is required: the folder the tools may work in (or --read-only-root, for one they may only read)")
	}
	if cfg.maxMessageBytes < 1024 {
		return nil, nil, fmt.Errorf("--max-message-bytes %d is too small; use at least 1024", cfg.maxMessageBytes)
	}
	if cfg.toolTimeout <= 0 {
		return nil, nil, fmt.Errorf("--tool-timeout %v must be positive", cfg.toolTimeout)
	}
	if cfg.maxRepeats == 0 || cfg.maxRepeats < -1 {
		return nil, nil, fmt.Errorf("--max-repeats %d must be at least 1, or -1 for no limit", cfg.maxRepeats)
	}
	if cfg.maxCalls < 0 || cfg.callsPerSecond < 0 {
		return nil, nil, fmt.Errorf("--max-calls and --calls-per-second must not be negative")
	}
	if cfg.maxWriteBytes < 1 {
		return nil, nil, fmt.Errorf("--max-write-bytes %d must be at least 1", cfg.maxWriteBytes)
	}
	if cfg.maxEditBytes < 1 {
		return nil, nil, fmt.Errorf("--max-edit-bytes %d must be at least 1", cfg.maxEditBytes)
	}
	if cfg.memoryBudgetMiB < 1 {
		return nil, nil, fmt.Errorf("--memory-budget-mib %d must be at least 1", cfg.memoryBudgetMiB)
	}
	if int64(cfg.memoryBudgetMiB) > maxMiB {
		return nil, nil, fmt.Errorf("--memory-budget-mib %d is too large; the most is %d", cfg.memoryBudgetMiB, maxMiB)
	}
	if cfg.maxSubs < 1 {
		return nil, nil, fmt.Errorf("--max-subscriptions %d must be at least 1", cfg.maxSubs)
	}
	if cfg.maxInFlight < 1 {
		return nil, nil, fmt.Errorf("--max-inflight %d must be at least 1", cfg.maxInFlight)
	}
	lang, err := i18n.Parse(cfg.lang)
	if err != nil {
		return nil, nil, fmt.Errorf("--lang: %w", err)
	}
	var stateKey []byte
	if cfg.stateKeyFile != "" {
		if stateKey, err = os.ReadFile(cfg.stateKeyFile); err != nil {
			return nil, nil, fmt.Errorf("--state-key-file: %w", err)
		}
		if stateKey = bytes.TrimSpace(stateKey); len(stateKey) < 32 {
			return nil, nil, fmt.Errorf("--state-key-file %q holds %d bytes; use at least 32 random bytes, such as the output of: head -c 32 /dev/urandom | base64", cfg.stateKeyFile, len(stateKey))
		}
	}
	roots, err := openRoots(cfg.roots)
	if err != nil {
		return nil, nil, err
	}
	fail := func(err error) (*server.Server, func() error, error) {
		closeRoots(roots)
		return nil, nil, err
	}
	var nonces server.NonceStore
	if cfg.nonceDir != "" {
		dir, err := filepath.Abs(cfg.nonceDir)
		if err != nil {
			return fail(fmt.Errorf("--nonce-dir %q: %w", cfg.nonceDir, err))
		}
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			return fail(fmt.Errorf("--nonce-dir %q is not a directory", cfg.nonceDir))
		}
		if insideRoot(roots, dir) != "" {
			return fail(fmt.Errorf("--nonce-dir %q is inside --root; put it outside, where the tools cannot reach it", cfg.nonceDir))
		}
		nonces = server.DirNonces{Dir: dir}
	}
	specs := make([]security.Root, len(roots))
	for i, r := range roots {
		specs[i] = r.Root
	}
	locks, err := openLocks(cfg.lockDir, roots, log)
	if err != nil {
		return fail(err)
	}
	sandbox, err := security.NewRoots(specs, security.SandboxOptions{Lang: lang, Limits: security.Limits{MaxWriteBytes: cfg.maxWriteBytes, MaxEditBytes: cfg.maxEditBytes}, Locks: locks})
	if err != nil {
		return fail(err)
	}
	readOnly := cfg.readOnly || allReadOnly(roots)
	srv := server.New(server.Options{
		Lang:             lang,
		Version:          version(),
		Tools:            cfg.tools,
		DisableTools:     cfg.disableTools,
		Instructions:     instructions(sandbox, readOnly, cfg),
		Logger:           log,
		MaxMessageBytes:  cfg.maxMessageBytes,
		MaxInFlight:      cfg.maxInFlight,
		MaxSubscriptions: cfg.maxSubs,
		MemoryBudget:     int64(cfg.memoryBudgetMiB) << 20,
		ReadOnly:         readOnly,
		TargetKey:        sandbox.Key,
		AllowAdmin:       cfg.allowAdmin,
		ConfirmWrites:    cfg.confirmWrites,
		StateKey:         stateKey,
		Nonces:           nonces,
		MaxCalls:         cfg.maxCalls,
		CallsPerSecond:   cfg.callsPerSecond,
		ToolTimeout:      cfg.toolTimeout,
		MaxRepeats:       cfg.maxRepeats,
		Observer:         observer,
		Tracer:           tracer,
		Roots: func(ctx context.Context, paths []string, err error) {
			if err != nil {
				sandbox.Deny()
				log.Warn().Err(err).Msg("the client has roots but did not say which; no path may be used until it does")
				return
			}
			if ignored := sandbox.RestrictHost(paths); len(ignored) > 0 {
				// The ignored roots are the client's: a bounded prefix of them.
				if len(ignored) > 32 {
					ignored = ignored[:32]
				}
				for i, p := range ignored {
					if len(p) > 512 {
						ignored[i] = p[:512] + "…"
					}
				}
				log.Warn().Strs("ignored", ignored).Strs("allowed", sandbox.Allowed()).
					Msg("client roots outside every --root were ignored; client roots can only narrow the roots")
			}
		},
	})
	if err := calc.Register(srv); err != nil {
		return fail(fmt.Errorf("register the calculator: %w", err))
	}
	if err := fs.Register(srv, sandbox); err != nil {
		return fail(fmt.Errorf("register the file tools: %w", err))
	}
	if err := srv.CheckToolNames(); err != nil {
		return fail(fmt.Errorf("--tools or --disable-tools: %w", err))
	}
	return srv, func() error { return closeRoots(roots) }, nil
}

// instructions tell the model, in the initialize result, what the server
// is for and which rules it enforces. Only the roots' own names are
// shown: the host paths above them are none of the model's business.
func instructions(sb *security.Sandbox, readOnly bool, cfg *config) string {
	roots := sb.Roots()
	offers := "toolserver offers exact arithmetic (calc) and tools that work on files"
	if !serves(cfg, "calc") {
		offers = "toolserver offers tools that work on files" // --tools or --disable-tools left calc out
	}
	var text string
	if !sb.Multi() {
		text = fmt.Sprintf(offers+" inside one folder, the root (%q). "+
			"Give paths relative to the root; nothing outside it can be read or changed. "+
			"When a call fails, the error says which argument to fix and how.", roots[0].Name)
	} else {
		names := make([]string, len(roots))
		for i, r := range roots {
			names[i] = strconv.Quote(r.Name)
			if r.ReadOnly {
				names[i] += " (read-only)"
			}
		}
		text = fmt.Sprintf(offers+" inside %d folders, the roots %s. "+
			"A path names its root: %q is todo.md in the root %q, and a plain relative path such as \"src/main.go\" lies in the first root, %q. "+
			"Nothing outside the roots can be read or changed, and nothing in a read-only root can be changed. "+
			"When a call fails, the error says which argument to fix and how.",
			len(roots), strings.Join(names, ", "), roots[1].Name+":/todo.md", roots[1].Name, roots[0].Name)
	}
	switch {
	case readOnly:
		text += " This server is read-only: files can be read and searched, not changed."
	case cfg.confirmWrites:
		text += " The user confirms every change before it is made; a declined change is not an error to retry."
	}
	return text
}

// serves reports whether --tools and --disable-tools let the tool name be
// served, as server.Options does with them.
func serves(cfg *config, name string) bool {
	return (len(cfg.tools) == 0 || slices.Contains(cfg.tools, name)) && !slices.Contains(cfg.disableTools, name)
}

// serve speaks MCP on stdin and stdout until stdin closes or a signal
// arrives, then lets calls in flight finish; with --http, it serves
// Streamable HTTP instead (http.go). m is served with --metrics-addr, and
// is nil without it.
func serve(ctx context.Context, srv *server.Server, m *metrics.Metrics, cfg *config, log zerolog.Logger, stdin io.Reader, stdout, stderr io.Writer) int {
	if err := cfg.http.check(); err != nil {
		fmt.Fprintln(stderr, "toolserver:", err)
		return exitUsage
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	if cfg.metricsAddr != "" {
		closeMetrics, err := serveMetrics(cfg.metricsAddr, m, log)
		if err != nil {
			log.Error().Err(err).Msg("cannot serve metrics")
			return exitUsage
		}
		defer closeMetrics()
	}
	if cfg.memoryLimitMiB > 0 {
		prev := debug.SetMemoryLimit(int64(cfg.memoryLimitMiB) << 20)
		defer debug.SetMemoryLimit(prev) // run may be called again, in tests
	}
	if cfg.http.addr != "" {
		if m != nil {
			cfg.http.auth.refused = m.AuthRefused
		}
		return serveHTTP(ctx, srv, &cfg.http, log, stderr)
	}
	// Only a log that shows it reads the version again: parsing the build
	// information is not free, and build has read it for the server.
	log.Info().Func(func(e *zerolog.Event) { e.Str("version", version()) }).
		Int64("memory_limit", debug.SetMemoryLimit(-1)).Msg("serving MCP on stdio")
	stdin, restore := pollable(stdin)
	defer restore()
	if err := srv.Serve(ctx, stdin, stdout); err != nil {
		log.Error().Err(err).Msg("stopped")
		return exitToolError
	}
	log.Info().Msg("stopped")
	return exitOK
}

// serveMetrics serves m over HTTP at addr, on the loopback interface when
// addr names no host, and returns the function that stops it.
func serveMetrics(addr string, m *metrics.Metrics, log zerolog.Logger) (func(), error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("--metrics-addr %q: %w", addr, err)
	}
	if host == "" {
		host = "127.0.0.1"
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(host, port))
	if err != nil {
		return nil, fmt.Errorf("--metrics-addr %q: %w", addr, err)
	}
	mux := http.NewServeMux()
	mux.Handle("/metrics", m.Handler())
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = hs.Serve(ln) }()
	log.Info().Str("addr", ln.Addr().String()).Msg("serving metrics at /metrics")
	return func() { _ = hs.Close() }, nil
}
