package web

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	tfaddr "github.com/hashicorp/terraform-registry-address"

	"github.com/prerel/prerel/terraform/registry"
)

// do sends a request for path to h, with Host host and the headers hd,
// and returns the answer.
func do(h http.Handler, host, path string, hd map[string]string) *httptest.ResponseRecorder {
	req := httptest.NewRequest("GET", path, nil)
	req.Host = host
	for k, v := range hd {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// staticVersions is a source that lists the same versions for every
// address.
type staticVersions struct{}

func (staticVersions) ModuleVersions(context.Context, tfaddr.ModulePackage) (*registry.Listing, error) {
	return &registry.Listing{Versions: []string{"1.0.0"}, From: "test"}, nil
}

func (staticVersions) ProviderVersions(context.Context, tfaddr.Provider) (*registry.Listing, error) {
	return &registry.Listing{Versions: []string{"1.0.0"}, From: "test"}, nil
}

func (staticVersions) String() string { return "test" }

// A page whose name was rebound to 127.0.0.1 sends its own name as the
// Host: nothing is answered to it, not the page (which holds the token)
// nor the API.
func TestHandlerRefusesOtherHosts(t *testing.T) {
	site := fakeSite()
	site[IndexFile] = &fstest.MapFile{Data: []byte("<head>" + tokenMeta + "</head>")}
	h := Handler(site, Options{Versions: func() (registry.Source, error) { return staticVersions{}, nil }, Token: testToken})
	for _, host := range []string{"attacker.example:8080", "attacker.example", "127.0.0.1.attacker.example:8080", "localhost.attacker.example", ""} {
		for _, path := range []string{"/", "/api/status", "/api/versions?address=hashicorp/demo", "/" + WasmFile} {
			rec := do(h, host, path, map[string]string{TokenHeader: testToken})
			if rec.Code != http.StatusMisdirectedRequest || strings.Contains(rec.Body.String(), testToken) {
				t.Errorf("Host %q, %s: %d %q, want 421 without the token", host, path, rec.Code, rec.Body.String())
			}
		}
	}
	for _, host := range []string{"127.0.0.1:8080", "localhost:41234", "LOCALHOST", "[::1]:8080"} {
		rec := do(h, host, "/", nil)
		if rec.Code != 200 || !strings.Contains(rec.Body.String(), `<meta name="prerel-api-token" content="`+testToken+`">`) {
			t.Errorf("Host %q: %d %q, want the page with its token", host, rec.Code, rec.Body.String())
		}
		if cc := rec.Header().Get("Cache-Control"); cc != "no-store" {
			t.Errorf("the page with its token has Cache-Control %q", cc)
		}
	}
	// A server's own check, as prerel serve gives one.
	own := Handler(fakeSite(), Options{AllowHost: func(h string) bool { return h == "box.internal:8080" }})
	if rec := do(own, "box.internal:8080", "/", nil); rec.Code != 200 {
		t.Errorf("the host the server allows: %d", rec.Code)
	}
	if rec := do(own, "127.0.0.1:8080", "/", nil); rec.Code != http.StatusMisdirectedRequest {
		t.Errorf("a host the server does not allow: %d", rec.Code)
	}
}

// A page of another origin can send a request to the API (a no-cors
// fetch, a script or image element) but not read the answer; it must
// not make a lookup with the user's credentials either.
func TestHandlerRefusesCrossSiteLookups(t *testing.T) {
	n := 0
	h := Handler(fakeSite(), Options{Token: testToken, Versions: func() (registry.Source, error) {
		n++
		return staticVersions{}, nil
	}})
	const path = "/api/versions?address=hashicorp/demo"
	tests := []struct {
		name   string
		header map[string]string
		status int
	}{
		{"the page", map[string]string{TokenHeader: testToken, "Sec-Fetch-Site": "same-origin", "Origin": "http://127.0.0.1:8080"}, 200},
		{"a client that is not a browser", map[string]string{TokenHeader: testToken}, 200},
		{"no-cors fetch from another site", map[string]string{"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "no-cors"}, 403},
		{"another site with the token", map[string]string{TokenHeader: testToken, "Sec-Fetch-Site": "cross-site"}, 403},
		{"a sibling site", map[string]string{TokenHeader: testToken, "Sec-Fetch-Site": "same-site"}, 403},
		{"another origin", map[string]string{TokenHeader: testToken, "Origin": "http://attacker.example"}, 403},
		{"another port", map[string]string{TokenHeader: testToken, "Origin": "http://127.0.0.1:9999"}, 403},
		{"an opaque origin", map[string]string{TokenHeader: testToken, "Origin": "null"}, 403},
		{"no token", map[string]string{"Sec-Fetch-Site": "same-origin"}, 403},
		{"a wrong token", map[string]string{TokenHeader: strings.Repeat("0", len(testToken))}, 403},
	}
	for _, tt := range tests {
		before := n
		rec := do(h, "127.0.0.1:8080", path, tt.header)
		if rec.Code != tt.status {
			t.Errorf("%s: %d %s, want %d", tt.name, rec.Code, rec.Body.String(), tt.status)
		}
		if tt.status != 200 && n != before {
			t.Errorf("%s: a lookup was made", tt.name)
		}
	}
	// The status too answers the page only.
	if rec := do(h, "127.0.0.1:8080", "/api/status", map[string]string{"Sec-Fetch-Site": "cross-site"}); rec.Code != 403 {
		t.Errorf("/api/status from another site: %d", rec.Code)
	}
	// Pages may still be linked to from anywhere.
	if rec := do(h, "127.0.0.1:8080", "/", map[string]string{"Sec-Fetch-Site": "cross-site"}); rec.Code != 200 {
		t.Errorf("a link from another site to the page: %d", rec.Code)
	}
	// A token is made when none is given, and differs from run to run.
	a, b := NewToken(), NewToken()
	if len(a) != 32 || a == b {
		t.Errorf("NewToken: %q, %q", a, b)
	}
}

// Lookups go only to the registries allowed.
func TestHandlerAllowsRegistries(t *testing.T) {
	h := Handler(fakeSite(), Options{Token: testToken, Versions: func() (registry.Source, error) { return staticVersions{}, nil },
		AllowRegistry: func(host string) bool { return host == "registry.terraform.io" }})
	for _, addr := range []string{"hashicorp/demo", "registry.terraform.io/hashicorp/demo", "REGISTRY.terraform.io/hashicorp/demo", "acme/net/aws"} {
		if rec := do(h, "127.0.0.1", "/api/versions?address="+url.QueryEscape(addr), map[string]string{TokenHeader: testToken}); rec.Code != 200 {
			t.Errorf("%s: %d %s", addr, rec.Code, rec.Body.String())
		}
	}
	for _, addr := range []string{"10.0.0.1:8080/acme/demo", "127.0.0.1:22/acme/demo", "localhost:6379/acme/demo", "internal.example/acme/net/aws", "169.254.169.254/a/b"} {
		rec := do(h, "127.0.0.1", "/api/versions?address="+url.QueryEscape(addr), map[string]string{TokenHeader: testToken})
		if rec.Code != 403 || !strings.Contains(rec.Body.String(), "--allow-registry") {
			t.Errorf("%s: %d %s, want 403", addr, rec.Code, rec.Body.String())
		}
	}
}

// The guarded client refuses the tests' server at 127.0.0.1, by name or
// by address, unless it is trusted, and a redirect to it.
func TestGuardedClient(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") }))
	defer srv.Close()
	u, _ := url.Parse(srv.URL)
	port := u.Port()
	get := func(c *http.Client, raw string) error {
		resp, err := c.Get(raw)
		if err == nil {
			resp.Body.Close()
		}
		return err
	}
	guarded := GuardedClient(nil)
	for _, raw := range []string{srv.URL, "http://localhost:" + port + "/", "http://[::1]:" + port + "/", "http://169.254.169.254/latest/meta-data/", "http://0.0.0.0:" + port + "/"} {
		if err := get(guarded, raw); !errors.Is(err, ErrRefusedAddress) {
			t.Errorf("GET %s: %v, want it refused", raw, err)
		}
	}
	trusted := GuardedClient([]string{TrustedHost(srv.URL)})
	if err := get(trusted, srv.URL); err != nil {
		t.Errorf("a trusted host: %v", err)
	}
	if err := get(trusted, "http://localhost:"+port+"/"); !errors.Is(err, ErrRefusedAddress) {
		t.Errorf("another name of a trusted host: %v, want it refused", err)
	}
	// A redirect from a trusted host to an internal one is refused.
	redirect := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://localhost:"+port+"/secret", http.StatusFound)
	}))
	defer redirect.Close()
	if err := get(GuardedClient([]string{TrustedHost(redirect.URL)}), redirect.URL); !errors.Is(err, ErrRefusedAddress) {
		t.Errorf("a redirect to an internal host: %v, want it refused", err)
	}
	for _, tt := range []struct {
		ip     string
		public bool
	}{
		{"8.8.8.8", true}, {"2606:4700::1111", true}, {"127.0.0.1", false}, {"10.1.2.3", false}, {"172.16.0.1", false},
		{"192.168.1.1", false}, {"169.254.169.254", false}, {"100.64.0.1", false}, {"0.0.0.0", false}, {"::1", false},
		{"fe80::1", false}, {"fd00::1", false}, {"::ffff:127.0.0.1", false}, {"::ffff:10.0.0.1", false}, {"224.0.0.1", false},
		{"64:ff9b::a00:1", false}, {"255.255.255.255", false},
	} {
		if got := PublicAddr(netip.MustParseAddr(tt.ip)); got != tt.public {
			t.Errorf("PublicAddr(%s) = %v", tt.ip, got)
		}
	}
}

// A discovery document that names an internal URL gets no answer from
// it, and the page learns nothing of the internal host: the answer for
// an open port is the answer for a closed one.
func TestHandlerSSRFThroughDiscovery(t *testing.T) {
	internal := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `{"versions":[{"version":"6.6.6-internal-secret"}]}`)
	}))
	defer internal.Close()
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closedAddr := closed.Addr().String()
	closed.Close()
	iu, _ := url.Parse(internal.URL)
	targets := map[string]string{
		"open":   "http://localhost:" + iu.Port() + "/v1/providers/",
		"closed": "http://localhost:" + strings.Split(closedAddr, ":")[1] + "/v1/providers/",
		"ip":     internal.URL + "/v1/providers/",
	}
	answers := map[string]string{}
	for name, target := range targets {
		reg := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprintf(w, `{"providers.v1":%q}`, target)
		}))
		var log syncBuffer
		h := Handler(fakeSite(), Options{Token: testToken, Log: &log, Versions: func() (registry.Source, error) {
			return &registry.Client{BaseURL: reg.URL, HTTPClient: GuardedClient([]string{TrustedHost(reg.URL)}), Retries: -1, Timeout: 10 * time.Second}, nil
		}})
		rec := do(h, "127.0.0.1", "/api/versions?address=hashicorp/demo", map[string]string{TokenHeader: testToken})
		reg.Close()
		body := rec.Body.String()
		if rec.Code != http.StatusBadGateway || strings.Contains(body, "secret") || strings.Contains(body, "localhost") || strings.Contains(body, "127.0.0.1") {
			t.Errorf("%s internal port: %d %s, want a generic 502", name, rec.Code, body)
		}
		if !strings.Contains(log.String(), ErrRefusedAddress.Error()) {
			t.Errorf("%s internal port: the log does not say the address was refused:\n%s", name, log.String())
		}
		answers[name] = body
	}
	if answers["open"] != answers["closed"] || answers["open"] != answers["ip"] {
		t.Errorf("the answers tell the internal ports apart: %q", answers)
	}
}

