package registry

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
)

// fakeCredentials holds tokens by host and records the hosts asked for.
type fakeCredentials struct {
	tokens map[string]string
	mu     sync.Mutex
	asked  []string
}

func (f *fakeCredentials) Token(host string) (token, source string, ok bool) {
	f.mu.Lock()
	f.asked = append(f.asked, host)
	f.mu.Unlock()
	token, ok = f.tokens[host]
	return token, "test token of " + host, ok
}

func (f *fakeCredentials) Sources() []string {
	return []string{"TF_TOKEN_* environment variables", "credentials block in /home/u/.terraformrc"}
}

// authLog records the Authorization header of every request a loopback
// server receives, by path.
type authLog struct {
	mu   sync.Mutex
	seen map[string][]string
}

func (l *authLog) add(r *http.Request) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.seen == nil {
		l.seen = map[string][]string{}
	}
	l.seen[r.URL.Path] = append(l.seen[r.URL.Path], r.Header.Get("Authorization"))
}

func (l *authLog) get(path string) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.seen[path]
}

func (l *authLog) all() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, v := range l.seen {
		out = append(out, v...)
	}
	return out
}

// authServer is a loopback server that logs Authorization headers and
// answers with routes (set after it starts, before any request).
type authServer struct {
	*httptest.Server
	log    authLog
	routes map[string]http.HandlerFunc
	host   string // as tokens are keyed: 127.0.0.1:PORT
}

func newAuthServer(t *testing.T) *authServer {
	t.Helper()
	s := &authServer{routes: map[string]http.HandlerFunc{}}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.log.add(r)
		if h, ok := s.routes[r.URL.Path]; ok {
			h(w, r)
			return
		}
		http.NotFound(w, r)
	}))
	t.Cleanup(s.Close)
	u, _ := url.Parse(s.URL)
	s.host = u.Host
	return s
}

func redirectTo(target string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, target, http.StatusFound) }
}

const (
	modulesPath   = "/v1/modules/corp/net/aws/versions"
	discoveryPath = "/.well-known/terraform.json"
)

func TestClientSendsTheTokenToItsOwnHost(t *testing.T) {
	a := newAuthServer(t)
	a.routes[discoveryPath] = body(discoveryRelative)
	a.routes[modulesPath] = body(modulesBody)
	a.routes["/v1/providers/hashicorp/aws/versions"] = body(providersBody)
	creds := &fakeCredentials{tokens: map[string]string{a.host: "tok-A"}}
	c := testClient(&fakeRegistry{Server: a.Server})
	c.Credentials = creds
	if _, err := c.ModuleVersions(context.Background(), netAddr); err != nil {
		t.Fatal(err)
	}
	if _, err := c.ProviderVersions(context.Background(), aws); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{discoveryPath, modulesPath, "/v1/providers/hashicorp/aws/versions"} {
		if got := a.log.get(p); !slices.Equal(got, []string{"Bearer tok-A"}) {
			t.Errorf("%s: Authorization %q, want the token once", p, got)
		}
	}
	for _, h := range creds.asked {
		if h != a.host {
			t.Errorf("token asked for %q, want only %q", h, a.host)
		}
	}
}

