package registry

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strings"
	"testing"

	tfaddr "github.com/hashicorp/terraform-registry-address"
)

// TestHostBlockServices checks that the services of a host block replace
// the host's discovery: relative URLs resolved against
// https://HOST/.well-known/terraform.json as Terraform resolves them, each
// one checked as a discovery document's, and no discovery document
// fetched.
func TestHostBlockServices(t *testing.T) {
	const place = "/home/u/.terraformrc:3"
	tests := []struct {
		name                string
		host                string
		services            map[string]any
		wantMods, wantProvs string
		err                 string // in the error, "" for none
	}{
		{"absolute", "reg.example", map[string]any{"modules.v1": "https://api.example/m/v1", "providers.v1": "http://api.example:8080/p/"},
			"https://api.example/m/v1/", "http://api.example:8080/p/", ""},
		{"relative to the discovery URL", "reg.example", map[string]any{"modules.v1": "/v1/modules/", "providers.v1": "providers/"},
			"https://reg.example/v1/modules/", "https://reg.example/.well-known/providers/", ""},
		{"host with a port", "reg.example:8443", map[string]any{"modules.v1": "/m/"},
			"https://reg.example:8443/m/", "", ""},
		{"fragment dropped", "reg.example", map[string]any{"modules.v1": "/m/#top"}, "https://reg.example/m/", "", ""},
		{"other services ignored", "reg.example", map[string]any{"login.v1": map[string]any{"client": "terraform-cli"}, "modules.v1": "/m/"},
			"https://reg.example/m/", "", ""},
		{"not a string", "reg.example", map[string]any{"modules.v1": []map[string]any{{"url": "/m/"}}}, "", "",
			`services of reg.example: the host block at ` + place + `: "modules.v1" is not a string`},
		{"not http", "reg.example", map[string]any{"providers.v1": "ftp://reg.example/p/"}, "", "",
			`"providers.v1" is "ftp://reg.example/p/", not an http or https URL`},
		{"user name and password", "reg.example", map[string]any{"modules.v1": "https://u:secret@reg.example/m/"}, "", "",
			`"modules.v1" is "https://REDACTED@reg.example/m/", which embeds a user name or password`},
		{"not a URL", "reg.example", map[string]any{"modules.v1": "https://reg example/%zz"}, "", "",
			`, not a URL`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &Client{HostBlocks: map[string]HostBlock{tt.host: {Services: tt.services, Place: place}},
				HTTPClient: noNetwork(t)}
			svc, err := c.Discover(context.Background(), tt.host)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error = %v, want it to contain %q", err, tt.err)
				}
				if strings.Contains(err.Error(), "secret") {
					t.Errorf("error %q shows a password", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if svc.Modules != tt.wantMods || svc.Providers != tt.wantProvs {
				t.Errorf("services = %q, %q; want %q, %q", svc.Modules, svc.Providers, tt.wantMods, tt.wantProvs)
			}
			if got := c.DiscoveryURL(tt.host); got != "" {
				t.Errorf("DiscoveryURL = %q, want none", got)
			}
		})
	}
}

// noNetwork is an HTTP client that fails the test on any request.
func noNetwork(t *testing.T) *http.Client {
	return &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		t.Errorf("unexpected request %s", r.URL)
		return nil, errors.New("no network in this test")
	})}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// TestHostBlockLookups looks versions up through a host block, and checks