// blockingVersions is a source whose lookups each say they started,
// then wait until release is closed.
type blockingVersions struct {
	started chan<- struct{}
	release <-chan struct{}
}

func (b blockingVersions) ModuleVersions(ctx context.Context, _ tfaddr.ModulePackage) (*registry.Listing, error) {
	return b.ProviderVersions(ctx, tfaddr.Provider{})
}

func (b blockingVersions) ProviderVersions(ctx context.Context, _ tfaddr.Provider) (*registry.Listing, error) {
	b.started <- struct{}{}
	select {
	case <-b.release:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return &registry.Listing{Versions: []string{"1.0.0"}, From: "test"}, nil
}

func (blockingVersions) String() string { return "test" }

// At most MaxLookups lookups run, at most MaxQueue wait, each for at
// most QueueWait; the others are refused at once with a Retry-After.
func TestHandlerQueueIsBounded(t *testing.T) {
	started := make(chan struct{}, MaxLookups+10)
	release := make(chan struct{})
	queued := make(chan struct{}, 10)
	const maxQueue = 3
	h := newHandler(fakeSite(), Options{Token: testToken, MaxQueue: maxQueue, QueueWait: time.Hour, Versions: func() (registry.Source, error) {
		return blockingVersions{started, release}, nil
	}})
	h.queued = func() { queued <- struct{}{} }
	get := func() <-chan *httptest.ResponseRecorder {
		done := make(chan *httptest.ResponseRecorder, 1)
		go func() {
			done <- do(h, "127.0.0.1", "/api/versions?address=hashicorp/demo", map[string]string{TokenHeader: testToken})
		}()
		return done
	}
	var answers []<-chan *httptest.ResponseRecorder
	for range MaxLookups {
		answers = append(answers, get())
		<-started
	}
	for range maxQueue {
		answers = append(answers, get())
		<-queued
	}
	// The queue is full: refused at once.
	rec := <-get()
	if rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Retry-After") != fmt.Sprint(RetryAfter) {
		t.Errorf("a lookup beyond the queue: %d, Retry-After %q: %s", rec.Code, rec.Header().Get("Retry-After"), rec.Body.String())
	}
	select {
	case <-started:
		t.Error("a lookup beyond the limit started")
	default:
	}
	// A bad request is answered whatever the queue.
	if rec := do(h, "127.0.0.1", "/api/versions?address=a/b/c/d/e", map[string]string{TokenHeader: testToken}); rec.Code != 400 {
		t.Errorf("a bad address while the queue is full: %d", rec.Code)
	}
	close(release)
	for _, a := range answers {
		if rec := <-a; rec.Code != 200 {
			t.Errorf("a lookup that waited its turn: %d %s", rec.Code, rec.Body.String())
		}
	}
}