// TestClientTokenStaysOnItsHost sends lookups whose requests go, by
// redirect or by the discovery document, to a second server on another
// port; the token of the first must never arrive there, nor the second's
// own token, and nothing may arrive after a redirect has left the host.
func TestClientTokenStaysOnItsHost(t *testing.T) {
	tests := []struct {
		name  string
		setup func(a, b *authServer, c *Client)
		// where the token of a must arrive, and where nothing may
		tokenAt   []string
		nothingAt []string
	}{
		{
			name: "redirect to another port",
			setup: func(a, b *authServer, c *Client) {
				a.routes[discoveryPath] = body(discoveryRelative)
				a.routes[modulesPath] = redirectTo(b.URL + modulesPath)
				b.routes[modulesPath] = body(modulesBody)
			},
			tokenAt: []string{"a" + discoveryPath, "a" + modulesPath}, nothingAt: []string{"b" + modulesPath},
		},
		{
			name: "absolute service URL on another port",
			setup: func(a, b *authServer, c *Client) {
				a.routes[discoveryPath] = body(fmt.Sprintf(`{"modules.v1": %q}`, b.URL+"/v1/modules/"))
				b.routes[modulesPath] = body(modulesBody)
			},
			tokenAt: []string{"a" + discoveryPath}, nothingAt: []string{"b" + modulesPath},
		},
		{
			name: "discovery redirected to another port",
			setup: func(a, b *authServer, c *Client) {
				a.routes[discoveryPath] = redirectTo(b.URL + discoveryPath)
				b.routes[discoveryPath] = body(discoveryRelative)
				b.routes[modulesPath] = body(modulesBody)
			},
			tokenAt: []string{"a" + discoveryPath}, nothingAt: []string{"b" + discoveryPath, "b" + modulesPath},
		},
		{
			name: "redirect away and back",
			setup: func(a, b *authServer, c *Client) {
				a.routes[discoveryPath] = body(discoveryRelative)
				a.routes[modulesPath] = redirectTo(b.URL + "/bounce")
				b.routes["/bounce"] = redirectTo(a.URL + "/back")
				a.routes["/back"] = body(modulesBody)
			},
			tokenAt: []string{"a" + modulesPath}, nothingAt: []string{"b/bounce", "a/back"},
		},
		{
			name: "host mapped to a URL on another host",
			setup: func(a, b *authServer, c *Client) {
				// The token of reg.example is not sent to the URL it is
				// mapped to: that URL's host gets its own token.
				c.BaseURL = ""
				c.HostURLs = map[string]string{"reg.example": a.URL}
				a.routes[discoveryPath] = body(discoveryRelative)
				a.routes[modulesPath] = body(modulesBody)
			},
			tokenAt: []string{"a" + discoveryPath, "a" + modulesPath},
		},
		{
			name: "userinfo in the URL",
			setup: func(a, b *authServer, c *Client) {
				u, _ := url.Parse(a.URL)
				u.User = url.UserPassword("user", "pw")
				c.BaseURL = u.String()
				a.routes[discoveryPath] = body(discoveryRelative)
				a.routes[modulesPath] = body(modulesBody)
			},
		},
		{
			name: "userinfo in the URL, redirect to another port",
			setup: func(a, b *authServer, c *Client) {
				u, _ := url.Parse(a.URL)
				u.User = url.UserPassword("user", "pw")
				c.BaseURL = u.String()
				a.routes[discoveryPath] = body(discoveryRelative)
				a.routes[modulesPath] = redirectTo(b.URL + modulesPath)
				b.routes[modulesPath] = body(modulesBody)
			},
			nothingAt: []string{"b" + modulesPath},
		},
		{
			name: "userinfo in the URL, absolute service URL on another port",
			setup: func(a, b *authServer, c *Client) {
				u, _ := url.Parse(a.URL)
				u.User = url.UserPassword("user", "pw")
				c.BaseURL = u.String()
				a.routes[discoveryPath] = body(fmt.Sprintf(`{"modules.v1": %q}`, b.URL+"/v1/modules/"))
				b.routes[modulesPath] = body(modulesBody)
			},
			nothingAt: []string{"b" + modulesPath},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, b := newAuthServer(t), newAuthServer(t)
			creds := &fakeCredentials{tokens: map[string]string{a.host: "tok-A", b.host: "tok-B", "reg.example": "tok-REG"}}
			c := testClient(&fakeRegistry{Server: a.Server})
			c.Credentials = creds
			tt.setup(a, b, c)
			pkg := netAddr
			if c.HostURLs != nil {
				pkg.Host = "reg.example"
			}
			if _, err := c.ModuleVersions(context.Background(), pkg); err != nil {
				t.Fatal(err)
			}
			servers := map[string]*authServer{"a": a, "b": b}
			for _, at := range tt.tokenAt {
				if got := servers[at[:1]].log.get(at[1:]); !slices.Equal(got, []string{"Bearer tok-A"}) {
					t.Errorf("%s: Authorization %q, want the token of a", at, got)
				}
			}
			for _, at := range tt.nothingAt {
				got := servers[at[:1]].log.get(at[1:])
				if len(got) == 0 {
					t.Errorf("%s: no request", at)
				}
				for _, h := range got {
					if h != "" {
						t.Errorf("%s: Authorization %q, want none", at, h)
					}
				}
			}
			for name, s := range servers {
				for _, h := range s.log.all() {
					if strings.Contains(h, "tok-B") || strings.Contains(h, "tok-REG") || name == "b" && h != "" {
						t.Errorf("server %s got Authorization %q", name, h)
					}
				}
			}
			if strings.HasPrefix(tt.name, "userinfo in the URL") {
				for _, h := range a.log.all() {
					if !strings.HasPrefix(h, "Basic ") {
						t.Errorf("Authorization %q, want the URL's Basic auth", h)
					}
				}
			}
			if tt.name == "host mapped to a URL on another host" && slices.Contains(creds.asked, "reg.example") {
				t.Errorf("token asked for reg.example: %q", creds.asked)
			}
		})
	}
}

