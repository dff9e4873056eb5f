package main

import (
	"bufio"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"io"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rs/zerolog"
)

// httpHandlerFor builds the server of the command line args and returns
// the handler --http would serve (/mcp and /healthz).
func httpHandlerFor(t testing.TB, args ...string) http.Handler {
	t.Helper()
	cfg, fs := newConfig("serve", io.Discard)
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	srv, closeRoot, err := build(cfg, nil, nil, zerolog.Nop())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = closeRoot() })
	setup, err := checkHTTP(context.Background(), &cfg.http, srv)
	if err != nil {
		t.Fatal(err)
	}
	return setup.handler
}

// TestInteropOverHTTPWithTheOfficialGoSDK drives the HTTP handler with
// the official Go MCP client's Streamable HTTP transport, pinned to the
// legacy era and with its default handshake (which probes
// server/discover and then speaks 2026-07-28).
func TestInteropOverHTTPWithTheOfficialGoSDK(t *testing.T) {
	ts := httptest.NewServer(httpHandlerFor(t, "--root", playground(t), "--http", "127.0.0.1:0"))
	defer ts.Close()
	for _, tc := range []struct{ name, pin, want string }{
		{"pinned to 2025-11-25", "2025-11-25", "2025-11-25"},
		{"default handshake (discover, then 2026-07-28)", "", "2026-07-28"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			client := mcp.NewClient(&mcp.Implementation{Name: "interop", Version: "1"}, nil)
			transport := &mcp.StreamableClientTransport{Endpoint: ts.URL + "/mcp", MaxRetries: -1}
			cs, err := client.Connect(ctx, transport, &mcp.ClientSessionOptions{ProtocolVersion: tc.pin})
			if err != nil {
				t.Fatalf("connect: %v", err)
			}
			defer cs.Close()
			if init := cs.InitializeResult(); init.ProtocolVersion != tc.want || init.ServerInfo.Name != "toolserver" {
				t.Fatalf("initialize result: %+v", init)
			}
			if cs.ID() != "" {
				t.Fatalf("the server minted a session id: %q", cs.ID())
			}
			if tc.want != "2026-07-28" { // ping is not part of 2026-07-28
				if err := cs.Ping(ctx, nil); err != nil {
					t.Fatalf("ping: %v", err)
				}
			}
			list, err := cs.ListTools(ctx, nil)
			if err != nil {
				t.Fatalf("tools/list: %v", err)
			}
			var names []string
			for _, tl := range list.Tools {
				names = append(names, tl.Name)
			}
			if !strings.Contains(strings.Join(names, ","), "calc") || !strings.Contains(strings.Join(names, ","), "read_file") {
				t.Fatalf("tools: %v", names)
			}
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "calc", Arguments: map[string]any{"expr": "0.1+0.2"}})
			if err != nil || res.IsError {
				t.Fatalf("calc: %v %+v", err, res)
			}
			if sc, _ := res.StructuredContent.(map[string]any); sc["value"] != "0.3" || sc["exact"] != true {
				t.Fatalf("structuredContent: %#v", res.StructuredContent)
			}
			res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "read_file", Arguments: map[string]any{"path": "notes/todo.txt", "head": 1}})
			if err != nil || res.IsError || !strings.HasPrefix(res.Content[0].(*mcp.TextContent).Text, "buy milk\n") {
				t.Fatalf("read_file: %v %+v", err, res)
			}
			_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "nope", Arguments: map[string]any{}})
			if err == nil || !strings.Contains(err.Error(), `unknown tool "nope"`) {
				t.Fatalf("unknown tool should be a protocol error naming it: %v", err)
			}
		})
	}
}

func TestHTTPHealthz(t *testing.T) {
	ts := httptest.NewServer(httpHandlerFor(t, "--root", playground(t), "--http", "127.0.0.1:0", "--auth-token-file", tokenFile(t, "tok")))
	defer ts.Close()
	// No token, a foreign Origin: /healthz answers all the same, and
	// nothing more.
	req, _ := http.NewRequest("GET", ts.URL+"/healthz", nil)
	req.Header.Set("Origin", "http://evil.example.com")
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || string(b) != "ok\n" {
		t.Fatalf("healthz: %d %q", resp.StatusCode, b)
	}
	// /mcp wants the token.
	resp, err = ts.Client().Post(ts.URL+"/mcp", "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 401 {
		t.Fatalf("/mcp without the token: %d", resp.StatusCode)
	}
}