// A lookup that waits longer than QueueWait is answered 503.
func TestHandlerQueueWaitIsBounded(t *testing.T) {
	started := make(chan struct{}, MaxLookups)
	release := make(chan struct{})
	defer close(release)
	h := newHandler(fakeSite(), Options{Token: testToken, QueueWait: time.Millisecond, Versions: func() (registry.Source, error) {
		return blockingVersions{started, release}, nil
	}})
	for range MaxLookups {
		go do(h, "127.0.0.1", "/api/versions?address=hashicorp/demo", map[string]string{TokenHeader: testToken})
		<-started
	}
	rec := do(h, "127.0.0.1", "/api/versions?address=hashicorp/demo", map[string]string{TokenHeader: testToken})
	if rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Retry-After") == "" || !strings.Contains(rec.Body.String(), "within 1ms") {
		t.Errorf("a lookup that waited too long: %d, Retry-After %q: %s", rec.Code, rec.Header().Get("Retry-After"), rec.Body.String())
	}
}

// The site's files go gzip-compressed to a client that accepts it,
// compressed once.
func TestHandlerGzip(t *testing.T) {
	site := fakeSite()
	wasm := bytes.Repeat([]byte("\x00asm prerel "), 10000)
	site[WasmFile] = &fstest.MapFile{Data: wasm, ModTime: time.Unix(1e9, 0)}
	h := newHandler(site, Options{})
	for _, ae := range []string{"gzip, deflate, br", "br;q=1.0, gzip;q=0.8", "*"} {
		rec := do(h, "127.0.0.1", "/"+WasmFile, map[string]string{"Accept-Encoding": ae})
		if rec.Code != 200 || rec.Header().Get("Content-Encoding") != "gzip" || rec.Header().Get("Vary") != "Accept-Encoding" || rec.Header().Get("Content-Type") != "application/wasm" {
			t.Fatalf("Accept-Encoding %q: %d %v", ae, rec.Code, rec.Header())
		}
		if rec.Body.Len() >= len(wasm)/10 {
			t.Errorf("Accept-Encoding %q: %d bytes sent for %d", ae, rec.Body.Len(), len(wasm))
		}
		zr, err := gzip.NewReader(rec.Body)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(zr)
		if err != nil || !bytes.Equal(got, wasm) {
			t.Errorf("Accept-Encoding %q: the body does not decompress to the file (%v)", ae, err)
		}
	}
	first := h.zipped[WasmFile]
	do(h, "127.0.0.1", "/"+WasmFile, map[string]string{"Accept-Encoding": "gzip"})
	if h.zipped[WasmFile] != first {
		t.Error("the file was compressed again")
	}
	for _, ae := range []string{"", "identity", "gzip;q=0", "br"} {
		rec := do(h, "127.0.0.1", "/"+WasmFile, map[string]string{"Accept-Encoding": ae})
		if rec.Header().Get("Content-Encoding") != "" || !bytes.Equal(rec.Body.Bytes(), wasm) {
			t.Errorf("Accept-Encoding %q: Content-Encoding %q, %d bytes", ae, rec.Header().Get("Content-Encoding"), rec.Body.Len())
		}
	}
	// A rebuilt file is compressed again.
	site[WasmFile] = &fstest.MapFile{Data: []byte("new"), ModTime: time.Unix(2e9, 0)}
	rec := do(h, "127.0.0.1", "/"+WasmFile, map[string]string{"Accept-Encoding": "gzip"})
	if zr, err := gzip.NewReader(rec.Body); err != nil {
		t.Error(err)
	} else if got, _ := io.ReadAll(zr); string(got) != "new" {
		t.Errorf("a rebuilt file: %q", got)
	}
}

