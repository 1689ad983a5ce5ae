package web

import (
	"context"
	"encoding/json"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/prerel/prerel/terraform/registry"
)

// fakeRegistry serves the registry protocol for a few addresses: the
// provider hashicorp/demo, the module acme/net/aws, and a provider
// slow/slow that never answers: its request ends when the client gives
// up.
func fakeRegistry(t *testing.T) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/.well-known/terraform.json", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `{"modules.v1":"/v1/modules/","providers.v1":"/v1/providers/"}`)
	})
	mux.HandleFunc("/v1/providers/hashicorp/demo/versions", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `{"versions":[{"version":"1.0.0"},{"version":"1.1.0-beta.1"},{"version":"<img src=x onerror=alert(1)>"}],"warnings":["demo only"]}`)
	})
	mux.HandleFunc("/v1/modules/acme/net/aws/versions", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `{"modules":[{"versions":[{"version":"2.0.0"},{"version":"2.1.0-rc.1"}]}]}`)
	})
	mux.HandleFunc("/v1/providers/slow/slow/versions", func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done()
	})
	mux.HandleFunc("/v1/providers/broken/broken/versions", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `{"versions":`)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// fakeSite is a site with every file of SiteFiles.
func fakeSite() fstest.MapFS {
	site := fstest.MapFS{}
	for _, name := range SiteFiles {
		site[name] = &fstest.MapFile{Data: []byte("content of " + name)}
	}
	return site
}

// testToken is the API token of the test servers.
const testToken = "0123456789abcdef0123456789abcdef"

