package registry

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	tfaddr "github.com/hashicorp/terraform-registry-address"
)

func TestParseProviderPattern(t *testing.T) {
	tests := []struct {
		in, want string // want: the pattern's String, or the error's text
		err      bool
	}{
		{in: "hashicorp/aws", want: "registry.terraform.io/hashicorp/aws"},
		{in: "registry.terraform.io/hashicorp/*", want: "registry.terraform.io/hashicorp/*"},
		{in: "*/*", want: "registry.terraform.io/*/*"},
		{in: "*/*/*", want: "*/*/*"},
		{in: "Reg.Example:443/Corp/Thing", want: "reg.example/corp/thing"},
		{in: "reg.example:8443/corp/*", want: "reg.example:8443/corp/*"},
		{in: "aws", want: "must have either two or three slash-separated segments", err: true},
		{in: "a/b/c/d", want: "must have either two or three slash-separated segments", err: true},
		{in: "*/aws", want: "namespace can be a wildcard only if the provider type is also a wildcard", err: true},
		{in: "*/hashicorp/*", want: "hostname can be a wildcard only if both namespace and provider type are also wildcards", err: true},
		{in: "bad host/a/b", want: "invalid hostname", err: true},
		{in: "hashicorp/a b", want: `invalid provider type "a b"`, err: true},
		{in: "ha shi/aws", want: `invalid registry namespace "ha shi"`, err: true},
	}
	for _, tt := range tests {
		p, err := ParseProviderPattern(tt.in)
		switch {
		case tt.err && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("ParseProviderPattern(%q) error = %v, want %q", tt.in, err, tt.want)
		case !tt.err && err != nil:
			t.Errorf("ParseProviderPattern(%q): %v", tt.in, err)
		case !tt.err && p.String() != tt.want:
			t.Errorf("ParseProviderPattern(%q) = %s, want %s", tt.in, p, tt.want)
		}
	}
}

func TestInstallMethodHandles(t *testing.T) {
	pats := func(ss ...string) []ProviderPattern {
		var out []ProviderPattern
		for _, s := range ss {
			p, err := ParseProviderPattern(s)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, p)
		}
		return out
	}
	awsP := tfaddr.MustParseProviderSource("hashicorp/aws")
	google := tfaddr.MustParseProviderSource("hashicorp/google")
	thing := tfaddr.MustParseProviderSource("reg.example/corp/thing")
	tests := []struct {
		name             string
		include, exclude []string
		want             [3]bool // aws, google, thing
	}{
		{"no patterns: every provider", nil, nil, [3]bool{true, true, true}},
		{"namespace", []string{"registry.terraform.io/hashicorp/*"}, nil, [3]bool{true, true, false}},
		{"*/* is registry.terraform.io only", []string{"*/*"}, nil, [3]bool{true, true, false}},
		{"*/*/*", []string{"*/*/*"}, nil, [3]bool{true, true, true}},
		{"exclusion wins", []string{"hashicorp/*"}, []string{"hashicorp/aws"}, [3]bool{false, true, false}},
		{"exclude only", nil, []string{"reg.example/*/*"}, [3]bool{true, true, false}},
		{"several includes", []string{"hashicorp/google", "reg.example/corp/thing"}, nil, [3]bool{false, true, true}},
	}
	for _, tt := range tests {
		m := InstallMethod{Include: pats(tt.include...), Exclude: pats(tt.exclude...)}
		got := [3]bool{m.Handles(awsP), m.Handles(google), m.Handles(thing)}
		if got != tt.want {
			t.Errorf("%s: handles aws, google, thing = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// mkfile creates path (and its directories) under dir: a directory when
// it ends in "/", a file otherwise.
func mkfile(t *testing.T, dir, path string) {
	t.Helper()
	full := filepath.Join(dir, filepath.FromSlash(path))
	if strings.HasSuffix(path, "/") {
		if err := os.MkdirAll(full, 0o755); err != nil {
			t.Fatal(err)
		}
		return
	}
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestScanMirror reads a filesystem mirror of both layouts, with the
// paths Terraform skips.
func TestScanMirror(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{
		"registry.terraform.io/hashicorp/aws/5.0.0/linux_amd64/terraform-provider-aws",
		"registry.terraform.io/hashicorp/aws/5.0.0/darwin_arm64/",
		"registry.terraform.io/hashicorp/aws/5.1.0-beta.1/linux_amd64/",
		"registry.terraform.io/hashicorp/aws/terraform-provider-aws_4.9.0_linux_amd64.zip",
		"registry.terraform.io/hashicorp/aws/Terraform-Provider-AWS_4.8.0_Windows_386.ZIP",
		"registry.terraform.io/hashicorp/aws/terraform-provider-aws_4.7.0.zip",                // no platform
		"registry.terraform.io/hashicorp/aws/terraform-provider-google_4.6.0_linux_amd64.zip", // another type
		"registry.terraform.io/hashicorp/aws/terraform-provider-aws_4.5.0_linux_amd64.tar.gz", // not a zip
		"registry.terraform.io/hashicorp/aws/not-a-version/linux_amd64/",                      // bad version
		"registry.terraform.io/hashicorp/aws/3.0.0/linux_amd64_v2/",                           // bad platform
		"registry.terraform.io/hashicorp/aws/2.0.0/linux_amd64",                               // a file, not a directory
		"Reg.Example/Corp/Thing/1.0.0/linux_amd64/",                                           // normalized
		"registry.terraform.io/-/legacy/1.0.0/linux_amd64/",                                   // legacy
		"bad host/corp/thing/1.0.0/linux_amd64/",                                              // bad host
		"README.md",
	} {
		mkfile(t, dir, p)
	}
	link := filepath.Join(t.TempDir(), "mirror")
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}
	found, err := ScanMirror(link, 1000)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"registry.terraform.io/hashicorp/aws": {"4.8.0", "4.9.0", "5.0.0", "5.1.0-beta.1"},
		"reg.example/corp/thing":              {"1.0.0"},
	}
	got := map[string][]string{}
	for p, vs := range found {
		got[p.String()] = vs
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("found %q, want %q", got, want)
	}

	if _, err := ScanMirror(dir, 5); err == nil || !strings.Contains(err.Error(), "holds more than 5 files and directories") {
		t.Errorf("scan with a limit of 5: error = %v", err)
	}
	missing := filepath.Join(dir, "missing")
	if _, err := ScanMirror(missing, 1000); err == nil || !strings.Contains(err.Error(), "cannot search "+missing) {
		t.Errorf("scan of a missing directory: error = %v", err)
	}
}

// mirrorLog records the requests a test server got, with their
// Authorization header.
type mirrorLog struct {
	mu   sync.Mutex
	seen []string
}

func (l *mirrorLog) handler(routes map[string]string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		l.mu.Lock()
		l.seen = append(l.seen, strings.TrimSpace(r.URL.Path+" "+r.Header.Get("Authorization")))
		l.mu.Unlock()
		b, ok := routes[r.URL.Path]
		switch {
		case !ok:
			http.NotFound(w, r)
		case strings.HasPrefix(b, "status "):
			var code int
			fmt.Sscanf(b, "status %d", &code)
			http.Error(w, "no", code)
		case strings.HasPrefix(b, "text "):
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, strings.TrimPrefix(b, "text "))
		default:
			w.Header().Set("Content-Type", "application/json; charset=utf-8")
			fmt.Fprint(w, b)
		}
	}
}