func tokenFile(t *testing.T, token string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(p, []byte(token+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestHTTPFlagsRefused(t *testing.T) {
	root := playground(t)
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"non-loopback without a token", []string{"--http", "0.0.0.0:0"}, "give --auth-token-file FILE"},
		{"all interfaces without a token", []string{"--http", ":0"}, "give --auth-token-file FILE"},
		{"a name without a token", []string{"--http", "example.com:0"}, "give --auth-token-file FILE"},
		{"no port", []string{"--http", "127.0.0.1"}, "give HOST:PORT"},
		{"empty token file", []string{"--http", "127.0.0.1:0", "--auth-token-file", tokenFile(t, "")}, "is empty"},
		{"missing token file", []string{"--http", "127.0.0.1:0", "--auth-token-file", filepath.Join(t.TempDir(), "none")}, "--auth-token-file"},
		{"cert without key", []string{"--http", "127.0.0.1:0", "--tls-cert", "c.pem"}, "go together"},
		{"unreadable cert", []string{"--http", "127.0.0.1:0", "--tls-cert", "c.pem", "--tls-key", "k.pem"}, "--tls-cert and --tls-key"},
		{"token without --http", []string{"--auth-token-file", "x"}, "--auth-token-file applies only with --http"},
		{"bad concurrency", []string{"--http", "127.0.0.1:0", "--http-max-concurrent", "0"}, "--http-max-concurrent"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var stderr strings.Builder
			code := run(context.Background(), append([]string{"--root", root}, tc.args...), func(string) string { return "" },
				strings.NewReader(""), io.Discard, &stderr)
			if code != exitUsage || !strings.Contains(stderr.String(), tc.want) {
				t.Fatalf("exit %d, stderr %q; want %d with %q", code, stderr.String(), exitUsage, tc.want)
			}
		})
	}
}

// TestBinaryServesHTTP runs the binary with --http on a free port, calls a
// tool through it and stops it with SIGTERM.
func TestBinaryServesHTTP(t *testing.T) {
	cmd := exec.Command(binary, "--root", playground(t), "--http", "127.0.0.1:0", "--allowed-hosts", "tools.example")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	urls := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			var line struct{ URL string }
			if json.Unmarshal(sc.Bytes(), &line) == nil && line.URL != "" {
				urls <- line.URL
			}
		}
	}()
	var url string
	select {
	case url = <-urls:
	case <-time.After(10 * time.Second):
		t.Fatal("the binary did not log its URL")
	}
	if !strings.HasPrefix(url, "http://127.0.0.1:") || !strings.HasSuffix(url, "/mcp") {
		t.Fatalf("url %q", url)
	}
	req, _ := http.NewRequest("POST", url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"calc","arguments":{"expr":"6*7"}}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Host = "tools.example:443"
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(b), `"structuredContent":{"value":"42","exact":true}`) {
		t.Fatalf("calc over HTTP: %d %s", resp.StatusCode, b)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	select {
	case err := <-waited:
		if err != nil {
			t.Fatalf("exit after SIGTERM: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the binary did not stop after SIGTERM")
	}
}

// selfSigned writes a certificate for 127.0.0.1 and its key as PEM files.
func selfSigned(t *testing.T) (certFile, keyFile string, pool *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "toolserver test"},
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1)},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kder, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder}), 0o600); err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	pool = x509.NewCertPool()
	pool.AddCert(cert)
	return certFile, keyFile, pool
}

// TestServeHTTPS runs the command in process with --tls-cert and
// --tls-key and a token, calls it over HTTP/2 and stops it.
func TestServeHTTPS(t *testing.T) {
	certFile, keyFile, pool := selfSigned(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stderr := &lockedWriter{b: &strings.Builder{}}
	exited := make(chan int, 1)
	go func() {
		exited <- run(ctx, []string{"--root", playground(t), "--http", "127.0.0.1:0", "--tls-cert", certFile, "--tls-key", keyFile,
			"--auth-token-file", tokenFile(t, "tok")}, func(string) string { return "" }, strings.NewReader(""), io.Discard, stderr)
	}()
	var url string
	for deadline := time.Now().Add(10 * time.Second); url == ""; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no URL logged: %s", stderr.String())
		}
		for _, l := range strings.Split(stderr.String(), "\n") {
			var line struct{ URL string }
			if json.Unmarshal([]byte(l), &line) == nil && line.URL != "" {
				url = line.URL
			}
		}
	}
	if !strings.HasPrefix(url, "https://127.0.0.1:") {
		t.Fatalf("url %q", url)
	}
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}, ForceAttemptHTTP2: true}}
	req, _ := http.NewRequest("POST", url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer tok")
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.ProtoMajor != 2 || string(b) != `{"jsonrpc":"2.0","id":1,"result":{}}` {
		t.Fatalf("ping over HTTPS: %d %s %q", resp.StatusCode, resp.Proto, b)
	}
	cancel()
	select {
	case code := <-exited:
		if code != exitOK {
			t.Fatalf("exit %d: %s", code, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the server did not stop")
	}
}