func TestHandler(t *testing.T) {
	reg := fakeRegistry(t)
	var log syncBuffer
	versions := func() (registry.Source, error) {
		// Far above what the other lookups take on a loaded machine:
		// slow/slow alone waits for it to run out.
		return &registry.Client{BaseURL: reg.URL, Timeout: 2 * time.Second, Retries: -1}, nil
	}
	srv := httptest.NewServer(Handler(fakeSite(), Options{Versions: versions, Token: testToken, Log: &log}))
	defer srv.Close()
	static := httptest.NewServer(Handler(fakeSite(), Options{Token: testToken}))
	defer static.Close()
	deadline := httptest.NewServer(Handler(fakeSite(), Options{Token: testToken, Versions: func() (registry.Source, error) {
		return &registry.Client{BaseURL: reg.URL, Deadline: 300 * time.Millisecond, Retries: -1}, nil
	}}))
	defer deadline.Close()

	tests := []struct {
		name, method, url string
		server            string // "" (lookups), "static" or "deadline"
		status            int
		contentType       string
		body              string // a substring of the body
	}{
		{"index", "GET", "/", "", 200, "text/html; charset=utf-8", "content of index.html"},
		{"index by name", "GET", "/index.html", "", 200, "text/html", "content of index.html"},
		{"wasm", "GET", "/prerel.wasm", "", 200, "application/wasm", "content of prerel.wasm"},
		{"script", "GET", "/app.js", "", 200, "text/javascript; charset=utf-8", "content of app.js"},
		{"style", "HEAD", "/style.css", "", 200, "text/css; charset=utf-8", ""},
		{"not a site file", "GET", "/go.mod", "", 404, "", ""},
		{"no traversal", "GET", "/../web.go", "", 404, "", ""},
		{"status", "GET", "/api/status", "", 200, "application/json", `{"versions":true}`},
		{"status, static", "GET", "/api/status", "static", 200, "application/json", `{"versions":false}`},
		{"unknown api", "GET", "/api/nope", "", 404, "application/json", `"error":"no such API: /api/nope`},
		{"post", "POST", "/api/versions?address=hashicorp/demo", "", 405, "application/json", "only GET and HEAD"},
		{"provider", "GET", "/api/versions?address=hashicorp/demo", "", 200, "application/json",
			`{"address":"hashicorp/demo","kind":"provider","canonical":"registry.terraform.io/hashicorp/demo","versions":["1.0.0","1.1.0-beta.1","<img src=x onerror=alert(1)>"]`},
		{"provider with host", "GET", "/api/versions?address=registry.terraform.io/hashicorp/demo", "", 200, "application/json", `"kind":"provider"`},
		{"warnings", "GET", "/api/versions?address=hashicorp/demo", "", 200, "application/json", `"warnings":["demo only"]`},
		{"module", "GET", "/api/versions?address=acme/net/aws", "", 200, "application/json", `"kind":"module","canonical":"registry.terraform.io/acme/net/aws","versions":["2.0.0","2.1.0-rc.1"]`},
		{"module by kind", "GET", "/api/versions?address=acme/net/aws&kind=module", "", 200, "application/json", `"versions":["2.0.0","2.1.0-rc.1"]`},
		{"not found", "GET", "/api/versions?address=hashicorp/none", "", 404, "application/json", `{"error":"provider registry.terraform.io/hashicorp/none: not found in its registry"}`},
		{"no address", "GET", "/api/versions", "", 400, "application/json", "no address"},
		{"bad address", "GET", "/api/versions?address=a/b/c/d/e", "", 400, "application/json", "a module address is"},
		{"bad provider", "GET", "/api/versions?address=-x-/y", "", 400, "application/json", `provider source \"-x-/y\"`},
		{"bad kind", "GET", "/api/versions?address=a/b&kind=tool", "", 400, "application/json", `kind \"tool\"`},
		{"long address", "GET", "/api/versions?address=" + strings.Repeat("a", MaxAddress+1), "", 400, "application/json", "bytes long"},
		{"registry fails", "GET", "/api/versions?address=broken/broken", "", 502, "application/json", `{"error":"provider registry.terraform.io/broken/broken: the registry lookup failed (the server's log says why)"}`},
		{"request timeout", "GET", "/api/versions?address=slow/slow", "", 502, "application/json", `"error":"provider registry.terraform.io/slow/slow: the registry lookup failed`},
		{"lookup deadline", "GET", "/api/versions?address=slow/slow", "deadline", 504, "application/json", `"error":"provider registry.terraform.io/slow/slow: the lookup took longer`},
		{"static lookup", "GET", "/api/versions?address=hashicorp/demo", "static", 503, "application/json", "run prerel serve"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := map[string]string{"": srv.URL, "static": static.URL, "deadline": deadline.URL}[tt.server]
			req, err := http.NewRequest(tt.method, base+tt.url, nil)
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set(TokenHeader, testToken)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tt.status {
				t.Errorf("status %d, want %d: %s", resp.StatusCode, tt.status, body)
			}
			if ct := resp.Header.Get("Content-Type"); tt.contentType != "" && !strings.HasPrefix(ct, tt.contentType) {
				t.Errorf("Content-Type %q, want %q", ct, tt.contentType)
			}
			if !strings.Contains(string(body), tt.body) {
				t.Errorf("body %s, want %s in it", body, tt.body)
			}
			if got := resp.Header.Get("Content-Security-Policy"); got != ContentSecurityPolicy {
				t.Errorf("Content-Security-Policy %q", got)
			}
			if got := resp.Header.Get("X-Content-Type-Options"); got != "nosniff" {
				t.Errorf("X-Content-Type-Options %q", got)
			}
			if strings.HasPrefix(tt.contentType, "application/json") && !json.Valid(body) {
				t.Errorf("not JSON: %s", body)
			}
		})
	}
	// The answers leave the registry's detail out; the log has it.
	for _, want := range []string{
		"prerel serve: lookup of provider registry.terraform.io/broken/broken: provider broken/broken: " + reg.URL,
		"no complete answer within the 2s timeout",
		"prerel serve: lookup of provider registry.terraform.io/hashicorp/none: provider hashicorp/none: GET " + reg.URL,
	} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("the log lacks %q:\n%s", want, log.String())
		}
	}
}

// syncBuffer is a buffer that handlers write while a test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
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

