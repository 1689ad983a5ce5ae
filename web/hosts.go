package web

import (
	"errors"
	"net"
	"strconv"
	"strings"

	svchost "github.com/hashicorp/terraform-svchost"

	"github.com/prerel/prerel/terraform/registry"
)

// The host policy of a server: which Host headers it answers
// (ServerHosts), and which registries its lookups ask and how
// (Lookups).

// PublicRegistries are the registry hosts every server's lookups may ask.
var PublicRegistries = []string{"registry.terraform.io", "registry.opentofu.org"}

// ErrNotRegistryHost is the error of RegistryHost for what is not the
// name of a registry host.
var ErrNotRegistryHost = errors.New("expected a registry host name, such as registry.example.com")

// RegistryHost returns the name of the registry host h as lookups compare
// it (lower case, in the form service discovery uses), or
// ErrNotRegistryHost.
func RegistryHost(h string) (string, error) {
	name, err := svchost.ForComparison(strings.TrimSpace(h))
	if err != nil || strings.ContainsAny(h, "/") {
		return "", ErrNotRegistryHost
	}
	return strings.ToLower(name.String()), nil
}

// Lookups returns the Versions and AllowRegistry of Options for lookups
// made with src. An index (or any source other than a registry client)
// is used as it is, and allow must be empty. A registry client is made
// again for each lookup (a Client's deadline counts from its first
// request), with src's credentials, by GuardedClient: its requests go
// only to public addresses or to the hosts of src's URLs. Its lookups ask
// only PublicRegistries, the hosts of src's HostURLs and the registry
// hosts allow names (RegistryHost), or every host at src's BaseURL.
func Lookups(src registry.Source, allow []string) (Options, error) {
	c, ok := src.(*registry.Client)
	if !ok {
		if len(allow) > 0 {
			return Options{}, errors.New("an index is looked up for every host: no registry host is allowed apart")
		}
		return Options{Versions: func() (registry.Source, error) { return src, nil }}, nil
	}
	hosts := map[string]bool{}
	for _, h := range PublicRegistries {
		hosts[h] = true
	}
	for _, h := range allow {
		name, err := RegistryHost(h)
		if err != nil {
			return Options{}, err
		}
		hosts[name] = true
	}
	var trusted []string
	for h, u := range c.HostURLs {
		hosts[h] = true
		trusted = append(trusted, TrustedHost(u))
	}
	allowRegistry := func(host string) bool { return hosts[host] }
	if c.BaseURL != "" {
		// Every address is looked up at this URL.
		trusted = append(trusted, TrustedHost(c.BaseURL))
		allowRegistry = nil
	}
	client := GuardedClient(trusted)
	return Options{
		AllowRegistry: allowRegistry,
		Versions: func() (registry.Source, error) {
			return &registry.Client{
				HTTPClient:  client,
				BaseURL:     c.BaseURL,
				HostURLs:    c.HostURLs,
				Credentials: c.Credentials,
				Timeout:     c.Timeout,
				Deadline:    c.Deadline,
				Retries:     c.Retries,
			}, nil
		},
	}, nil
}

// ServerHosts returns Options.AllowHost for a server that listens on
// host (as in "host:port" of its address) and port: a loopback name
// (localhost, 127.0.0.1, [::1]) or host itself with that port; listening
// on all interfaces (Everywhere), any IP address too, and no name but the
// loopback ones (a name rebound to this address is a name, never an
// address). A Host header without a port has port 80.
func ServerHosts(host string, port int) func(string) bool {
	asked := strings.ToLower(strings.TrimSuffix(host, "."))
	everywhere := Everywhere(host)
	return func(hostHeader string) bool {
		name, p, err := net.SplitHostPort(hostHeader)
		if err != nil {
			name, p = hostHeader, "80"
		}
		if p != strconv.Itoa(port) {
			return false
		}
		name = strings.ToLower(strings.TrimSuffix(strings.Trim(name, "[]"), "."))
		switch {
		case name == "localhost" || name == "127.0.0.1" || name == "::1":
			return true
		case name == asked && !everywhere:
			return true
		case everywhere:
			return net.ParseIP(name) != nil
		}
		return false
	}
}

// Everywhere reports whether a server listening on host listens on all
// interfaces: "", 0.0.0.0 or [::].
func Everywhere(host string) bool {
	if host == "" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsUnspecified()
}

// Loopback reports whether host is a loopback address or localhost: a
// server listening there serves this machine alone. "" (every interface)
// is not.
func Loopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
