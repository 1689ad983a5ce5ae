package registry

import (
	"fmt"
	"regexp"
	"strings"
)

// DefaultHost is the registry host of a source address that names none:
// the public Terraform registry.
const DefaultHost = "registry.terraform.io"

// ModuleAddr is a module registry address, [HOST/]NAMESPACE/NAME/SYSTEM,
// with the optional "//SUBDIR" a source address may carry.
type ModuleAddr struct {
	Host      string // lower case; DefaultHost when the source names none
	Namespace string
	Name      string
	System    string
	Subdir    string // the part after "//", or ""
}

// String returns the package address as Terraform displays it: without the
// host when it is DefaultHost, without the subdirectory.
func (a ModuleAddr) String() string {
	s := a.Namespace + "/" + a.Name + "/" + a.System
	if a.Host != DefaultHost {
		s = a.Host + "/" + s
	}
	return s
}

// Key returns the address in the canonical form used to compare and look
// up module addresses: host included, all lower case.
func (a ModuleAddr) Key() string {
	return strings.ToLower(a.Host + "/" + a.Namespace + "/" + a.Name + "/" + a.System)
}

// ProviderAddr is a provider source address, [HOST/]NAMESPACE/TYPE.
type ProviderAddr struct {
	Host      string // lower case; DefaultHost when the source names none
	Namespace string // lower case
	Type      string // lower case
}

// String returns the address as Terraform displays it: without the host
// when it is DefaultHost.
func (a ProviderAddr) String() string {
	s := a.Namespace + "/" + a.Type
	if a.Host != DefaultHost {
		s = a.Host + "/" + s
	}
	return s
}

// Key returns the full address, host included: the form a lock file uses
// and the one used to compare provider addresses.
func (a ProviderAddr) Key() string {
	return a.Host + "/" + a.Namespace + "/" + a.Type
}

// IsBuiltIn reports whether the address is Terraform's built-in provider
// namespace (terraform.io/builtin/...), which no registry serves.
func (a ProviderAddr) IsBuiltIn() bool {
	return a.Host == "terraform.io" && a.Namespace == "builtin"
}

// NotRegistryError is returned by ParseModuleSource for a module source
// that is valid Terraform but not a registry address: a local path, a Git
// repository, an HTTP URL and so on. Reason says which.
type NotRegistryError struct {
	Source string
	Reason string
}

func (e *NotRegistryError) Error() string {
	return fmt.Sprintf("module source %q is not a registry address: %s", e.Source, e.Reason)
}

var (
	// A registry namespace or module name (Terraform's moduleRegistryName
	// pattern, as in hashicorp/terraform-registry-address).
	moduleNamePattern = regexp.MustCompile(`^[0-9A-Za-z](?:[0-9A-Za-z_-]{0,62}[0-9A-Za-z])?$`)
	// A module's target system.
	moduleSystemPattern = regexp.MustCompile(`^[0-9a-z]{1,64}$`)
	// A provider namespace or type, after lower-casing.
	providerPartPattern = regexp.MustCompile(`^[0-9a-z](?:[0-9a-z-]{0,62}[0-9a-z])?$`)
	// A host name with an optional port.
	hostPattern = regexp.MustCompile(`^[0-9a-z](?:[0-9a-z-]*[0-9a-z])?(?:\.[0-9a-z](?:[0-9a-z-]*[0-9a-z])?)*(?::[0-9]{1,5})?$`)
)