// TestHandlerMissingFile checks the answer for a site file not built.
func TestHandlerMissingFile(t *testing.T) {
	site := fakeSite()
	delete(site, WasmFile)
	rec := httptest.NewRecorder()
	Handler(site, Options{}).ServeHTTP(rec, httptest.NewRequest("GET", "http://127.0.0.1/"+WasmFile, nil))
	if rec.Code != 404 || !strings.Contains(rec.Body.String(), "web/build.sh") {
		t.Errorf("a missing %s: %d %q", WasmFile, rec.Code, rec.Body.String())
	}
}

func TestGuessKind(t *testing.T) {
	tests := []struct{ addr, want string }{
		{"aws", "provider"},
		{"hashicorp/aws", "provider"},
		{"registry.terraform.io/hashicorp/aws", "provider"},
		{"localhost/acme/demo", "provider"},
		{"127.0.0.1:8080/acme/demo", "provider"},
		{"terraform-aws-modules/vpc/aws", "module"},
		{"app.terraform.io/acme/vpc/aws", "module"},
	}
	for _, tt := range tests {
		if got := guessKind(tt.addr); got != tt.want {
			t.Errorf("guessKind(%q) = %s, want %s", tt.addr, got, tt.want)
		}
	}
}

func TestCheckSite(t *testing.T) {
	if err := CheckSite(fakeSite()); err != nil {
		t.Errorf("a whole site: %v", err)
	}
	for _, name := range SiteFiles {
		site := fakeSite()
		delete(site, name)
		if err := CheckSite(site); err == nil || !strings.Contains(err.Error(), name) || !strings.Contains(err.Error(), "web/build.sh") {
			t.Errorf("without %s: %v", name, err)
		}
	}
	site := fakeSite()
	site[WasmFile] = &fstest.MapFile{Mode: fs.ModeDir}
	if err := CheckSite(site); err == nil {
		t.Errorf("%s a directory: no error", WasmFile)
	}
}

// TestStaticSelfContained checks that the page's files load nothing from
// elsewhere and put no text into the page as markup.
func TestStaticSelfContained(t *testing.T) {
	external := regexp.MustCompile(`(?i)(https?:)?//[a-z0-9.-]+\.[a-z]{2,}`)
	imports := regexp.MustCompile(`@import|url\(`)
	markup := regexp.MustCompile(`innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(|new Function|setTimeout\(['"]`)
	for _, name := range []string{"index.html", "app.js", "worker.js", "style.css"} {
		data, err := fs.ReadFile(Static(), name)
		if err != nil {
			t.Fatal(err)
		}
		text := string(data)
		if name == "app.js" {
			// The SVG namespace is a name, not a resource.
			text = strings.ReplaceAll(text, "'http://www.w3.org/2000/svg'", "")
		}
		if m := external.FindString(text); m != "" {
			t.Errorf("%s refers to %q, outside the site", name, m)
		}
		if m := imports.FindString(text); m != "" && !strings.HasSuffix(name, ".js") {
			t.Errorf("%s loads a resource with %q", name, m)
		}
		if strings.HasSuffix(name, ".js") {
			if m := markup.FindString(text); m != "" {
				t.Errorf("%s uses %s", name, m)
			}
		}
	}
	index, _ := fs.ReadFile(Static(), IndexFile)
	csp := strings.Replace(ContentSecurityPolicy, "; frame-ancestors 'none'", "", 1)
	if !strings.Contains(string(index), `<meta http-equiv="Content-Security-Policy" content="`+csp+`">`) {
		t.Errorf("index.html does not carry the Content-Security-Policy %q", csp)
	}
	for _, ref := range []string{`src="app.js"`, `href="style.css"`, tokenMeta} {
		if !strings.Contains(string(index), ref) {
			t.Errorf("index.html lacks %s", ref)
		}
	}
	app, _ := fs.ReadFile(Static(), "app.js")
	if !strings.Contains(string(app), "new Worker('worker.js')") {
		t.Errorf("app.js does not start worker.js")
	}
	worker, _ := fs.ReadFile(Static(), "worker.js")
	for _, ref := range []string{"importScripts('" + WasmExecFile + "')", "fetch('" + WasmFile + "')"} {
		if !strings.Contains(string(worker), ref) {
			t.Errorf("worker.js lacks %s", ref)
		}
	}
}

