package registry

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// rawAnswer writes raw bytes on the connection instead of an HTTP
// response, then closes it.
func rawAnswer(raw string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		conn, buf, err := w.(http.Hijacker).Hijack()
		if err != nil {
			panic(err)
		}
		buf.WriteString(raw)
		buf.Flush()
		conn.Close()
	}
}

// closedAddr returns a loopback address nothing listens on.
func closedAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

func TestClientErrorsSayWhatHappened(t *testing.T) {
	closed := closedAddr(t)
	tests := []struct {
		name    string
		handler http.HandlerFunc
		want    string
		hits    int32
	}{
		{name: "body cut off", handler: rawAnswer("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"modules\": ["), want: "the answer was cut off: the connection closed after 13 of the 1000 bytes the registry announced", hits: 1},
		{name: "redirect to file", handler: redirectTo("file:///etc/passwd"), want: "the registry redirected to file:///etc/passwd, which is not an http or https URL", hits: 1},
		{name: "redirect loop", handler: redirectTo(modulesPath), want: fmt.Sprintf("the registry redirected more than %d times", MaxRedirects), hits: MaxRedirects},
		{name: "redirect to a closed port", handler: redirectTo("http://" + closed + "/gone"), want: "the registry redirected to http://" + closed + "/gone, which cannot be reached", hits: 1},
		{name: "connection closed without an answer", handler: rawAnswer(""), want: "the registry closed the connection without an answer"},
		{name: "status line with control characters", handler: rawAnswer("HTTP/1.1 500 \x1b[31mEVIL\x1b[0m\r\nContent-Length: 0\r\n\r\n"), want: `500 \x1b[31mEVIL\x1b[0m (after 4 attempts)`, hits: 4},
		{name: "status line with a line break", handler: rawAnswer("HTTP/1.1 418 I\u2028am\u202ea teapot\r\nContent-Length: 0\r\n\r\n"), want: `418 I\u2028am\u202ea teapot`, hits: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, n := countingRegistry(t, tt.handler)
			_, err := testClient(f).ModuleVersions(context.Background(), netAddr)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error = %v\nwant it to contain %q", err, tt.want)
			}
			if tt.want != "" && !strings.Contains(tt.name, "closed") && strings.Contains(err.Error(), "cannot reach the registry") {
				t.Errorf("error = %v: the registry was reached", err)
			}
			if strings.ContainsAny(err.Error(), "\x1b\r\n\u2028\u202e") {
				t.Errorf("error %q holds control characters", err)
			}
			if tt.hits != 0 && n.Load() != tt.hits {
				t.Errorf("%d requests, want %d", n.Load(), tt.hits)
			}
		})
	}
}

func TestClientDiscoveryRedirectUsesTheFinalURL(t *testing.T) {
	// The first server redirects discovery to the second, whose document
	// names a relative modules URL: it is on the second server, as
	// Terraform resolves it.
	second := newFakeRegistry(t, map[string]http.HandlerFunc{
		"/portver/.well-known/terraform.json":       body(`{"modules.v1": "/portver/v1/modules/"}`),
		"/portver/v1/modules/corp/net/aws/versions": body(`{"modules": [{"versions": [{"version": "1.0.0+served-by-second"}]}]}`),
	})
	first := newFakeRegistry(t, map[string]http.HandlerFunc{
		"/disc-redirect/.well-known/terraform.json": redirectTo(second.URL + "/portver/.well-known/terraform.json"),
		"/portver/v1/modules/corp/net/aws/versions": body(`{"modules": [{"versions": [{"version": "1.0.0+served-by-first"}]}]}`),
	})
	c := testClient(first)
	c.BaseURL = first.URL + "/disc-redirect"
	l, err := c.ModuleVersions(context.Background(), netAddr)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Versions) != 1 || l.Versions[0] != "1.0.0+served-by-second" || !strings.HasPrefix(l.From, second.URL) {
		t.Errorf("versions %q from %s, want those of the second server", l.Versions, l.From)
	}
	svc, err := c.Discover(context.Background(), "registry.terraform.io")
	if err != nil || svc.Modules != second.URL+"/portver/v1/modules/" {
		t.Errorf("Discover = %+v, %v", svc, err)
	}
}

func TestParseBaseURL(t *testing.T) {
	tests := []struct{ in, want string }{
		{"http://127.0.0.1:18080/ok", ""},
		{"https://user:pw@mirror.example/terraform/", ""},
		{"http://127.0.0.1:18080/ok?x=1", `"http://127.0.0.1:18080/ok?x=1" has a query (?x=1); a registry URL takes none`},
		{"http://127.0.0.1:18080/ok?", "has a query"},
		{"http://127.0.0.1:18080/ok#frag", `"http://127.0.0.1:18080/ok#frag" has a fragment (#frag)`},
		{"http://127.0.0.1:18080/ok#", "has a fragment"},
		{"ftp://mirror.example/", "is not an http:// or https:// URL"},
		{"mirror.example/x", "is not an http:// or https:// URL"},
		{"http:opaque", "has no host"},
		{"http:///path", "has no host"},
		{"http://u:s3cret@h/x?y", `"http://REDACTED@h/x?y" has a query`},
		{"http://u:s3cret@h:badport/", `"http://REDACTED@h:badport/" is not a URL`},
	}
	for _, tt := range tests {
		_, err := ParseBaseURL(tt.in)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("ParseBaseURL(%q): %v", tt.in, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("ParseBaseURL(%q) error = %v, want %q", tt.in, err, tt.want)
		case err != nil && strings.Contains(err.Error(), "s3cret"):
			t.Errorf("ParseBaseURL(%q) error = %v shows the password", tt.in, err)
		}
	}
}

