package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/prerel/prerel/catalogue"
	"github.com/prerel/prerel/internal/longtest"
	"github.com/prerel/prerel/web"
)

// writeSite writes a site with every file of web.SiteFiles, each holding
// its own name, and returns its directory.
func writeSite(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, name := range web.SiteFiles {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("content of "+name), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// fakeServeRegistry serves the versions of the provider hashicorp/demo
// and the module acme/net/aws.
func fakeServeRegistry(t *testing.T) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/.well-known/terraform.json", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `{"modules.v1":"/v1/modules/","providers.v1":"/v1/providers/"}`)
	})
	mux.HandleFunc("/v1/providers/hashicorp/demo/versions", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `{"versions":[{"version":"1.0.0"},{"version":"1.1.0-beta.1"}]}`)
	})
	mux.HandleFunc("/v1/modules/acme/net/aws/versions", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `{"modules":[{"versions":[{"version":"2.0.0"},{"version":"2.1.0-rc.1"}]}]}`)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// syncBuffer is a buffer that one goroutine writes while another reads.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// running is a prerel serve started by startServe.
type running struct {
	url            string
	stdout, stderr *syncBuffer
	done           chan int // the exit status, once it returns
}

// startServe runs prerel serve with args (through run, as main does) and
// waits until it listens. It fails the test if serve ends first.
func startServe(t *testing.T, args ...string) *running {
	t.Helper()
	r := &running{stdout: &syncBuffer{}, stderr: &syncBuffer{}, done: make(chan int, 1)}
	started := make(chan string, 1)
	serveStarted = func(addr string) { started <- addr }
	t.Cleanup(func() { serveStarted = nil })
	e := &env{stdin: strings.NewReader(""), stdout: r.stdout, stderr: r.stderr, registry: catalogue.New(), getenv: func(string) string { return "" }}
	go func() { r.done <- run(e, append([]string{"serve"}, args...)) }()
	select {
	case addr := <-started:
		r.url = "http://" + addr
	case code := <-r.done:
		t.Fatalf("prerel serve %q ended with exit %d before listening:\n%s", args, code, r.stderr.String())
	case <-time.After(2 * time.Minute):
		t.Fatalf("prerel serve %q did not start listening", args)
	}
	return r
}