func TestParseQuery(t *testing.T) {
	tests := []struct {
		query, kind, canonical, host string
	}{
		{"address=hashicorp/aws", "provider", "registry.terraform.io/hashicorp/aws", "registry.terraform.io"},
		{"address=+registry.OpenTofu.org/hashicorp/aws+", "provider", "registry.opentofu.org/hashicorp/aws", "registry.opentofu.org"},
		{"address=terraform-aws-modules/vpc/aws", "module", "registry.terraform.io/terraform-aws-modules/vpc/aws", "registry.terraform.io"},
		{"address=example.com:8443/acme/net/aws", "module", "example.com:8443/acme/net/aws", "example.com:8443"},
		{"address=acme/demo&kind=provider", "provider", "registry.terraform.io/acme/demo", "registry.terraform.io"},
	}
	for _, tt := range tests {
		v, _ := url.ParseQuery(tt.query)
		q, status, err := ParseQuery(v)
		if err != nil || status != 0 || q.Kind != tt.kind || q.Canonical != tt.canonical || q.Host != tt.host {
			t.Errorf("ParseQuery(%s) = %+v, %d, %v", tt.query, q, status, err)
		}
	}
	for _, bad := range []string{"", "address=", "address=a/b/c/d/e", "address=a/b&kind=x", "address=%E2%80%AEevil/demo"} {
		v, _ := url.ParseQuery(bad)
		if _, status, err := ParseQuery(v); err == nil || status != http.StatusBadRequest {
			t.Errorf("ParseQuery(%s): %d %v, want 400", bad, status, err)
		}
	}
}