func TestTokenAllowed(t *testing.T) {
	tests := []struct {
		host, url string
		ok        bool
		why       string
	}{
		{"reg.example", "https://reg.example/v1/modules/", true, ""},
		{"reg.example", "https://REG.example:443/v1/", true, ""},
		{"reg.example", "http://reg.example/v1/", false, "plain http to a host that is not loopback"},
		{"reg.example:8080", "http://reg.example:8080/v1/", false, "plain http"},
		{"reg.example", "https://other.example/v1/", false, "the request goes to other.example"},
		{"reg.example", "https://reg.example.evil.example/v1/", false, "goes to reg.example.evil.example"},
		{"reg.example", "https://sub.reg.example/v1/", false, "goes to sub.reg.example"},
		{"reg.example", "https://reg.example:8443/v1/", false, "goes to reg.example:8443"},
		{"127.0.0.1:8080", "http://127.0.0.1:8080/v1/", true, ""},
		{"127.0.0.1:8080", "http://127.0.0.1:8081/v1/", false, "goes to 127.0.0.1:8081"},
		{"127.1.2.3:80", "http://127.1.2.3:80/", false, "goes to 127.1.2.3"},
		{"127.1.2.3", "http://127.1.2.3:80/", true, ""},
		{"localhost:9000", "http://localhost:9000/", true, ""},
		{"[::1]:9000", "http://[::1]:9000/", true, ""},
		{"10.0.0.1:9000", "http://10.0.0.1:9000/", false, "plain http"},
		{"xn--bcher-kva.example", "https://bücher.example/", true, ""},
		{"reg.example", "ftp://reg.example/", false, "plain ftp"},
	}
	for _, tt := range tests {
		u, err := url.Parse(tt.url)
		if err != nil {
			t.Fatal(err)
		}
		ok, why := tokenAllowed(tt.host, u)
		if ok != tt.ok || !strings.Contains(why, tt.why) {
			t.Errorf("tokenAllowed(%q, %q) = %v, %q; want %v, %q", tt.host, tt.url, ok, why, tt.ok, tt.why)
		}
	}
	if isLoopback("reg.example") || !isLoopback("LOCALHOST") || !isLoopback("127.255.0.1") || !isLoopback("::1") || isLoopback("128.0.0.1") {
		t.Error("isLoopback")
	}
}

func TestTokenEnvVar(t *testing.T) {
	tests := []struct {
		host, want string
		ok         bool
	}{
		{"app.terraform.io", "TF_TOKEN_app_terraform_io", true},
		{"my-reg.example.com", "TF_TOKEN_my__reg_example_com", true},
		{"REG.Example", "TF_TOKEN_reg_example", true},
		{"bücher.example", "TF_TOKEN_xn____bcher__kva_example", true},
		{"reg.example:8443", "", false},
		{"", "", false},
	}
	for _, tt := range tests {
		got, ok := TokenEnvVar(tt.host)
		if got != tt.want || ok != tt.ok {
			t.Errorf("TokenEnvVar(%q) = %q, %v; want %q, %v", tt.host, got, ok, tt.want, tt.ok)
		}
	}
}