// stop sends SIGTERM to the test process, which serve handles, and
// checks that serve stops cleanly.
func (r *running) stop(t *testing.T) {
	t.Helper()
	p, err := os.FindProcess(os.Getpid())
	if err == nil {
		err = p.Signal(syscall.SIGTERM)
	}
	if err != nil {
		t.Fatalf("signalling the test process: %v", err)
	}
	select {
	case code := <-r.done:
		if code != exitOK {
			t.Errorf("prerel serve exited %d after SIGTERM, want 0; stderr:\n%s", code, r.stderr.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatal("prerel serve did not stop after SIGTERM")
	}
	if !strings.Contains(r.stderr.String(), "prerel serve: stopped") {
		t.Errorf("stderr does not say it stopped:\n%s", r.stderr.String())
	}
}

// get fetches path from the server and returns the status and the body.
func (r *running) get(t *testing.T, path string) (int, string) {
	t.Helper()
	resp, err := http.Get(r.url + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(body)
}

func skipWithoutSignals(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("stops the server with SIGTERM, which Windows cannot send")
	}
}

// TestServe serves a site and the lookups of a fake registry, then stops
// on SIGTERM.
func TestServe(t *testing.T) {
	skipWithoutSignals(t)
	reg := fakeServeRegistry(t)
	r := startServe(t, "--addr", "127.0.0.1:0", "--dir", writeSite(t), "--registry-url", reg.URL, "--retries", "0", "--timeout", "5s")
	if out := r.stdout.String(); !strings.HasPrefix(out, "serving the playground at "+r.url+"/") {
		t.Errorf("stdout %q does not say where it serves (%s)", out, r.url)
	}
	tests := []struct {
		path   string
		status int
		body   string
	}{
		{"/", 200, "content of index.html"},
		{"/prerel.wasm", 200, "content of prerel.wasm"},
		{"/nothing", 404, ""},
		{"/api/status", 200, `{"versions":true}`},
		{"/api/versions?address=hashicorp/demo", 200, `"versions":["1.0.0","1.1.0-beta.1"]`},
		{"/api/versions?address=acme/net/aws", 200, `"kind":"module","canonical":"registry.terraform.io/acme/net/aws","versions":["2.0.0","2.1.0-rc.1"]`},
		{"/api/versions?address=hashicorp/none", 404, `"error":"provider hashicorp/none: GET `},
		{"/api/versions?address=a/b/c/d/e", 400, `"error":`},
	}
	for _, tt := range tests {
		status, body := r.get(t, tt.path)
		if status != tt.status || !strings.Contains(body, tt.body) {
			t.Errorf("GET %s: %d %q, want %d and %q", tt.path, status, body, tt.status, tt.body)
		}
	}
	// Lookups are not bounded by one deadline for the whole run: a
	// client is made for each.
	for range 3 {
		if status, body := r.get(t, "/api/versions?address=hashicorp/demo"); status != 200 {
			t.Errorf("a later lookup: %d %s", status, body)
		}
	}
	r.stop(t)
}

// TestServeIndex answers lookups from an offline index.
func TestServeIndex(t *testing.T) {
	skipWithoutSignals(t)
	r := startServe(t, "--addr", "127.0.0.1:0", "--dir", writeSite(t), "--index", filepath.Join("..", "..", "testdata", "resolve", "index.json"))
	status, body := r.get(t, "/api/versions?address=terraform-aws-modules/vpc/aws")
	var ans struct {
		Versions []string `json:"versions"`
		From     string   `json:"from"`
	}
	if err := json.Unmarshal([]byte(body), &ans); err != nil || status != 200 || len(ans.Versions) < 10 || !strings.Contains(ans.From, "index.json") {
		t.Errorf("a module of the index: %d %.200s (%v)", status, body, err)
	}
	r.stop(t)
}

// TestServeBuildsFromSource serves without --dir, from prerel's source.
func TestServeBuildsFromSource(t *testing.T) {
	skipWithoutSignals(t)
	longtest.Skip(t) // compiles the playground to WebAssembly
	r := startServe(t, "--addr", "127.0.0.1:0")
	status, body := r.get(t, "/prerel.wasm")
	if status != 200 || !strings.HasPrefix(body, "\x00asm") {
		t.Errorf("GET /prerel.wasm: %d, %d bytes", status, len(body))
	}
	if status, body := r.get(t, "/api/status"); status != 200 || body != "{\"versions\":true}\n" {
		t.Errorf("GET /api/status: %d %q", status, body)
	}
	if !strings.Contains(r.stderr.String(), "building the playground") {
		t.Errorf("stderr does not say it builds:\n%s", r.stderr.String())
	}
	r.stop(t)
}

func TestServeErrors(t *testing.T) {
	site := writeSite(t)
	empty := t.TempDir()
	file := filepath.Join(empty, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"argument", []string{"extra"}, exitUsage, `serve takes no arguments, got "extra"`},
		{"address", []string{"--addr", "nonsense"}, exitUsage, "expected HOST:PORT"},
		{"index and registry", []string{"--index", "x.json", "--registry-url", "http://127.0.0.1:1/"}, exitUsage, "--index and --registry-url cannot be used together"},
		{"timeout", []string{"--timeout", "0s"}, exitUsage, "--timeout must be positive"},
		{"retries", []string{"--retries", "99"}, exitUsage, "--retries must be between 0 and 10"},
		{"deadline", []string{"--registry-deadline", "0s"}, exitUsage, "--registry-deadline must be positive"},
		{"missing index", []string{"--index", filepath.Join(empty, "none.json")}, exitUsage, "none.json"},
		{"missing dir", []string{"--dir", filepath.Join(empty, "none")}, exitUsage, "--dir:"},
		{"dir is a file", []string{"--dir", file}, exitUsage, "is not a directory"},
		{"dir not built", []string{"--dir", empty}, exitUsage, "the site has no index.html: build it with web/build.sh"},
		{"address in use", []string{"--dir", site, "--addr", busy.Addr().String()}, exitFailure, "listen on " + busy.Addr().String()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := runCLI(t, "", append([]string{"serve"}, tt.args...)...)
			if code != tt.code || !strings.Contains(stderr, tt.stderr) {
				t.Errorf("exit %d, stderr:\n%s\nwant exit %d and %q", code, stderr, tt.code, tt.stderr)
			}
		})
	}
}

// TestServeOutsideSource checks the error without --dir outside prerel's
// source, where there is nothing to build from.
func TestServeOutsideSource(t *testing.T) {
	t.Chdir(t.TempDir())
	code, _, stderr := runCLI(t, "", "serve", "--addr", "127.0.0.1:0")
	if code != exitUsage || !strings.Contains(stderr, "Build the site with web/build.sh in prerel's source and pass --dir DIR") {
		t.Errorf("exit %d, stderr:\n%s", code, stderr)
	}
}

// TestServeStopsWhileBuilding checks that a cancelled serve stops a build
// under way.
func TestServeStopsWhileBuilding(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a build of the playground; skipped with -short")
	}
	ctx, cancel := context.WithCancel(context.Background())
	var stdout, stderr syncBuffer
	e := &env{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, registry: catalogue.New(), getenv: func(string) string { return "" }}
	done := make(chan error, 1)
	go func() { done <- serve(ctx, e, []string{"--addr", "127.0.0.1:0"}) }()
	for start := time.Now(); !strings.Contains(stderr.String(), "building the playground"); time.Sleep(10 * time.Millisecond) {
		if time.Since(start) > time.Minute {
			t.Fatalf("serve did not start building:\n%s", stderr.String())
		}
	}
	cancel()
	select {
	case err := <-done:
		if err != nil && !strings.Contains(err.Error(), "stopped while building") {
			t.Errorf("serve cancelled while building: %v", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("serve did not stop")
	}
}

// serve runs prerel serve with args until ctx is done.
func serve(ctx context.Context, e *env, args []string) error {
	fs := newFlags(&serveCommand)
	run := serveRun(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	return run(ctx, e, fs.Args())
}
