package registry

import (
	"fmt"
	"strings"

	tfaddr "github.com/hashicorp/terraform-registry-address"
	svchost "github.com/hashicorp/terraform-svchost"
)

// Wildcard stands for any host, namespace or type in a ProviderPattern.
const Wildcard = "*"

// ProviderPattern is one pattern of the include or exclude argument of a
// provider_installation method, read as Terraform reads it:
// "registry.terraform.io/hashicorp/*", "hashicorp/aws" (on
// registry.terraform.io), "*/*/*". Each part is in the form Terraform
// compares: the host in lower case and punycode, the namespace and type
// in lower case.
type ProviderPattern struct {
	Host, Namespace, Type string
}

// DefaultProviderHost is the host of a pattern or provider address
// without one, as Terraform reads it. (OpenTofu reads such a pattern as
// one on registry.opentofu.org.)
const DefaultProviderHost = "registry.terraform.io"

// ParseProviderPattern reads a pattern of an include or exclude argument
// with Terraform's rules: two or three parts separated by "/", the host
// being registry.terraform.io when there are two; each part a name or the
// Wildcard, the host a wildcard only when the namespace and type are too,
// and the namespace only when the type is. So "*/*" is every provider of
// registry.terraform.io, and "*/*/*" every provider of every host.
func ParseProviderPattern(s string) (ProviderPattern, error) {
	parts := strings.Split(s, "/")
	if len(parts) < 2 || len(parts) > 3 {
		return ProviderPattern{}, fmt.Errorf("invalid provider matching pattern %q: must have either two or three slash-separated segments", s)
	}
	p := ProviderPattern{Host: DefaultProviderHost}
	if len(parts) == 3 {
		if parts[0] == Wildcard {
			p.Host = Wildcard
		} else {
			h, err := svchost.ForComparison(parts[0])
			if err != nil {
				return ProviderPattern{}, fmt.Errorf("invalid hostname in provider matching pattern %q: %s", s, err)
			}
			p.Host = h.String()
		}
		parts = parts[1:]
	}
	var err error
	if p.Type, err = patternPart(parts[1]); err != nil {
		return ProviderPattern{}, fmt.Errorf("invalid provider type %q in provider matching pattern %q: must either be the wildcard * or a provider type name", parts[1], s)
	}
	if p.Namespace, err = patternPart(parts[0]); err != nil {
		return ProviderPattern{}, fmt.Errorf("invalid registry namespace %q in provider matching pattern %q: must either be the wildcard * or a literal namespace", parts[0], s)
	}
	if p.Host == Wildcard && (p.Namespace != Wildcard || p.Type != Wildcard) {
		return ProviderPattern{}, fmt.Errorf("invalid provider matching pattern %q: hostname can be a wildcard only if both namespace and provider type are also wildcards", s)
	}
	if p.Namespace == Wildcard && p.Type != Wildcard {
		return ProviderPattern{}, fmt.Errorf("invalid provider matching pattern %q: namespace can be a wildcard only if the provider type is also a wildcard", s)
	}
	return p, nil
}

func patternPart(s string) (string, error) {
	if s == Wildcard {
		return s, nil
	}
	return tfaddr.ParseProviderPart(s)
}

// Matches reports whether the pattern matches the provider p.
func (pat ProviderPattern) Matches(p tfaddr.Provider) bool {
	return (pat.Host == Wildcard || pat.Host == p.Hostname.String()) &&
		(pat.Namespace == Wildcard || pat.Namespace == p.Namespace) &&
		(pat.Type == Wildcard || pat.Type == p.Type)
}

// String returns the pattern with its three parts: "registry.terraform.io/hashicorp/*".
func (pat ProviderPattern) String() string {
	return pat.Host + "/" + pat.Namespace + "/" + pat.Type
}

// matchAny reports whether one of pats matches p.
func matchAny(pats []ProviderPattern, p tfaddr.Provider) bool {
	for _, pat := range pats {
		if pat.Matches(p) {
			return true
		}
	}
	return false
}
