// Package address reads Terraform and OpenTofu source addresses: a
// required_providers source and a module call's source. It is the one
// place prerel parses them, with hashicorp/terraform-registry-address,
// the parser Terraform itself uses, so that every package compares the
// same canonical forms.
//
// A provider address is a tfaddr.Provider. A bare TYPE is Terraform's
// implied provider, hashicorp/TYPE on the default registry; host,
// namespace and type are normalized as Terraform normalizes them (lower
// case, IDN hosts in their comparable punycode form, shown in Unicode),
// so ProviderKey of two spellings of one provider is the same string:
// "registry.terraform.io/hashicorp/aws". A module package's host is
// normalized the same way.
//
// A module source is read in the order Terraform reads it: a local path
// ("./", "../") first, then a registry address
// ([HOST/]NAMESPACE/NAME/SYSTEM with an optional "//SUBDIR"), then
// anything else as a remote source (Git, HTTP, S3, ...), whose kind is
// named for reports. As in Terraform, a string that is not a valid
// registry address is a remote source, never an error; its Reason says
// which part is not valid and why (a host name that is not one, such as
// "[::1]" or "user@host", is named as the host).
package address

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	tfaddr "github.com/hashicorp/terraform-registry-address"
	svchost "github.com/hashicorp/terraform-svchost"
)

// DefaultHost is the registry host of an address that names none.
const DefaultHost = "registry.terraform.io"

// ParseProvider reads a provider source address, [HOST/]NAMESPACE/TYPE,
// or a bare TYPE, which Terraform implies to be hashicorp/TYPE. A host
// may be an internationalized domain name, written in Unicode as
// Terraform requires; it is kept in its comparable (punycode) form. The
// error quotes the source and says which part is wrong and why.
func ParseProvider(source string) (tfaddr.Provider, error) {
	fail := func(format string, args ...any) (tfaddr.Provider, error) {
		return tfaddr.Provider{}, fmt.Errorf("provider source %q: %s", source, fmt.Sprintf(format, args...))
	}
	if !utf8.ValidString(source) {
		return fail("not valid UTF-8")
	}
	parts := strings.Split(source, "/")
	switch {
	case source == "":
		return fail("the source is empty")
	case len(parts) > 3:
		return fail("expected [HOST/]NAMESPACE/TYPE, but it has %d parts separated by \"/\"", len(parts))
	case slices.Contains(parts, ""):
		return fail("expected [HOST/]NAMESPACE/TYPE, but a part is empty")
	}
	typ := parts[len(parts)-1]
	if t, err := tfaddr.ParseProviderPart(typ); err != nil {
		return fail("invalid provider type %q: %s", typ, err)
	} else if t == "" {
		return fail("invalid provider type %q: nothing is left of it once normalized", typ)
	}
	if len(parts) > 1 {
		ns := parts[len(parts)-2]
		if ns == tfaddr.LegacyProviderNamespace {
			return fail("the legacy namespace \"-\" names no installable provider")
		}
		if n, err := tfaddr.ParseProviderPart(ns); err != nil {
			return fail("invalid namespace %q: %s", ns, err)
		} else if n == "" {
			return fail("invalid namespace %q: nothing is left of it once normalized", ns)
		}
	}
	if len(parts) == 3 {
		if h, err := svchost.ForComparison(parts[0]); err != nil {
			return fail("invalid registry host name %q: %s", parts[0], err)
		} else if h == "" {
			return fail("invalid registry host name %q: nothing is left of it once normalized", parts[0])
		}
	}
	p, err := tfaddr.ParseProviderSource(source)
	if err != nil {
		return fail("%s", describe(err))
	}
	if err := displays(p.Hostname); err != nil {
		return fail("%s", err)
	}
	if p.Namespace == tfaddr.UnknownProviderNamespace {
		// A bare TYPE: terraform-registry-address leaves it unchecked.
		p.Namespace = "hashicorp"
	}
	return p, nil
}

// ProviderKey returns the canonical text of a provider address, host
// included: the form a lock file records and the one prerel compares.
func ProviderKey(p tfaddr.Provider) string { return p.String() }

// describe returns a terraform-registry-address error as one line.
func describe(err error) string {
	if pe, ok := err.(*tfaddr.ParserError); ok {
		if pe.Detail != "" {
			return pe.Summary + ": " + pe.Detail
		}
		return pe.Summary
	}
	return err.Error()
}

// Kind is the kind of a module source.
type Kind uint8

// The kinds of module source, in the order Terraform tries them.
const (
	Local    Kind = iota // a path starting with ./ or ../
	Registry             // a module registry address
	Remote               // anything else: Git, HTTP, S3, ...
)

// String returns "local", "registry" or "remote".
func (k Kind) String() string {
	switch k {
	case Local:
		return "local"
	case Registry:
		return "registry"
	default:
		return "remote"
	}
}

// ModuleSource is a module call's source argument, read.
type ModuleSource struct {
	// Source is the argument as written.
	Source string
	Kind   Kind
	// Package is the registry package, canonical (see ModuleKey), when
	// Kind is Registry; Subdir is the part after "//", if any.
	Package tfaddr.ModulePackage
	Subdir  string
	// Reason names the kind of a source that is not a registry address:
	// "local path", "Git repository", "HTTP URL", ...
	Reason string
}

