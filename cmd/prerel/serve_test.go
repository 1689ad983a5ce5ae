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
	"regexp"
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
		content := "content of " + name
		if name == web.IndexFile {
			content += `<meta name="prerel-api-token" content="">`
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
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
	token          string   // the API token of its page
}

// tokenRE finds the API token in the page.
var tokenRE = regexp.MustCompile(`<meta name="prerel-api-token" content="([0-9a-f]+)">`)

// pageToken reads the API token from the page the server serves.
func (r *running) pageToken(t *testing.T) string {
	t.Helper()
	resp, err := http.Get(r.url + "/")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	m := tokenRE.FindSubmatch(body)
	if m == nil {
		t.Fatalf("the page holds no API token: %q", body)
	}
	return string(m[1])
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

// get fetches path from the server, with the API token of its page, and
// returns the status and the body.
func (r *running) get(t *testing.T, path string) (int, string) {
	t.Helper()
	if r.token == "" && strings.HasPrefix(path, "/api/versions") {
		r.token = r.pageToken(t)
	}
	req, err := http.NewRequest("GET", r.url+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set(web.TokenHeader, r.token)
	resp, err := http.DefaultClient.Do(req)
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
		{"/api/versions?address=hashicorp/none", 404, `"error":"provider registry.terraform.io/hashicorp/none: not found in its registry"`},
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
		{"index and allowed registry", []string{"--index", "x.json", "--allow-registry", "reg.example"}, exitUsage, "--index and --allow-registry cannot be used together"},
		{"allowed registry", []string{"--allow-registry", "https://reg.example/"}, exitUsage, "--allow-registry https://reg.example/: expected a registry host name"},
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

// TestServeAddrMessages checks what serve says for an --addr on all
// interfaces or by name: what was asked, what was bound, and a URL that
// opens the page.
func TestServeAddrMessages(t *testing.T) {
	skipWithoutSignals(t)
	site := writeSite(t)
	tests := []struct {
		addr   string
		stdout string // with PORT for the port bound
		stderr string
	}{
		{":0", "serving the playground at http://127.0.0.1:PORT/ (listening on all interfaces, port PORT, for --addr :0; Ctrl-C stops)\n",
			"prerel serve: warning: --addr :0 listens on all interfaces: other machines can use the page"},
		{"0.0.0.0:0", "serving the playground at http://127.0.0.1:PORT/ (listening on 0.0.0.0:PORT (all interfaces), for --addr 0.0.0.0:0; Ctrl-C stops)\n",
			"prerel serve: warning: --addr 0.0.0.0:0 listens on all interfaces"},
		{"127.0.0.1:0", "serving the playground at http://127.0.0.1:PORT/ (Ctrl-C stops)\n", ""},
		{"localhost:0", "serving the playground at http://localhost:PORT/ (listening on ", ""},
	}
	for _, tt := range tests {
		t.Run(tt.addr, func(t *testing.T) {
			r := startServe(t, "--addr", tt.addr, "--dir", site)
			_, port, _ := net.SplitHostPort(strings.TrimPrefix(r.url, "http://"))
			want := strings.ReplaceAll(tt.stdout, "PORT", port)
			out := r.stdout.String()
			if !strings.HasPrefix(out, want) {
				t.Errorf("stdout %q, want %q", out, want)
			}
			if strings.Contains(out, "[::]") {
				t.Errorf("stdout %q gives the unspecified address as a URL", out)
			}
			if !strings.Contains(r.stderr.String(), tt.stderr) || strings.Contains(r.stderr.String(), "warning:  ") {
				t.Errorf("stderr %q, want %q", r.stderr.String(), tt.stderr)
			}
			// The URL printed opens the page.
			open := strings.Fields(out)[4]
			resp, err := http.Get(open)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != 200 {
				t.Errorf("GET %s: %d", open, resp.StatusCode)
			}
			r.stop(t)
		})
	}
}

// TestServeRefusesOtherHosts checks that serve answers no request that
// names it by another name: a page whose name was rebound to 127.0.0.1.
func TestServeRefusesOtherHosts(t *testing.T) {
	skipWithoutSignals(t)
	r := startServe(t, "--addr", "127.0.0.1:0", "--dir", writeSite(t))
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(r.url, "http://"))
	for host, want := range map[string]int{
		"attacker.example:" + port: http.StatusMisdirectedRequest,
		"attacker.example":         http.StatusMisdirectedRequest,
		"127.0.0.1:1":              http.StatusMisdirectedRequest,
		"localhost:" + port:        200,
		"127.0.0.1:" + port:        200,
		"[::1]:" + port:            200,
	} {
		req, _ := http.NewRequest("GET", r.url+"/", nil)
		req.Host = host
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != want || want != 200 && tokenRE.Match(body) {
			t.Errorf("Host %s: %d, want %d", host, resp.StatusCode, want)
		}
	}
	r.stop(t)
}

// TestServeRegistries checks that lookups go only to the registries
// allowed, and never to a loopback address but that of --registry-url,
// and that the page learns nothing of why a lookup failed.
func TestServeRegistries(t *testing.T) {
	skipWithoutSignals(t)
	reg := fakeServeRegistry(t)
	regHost := strings.TrimPrefix(reg.URL, "http://")
	r := startServe(t, "--addr", "127.0.0.1:0", "--dir", writeSite(t), "--retries", "0",
		"--registry-url", "my.registry="+reg.URL, "--allow-registry", "localhost:"+strings.Split(regHost, ":")[1])
	tests := []struct {
		path   string
		status int
		body   string
	}{
		{"/api/versions?address=my.registry/hashicorp/demo", 200, `"versions":["1.0.0","1.1.0-beta.1"]`},
		{"/api/versions?address=other.example/hashicorp/demo", 403, "prerel serve --allow-registry other.example allows that registry"},
		{"/api/versions?address=" + regHost + "/hashicorp/demo", 403, "--allow-registry"},
		{"/api/versions?address=10.0.0.1/hashicorp/demo", 403, "--allow-registry"},
		// Allowed, but its name is loopback: refused when it connects.
		{"/api/versions?address=localhost:" + strings.Split(regHost, ":")[1] + "/hashicorp/demo", 502, `{"error":"provider localhost:` + strings.Split(regHost, ":")[1] + `/hashicorp/demo: the registry lookup failed (the server's log says why)"}`},
	}
	for _, tt := range tests {
		status, body := r.get(t, tt.path)
		if status != tt.status || !strings.Contains(body, tt.body) {
			t.Errorf("GET %s: %d %q, want %d and %q", tt.path, status, body, tt.status, tt.body)
		}
	}
	r.stop(t)
	if !strings.Contains(r.stderr.String(), "not a public address") {
		t.Errorf("stderr does not say why the lookup failed:\n%s", r.stderr.String())
	}
}