// ParseModuleSource reads a module call's source argument. A registry
// address, NAMESPACE/NAME/SYSTEM or HOST/NAMESPACE/NAME/SYSTEM with an
// optional "//SUBDIR", gives a ModuleAddr. Any other source gives a
// *NotRegistryError whose Reason names the kind of source (local path, Git
// repository, HTTP URL, ...), following the order in which Terraform tries
// them: local paths first, then registry addresses, then everything else.
// github.com and bitbucket.org are never registry hosts: Terraform reads
// such a source as a VCS shorthand.
func ParseModuleSource(source string) (ModuleAddr, error) {
	notRegistry := func(reason string) (ModuleAddr, error) {
		return ModuleAddr{}, &NotRegistryError{Source: source, Reason: reason}
	}
	switch {
	case source == "":
		return notRegistry("the source is empty")
	case strings.HasPrefix(source, "./"), strings.HasPrefix(source, "../"),
		strings.HasPrefix(source, `.\`), strings.HasPrefix(source, `..\`):
		return notRegistry("local path")
	}
	if reason := remoteKind(source); reason != "" {
		return notRegistry(reason)
	}
	pkg, subdir := source, ""
	if i := strings.Index(source, "//"); i >= 0 {
		pkg, subdir = source[:i], source[i+2:]
	}
	parts := strings.Split(pkg, "/")
	var host string
	switch len(parts) {
	case 3:
		host = DefaultHost
	case 4:
		host = strings.ToLower(parts[0])
		parts = parts[1:]
		switch {
		case host == "github.com":
			return notRegistry("GitHub repository (github.com is a Git shorthand, not a registry host)")
		case host == "bitbucket.org":
			return notRegistry("Bitbucket repository (bitbucket.org is a VCS shorthand, not a registry host)")
		case !hostPattern.MatchString(host):
			return notRegistry(fmt.Sprintf("%q is not a valid registry host name", parts[0]))
		}
	default:
		return notRegistry("not of the form [HOST/]NAMESPACE/NAME/SYSTEM")
	}
	ns, name, system := parts[0], parts[1], parts[2]
	switch {
	case !moduleNamePattern.MatchString(ns):
		return notRegistry(fmt.Sprintf("%q is not a valid registry namespace", ns))
	case !moduleNamePattern.MatchString(name):
		return notRegistry(fmt.Sprintf("%q is not a valid registry module name", name))
	case !moduleSystemPattern.MatchString(system):
		return notRegistry(fmt.Sprintf("%q is not a valid target system (lower case letters and digits)", system))
	}
	return ModuleAddr{Host: host, Namespace: ns, Name: name, System: system, Subdir: subdir}, nil
}

// remoteKind names the kind of a source that is a remote (non-registry)
// address by its prefix, or returns "".
func remoteKind(s string) string {
	if i := strings.Index(s, "::"); i > 0 {
		switch getter := s[:i]; getter {
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
		return "GitHub repository"
	case strings.HasPrefix(lower, "bitbucket.org/"):
		return "Bitbucket repository"
	case strings.HasPrefix(lower, "s3-") && strings.Contains(lower, ".amazonaws.com/"),
		strings.HasPrefix(lower, "s3.") && strings.Contains(lower, ".amazonaws.com/"):
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

// ParseProviderSource reads a required_providers source argument,
// [HOST/]NAMESPACE/TYPE, or a bare TYPE as Terraform implies it for a
// provider without a source (hashicorp/TYPE). Host, namespace and type are
// compared case-insensitively and returned in lower case. The error says
// which part is wrong.
func ParseProviderSource(source string) (ProviderAddr, error) {
	parts := strings.Split(source, "/")
	a := ProviderAddr{Host: DefaultHost, Namespace: "hashicorp"}
	switch len(parts) {
	case 1:
		a.Type = parts[0]
	case 2:
		a.Namespace, a.Type = parts[0], parts[1]
	case 3:
		a.Host, a.Namespace, a.Type = parts[0], parts[1], parts[2]
	default:
		return ProviderAddr{}, fmt.Errorf("provider source %q: expected [HOST/]NAMESPACE/TYPE", source)
	}
	a.Host, a.Namespace, a.Type = strings.ToLower(a.Host), strings.ToLower(a.Namespace), strings.ToLower(a.Type)
	switch {
	case !hostPattern.MatchString(a.Host):
		return ProviderAddr{}, fmt.Errorf("provider source %q: %q is not a valid host name", source, parts[0])
	case !providerPartPattern.MatchString(a.Namespace):
		return ProviderAddr{}, fmt.Errorf("provider source %q: %q is not a valid namespace (letters, digits and dashes)", source, a.Namespace)
	case !providerPartPattern.MatchString(a.Type):
		return ProviderAddr{}, fmt.Errorf("provider source %q: %q is not a valid provider type (letters, digits and dashes)", source, a.Type)
	}
	return a, nil
}