func TestClientJoinsBaseURLPaths(t *testing.T) {
	for _, base := range []string{"/ok", "/ok/", "/ok//"} {
		t.Run(base, func(t *testing.T) {
			f := newFakeRegistry(t, map[string]http.HandlerFunc{
				"/ok/.well-known/terraform.json":                   body(`{"modules.v1": "v1/modules"}`),
				"/ok/.well-known/v1/modules/corp/net/aws/versions": body(modulesBody),
			})
			c := testClient(f)
			c.BaseURL = f.URL + base
			if _, err := c.ModuleVersions(context.Background(), netAddr); err != nil {
				t.Fatal(err)
			}
		})
	}
	f, n := countingRegistry(t, func(w http.ResponseWriter, r *http.Request) {})
	for _, suffix := range []string{"/ok?x=1", "/ok#frag"} {
		c := testClient(f)
		c.BaseURL = f.URL + suffix
		_, err := c.ModuleVersions(context.Background(), netAddr)
		if err == nil || !strings.Contains(err.Error(), "a registry URL takes none") {
			t.Errorf("BaseURL %q: %v", c.BaseURL, err)
		}
	}
	if n.Load() != 0 {
		t.Errorf("%d requests with a refused base URL", n.Load())
	}
}

func TestRedactURL(t *testing.T) {
	tests := []struct{ in, want string }{
		{"http://127.0.0.1:18080/ok", "http://127.0.0.1:18080/ok"},
		{"http://user:s3cret@127.0.0.1:18080/ok", "http://REDACTED@127.0.0.1:18080/ok"},
		{"https://TOKEN@reg.example", "https://REDACTED@reg.example"},
		{"reg.example=http://u:p@h/x, other=https://a:b@c", "reg.example=http://REDACTED@h/x, other=https://REDACTED@c"},
		{`GET "http://u:p@h?q=a@b": failed`, `GET "http://REDACTED@h?q=a@b": failed`},
		{"http://u:p@ss@h/x", "http://REDACTED@h/x"},
		{"mail me at a@b.example", "mail me at a@b.example"},
		{"git::ssh://git@github.com/x.git", "git::ssh://REDACTED@github.com/x.git"},
		{"http://h/path@x", "http://h/path@x"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := RedactURL(tt.in); got != tt.want {
			t.Errorf("RedactURL(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestClientRedactsUserinfo checks every output of a client whose URLs
// carry a user name and password: String, Listing.From and every error.
func TestClientRedactsUserinfo(t *testing.T) {
	var basic []string
	f := newFakeRegistry(t, map[string]http.HandlerFunc{
		"/.well-known/terraform.json": func(w http.ResponseWriter, r *http.Request) {
			u, p, _ := r.BasicAuth()
			basic = append(basic, u+":"+p)
			body(discoveryRelative)(w, r)
		},
		"/v1/modules/corp/net/aws/versions":    body(modulesBody),
		"/v1/providers/hashicorp/aws/versions": func(w http.ResponseWriter, r *http.Request) { http.Error(w, "boom", 500) },
		"/bad/.well-known/terraform.json":      body(`{"modules.v1": `),
	})
	withUser := func(path string) string {
		u, _ := url.Parse(f.URL + path)
		u.User = url.UserPassword("user", "s3cret")
		return u.String()
	}
	closed := "http://user:s3cret@" + closedAddr(t) + "/x"
	var outputs []string
	check := func(what string, err error) {
		if err == nil {
			t.Errorf("%s: no error", what)
			return
		}
		outputs = append(outputs, err.Error())
	}

	c := testClient(f)
	c.BaseURL = withUser("")
	outputs = append(outputs, c.String())
	l, err := c.ModuleVersions(context.Background(), netAddr)
	if err != nil {
		t.Fatal(err)
	}
	outputs = append(outputs, l.From)
	_, err = c.ProviderVersions(context.Background(), aws)
	check("500", err)
	if len(basic) != 1 || basic[0] != "user:s3cret" {
		t.Errorf("Basic auth at the URL's own host = %q", basic)
	}

	for _, base := range []string{withUser("/bad"), withUser("/missing"), closed, withUser("/q?x=1")} {
		c := testClient(f)
		c.HostURLs = map[string]string{"registry.terraform.io": base}
		outputs = append(outputs, c.String())
		_, err := c.ModuleVersions(context.Background(), netAddr)
		check(base, err)
	}
	for _, out := range outputs {
		if strings.Contains(out, "s3cret") || strings.Contains(out, "user:") {
			t.Errorf("userinfo printed: %s", out)
		}
		if strings.Contains(out, "://") && !strings.Contains(out, "REDACTED@") {
			t.Errorf("no redacted URL in %s", out)
		}
	}
}

func TestClientErrorsUnwrap(t *testing.T) {
	f := newFakeRegistry(t, map[string]http.HandlerFunc{"/.well-known/terraform.json": body(discoveryRelative)})
	c := testClient(f)
	c.BaseURL = "http://u:p@" + strings.TrimPrefix(f.URL, "http://")
	_, err := c.ModuleVersions(context.Background(), netAddr)
	var se *StatusError
	if !errors.Is(err, ErrNotFound) || !errors.As(err, &se) || strings.Contains(se.Error(), "u:p") {
		t.Errorf("error = %v", err)
	}
}
