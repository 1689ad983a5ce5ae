package registry

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tfaddr "github.com/hashicorp/terraform-registry-address"
)

// fakeRegistry is a registry on a loopback test server. Its handlers count
// requests per path.
type fakeRegistry struct {
	*httptest.Server
	hits  map[string]*atomic.Int32
	paths map[string]http.HandlerFunc
}

func newFakeRegistry(t *testing.T, paths map[string]http.HandlerFunc) *fakeRegistry {
	t.Helper()
	f := &fakeRegistry{hits: map[string]*atomic.Int32{}, paths: paths}
	for p := range paths {
		f.hits[p] = new(atomic.Int32)
	}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h, ok := f.paths[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		f.hits[r.URL.Path].Add(1)
		h(w, r)
	}))
	t.Cleanup(f.Close)
	return f
}

func body(s string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, s)
	}
}

const (
	discoveryRelative = `{"modules.v1": "/v1/modules/", "providers.v1": "/v1/providers/", "login.v1": {"client": "terraform-cli"}}`
	modulesBody       = `{"modules": [{"source": "corp/net/aws", "versions": [{"version": "1.0.0"}, {"version": "2.0.0-beta.1"}, {"version": "v1.1.0"}, {"version": "not-a-version"}]}]}`
	providersBody     = `{"versions": [{"version": "2.0.0", "protocols": ["5.0"], "platforms": [{"os": "linux", "arch": "amd64"}]}, {"version": "2.1.0-rc.1", "protocols": ["6.0"], "platforms": []}], "warnings": ["this provider is deprecated"]}`
)

func testClient(f *fakeRegistry) *Client {
	return &Client{BaseURL: f.URL, Timeout: 2 * time.Second, RetryWait: time.Millisecond, MaxRetryWait: 5 * time.Millisecond}
}

var (
	netAddr = tfaddr.MustParseModuleSource("corp/net/aws").Package
	aws     = tfaddr.MustParseProviderSource("hashicorp/aws")
)

func TestClientRelativeDiscoveryAndBothEndpoints(t *testing.T) {
	f := newFakeRegistry(t, map[string]http.HandlerFunc{
		"/.well-known/terraform.json":          body(discoveryRelative),
		"/v1/modules/corp/net/aws/versions":    body(modulesBody),
		"/v1/providers/hashicorp/aws/versions": body(providersBody),
	})
	c := testClient(f)
	ctx := context.Background()
	m, err := c.ModuleVersions(ctx, netAddr)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"1.0.0", "2.0.0-beta.1", "v1.1.0", "not-a-version"}; !reflect.DeepEqual(m.Versions, want) {
		t.Errorf("module versions = %q, want %q (unreadable ones kept)", m.Versions, want)
	}
	if m.From != f.URL+"/v1/modules/corp/net/aws/versions" {
		t.Errorf("From = %q", m.From)
	}
	p, err := c.ProviderVersions(ctx, aws)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"2.0.0", "2.1.0-rc.1"}; !reflect.DeepEqual(p.Versions, want) {
		t.Errorf("provider versions = %q, want %q", p.Versions, want)
	}
	if want := []string{"this provider is deprecated"}; !reflect.DeepEqual(p.Warnings, want) {
		t.Errorf("warnings = %q, want %q", p.Warnings, want)
	}
	if n := f.hits["/.well-known/terraform.json"].Load(); n != 1 {
		t.Errorf("discovery fetched %d times, want once per host", n)
	}
}

func TestClientAbsoluteDiscovery(t *testing.T) {
	// The discovery document on one server names services on another.
	api := newFakeRegistry(t, map[string]http.HandlerFunc{
		"/api/registry/v1/modules/corp/net/aws/versions":    body(modulesBody),
		"/api/registry/v1/providers/hashicorp/aws/versions": body(providersBody),
	})
	disco := newFakeRegistry(t, map[string]http.HandlerFunc{
		"/.well-known/terraform.json": body(fmt.Sprintf(`{"modules.v1": %q, "providers.v1": %q}`,
			api.URL+"/api/registry/v1/modules", api.URL+"/api/registry/v1/providers/")),
	})
	c := testClient(disco)
	if _, err := c.ModuleVersions(context.Background(), netAddr); err != nil {
		t.Fatal(err)
	}
	if _, err := c.ProviderVersions(context.Background(), aws); err != nil {
		t.Fatal(err)
	}
	if api.hits["/api/registry/v1/modules/corp/net/aws/versions"].Load() != 1 {
		t.Error("modules endpoint not used")
	}
}