func (l *mirrorLog) requests() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.seen...)
}

// TestProviderInstallation lists provider versions under
// provider_installation blocks and the implied default, with a network
// mirror on an https test server, a registry on an http one, and
// filesystem mirrors in temporary directories.
func TestProviderInstallation(t *testing.T) {
	var regLog, mirLog mirrorLog
	reg := httptest.NewServer(regLog.handler(map[string]string{
		"/.well-known/terraform.json":           `{"providers.v1": "/v1/providers/", "modules.v1": "/v1/modules/"}`,
		"/v1/providers/hashicorp/aws/versions":  `{"versions": [{"version": "5.0.0"}, {"version": "6.0.0-beta1"}, {"version": "v5.2"}]}`,
		"/v1/providers/hashicorp/null/versions": `{"versions": [{"version": "3.0.0"}]}`,
		"/v1/providers/hashicorp/bad/versions":  "status 500",
		"/v1/modules/corp/net/aws/versions":     `{"modules": [{"versions": [{"version": "1.0.0"}]}]}`,
	}))
	defer reg.Close()
	mirror := httptest.NewTLSServer(mirLog.handler(map[string]string{
		"/m/registry.terraform.io/hashicorp/aws/index.json":    `{"versions": {"5.1.0": {}, "5.0.0": {}, "not a version": {}}}`,
		"/m/registry.terraform.io/hashicorp/random/index.json": `{"versions": {"3.6.0": {}}}`,
		"/m/registry.terraform.io/hashicorp/broken/index.json": "status 502",
		"/m/registry.terraform.io/hashicorp/html/index.json":   "text <html>",
		"/m/registry.terraform.io/hashicorp/empty/index.json":  `{"versions": {}}`,
	}))
	defer mirror.Close()
	mirrorHost := strings.TrimPrefix(mirror.URL, "https://")

	fsDir := t.TempDir()
	mkfile(t, fsDir, "registry.terraform.io/hashicorp/aws/4.0.0/linux_amd64/")
	mkfile(t, fsDir, "registry.terraform.io/hashicorp/local/terraform-provider-local_2.0.0_linux_amd64.zip")
	localDir := t.TempDir()
	mkfile(t, localDir, "registry.terraform.io/hashicorp/null/9.9.9/linux_amd64/")

	pat := func(s string) ProviderPattern {
		p, err := ParseProviderPattern(s)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	netm := InstallMethod{Kind: NetworkMirror, Location: mirror.URL + "/m/", Place: "cli.tfrc:2"}
	fsm := InstallMethod{Kind: FilesystemMirror, Location: fsDir, Place: "cli.tfrc:5"}
	direct := InstallMethod{Kind: Direct, Place: "cli.tfrc:8"}
	only := func(m InstallMethod, include ...string) InstallMethod {
		for _, s := range include {
			m.Include = append(m.Include, pat(s))
		}
		return m
	}
	except := func(m InstallMethod, exclude ...string) InstallMethod {
		for _, s := range exclude {
			m.Exclude = append(m.Exclude, pat(s))
		}
		return m
	}

	tests := []struct {
		name     string
		methods  []InstallMethod
		implied  bool     // the implied default with localDir
		bypass   string   // a host listed by the registry alone
		provider string   // the provider looked up
		want     []string // its versions; nil when the lookup fails
		err      string   // in the error
		requests []string // of the mirror, then of the registry ("|" between)
	}{
		{name: "network mirror for hashicorp, direct for the rest",
			methods:  []InstallMethod{only(netm, "registry.terraform.io/hashicorp/*"), except(direct, "hashicorp/*")},
			provider: "hashicorp/aws", want: []string{"5.0.0", "5.1.0"},
			requests: []string{"/m/registry.terraform.io/hashicorp/aws/index.json Bearer MIRROR-TOKEN", "|"}},
		{name: "no method includes the provider",
			methods:  []InstallMethod{only(netm, "registry.terraform.io/hashicorp/*"), except(direct, "*/*/*")},
			provider: "reg.example/corp/thing",
			err:      "no installation method of the CLI configuration's provider_installation block at cli.tfrc:1 includes reg.example/corp/thing"},
		{name: "a filesystem mirror and the registry together",
			methods:  []InstallMethod{fsm, direct},
			provider: "hashicorp/aws", want: []string{"4.0.0", "5.0.0", "6.0.0-beta1", "v5.2"},
			requests: []string{"|", "/.well-known/terraform.json", "/v1/providers/hashicorp/aws/versions"}},
		{name: "all three",
			methods:  []InstallMethod{netm, fsm, direct},
			provider: "hashicorp/aws", want: []string{"4.0.0", "5.0.0", "5.1.0", "6.0.0-beta1", "v5.2"}},
		{name: "the mirror does not have it, the registry does",
			methods:  []InstallMethod{netm, direct},
			provider: "hashicorp/null", want: []string{"3.0.0"}},
		{name: "an empty index adds nothing",
			methods:  []InstallMethod{netm, fsm},
			provider: "hashicorp/empty",
			err:      "none of the installation methods that include it has a version of it: network_mirror " + mirror.URL + "/m/ (cli.tfrc:2); filesystem_mirror " + fsDir + " (cli.tfrc:5)"},
		{name: "the registry alone does not know it",
			methods:  []InstallMethod{except(netm, "hashicorp/*"), direct},
			provider: "hashicorp/nothere", err: "404 Not Found"},
		{name: "a failing mirror fails the lookup",
			methods:  []InstallMethod{netm, direct},
			provider: "hashicorp/broken", err: "provider hashicorp/broken: network_mirror " + mirror.URL + "/m/ (cli.tfrc:2): " + mirrorHost + " answered 502 Bad Gateway"},
		{name: "a failing registry fails the lookup",
			methods:  []InstallMethod{fsm, direct},
			provider: "hashicorp/bad", err: "answered 500 Internal Server Error"},
		{name: "the mirror's answer must be JSON",
			methods:  []InstallMethod{netm},
			provider: "hashicorp/html", err: `the answer's Content-Type is "text/html", not application/json`},
		{name: "a filesystem mirror that does not exist fails the lookup",
			methods:  []InstallMethod{{Kind: FilesystemMirror, Location: filepath.Join(fsDir, "nope"), Place: "cli.tfrc:9"}, direct},
			provider: "hashicorp/aws", err: "cannot search " + filepath.Join(fsDir, "nope")},
		{name: "*/* is registry.terraform.io only",
			methods:  []InstallMethod{except(direct, "*/*"), netm},
			provider: "hashicorp/random", want: []string{"3.6.0"}},
		{name: "direct only is the registry's answer as it is",
			methods:  []InstallMethod{except(fsm, "*/*"), direct},
			provider: "hashicorp/aws", want: []string{"5.0.0", "6.0.0-beta1", "v5.2"}},
		{name: "a flag's host bypasses the block",
			methods: []InstallMethod{netm}, bypass: "registry.terraform.io",
			provider: "hashicorp/aws", want: []string{"5.0.0", "6.0.0-beta1", "v5.2"},
			requests: []string{"|", "/.well-known/terraform.json", "/v1/providers/hashicorp/aws/versions"}},
		{name: "implied: a provider in a local directory comes from there only",
			implied: true, provider: "hashicorp/null", want: []string{"9.9.9"},
			requests: []string{"|"}},
		{name: "implied: the others from the registry",
			implied: true, provider: "hashicorp/aws", want: []string{"5.0.0", "6.0.0-beta1", "v5.2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			regLog.seen, mirLog.seen = nil, nil
			client := mirror.Client()
			pi := &ProviderInstallation{
				Registry: &Client{HostURLs: map[string]string{"registry.terraform.io": reg.URL}, HTTPClient: client, Retries: -1,
					Credentials: &fakeCredentials{tokens: map[string]string{mirrorHost: "MIRROR-TOKEN"}}},
				Block: "cli.tfrc:1", Methods: tt.methods,
			}
			if tt.implied {
				pi.Block, pi.Methods, pi.LocalDirs = "", nil, []string{filepath.Join(localDir, "missing"), localDir}
			}
			if tt.bypass != "" {
				pi.Bypass = func(h string) bool { return h == tt.bypass }
			}
			p := tfaddr.MustParseProviderSource(tt.provider)
			l, err := pi.ProviderVersions(context.Background(), p)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error = %v\nwant it to contain %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(l.Versions, tt.want) {
				t.Errorf("versions = %q, want %q (from %s)", l.Versions, tt.want, l.From)
			}
			if tt.requests != nil {
				got := append(mirLog.requests(), "|")
				got = append(got, regLog.requests()...)
				if !reflect.DeepEqual(got, tt.requests) {
					t.Errorf("requests = %q, want %q", got, tt.requests)
				}
			}
		})
	}
}

// TestProviderInstallationRules checks the rules around the lookups:
// modules are the registry's whatever the block says; a dev_overrides
// entry is not installed; a mirror URL must be https.
func TestProviderInstallationRules(t *testing.T) {
	reg := newFakeRegistry(t, map[string]http.HandlerFunc{
		discoveryPath: body(discoveryRelative),
		modulesPath:   body(modulesBody),
	})
	pi := &ProviderInstallation{Registry: testClient(reg), Block: "cli.tfrc:1",
		DevOverrides: []DevOverride{{Provider: aws, Dir: "/src/aws", Place: "cli.tfrc:3"}}}
	if _, err := pi.ModuleVersions(context.Background(), netAddr); err != nil {
		t.Errorf("module lookup under a block without methods: %v", err)
	}
	_, err := pi.ProviderVersions(context.Background(), aws)
	if want := "the dev_overrides entry at cli.tfrc:3 uses the provider built in /src/aws instead, and terraform init installs no version of it"; err == nil || !strings.Contains(err.Error(), want) || !errors.Is(err, ErrNoInstallationMethod) {
		t.Errorf("error = %v, want it to contain %q", err, want)
	}
	for _, u := range []string{"http://mirror.example/", "mirror.example/x", "https:///x"} {
		if _, err := ParseMirrorURL(u); err == nil || !strings.Contains(err.Error(), "must be at an https: URL") {
			t.Errorf("ParseMirrorURL(%q) error = %v", u, err)
		}
	}
	if _, err := ParseMirrorURL("https://u:secret@mirror.example/%zz"); err == nil || strings.Contains(err.Error(), "secret") {
		t.Errorf("ParseMirrorURL of a bad URL with a password: error = %v", err)
	}
	var nilPI *ProviderInstallation
	if _, err := nilPI.ProviderVersions(context.Background(), aws); !errors.Is(err, ErrNilClient) {
		t.Errorf("nil ProviderInstallation: error = %v", err)
	}
}

// TestNetworkMirrorHostUnresolved checks the hint of a network mirror
// whose host's name does not resolve: where its URL comes from.
func TestNetworkMirrorHostUnresolved(t *testing.T) {
	noSuchHost := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		host, _, _ := net.SplitHostPort(addr)
		return nil, &net.OpError{Op: "dial", Net: network, Err: &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}}
	}}}
	pi := &ProviderInstallation{Registry: &Client{HTTPClient: noSuchHost, Retries: -1}, Block: "cli.tfrc:1",
		Methods: []InstallMethod{{Kind: NetworkMirror, Location: "https://mirror.gone.test/", Place: "cli.tfrc:2"}}}
	_, err := pi.ProviderVersions(context.Background(), aws)
	if want := "no such host; the network_mirror block at cli.tfrc:2 gives this URL"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error = %v\nwant it to contain %q", err, want)
	}
}