// An unknown kind is quoted in the API's error escaped once: the ESC of
// ?kind=%1B is \x1b in the message, not \\x1b.
func TestUnknownKindIsEscapedOnce(t *testing.T) {
	h := Handler(fakeSite(), Options{Token: testToken, Versions: func() (registry.Source, error) {
		return nil, errors.New("a bad request looks nothing up")
	}})
	for _, tt := range []struct{ kind, want string }{
		{"tool", `kind "tool": expected module or provider`},
		{"\x1b[2J", `kind "\x1b[2J": expected module or provider`},
		{"a\u202eb", `kind "a\u202eb": expected module or provider`},
		{"\"quoted\"", `kind "\"quoted\"": expected module or provider`},
		{strings.Repeat("k", 100), `kind "` + strings.Repeat("k", 40) + `...": expected module or provider`},
	} {
		rec := do(h, "127.0.0.1", "/api/versions?address=hashicorp/demo&kind="+url.QueryEscape(tt.kind), map[string]string{TokenHeader: testToken})
		var body struct{ Error string }
		if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil || rec.Code != http.StatusBadRequest || body.Error != tt.want {
			t.Errorf("kind %q: %d %s, want 400 and the error %s", tt.kind, rec.Code, rec.Body.String(), tt.want)
		}
	}
}

// Precompress compresses prerel.wasm before its first request.
func TestHandlerPrecompress(t *testing.T) {
	h := newHandler(fakeSite(), Options{Precompress: true})
	rec := do(h, "127.0.0.1", "/"+WasmFile, map[string]string{"Accept-Encoding": "gzip"})
	if rec.Header().Get("Content-Encoding") != "gzip" {
		t.Fatalf("Content-Encoding %q", rec.Header().Get("Content-Encoding"))
	}
	zr, err := gzip.NewReader(rec.Body)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := io.ReadAll(zr); string(got) != "content of "+WasmFile {
		t.Errorf("%q", got)
	}
}