func TestClientHostURLs(t *testing.T) {
	f := newFakeRegistry(t, map[string]http.HandlerFunc{
		"/.well-known/terraform.json":       body(discoveryRelative),
		"/v1/modules/corp/net/aws/versions": body(modulesBody),
	})
	c := &Client{HostURLs: map[string]string{"registry.example.com": f.URL + "/"}}
	addr := netAddr
	addr.Host = "registry.example.com"
	if _, err := c.ModuleVersions(context.Background(), addr); err != nil {
		t.Fatal(err)
	}
	if got := c.DiscoveryURL("other.example.com"); got != "https://other.example.com/.well-known/terraform.json" {
		t.Errorf("DiscoveryURL = %q", got)
	}
}

func TestClientErrors(t *testing.T) {
	big := `{"modules": [{"versions": [` + strings.Repeat(`{"version": "1.0.0"},`, 200) + `{"version": "1.0.1"}]}]}`
	tests := []struct {
		name     string
		handler  http.HandlerFunc
		client   func(*Client)
		provider bool
		want     string // in the error text
		notFound bool
		hits     int32 // requests to the versions endpoint
	}{
		{name: "404", handler: http.NotFound, want: "404 Not Found", notFound: true, hits: 1},
		{name: "500 until retries run out", handler: func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "boom", http.StatusInternalServerError)
		}, want: "500 Internal Server Error (after 4 attempts)", hits: 4},
		{name: "no retries", handler: func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "busy", http.StatusServiceUnavailable)
		}, client: func(c *Client) { c.Retries = -1 }, want: "503 Service Unavailable", hits: 1},
		{name: "403 not retried", handler: func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "no", http.StatusForbidden)
		}, want: "403 Forbidden", hits: 1},
		{name: "malformed JSON", handler: body("{\"modules\": [\n  {\"versions\": [{\"version\": 1.0}]}]}"), want: `malformed JSON: line 2, column`, hits: 1},
		{name: "truncated JSON", handler: body(`{"modules": [`), want: "malformed JSON", hits: 1},
		{name: "not JSON", handler: body(`<html>rate limited</html>`), want: "malformed JSON: line 1, column 1", hits: 1},
		{name: "no modules field", handler: body(`{}`), want: `no "modules" field`, hits: 1},
		{name: "empty modules", handler: body(`{"modules": []}`), want: `lists no module`, hits: 1},
		{name: "entry without version", handler: body(`{"modules": [{"versions": [{"v": "1"}]}]}`), want: `versions[0] has no "version" field`, hits: 1},
		{name: "body over the limit", handler: body(big), client: func(c *Client) { c.MaxBodyBytes = 1024 }, want: "larger than the limit of 1024 bytes", hits: 1},
		{name: "provider 404", handler: http.NotFound, provider: true, want: "provider hashicorp/aws: GET", notFound: true, hits: 1},
		{name: "provider bad JSON", handler: body(`{"versions": {}}`), provider: true, want: "malformed JSON", hits: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := "/v1/modules/corp/net/aws/versions"
			if tt.provider {
				path = "/v1/providers/hashicorp/aws/versions"
			}
			f := newFakeRegistry(t, map[string]http.HandlerFunc{
				"/.well-known/terraform.json": body(discoveryRelative),
				path:                          tt.handler,
			})
			c := testClient(f)
			if tt.client != nil {
				tt.client(c)
			}
			var err error
			if tt.provider {
				_, err = c.ProviderVersions(context.Background(), aws)
			} else {
				_, err = c.ModuleVersions(context.Background(), netAddr)
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error = %v, want it to contain %q", err, tt.want)
			}
			if errors.Is(err, ErrNotFound) != tt.notFound {
				t.Errorf("errors.Is(err, ErrNotFound) = %v, want %v", !tt.notFound, tt.notFound)
			}
			if got := f.hits[path].Load(); got != tt.hits {
				t.Errorf("%d requests, want %d", got, tt.hits)
			}
		})
	}
}

