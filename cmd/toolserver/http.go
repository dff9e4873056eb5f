package main

import (
	"context"
	"crypto/tls"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/rs/zerolog"
	"github.com/stdiotools/toolserver/server"
)

// httpConfig is what the flags of the HTTP transport say.
type httpConfig struct {
	addr          string
	tokenFile     string
	allowedHosts  string
	tlsCert       string
	tlsKey        string
	maxConcurrent int
	auth          authConfig
}

// addHTTPFlags adds the flags of the HTTP transport to fs.
func addHTTPFlags(fs *flag.FlagSet, c *httpConfig) {
	fs.StringVar(&c.addr, "http", "", "serve MCP over Streamable HTTP at http://ADDR/mcp instead of stdio, such as 127.0.0.1:8080 (legacy era, stateless)")
	fs.StringVar(&c.tokenFile, "auth-token-file", "", "with --http: file holding the bearer token every request must carry (required unless ADDR is loopback)")
	fs.StringVar(&c.allowedHosts, "allowed-hosts", "", "with --http: host names, comma separated, that Host and Origin may name besides localhost, 127.0.0.1 and ::1")
	fs.StringVar(&c.tlsCert, "tls-cert", "", "with --http: serve HTTPS with this certificate (PEM; needs --tls-key)")
	fs.StringVar(&c.tlsKey, "tls-key", "", "with --http: the private key of --tls-cert (PEM)")
	fs.IntVar(&c.maxConcurrent, "http-max-concurrent", 256, "with --http: requests served at once; beyond them a request is answered 503")
	addAuthFlags(fs, &c.auth)
}

// check refuses the flags of the HTTP transport without --http, which
// would otherwise be ignored in silence.
func (c *httpConfig) check() error {
	if c.addr != "" {
		return c.auth.check(c.tokenFile)
	}
	if name, ok := c.auth.used(); ok {
		return fmt.Errorf("--%s applies only with --http ADDR", name)
	}
	for name, v := range map[string]string{"auth-token-file": c.tokenFile, "allowed-hosts": c.allowedHosts, "tls-cert": c.tlsCert, "tls-key": c.tlsKey} {
		if v != "" {
			return fmt.Errorf("--%s applies only with --http ADDR", name)
		}
	}
	return nil
}

// HTTP server timeouts. A response may take as long as a tool call, so
// there is no overall write timeout; the handler bounds each write.
const (
	httpReadHeaderTimeout = 10 * time.Second
	httpIdleTimeout       = 2 * time.Minute
	httpShutdownGrace     = 6 * time.Second // the server drains each request within 5 s
)

// httpSetup is a checked HTTP configuration, ready to listen.
type httpSetup struct {
	addr    string
	tls     *tls.Config // nil: plain HTTP
	handler http.Handler
	srv     *server.Server // its subscriptions end as the HTTP server shuts down
}

