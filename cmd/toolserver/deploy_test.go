package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/rs/zerolog"
)

// The deployment artifacts of deploy/ (docs/http.md, "Deployment") are text
// that no compiler reads; this file holds them to the binary: every
// toolserver flag they name exists, the paths they serve and mount are
// the ones the command uses, and the command they make, run on stand-ins
// for the volume and the secrets, serves /healthz and /mcp.

// flagWord is a --flag word in text: after a start of line, a space, a
// quote, a bracket or a comma.
var flagWord = regexp.MustCompile(`(?:^|[\s"'\[,])--([a-z][a-z0-9-]*)`)

// urlWord is an http(s) URL in text.
var urlWord = regexp.MustCompile(`https?://[^\s"'<>]+`)

func readDeploy(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "deploy", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// checkFlags checks that every --flag word of text is a flag of the
// serve command.
func checkFlags(t *testing.T, file, text string) {
	t.Helper()
	_, fs := newConfig("serve", io.Discard)
	for _, m := range flagWord.FindAllStringSubmatch(text, -1) {
		if fs.Lookup(m[1]) == nil {
			t.Errorf("%s uses --%s, which toolserver does not have", file, m[1])
		}
	}
}

// yamlValue is the value of "key: value" on a line, unquoted, without a
// trailing comment; ok is false when the line holds no such key.
func yamlValue(line, key string) (string, bool) {
	s := strings.TrimSpace(line)
	s = strings.TrimPrefix(s, "- ")
	v, ok := strings.CutPrefix(s, key+":")
	if !ok {
		return "", false
	}
	if i := strings.Index(v, " #"); i >= 0 {
		v = v[:i]
	}
	return strings.Trim(strings.TrimSpace(v), `"'`), true
}

// indent is the number of leading spaces of line.
func indent(line string) int { return len(line) - len(strings.TrimLeft(line, " ")) }

// yamlBlock returns the lines under the first "key:" line that are
// indented deeper than it, comments and blank lines left out.
func yamlBlock(lines []string, key string) []string {
	for i, l := range lines {
		if v, ok := yamlValue(l, key); !ok || v != "" {
			continue
		}
		var block []string
		for _, m := range lines[i+1:] {
			t := strings.TrimSpace(m)
			if t == "" || strings.HasPrefix(t, "#") {
				continue
			}
			if indent(m) <= indent(l) && !(strings.HasPrefix(t, "- ") && indent(m) == indent(l)) {
				break
			}
			block = append(block, m)
		}
		return block
	}
	return nil
}

func TestDeployArtifactsMatchTheBinary(t *testing.T) {
	containerfile := readDeploy(t, "Containerfile")
	manifest := readDeploy(t, "kubernetes.yaml")

	// The Containerfile: a static build on golang:1.26, a distroless or
	// scratch image, nonroot, and the command as ENTRYPOINT.
	var entry []string
	var toolserverLines []string // the lines that may name toolserver flags
	for _, l := range strings.Split(containerfile, "\n") {
		word, rest, _ := strings.Cut(strings.TrimSpace(l), " ")
		switch {
		case word == "ENTRYPOINT":
			if err := json.Unmarshal([]byte(rest), &entry); err != nil {
				t.Fatalf("ENTRYPOINT is not an exec-form JSON array: %v", err)
			}
			toolserverLines = append(toolserverLines, l)
		case word == "FROM" || word == "COPY" || word == "ADD" || word == "RUN" || strings.HasPrefix(l, " "):
			// Flags of the instruction or of the build, not of toolserver.
		default:
			toolserverLines = append(toolserverLines, l)
		}
	}
	for _, want := range []string{"FROM golang:1.26 AS build", "CGO_ENABLED=0 go build", "USER nonroot"} {
		if !strings.Contains(containerfile, want) {
			t.Errorf("Containerfile lacks %q", want)
		}
	}
	if !regexp.MustCompile(`(?m)^FROM (gcr\.io/distroless/static\S*|scratch)\s*$`).MatchString(containerfile) {
		t.Error("Containerfile: the image is not distroless/static or scratch")
	}
	if len(entry) < 2 || path.Base(entry[0]) != "toolserver" || !strings.Contains(containerfile, " "+entry[0]+"\n") {
		t.Fatalf("ENTRYPOINT %q does not run the toolserver the Containerfile copies in", entry)
	}
	checkFlags(t, "Containerfile", strings.Join(toolserverLines, "\n"))
	_, fs := newConfig("serve", io.Discard)
	if err := fs.Parse(entry[1:]); err != nil || fs.NArg() != 0 {
		t.Fatalf("ENTRYPOINT arguments %q: %v %q", entry[1:], err, fs.Args())
	}
	flagValue := func(name string) string { return fs.Lookup(name).Value.String() }
	if flagValue("root") != "/data" || flagValue("http") != "0.0.0.0:8080" ||
		flagValue("auth-token-file") != "/run/secrets/token" || flagValue("state-key-file") != "/run/secrets/state-key" {
		t.Fatalf("ENTRYPOINT %q: want --root /data --http 0.0.0.0:8080 --auth-token-file /run/secrets/token --state-key-file /run/secrets/state-key", entry)
	}

	// The manifest: every --flag word (comments too) is toolserver's.
	checkFlags(t, "kubernetes.yaml", manifest)
	lines := strings.Split(manifest, "\n")
	for _, want := range []string{"kind: Deployment", "kind: Service", "kind: Secret", "kind: PersistentVolumeClaim", "replicas: 3", "- ReadWriteMany"} {
		if !strings.Contains(manifest, want) {
			t.Errorf("kubernetes.yaml lacks %q", want)
		}
	}
	// Its HTTP paths, in the probe and in the URLs it gives clients, are
	// /healthz and /mcp, and both are there.
	paths := map[string]bool{}
	for _, l := range lines {
		if v, ok := yamlValue(l, "path"); ok {
			paths[v] = true
		}
	}
	if !paths["/healthz"] {
		t.Error("kubernetes.yaml: no probe on path /healthz")
	}
	if probe := yamlBlock(lines, "readinessProbe"); !slices.ContainsFunc(probe, func(l string) bool { v, _ := yamlValue(l, "path"); return v == "/healthz" }) {
		t.Errorf("kubernetes.yaml: the readiness probe is not on /healthz: %q", probe)
	}
	for _, u := range urlWord.FindAllString(manifest+containerfile, -1) {
		pu, err := url.Parse(u)
		if err != nil {
			t.Errorf("URL %q: %v", u, err)
			continue
		}
		paths[pu.Path] = true
	}
	if !paths["/mcp"] {
		t.Error("the artifacts never name the endpoint /mcp")
	}
	for p := range paths {
		if p != "/healthz" && p != "/mcp" {
			t.Errorf("the artifacts use the path %q; toolserver serves /mcp and /healthz", p)
		}
	}
	// The volumes are mounted where the command looks: the root, and the
	// secrets whose keys are the files it reads.
	var mounts []string
	for _, l := range lines {
		if v, ok := yamlValue(l, "mountPath"); ok {
			mounts = append(mounts, v)
		}
	}
	if !slices.Contains(mounts, "/data") || !slices.Contains(mounts, "/run/secrets") {
		t.Errorf("kubernetes.yaml mounts %q; the command wants /data and /run/secrets", mounts)
	}
	secret := map[string]string{}
	for _, l := range yamlBlock(lines, "stringData") {
		k, v, ok := strings.Cut(strings.TrimSpace(l), ":")
		if ok {
			secret[k] = strings.Trim(strings.TrimSpace(v), `"`)
		}
	}
	for _, f := range []string{"auth-token-file", "state-key-file"} {
		if dir, key := path.Split(flagValue(f)); dir != "/run/secrets/" || secret[key] == "" {
			t.Errorf("--%s %s: the Secret has no key %q (it has %v)", f, flagValue(f), key, secret)
		}
	}
	for k, v := range secret {
		if !strings.Contains(v, "REPLACE-ME") {
			t.Errorf("the Secret's %s is not marked as a placeholder: %q", k, v)
		}
	}
	var args []string
	for _, l := range yamlBlock(lines, "args") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(l), "- "); ok {
			args = append(args, strings.Trim(v, `"'`))
		}
	}
	if len(args) == 0 {
		t.Fatal("kubernetes.yaml: no args for the container")
	}

	// The command of a replica (ENTRYPOINT and the manifest's args), run
	// on a copy of the playground for /data and files for the secrets.
	root := t.TempDir()
	if err := os.CopyFS(root, os.DirFS(playground(t))); err != nil {
		t.Fatal(err)
	}
	secrets, nonces, locks := t.TempDir(), t.TempDir(), t.TempDir()
	local := func(args []string, values map[string]string) []string {
		out := slices.Clone(args)
		for i, a := range out {
			switch {
			case a == "/data":
				out[i] = root
			case a == "/nonces":
				out[i] = nonces
			case strings.HasPrefix(a, "/locks/"):
				out[i] = filepath.Join(locks, path.Base(a))
			case strings.HasPrefix(a, "/run/secrets/"):
				out[i] = filepath.Join(secrets, path.Base(a))
				if err := os.WriteFile(out[i], []byte(values[path.Base(a)]), 0o600); err != nil {
					t.Fatal(err)
				}
			}
		}
		return out
	}
	// With the placeholders, the state key is too short and the replica
	// does not start.
	cfg, fs := newConfig("serve", io.Discard)
	if err := fs.Parse(local(append(entry[1:], args...), secret)); err != nil {
		t.Fatal(err)
	}
	if _, _, err := build(cfg, nil, nil, zerolog.Nop()); err == nil || !strings.Contains(err.Error(), "--state-key-file") {
		t.Fatalf("with the placeholder state key: %v; want a refusal", err)
	}
	// With real values it serves /healthz and /mcp, for the Service's
	// name as Host.
	token := "a-token-for-the-test"
	h := httpHandlerFor(t, local(append(entry[1:], args...), map[string]string{"token": token, "state-key": strings.Repeat("k", 44)})...)
	ts := httptest.NewServer(h)
	defer ts.Close()
	resp, err := http.Get(ts.URL + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || string(b) != "ok\n" {
		t.Fatalf("GET /healthz: %d %q", resp.StatusCode, b)
	}
	post := func(host string) (int, string) {
		req, _ := http.NewRequest("POST", ts.URL+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{`+modernMeta+`}}`))
		req.Host = host
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("MCP-Protocol-Version", "2026-07-28")
		req.Header.Set("Mcp-Method", "tools/list")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return resp.StatusCode, string(b)
	}
	for _, host := range []string{"toolserver:8080", "toolserver.default.svc.cluster.local:8080"} {
		if code, body := post(host); code != 200 || !strings.Contains(body, `"name":"write_file"`) {
			t.Fatalf("POST /mcp as %s: %d %.200s", host, code, body)
		}
	}
	if code, _ := post("elsewhere.example:8080"); code != http.StatusForbidden {
		t.Fatalf("POST /mcp for a host not allowed: %d, want 403", code)
	}
}

// TestTheOAuthManifestRunsAServerBehindAProvider: every flag of
// kubernetes-oauth.yaml is toolserver's, its command is whole (the
// image's token file left out), and, with its issuer replaced by a real
// provider and its secret filled in, the replica starts, answers a
// request without a token 401 with the challenge, and serves one with a
// token.
func TestTheOAuthManifestRunsAServerBehindAProvider(t *testing.T) {
	manifest := readDeploy(t, "kubernetes-oauth.yaml")
	checkFlags(t, "kubernetes-oauth.yaml", manifest)
	lines := strings.Split(manifest, "\n")
	var command []string
	for _, l := range yamlBlock(lines, "command") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(l), "- "); ok {
			command = append(command, strings.Trim(v, `"'`))
		}
	}
	if len(command) < 2 || path.Base(command[0]) != "toolserver" || slices.Contains(command, "--auth-token-file") {
		t.Fatalf("the command %q: want toolserver with OAuth and no token file", command)
	}
	if !strings.Contains(manifest, "path: /healthz") || !strings.Contains(manifest, "kind: Service") || !strings.Contains(manifest, "state-key: \"REPLACE-ME\"") {
		t.Fatal("kubernetes-oauth.yaml lacks its probe, its Service or its placeholder")
	}
	o := startOAuth(t) // a real provider, whose clients know o.url as the resource
	secrets := t.TempDir()
	args := slices.Clone(command[1:])
	for i, a := range args {
		switch {
		case a == "/data":
			args[i] = t.TempDir()
		case a == "/nonces" || strings.HasPrefix(a, "/locks/"):
			args[i] = t.TempDir()
		case a == "/run/secrets/state-key":
			args[i] = filepath.Join(secrets, "state-key")
			if err := os.WriteFile(args[i], []byte(strings.Repeat("k", 44)), 0o600); err != nil {
				t.Fatal(err)
			}
		case strings.HasPrefix(a, "https://auth.example.com"):
			args[i] = o.op.Issuer
		case a == "https://mcp.example.com/mcp":
			args[i] = o.url
		}
	}
	ts := httptest.NewServer(httpHandlerFor(t, args...))
	defer ts.Close()
	resp, err := http.Post(ts.URL+"/mcp", "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 401 || !strings.Contains(resp.Header.Get("WWW-Authenticate"), "resource_metadata=") {
		t.Fatalf("without a token: %d %q", resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
	}
	tok, err := o.op.Token(context.Background(), "reader", "reader-secret", o.url, "files:read")
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest("POST", ts.URL+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Authorization", "Bearer "+tok)
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("with a token: %d", resp.StatusCode)
	}
}