func TestClientAuthErrorsSayWhichCredentials(t *testing.T) {
	tests := []struct {
		name   string
		status int
		creds  func(host string) Credentials
		want   []string
	}{
		{name: "no credentials looked up", status: http.StatusUnauthorized, creds: func(string) Credentials { return nil },
			want: []string{"401 Unauthorized; no token was sent: no credentials were looked up for 127.0.0.1:", `a credentials "127.0.0.1:`}},
		{name: "no token found", status: http.StatusUnauthorized, creds: func(string) Credentials { return &fakeCredentials{} },
			want: []string{"no token for 127.0.0.1:", "was found (looked in TF_TOKEN_* environment variables, credentials block in /home/u/.terraformrc)",
				"block in the CLI configuration or credentials.tfrc.json"}},
		{name: "token sent and refused", status: http.StatusUnauthorized, creds: func(h string) Credentials { return &fakeCredentials{tokens: map[string]string{h: "SECRET-TOKEN"}} },
			want: []string{"the token for 127.0.0.1:", "from test token of 127.0.0.1:", "was sent and refused"}},
		{name: "token sent, no access", status: http.StatusForbidden, creds: func(h string) Credentials { return &fakeCredentials{tokens: map[string]string{h: "SECRET-TOKEN"}} },
			want: []string{"403 Forbidden; the token for", "was sent, and it does not grant access"}},
		{name: "Basic auth from the URL", status: http.StatusUnauthorized, creds: func(h string) Credentials { return &fakeCredentials{tokens: map[string]string{h: "SECRET-TOKEN"}} },
			want: []string{"401 Unauthorized; the user name and password in the URL were sent as Basic auth, and no token"}},
		{name: "token with a line break", status: http.StatusUnauthorized, creds: func(h string) Credentials {
			return &fakeCredentials{tokens: map[string]string{h: "SECRET\r\nX-Evil: 1"}}
		}, want: []string{"was not sent: the token holds characters an HTTP header cannot carry"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := newAuthServer(t)
			a.routes[discoveryPath] = body(discoveryRelative)
			a.routes[modulesPath] = func(w http.ResponseWriter, r *http.Request) { http.Error(w, "no", tt.status) }
			c := testClient(&fakeRegistry{Server: a.Server})
			c.Credentials = tt.creds(a.host)
			if strings.Contains(tt.name, "Basic") {
				c.BaseURL = "http://user:SECRET-PASSWORD@" + a.host
			}
			_, err := c.ModuleVersions(context.Background(), netAddr)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error = %v\nwant it to contain %q", err, w)
				}
			}
			if strings.Contains(err.Error(), "SECRET") || strings.Contains(c.String(), "SECRET") {
				t.Errorf("the token is printed: %v", err)
			}
		})
	}
}

func TestClientAuthErrorAfterARedirectToAnotherHost(t *testing.T) {
	a, b := newAuthServer(t), newAuthServer(t)
	a.routes[discoveryPath] = body(discoveryRelative)
	a.routes[modulesPath] = redirectTo(b.URL + modulesPath)
	b.routes[modulesPath] = func(w http.ResponseWriter, r *http.Request) { http.Error(w, "no", http.StatusUnauthorized) }
	c := testClient(&fakeRegistry{Server: a.Server})
	c.Credentials = &fakeCredentials{tokens: map[string]string{a.host: "SECRET-TOKEN"}}
	_, err := c.ModuleVersions(context.Background(), netAddr)
	if err == nil || !strings.Contains(err.Error(), "was not sent: a redirect to "+b.URL+modulesPath+" left the host it is for") {
		t.Fatalf("error = %v", err)
	}
	if strings.Contains(err.Error(), "SECRET") || strings.Contains(err.Error(), "TF_TOKEN") {
		t.Errorf("error = %v: no token, and no hint that a token would help", err)
	}
}

func TestClientMappedHostSendsNotItsOwnToken(t *testing.T) {
	a := newAuthServer(t)
	a.routes[discoveryPath] = body(discoveryRelative)
	a.routes[modulesPath] = body(modulesBody)
	creds := &fakeCredentials{tokens: map[string]string{"reg.example": "tok-REG"}}
	c := &Client{HostURLs: map[string]string{"reg.example": a.URL}, Credentials: creds}
	pkg := netAddr
	pkg.Host = "reg.example"
	if _, err := c.ModuleVersions(context.Background(), pkg); err != nil {
		t.Fatal(err)
	}
	for _, h := range a.log.all() {
		if h != "" {
			t.Errorf("Authorization %q sent to the URL reg.example is mapped to", h)
		}
	}
	if want := []string{a.host}; !slices.Equal(slices.Compact(creds.asked), want) {
		t.Errorf("tokens asked for %q, want %q", creds.asked, want)
	}
}