// checkHTTP checks the HTTP flags and builds the handler: /mcp and
// /healthz, and with OAuth the protected resource's metadata. With
// OAuth, it reads the issuer's metadata and keys within ctx.
func checkHTTP(ctx context.Context, c *httpConfig, srv *server.Server) (*httpSetup, error) {
	if err := c.check(); err != nil {
		return nil, err
	}
	host, _, err := net.SplitHostPort(c.addr)
	if err != nil {
		return nil, fmt.Errorf("--http %q: %w (give HOST:PORT, such as 127.0.0.1:8080)", c.addr, err)
	}
	if (c.tlsCert == "") != (c.tlsKey == "") {
		return nil, errors.New("--tls-cert and --tls-key go together: give both or neither")
	}
	opts := server.HTTPOptions{MaxConcurrent: c.maxConcurrent}
	if c.maxConcurrent < 1 {
		return nil, fmt.Errorf("--http-max-concurrent %d must be at least 1", c.maxConcurrent)
	}
	if c.tokenFile != "" {
		b, err := os.ReadFile(c.tokenFile)
		if err != nil {
			return nil, fmt.Errorf("--auth-token-file: %w", err)
		}
		opts.Token = strings.TrimSpace(string(b))
		if opts.Token == "" {
			return nil, fmt.Errorf("--auth-token-file %q is empty; put the token in it", c.tokenFile)
		}
	}
	if !isLoopback(host) && opts.Token == "" && c.auth.issuer == "" {
		return nil, fmt.Errorf("--http %q listens beyond this machine, where anyone who reaches it could use the tools; give --auth-token-file FILE or --oauth-issuer URL, or listen on 127.0.0.1", c.addr)
	}
	if err := c.auth.withGateway(&opts); err != nil {
		return nil, err
	}
	for _, name := range strings.Split(c.allowedHosts, ",") {
		if name = strings.TrimSpace(name); name != "" {
			opts.AllowedHosts = append(opts.AllowedHosts, name)
		}
	}
	if ip := net.ParseIP(strings.Trim(host, "[]")); host != "" && (ip == nil || !ip.IsUnspecified()) {
		opts.AllowedHosts = append(opts.AllowedHosts, host) // the address a client dials names the server
	}
	mux := http.NewServeMux()
	if c.auth.issuer != "" {
		res, err := c.auth.resourceServer(ctx, srv.MaxLevel())
		if err != nil {
			return nil, err
		}
		protect(mux, res, srv.HTTPHandler(opts))
	} else {
		mux.Handle("/mcp", srv.HTTPHandler(opts))
	}
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = io.WriteString(w, "ok\n")
	})
	setup := &httpSetup{addr: c.addr, handler: mux, srv: srv}
	if c.tlsCert != "" {
		cert, err := tls.LoadX509KeyPair(c.tlsCert, c.tlsKey)
		if err != nil {
			return nil, fmt.Errorf("--tls-cert and --tls-key: %w", err)
		}
		setup.tls = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	}
	return setup, nil
}

// isLoopback reports whether a listening host is this machine only.
func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}

// serveHTTP serves MCP over Streamable HTTP until ctx ends (a signal),
// then stops taking requests and lets those in flight finish.
func serveHTTP(ctx context.Context, srv *server.Server, c *httpConfig, log zerolog.Logger, stderr io.Writer) int {
	setup, err := checkHTTP(ctx, c, srv)
	if err != nil {
		fmt.Fprintln(stderr, "toolserver:", err)
		return exitUsage
	}
	ln, err := net.Listen("tcp", setup.addr)
	if err != nil {
		fmt.Fprintf(stderr, "toolserver: --http %q: %v\n", setup.addr, err)
		return exitUsage
	}
	hs := &http.Server{
		Handler:           setup.handler,
		ReadHeaderTimeout: httpReadHeaderTimeout,
		IdleTimeout:       httpIdleTimeout,
		MaxHeaderBytes:    64 << 10,
		TLSConfig:         setup.tls,
	}
	hs.RegisterOnShutdown(setup.srv.CloseSubscriptions)
	scheme := "http"
	if setup.tls != nil {
		scheme = "https"
	}
	url := scheme + "://" + ln.Addr().String() + "/mcp"
	log.Info().Str("version", version()).Str("url", url).Msg("serving MCP over Streamable HTTP")
	served := make(chan error, 1)
	go func() {
		if setup.tls != nil {
			served <- hs.ServeTLS(ln, "", "")
		} else {
			served <- hs.Serve(ln)
		}
	}()
	select {
	case err := <-served:
		log.Error().Err(err).Msg("stopped")
		return exitToolError
	case <-ctx.Done():
		log.Debug().Msg("asked to stop; finishing requests in flight")
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), httpShutdownGrace)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		log.Warn().Err(err).Msg("requests still running at shutdown; closing their connections")
		_ = hs.Close()
	}
	log.Info().Msg("stopped")
	return exitOK
}