// which mapping wins: --registry-url (HostURLs, then BaseURL) over the
// host block, the block over discovery; and that the block's services
// carry the token of their own host, never that of the block's host.
func TestHostBlockLookups(t *testing.T) {
	api := newFakeRegistry(t, map[string]http.HandlerFunc{
		"/m/corp/net/aws/versions":    body(modulesBody),
		"/p/corp/thing/versions":      body(providersBody),
		"/.well-known/terraform.json": body(`{"modules.v1": "/other/"}`),
	})
	apiHost := strings.TrimPrefix(api.URL, "http://")
	blocks := map[string]HostBlock{"Reg.Example": {Services: map[string]any{"modules.v1": api.URL + "/m/", "providers.v1": api.URL + "/p/"}, Place: "cli.tfrc:1"}}
	mod := tfaddr.MustParseModuleSource("reg.example/corp/net/aws").Package
	prov := tfaddr.MustParseProviderSource("reg.example/corp/thing")

	t.Run("block", func(t *testing.T) {
		var seen authLog
		c := &Client{HostBlocks: blocks, Credentials: &fakeCredentials{tokens: map[string]string{"reg.example": "T-REG", apiHost: "T-API"}}, HTTPClient: recording(&seen)}
		m, err := c.ModuleVersions(context.Background(), mod)
		if err != nil {
			t.Fatal(err)
		}
		if m.From != api.URL+"/m/corp/net/aws/versions" {
			t.Errorf("From = %q", m.From)
		}
		if _, err := c.ProviderVersions(context.Background(), prov); err != nil {
			t.Fatal(err)
		}
		if n := api.hits["/.well-known/terraform.json"].Load(); n != 0 {
			t.Errorf("discovery fetched %d times, want none", n)
		}
		for _, p := range []string{"/m/corp/net/aws/versions", "/p/corp/thing/versions"} {
			if got := seen.get(p); len(got) != 1 || got[0] != "Bearer T-API" {
				t.Errorf("%s sent with Authorization %q, want the token of %s", p, got, apiHost)
			}
		}
	})
	for _, tt := range []struct {
		name   string
		client *Client
	}{
		{"HostURLs wins", &Client{HostBlocks: blocks, HostURLs: map[string]string{"reg.example": api.URL}}},
		{"BaseURL wins", &Client{HostBlocks: blocks, BaseURL: api.URL}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.client.ModuleVersions(context.Background(), mod)
			if err == nil || !strings.Contains(err.Error(), "/other/corp/net/aws/versions") {
				t.Errorf("error = %v, want the lookup at the discovery document's /other/", err)
			}
		})
	}
	t.Run("no providers.v1", func(t *testing.T) {
		c := &Client{HostBlocks: map[string]HostBlock{"reg.example": {Services: map[string]any{"modules.v1": api.URL + "/m/"}, Place: "cli.tfrc:7"}}}
		_, err := c.ProviderVersions(context.Background(), prov)
		if want := "reg.example offers no provider registry (no providers.v1 in the host block at cli.tfrc:7)"; err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error = %v, want it to contain %q", err, want)
		}
	})
}

// recording is an HTTP client that records the path and Authorization
// header of each request in l.
func recording(l *authLog) *http.Client {
	return &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		l.add(r)
		return http.DefaultTransport.RoundTrip(r)
	})}
}

// TestUnresolvedHostHint checks that a lookup whose host's name does not
// resolve says how to look it up elsewhere (--registry-url or a host
// block) when the host is its own address's, and where the URL comes
// from when a host block or a network mirror gives it; a host mapped by
// --registry-url gets no hint.
func TestUnresolvedHostHint(t *testing.T) {
	noSuchHost := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		host, _, _ := net.SplitHostPort(addr)
		return nil, &net.OpError{Op: "dial", Net: network, Err: &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}}
	}}}
	mod := tfaddr.MustParseModuleSource("gone.test/corp/net/aws").Package
	tests := []struct {
		name   string
		client *Client
		want   string // in the error and the cause; "" for no hint
	}{
		{"own host", &Client{}, `no such host; to look gone.test up elsewhere, give --registry-url gone.test=URL or a host "gone.test" block with its services in the CLI configuration`},
		{"host block", &Client{HostBlocks: map[string]HostBlock{"gone.test": {Services: map[string]any{"modules.v1": "https://api.gone.test/m/"}, Place: "cli.tfrc:2"}}},
			"no such host; the host block at cli.tfrc:2 gives this URL"},
		{"mapped", &Client{HostURLs: map[string]string{"gone.test": "http://mirror.gone.test/"}}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.client.HTTPClient, tt.client.Retries = noSuchHost, -1
			_, err := tt.client.ModuleVersions(context.Background(), mod)
			var ue *UnreachableError
			if !errors.As(err, &ue) {
				t.Fatalf("error %v is not an UnreachableError", err)
			}
			if tt.want == "" {
				if ue.Hint != "" || ue.Cause() != "no such host" {
					t.Errorf("hint %q, cause %q; want none and %q", ue.Hint, ue.Cause(), "no such host")
				}
				return
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %v\nwant it to contain %q", err, tt.want)
			}
			if ue.Cause() != tt.want {
				t.Errorf("cause = %q, want %q", ue.Cause(), tt.want)
			}
		})
	}
}

func TestClientStringNamesHostBlocks(t *testing.T) {
	c := &Client{HostBlocks: map[string]HostBlock{"b.example": {}, "a.example": {}}}
	if got, want := c.String(), "registry (service discovery on each source's host; the services of host blocks for a.example, b.example)"; got != want {
		t.Errorf("String = %q, want %q", got, want)
	}
}
