package web

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"syscall"
	"time"
)

// ErrRefusedAddress is wrapped by the error of a request the client of
// GuardedClient refuses to send: to a host named by an IP address, or
// whose name resolves to an address that is not public.
var ErrRefusedAddress = errors.New("not a public address")

// GuardedClient returns the HTTP client of prerel serve's registry
// lookups, which a page asks for: it connects only to public addresses.
// A request to a host named by an IP address is refused, and so is a
// connection to an address that is loopback, private, link-local,
// unspecified, multicast or otherwise not public, checked after the
// name is resolved (net.Dialer's Control), for every request: service
// discovery, the URLs it names and every redirect. The hosts of trusted
// ("HOST:PORT", as an operator gave them, such as the hosts of
// --registry-url) are exempt. A proxy from the environment
// (HTTPS_PROXY) is used, and its address is exempt too; the proxy then
// connects to the registries, so only the check of the URL's host holds.
func GuardedClient(trusted []string) *http.Client {
	g := &guard{trusted: map[string]bool{}}
	for _, t := range trusted {
		g.trusted[strings.ToLower(t)] = true
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	env := tr.Proxy
	tr.Proxy = func(r *http.Request) (*url.URL, error) {
		u, err := env(r)
		if u != nil {
			g.trust(hostPort(u))
		}
		return u, err
	}
	d := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second, Control: checkPublic}
	plain := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}
	tr.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		if g.trusts(addr) {
			return plain.DialContext(ctx, network, addr)
		}
		return d.DialContext(ctx, network, addr)
	}
	return &http.Client{Transport: &guardedTransport{g: g, next: tr}}
}

type guard struct {
	mu      sync.Mutex
	trusted map[string]bool
}

func (g *guard) trust(hostport string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.trusted[strings.ToLower(hostport)] = true
}

func (g *guard) trusts(hostport string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.trusted[strings.ToLower(hostport)]
}

// guardedTransport refuses a request to a host named by an IP address
// that is not trusted, before it is sent.
type guardedTransport struct {
	g    *guard
	next http.RoundTripper
}

func (t *guardedTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	hp := hostPort(r.URL)
	if _, err := netip.ParseAddr(strings.Trim(r.URL.Hostname(), "[]")); err == nil && !t.g.trusts(hp) {
		if r.Body != nil {
			r.Body.Close()
		}
		return nil, fmt.Errorf("%s is an IP address, %w: prerel serve looks registries up by name", hp, ErrRefusedAddress)
	}
	return t.next.RoundTrip(r)
}

// hostPort is the host and port a URL connects to.
func hostPort(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = "443"
		if u.Scheme == "http" {
			port = "80"
		}
	}
	return net.JoinHostPort(u.Hostname(), port)
}

// TrustedHost returns the HOST:PORT a registry URL connects to, for
// GuardedClient's trusted hosts; "" when raw is not a URL with a host.
func TrustedHost(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return ""
	}
	return hostPort(u)
}

// checkPublic is a net.Dialer's Control: it refuses to connect to an
// address that is not public.
func checkPublic(network, address string, _ syscall.RawConn) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return err
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return fmt.Errorf("%s: %w", address, ErrRefusedAddress)
	}
	if !PublicAddr(ip) {
		return fmt.Errorf("%s: %w", address, ErrRefusedAddress)
	}
	return nil
}

// notPublic are ranges that IsGlobalUnicast and IsPrivate leave out
// but no registry is on: shared address space (carrier-grade NAT), IETF
// protocol assignments, benchmarking, reserved, and the IPv6 prefixes
// that embed an IPv4 address or are for documentation.
var notPublic = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),
	netip.MustParsePrefix("100.64.0.0/10"),
	netip.MustParsePrefix("192.0.0.0/24"),
	netip.MustParsePrefix("192.0.2.0/24"),
	netip.MustParsePrefix("198.18.0.0/15"),
	netip.MustParsePrefix("198.51.100.0/24"),
	netip.MustParsePrefix("203.0.113.0/24"),
	netip.MustParsePrefix("240.0.0.0/4"),
	netip.MustParsePrefix("64:ff9b::/96"),
	netip.MustParsePrefix("64:ff9b:1::/48"),
	netip.MustParsePrefix("2001:db8::/32"),
	netip.MustParsePrefix("2002::/16"),
}

// PublicAddr reports whether ip is a public unicast address: not
// loopback, private, link-local, unspecified, multicast, nor in one of
// the special ranges above.
func PublicAddr(ip netip.Addr) bool {
	ip = ip.Unmap()
	if !ip.IsGlobalUnicast() || ip.IsPrivate() {
		return false
	}
	for _, p := range notPublic {
		if p.Contains(ip) {
			return false
		}
	}
	return true
}