func TestClient429ThenSuccess(t *testing.T) {
	var n atomic.Int32
	f := newFakeRegistry(t, map[string]http.HandlerFunc{
		"/.well-known/terraform.json": body(discoveryRelative),
		"/v1/modules/corp/net/aws/versions": func(w http.ResponseWriter, r *http.Request) {
			if n.Add(1) <= 2 {
				w.Header().Set("Retry-After", "1")
				http.Error(w, "slow down", http.StatusTooManyRequests)
				return
			}
			body(modulesBody)(w, r)
		},
	})
	c := testClient(f)
	start := time.Now()
	l, err := c.ModuleVersions(context.Background(), netAddr)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Versions) != 4 || n.Load() != 3 {
		t.Errorf("versions %q after %d requests", l.Versions, n.Load())
	}
	// Retry-After (1s) is capped by MaxRetryWait (5ms).
	if d := time.Since(start); d > time.Second {
		t.Errorf("took %s: Retry-After not capped", d)
	}
}

func TestClientTimeout(t *testing.T) {
	f := newFakeRegistry(t, map[string]http.HandlerFunc{
		"/.well-known/terraform.json": body(discoveryRelative),
		"/v1/modules/corp/net/aws/versions": func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-r.Context().Done():
			case <-time.After(5 * time.Second):
			}
		},
	})
	c := testClient(f)
	c.Timeout = 50 * time.Millisecond
	start := time.Now()
	_, err := c.ModuleVersions(context.Background(), netAddr)
	if err == nil || !strings.Contains(err.Error(), "no complete answer within the 50ms timeout") {
		t.Fatalf("error = %v, want a timeout", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("took %s", d)
	}
}

func TestClientSlowBodyTimeout(t *testing.T) {
	f := newFakeRegistry(t, map[string]http.HandlerFunc{
		"/.well-known/terraform.json": body(discoveryRelative),
		"/v1/modules/corp/net/aws/versions": func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprint(w, `{"modules": [`)
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
			case <-time.After(5 * time.Second):
			}
		},
	})
	c := testClient(f)
	c.Timeout = 50 * time.Millisecond
	_, err := c.ModuleVersions(context.Background(), netAddr)
	if err == nil || !strings.Contains(err.Error(), "timeout") {
		t.Fatalf("error = %v, want a timeout", err)
	}
}

func TestClientCancelled(t *testing.T) {
	f := newFakeRegistry(t, map[string]http.HandlerFunc{
		"/.well-known/terraform.json": body(discoveryRelative),
	})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := testClient(f).ModuleVersions(ctx, netAddr)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error = %v, want context.Canceled", err)
	}
}

func TestClientUnreachable(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	c := &Client{BaseURL: "http://" + addr, Timeout: 2 * time.Second}
	_, err = c.ModuleVersions(context.Background(), netAddr)
	if err == nil || !strings.Contains(err.Error(), "cannot reach the registry") || !strings.Contains(err.Error(), "service discovery for registry.terraform.io") {
		t.Fatalf("error = %v", err)
	}
}

func TestClientDiscoveryErrors(t *testing.T) {
	tests := []struct {
		name, doc string
		provider  bool
		want      string
	}{
		{"no modules service", `{"providers.v1": "/v1/providers/"}`, false, "offers no module registry"},
		{"no providers service", `{"modules.v1": "/v1/modules/"}`, true, "offers no provider registry"},
		{"not a string", `{"modules.v1": 42}`, false, `"modules.v1" is not a string`},
		{"bad scheme", `{"modules.v1": "ftp://example.com/m/"}`, false, "not an http or https URL"},
		{"bad JSON", `{"modules.v1": `, false, "malformed JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeRegistry(t, map[string]http.HandlerFunc{"/.well-known/terraform.json": body(tt.doc)})
			var err error
			if tt.provider {
				_, err = testClient(f).ProviderVersions(context.Background(), aws)
			} else {
				_, err = testClient(f).ModuleVersions(context.Background(), netAddr)
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error = %v, want %q", err, tt.want)
			}
		})
	}
	f := newFakeRegistry(t, map[string]http.HandlerFunc{})
	_, err := testClient(f).ModuleVersions(context.Background(), netAddr)
	if err == nil || !strings.Contains(err.Error(), "is registry.terraform.io a Terraform registry?") || !errors.Is(err, ErrNotFound) {
		t.Fatalf("discovery 404: %v", err)
	}
}