// ParseModuleSource reads a module call's source argument. It never
// fails: a source that is neither a local path nor a registry address is
// Remote, with Reason naming what it looks like.
func ParseModuleSource(source string) ModuleSource {
	s := ModuleSource{Source: source, Kind: Remote}
	switch {
	case source == "":
		s.Reason = "the source is empty"
		return s
	case isLocal(source):
		s.Kind, s.Reason = Local, "local path"
		return s
	}
	m, err := parseModuleSource(source)
	if err == nil {
		s.Kind, s.Package, s.Subdir = Registry, ModuleKey(m.Package), m.Subdir
		return s
	}
	if s.Reason = remoteKind(source); s.Reason == "" {
		s.Reason = "not a registry address (" + moduleSourceError(source, err) + ")"
	}
	return s
}

// moduleSourceError says why source is not a registry address, given
// terraform-registry-address's error: for a host that is not valid, why
// it is not.
func moduleSourceError(source string, err error) string {
	pkg, _, _ := strings.Cut(source, "//")
	if parts := strings.Split(pkg, "/"); len(parts) == 4 {
		if _, herr := svchost.ForComparison(parts[0]); herr != nil {
			return fmt.Sprintf("invalid registry host name %q: %s", parts[0], herr)
		}
	}
	return err.Error()
}

// ModuleKey returns the canonical form of a module package: its host as
// Terraform compares hosts, namespace and name in lower case, since
// registries compare them case-insensitively.
func ModuleKey(p tfaddr.ModulePackage) tfaddr.ModulePackage {
	p.Namespace = strings.ToLower(p.Namespace)
	p.Name = strings.ToLower(p.Name)
	return p
}

// ParseModulePackage reads a registry module address,
// [HOST/]NAMESPACE/NAME/SYSTEM, and returns it in canonical form. A
// "//SUBDIR" is not allowed here: it names a directory, not a package.
func ParseModulePackage(s string) (tfaddr.ModulePackage, error) {
	m, err := parseModuleSource(s)
	if err != nil {
		return tfaddr.ModulePackage{}, fmt.Errorf("module address %q: %s", s, describe(err))
	}
	if m.Subdir != "" {
		return tfaddr.ModulePackage{}, fmt.Errorf("module address %q: a package address has no //SUBDIR", s)
	}
	return ModuleKey(m.Package), nil
}

// parseModuleSource is tfaddr.ParseModuleSource for a source that is
// valid UTF-8 and whose host can be displayed: the library accepts some
// hosts that its own String method then panics on.
func parseModuleSource(source string) (tfaddr.Module, error) {
	if !utf8.ValidString(source) {
		return tfaddr.Module{}, errors.New("not valid UTF-8")
	}
	m, err := tfaddr.ParseModuleSource(source)
	if err != nil {
		return m, err
	}
	if err := displays(m.Package.Host); err != nil {
		return tfaddr.Module{}, err
	}
	return m, nil
}

// displays reports whether h can be written for display, as the
// String methods of module and provider addresses write it.
func displays(h svchost.Hostname) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("invalid registry host name %q", string(h))
		}
	}()
	h.ForDisplay()
	return nil
}

// isLocal reports whether Terraform reads source as a local path.
func isLocal(source string) bool {
	for _, prefix := range []string{"./", "../", `.\`, `..\`} {
		if strings.HasPrefix(source, prefix) {
			return true
		}
	}
	return false
}

// forcedGetter matches the name of a getter forced with "GETTER::", as
// go-getter, which Terraform installs modules with, reads it.
var forcedGetter = regexp.MustCompile(`^[A-Za-z0-9]+$`)

// remoteKind names the kind of a remote source by its form, or returns
// "" when it has none of the known forms.
func remoteKind(s string) string {
	if getter, _, ok := strings.Cut(s, "::"); ok && forcedGetter.MatchString(getter) {
		switch getter {
		case "git":
			return "Git repository"
		case "hg":
			return "Mercurial repository"
		case "s3":
			return "Amazon S3 bucket"
		case "gcs":
			return "Google Cloud Storage bucket"
		case "http", "https":
			return "HTTP URL"
		default:
			return fmt.Sprintf("%q getter", getter)
		}
	}
	lower := strings.ToLower(s)
	switch {
	case strings.HasPrefix(lower, "http://"), strings.HasPrefix(lower, "https://"):
		return "HTTP URL"
	case strings.HasPrefix(lower, "git@"), strings.HasPrefix(lower, "ssh://"), strings.HasPrefix(lower, "git://"):
		return "Git repository"
	case strings.HasPrefix(lower, "github.com/"):
		return "GitHub repository (github.com is a Git shorthand, not a registry host)"
	case strings.HasPrefix(lower, "bitbucket.org/"):
		return "Bitbucket repository (bitbucket.org is a VCS shorthand, not a registry host)"
	case strings.Contains(lower, ".amazonaws.com/") && (strings.HasPrefix(lower, "s3-") || strings.HasPrefix(lower, "s3.")):
		return "Amazon S3 bucket"
	case strings.HasPrefix(lower, "www.googleapis.com/storage/"):
		return "Google Cloud Storage bucket"
	case strings.HasPrefix(s, "/"), len(s) > 2 && s[1] == ':' && (s[2] == '\\' || s[2] == '/'):
		return "absolute path (Terraform requires local paths to start with ./ or ../)"
	case strings.Contains(s, "?"):
		return "remote address with a query string"
	}
	return ""
}