func TestFindModule(t *testing.T) {
	root, err := FindModule(".")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "web", "wasm")); err != nil {
		t.Errorf("FindModule(.) = %s, which has no web/wasm", root)
	}
	if got, err := FindModule(filepath.Join("playground")); err != nil || got != root {
		t.Errorf("FindModule(playground) = %s, %v; want %s", got, err, root)
	}
	if _, err := FindModule(t.TempDir()); err == nil || !strings.Contains(err.Error(), ModulePath) {
		t.Errorf("outside the source: %v", err)
	}
}

func TestModulePath(t *testing.T) {
	dir := t.TempDir()
	tests := []struct{ text, want string }{
		{"module github.com/prerel/prerel\n\ngo 1.25\n", ModulePath},
		{"// comment\nmodule \"github.com/prerel/prerel\" // here\n", ModulePath},
		{"module\texample.com/x\n", "example.com/x"},
		{"modules x\n", ""},
		{"module \"unterminated\n", ""},
		{"go 1.25\nmodule example.com/y // the module\n", "example.com/y"},
		{"", ""},
	}
	for _, tt := range tests {
		path := filepath.Join(dir, "go.mod")
		if err := os.WriteFile(path, []byte(tt.text), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := modulePath(path); got != tt.want {
			t.Errorf("modulePath(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
	if got := modulePath(filepath.Join(dir, "none")); got != "" {
		t.Errorf("no file: %q", got)
	}
	// A go.mod that is not a regular file is refused, not read.
	if err := os.Remove(filepath.Join(dir, "go.mod")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "go.mod"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got := modulePath(filepath.Join(dir, "go.mod")); got != "" {
		t.Errorf("a directory: %q", got)
	}
}

// TestBuild builds the site and checks its files; the browser tests
// (package browsertest) open it.
func TestBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles web/wasm; skipped with -short")
	}
	out := filepath.Join(t.TempDir(), "site")
	start := time.Now()
	if err := Build(context.Background(), out, BuildOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Logf("built in %v", time.Since(start).Round(time.Millisecond))
	site := os.DirFS(out)
	if err := CheckSite(site); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	slices.Sort(names)
	want := slices.Sorted(slices.Values(SiteFiles))
	if !slices.Equal(names, want) {
		t.Errorf("the site holds %q, want %q", names, want)
	}
	wasm, err := os.ReadFile(filepath.Join(out, WasmFile))
	if err != nil {
		t.Fatal(err)
	}
	if len(wasm) < 4 || string(wasm[:4]) != "\x00asm" {
		t.Errorf("%s is not WebAssembly", WasmFile)
	}
	t.Logf("%s: %d bytes", WasmFile, len(wasm))
	for _, name := range []string{"index.html", "app.js", "worker.js", "style.css"} {
		got, _ := os.ReadFile(filepath.Join(out, name))
		want, _ := fs.ReadFile(Static(), name)
		if string(got) != string(want) {
			t.Errorf("%s differs from the embedded file", name)
		}
	}
}

func TestBuildErrors(t *testing.T) {
	if err := Build(context.Background(), "", BuildOptions{}); err == nil {
		t.Error("no output directory: no error")
	}
	err := Build(context.Background(), t.TempDir(), BuildOptions{Go: "no-such-go-command"})
	if err == nil || !strings.Contains(err.Error(), "no-such-go-command") {
		t.Errorf("a missing go command: %v", err)
	}
	err = Build(context.Background(), t.TempDir(), BuildOptions{ModuleDir: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), "./web/wasm") {
		t.Errorf("not the module's source: %v", err)
	}
}