func TestIndex(t *testing.T) {
	src := `{
  "modules": {
    "terraform-aws-modules/vpc/aws": {"modules": [{"versions": [{"version": "5.0.0"}, {"version": "5.1.0-beta.1"}]}]},
    "app.terraform.io/corp/net/aws": {"modules": [{"versions": []}]}
  },
  "providers": {
    "hashicorp/aws": {"versions": [{"version": "5.31.0", "protocols": ["5.0"], "platforms": []}], "warnings": ["w"]}
  }
}`
	x, err := ParseIndex([]byte(src), "index.json")
	if err != nil {
		t.Fatal(err)
	}
	m := tfaddr.MustParseModuleSource("registry.terraform.io/Terraform-AWS-Modules/vpc/aws").Package
	l, err := x.ModuleVersions(context.Background(), m)
	if err != nil || !reflect.DeepEqual(l.Versions, []string{"5.0.0", "5.1.0-beta.1"}) || l.From != "index.json:3" {
		t.Errorf("vpc: %+v, %v", l, err)
	}
	p := tfaddr.MustParseProviderSource("registry.terraform.io/hashicorp/aws")
	l, err = x.ProviderVersions(context.Background(), p)
	if err != nil || !reflect.DeepEqual(l.Versions, []string{"5.31.0"}) || !reflect.DeepEqual(l.Warnings, []string{"w"}) {
		t.Errorf("aws: %+v, %v", l, err)
	}
	p = tfaddr.MustParseProviderSource("hashicorp/google")
	if _, err := x.ProviderVersions(context.Background(), p); !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "provider hashicorp/google: not found in index.json") {
		t.Errorf("missing provider: %v", err)
	}
	if got := x.Modules(); !reflect.DeepEqual(got, []string{"app.terraform.io/corp/net/aws", "terraform-aws-modules/vpc/aws"}) {
		t.Errorf("Modules() = %q", got)
	}
	if x.String() != "index index.json" {
		t.Errorf("String() = %q", x.String())
	}
}

func TestIndexErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		{``, "index.json:1:1: malformed JSON: unexpected end of file"},
		{`[]`, "index.json:1:1: expected an object"},
		{`{"mods": {}}`, `index.json:1:2: unknown member "mods"`},
		{`{"modules": []}`, `index.json:1:13: expected "modules" to be an object`},
		{`{"modules": {"./local": {}}}`, `index.json:1: modules key: module address "./local": a module registry source address must have either three or four slash-separated components`},
		{`{"modules": {"a/b/c//sub": {"modules": []}}}`, `a package address has no //SUBDIR`},
		{"{\"modules\": {\"a/b/c\":\n {\"modules\": [{\"versions\": [{\"version\": true}]}]}}}", `index.json: modules["a/b/c"]: malformed JSON: line 2, column`},
		{`{"providers": {"a/b/c/d": {"versions": []}}}`, `providers key: provider source "a/b/c/d"`},
		{`{"providers": {"hashicorp/aws": {}}}`, `providers["hashicorp/aws"]: no "versions" field`},
		{"{\"providers\": {\"hashicorp/aws\": {\"versions\": []},\n \"registry.terraform.io/HashiCorp/aws\": {\"versions\": []}}}", `index.json:2: providers key "registry.terraform.io/HashiCorp/aws" is the same address as "hashicorp/aws" on line 1`},
		{`{"modules": {}} {}`, "unexpected data after the index object"},
		{`{"modules": {"a/b/c": {"modules": [{"versions": [`, "malformed JSON"},
	}
	for _, tt := range tests {
		_, err := ParseIndex([]byte(tt.src), "index.json")
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseIndex(%q) error = %v, want %q", tt.src, err, tt.want)
		}
	}
}

func TestDecodeBodies(t *testing.T) {
	vs, err := DecodeModuleVersions([]byte(modulesBody))
	if err != nil || len(vs) != 4 {
		t.Errorf("modules: %q, %v", vs, err)
	}
	vs, ws, err := DecodeProviderVersions([]byte(providersBody))
	if err != nil || len(vs) != 2 || len(ws) != 1 {
		t.Errorf("providers: %q %q %v", vs, ws, err)
	}
	if _, err := DecodeModuleVersions([]byte(`{"modules": [{"versions": []}]} x`)); err == nil || !strings.Contains(err.Error(), "unexpected data after the value") {
		t.Errorf("trailing data: %v", err)
	}
	if _, err := DecodeModuleVersions(nil); err == nil || !strings.Contains(err.Error(), "empty") {
		t.Errorf("empty body: %v", err)
	}
}
