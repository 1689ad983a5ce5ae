package registry

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"

	svchost "github.com/hashicorp/terraform-svchost"
)

// Credentials gives the token for a registry host.
type Credentials interface {
	// Token returns the token for host (lower case, punycode, with a port
	// if any) and where it was found, such as "TF_TOKEN_reg_example" or
	// "credentials block in /home/u/.terraformrc"; ok is false when there
	// is none.
	Token(host string) (token, source string, ok bool)
	// Sources lists where tokens were looked for, for the hint that
	// follows a 401 or 403.
	Sources() []string
}

// auth is what a request carries for authentication: the token of the
// host its lookup's discovery document is fetched from, when the request
// may carry it.
type auth struct {
	host   string // the host the token is for; "" when nothing is looked up
	token  string
	source string // where the token was found; "" when none was
	sent   bool
	why    string // why a token that was found was not sent
}

// authFor decides the token a request to u carries. host is the host the
// token is for: that of the discovery document's URL.
func (c *Client) authFor(host string, u *url.URL) auth {
	a := auth{host: host}
	if c == nil || c.Credentials == nil || host == "" {
		return a
	}
	token, source, ok := c.Credentials.Token(host)
	if !ok || token == "" {
		return a
	}
	a.token, a.source = token, source
	switch ok, why := tokenAllowed(host, u); {
	case !ok:
		a.why = why
	case u.User != nil:
		a.why = "the URL carries its own user name and password, sent as Basic auth instead"
	case !validToken(token):
		a.why = "the token holds characters an HTTP header cannot carry"
	default:
		a.sent = true
	}
	return a
}

// tokenAllowed reports whether the token for host may be sent with a
// request to u: only when u is on host itself (same name and port), and
// only over https, or over plain http to a loopback address (127.0.0.0/8,
// ::1, localhost). why says which rule refused it.
func tokenAllowed(host string, u *url.URL) (ok bool, why string) {
	if u == nil || host == "" {
		return false, "there is no host to send it to"
	}
	if h := hostKey(u); h != host {
		return false, fmt.Sprintf("the request goes to %s, and a token is sent only to the host it is for", h)
	}
	switch {
	case u.Scheme == "https":
		return true, ""
	case u.Scheme == "http" && isLoopback(u.Hostname()):
		return true, ""
	}
	return false, fmt.Sprintf("the request is plain %s to a host that is not loopback", u.Scheme)
}

// isLoopback reports whether host (without a port) names the local
// machine: localhost, 127.0.0.0/8 or ::1.
func isLoopback(host string) bool {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// hostKey is the host of u as tokens are keyed: lower case, punycode, with
// the port unless it is the scheme's default.
func hostKey(u *url.URL) string {
	if u == nil {
		return ""
	}
	name, port := normalizeHostname(u.Hostname()), u.Port()
	if port == "" || u.Scheme == "https" && port == "443" || u.Scheme == "http" && port == "80" {
		if strings.Contains(name, ":") { // IPv6
			return "[" + name + "]"
		}
		return name
	}
	return net.JoinHostPort(name, port)
}

// normalizeHostname returns a host name (no port) in lower case and, for
// an internationalized name, in punycode, as Terraform compares hosts.
func normalizeHostname(name string) string {
	name = strings.ToLower(name)
	if isASCII(name) {
		return name
	}
	if h, err := svchost.ForComparison(name); err == nil {
		return h.String()
	}
	return name
}

// normalizeHost is normalizeHostname for a host that may carry a port,
// such as a key of Client.HostURLs.
func normalizeHost(host string) string {
	u, err := url.Parse("https://" + host)
	if err != nil || u.Host != host || u.User != nil || u.Path != "" {
		return strings.ToLower(host)
	}
	return hostKey(u)
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// validToken reports whether a token can be sent in a header: printable
// ASCII with no white space, so that it cannot split the header.
func validToken(t string) bool {
	for i := 0; i < len(t); i++ {
		if t[i] <= ' ' || t[i] >= 0x7f {
			return false
		}
	}
	return true
}

// TokenEnvVar returns the name of the environment variable Terraform
// reads the token for host from: TF_TOKEN_ and the host in punycode, with
// each "-" written "__" and each "." written "_" (TF_TOKEN_app_terraform_io,
// TF_TOKEN_my__reg_example). ok is false for a host such a name cannot
// express, such as one with a port.
func TokenEnvVar(host string) (name string, ok bool) {
	host = normalizeHostname(host)
	if host == "" {
		return "", false
	}
	var b strings.Builder
	b.WriteString("TF_TOKEN_")
	for i := 0; i < len(host); i++ {
		switch c := host[i]; {
		case c == '.':
			b.WriteByte('_')
		case c == '-':
			b.WriteString("__")
		case c >= 'a' && c <= 'z' || c >= '0' && c <= '9':
			b.WriteByte(c)
		default:
			return "", false
		}
	}
	return b.String(), true
}

// authHint says, after a 401 or 403 answer to u, which credentials were
// tried (by where they were found, never the token) and how to provide
// one.
func (c *Client) authHint(a auth, u *url.URL, code int) string {
	var s string
	switch {
	case u != nil && u.User != nil && !a.sent:
		return "the user name and password in the URL were sent as Basic auth, and no token"
	case a.host == "":
		return "no token is sent for this request"
	case a.sent && code == http.StatusForbidden:
		return fmt.Sprintf("the token for %s from %s was sent, and it does not grant access", a.host, a.source)
	case a.sent:
		return fmt.Sprintf("the token for %s from %s was sent and refused; check that it is current", a.host, a.source)
	case a.source != "":
		s = fmt.Sprintf("the token for %s from %s was not sent: %s", a.host, a.source, a.why)
	case c.Credentials == nil:
		s = fmt.Sprintf("no token was sent: no credentials were looked up for %s", a.host)
	default:
		s = fmt.Sprintf("no token for %s was found", a.host)
		if srcs := c.Credentials.Sources(); len(srcs) > 0 {
			s += " (looked in " + strings.Join(srcs, ", ") + ")"
		}
	}
	if ok, _ := tokenAllowed(a.host, u); !ok {
		// Providing a token would not help: it would not be sent.
		return s
	}
	how := fmt.Sprintf("a credentials %q block in the CLI configuration or credentials.tfrc.json", a.host)
	if env, ok := TokenEnvVar(a.host); ok {
		how = "the " + env + " environment variable or " + how
	}
	return s + "; a registry that needs a token takes it from " + how
}
