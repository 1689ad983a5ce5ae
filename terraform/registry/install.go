package registry

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/apparentlymart/go-versions/versions"
	tfaddr "github.com/hashicorp/terraform-registry-address"
)

// MethodKind is the kind of a provider installation method, named as its
// block in the CLI configuration.
type MethodKind string

// The provider installation methods.
const (
	// Direct lists a provider's versions from its origin registry.
	Direct MethodKind = "direct"
	// FilesystemMirror lists them from a directory.
	FilesystemMirror MethodKind = "filesystem_mirror"
	// NetworkMirror lists them from a server of the provider network
	// mirror protocol.
	NetworkMirror MethodKind = "network_mirror"
)

// InstallMethod is one method of a provider_installation block.
type InstallMethod struct {
	Kind MethodKind
	// Location is the directory of a filesystem mirror or the URL of a
	// network mirror; "" for Direct.
	Location string
	// Include and Exclude are the method's patterns: it handles a
	// provider that no Exclude pattern matches and, when Include has
	// any, that one of them matches.
	Include, Exclude []ProviderPattern
	// Place is where the method's block is, "FILE:LINE", for messages.
	Place string
}

// Handles reports whether the method handles p, by its Include and
// Exclude patterns; an exclusion wins over an inclusion.
func (m InstallMethod) Handles(p tfaddr.Provider) bool {
	switch {
	case matchAny(m.Exclude, p):
		return false
	case len(m.Include) > 0:
		return matchAny(m.Include, p)
	}
	return true
}

// String names the method for messages: "network_mirror
// https://mirror.example/ (/home/u/.terraformrc:3)".
func (m InstallMethod) String() string {
	s := string(m.Kind)
	if m.Location != "" {
		s += " " + RedactURL(m.Location)
	}
	if m.Place != "" {
		s += " (" + m.Place + ")"
	}
	return s
}

// DevOverride is an entry of a dev_overrides block: Terraform uses the
// provider built in Dir and installs none of its versions.
type DevOverride struct {
	Provider tfaddr.Provider
	Dir      string
	// Place is where the entry is, "FILE:LINE".
	Place string
}

// ProviderInstallation is a Source that lists the versions of a provider
// as "terraform init" finds them under the provider_installation block
// of the CLI configuration, or under its implied default when there is
// none. Modules are listed by Registry alone: the block is about
// providers only.
//
// With a block (Block is not ""), the versions of a provider are those
// of every method that handles it, together: its origin registry for
// Direct (through Registry), a directory for FilesystemMirror, the
// server's index.json for NetworkMirror. A method that does not have the
// provider adds nothing; any other failure of a method fails the lookup,
// as it fails terraform init. A provider that no method handles has no
// version at all, and its lookup fails saying so; so does a provider of
// a dev_overrides entry, which terraform init does not install.
//
// Without a block, the versions of a provider are those of the implied
// local mirror directories, LocalDirs, that have it, and only when none
// has it, those of its origin registry, as Terraform's implied default
// provides them. A directory of LocalDirs that does not exist is skipped.
//
// A provider whose host Bypass accepts is listed by Registry alone,
// whatever the block says: a flag that names where a host's versions
// come from wins over the CLI configuration.
//
// A ProviderInstallation is safe for concurrent use; each directory is
// scanned once.
type ProviderInstallation struct {
	// Registry lists modules, and the providers of Direct. It also makes
	// the requests to network mirrors, with its limits, retries and
	// credentials.
	Registry *Client
	// Block is where the provider_installation block is, "FILE:LINE",
	// or "" for the implied default.
	Block string
	// Methods are the block's methods, in order.
	Methods []InstallMethod
	// DevOverrides are the entries of the block's dev_overrides.
	DevOverrides []DevOverride
	// LocalDirs are the implied local mirror directories, used when Block
	// is "": terraform.d/plugins of the working directory, the plugins
	// directory of the CLI configuration directory, and the system's.
	LocalDirs []string
	// Bypass reports whether the providers of host are listed by Registry
	// alone; nil means none is.
	Bypass func(host string) bool
	// MaxMirrorEntries bounds the files and directories one filesystem
	// mirror's scan visits; 0 means DefaultMaxMirrorEntries.
	MaxMirrorEntries int

	mu    sync.Mutex
	scans map[string]*mirrorScan
}

var _ Source = (*ProviderInstallation)(nil)

// ModuleVersions lists the versions of a module from Registry.
func (pi *ProviderInstallation) ModuleVersions(ctx context.Context, pkg tfaddr.ModulePackage) (*Listing, error) {
	if pi == nil {
		return nil, ErrNilClient
	}
	return pi.Registry.ModuleVersions(ctx, pkg)
}

// String says where versions come from: Registry's String, and the
// provider_installation block or the implied local mirror directories
// that exist.
func (pi *ProviderInstallation) String() string {
	if pi == nil {
		return "registry (none)"
	}
	s := pi.Registry.String()
	if pi.Block != "" {
		return s + "; providers as the provider_installation block at " + pi.Block + " says"
	}
	var dirs []string
	for _, d := range pi.LocalDirs {
		if isDir(d) {
			dirs = append(dirs, d)
		}
	}
	if len(dirs) > 0 {
		s += "; providers found in " + strings.Join(dirs, ", ") + " from there only"
	}
	return s
}

// ErrNoInstallationMethod is wrapped by the error for a provider that no
// method of the provider_installation block handles, or that a
// dev_overrides entry names.
var ErrNoInstallationMethod = errors.New("no installation method")

// ProviderVersions lists the versions of a provider that the
// installation methods give; see ProviderInstallation.
func (pi *ProviderInstallation) ProviderVersions(ctx context.Context, p tfaddr.Provider) (*Listing, error) {
	if pi == nil || pi.Registry == nil {
		return nil, ErrNilClient
	}
	if pi.Bypass != nil && pi.Bypass(p.Hostname.String()) {
		return pi.Registry.ProviderVersions(ctx, p)
	}
	ctx, cancel := pi.Registry.runContext(ctx)
	defer cancel()
	l, err := pi.providerVersions(ctx, p)
	return l, clean(err)
}

func (pi *ProviderInstallation) providerVersions(ctx context.Context, p tfaddr.Provider) (*Listing, error) {
	addr := p.ForDisplay()
	var methods []InstallMethod
	if pi.Block == "" {
		// The implied default: the local directories that have the
		// provider, or else its registry.
		for _, d := range pi.LocalDirs {
			if !isDir(d) {
				continue
			}
			m := InstallMethod{Kind: FilesystemMirror, Location: d}
			vs, err := pi.filesystemVersions(m, p)
			if err != nil {
				return nil, fmt.Errorf("provider %s: the local mirror directory %s: %w", addr, d, err)
			}
			if len(vs) > 0 {
				methods = append(methods, m)
			}
		}
		if len(methods) == 0 {
			return pi.Registry.providerVersions(ctx, p)
		}
	} else {
		for _, o := range pi.DevOverrides {
			if o.Provider.Equals(p) {
				return nil, fmt.Errorf("provider %s: %w: the dev_overrides entry at %s uses the provider built in %s instead, and terraform init installs no version of it", addr, ErrNoInstallationMethod, o.Place, o.Dir)
			}
		}
		for _, m := range pi.Methods {
			if m.Handles(p) {
				methods = append(methods, m)
			}
		}
		if len(methods) == 0 {
			return nil, fmt.Errorf("%w of the CLI configuration's provider_installation block at %s includes %s, so terraform init cannot install it", ErrNoInstallationMethod, pi.Block, p.String())
		}
	}
	if len(methods) == 1 && methods[0].Kind == Direct {
		return pi.Registry.providerVersions(ctx, p)
	}

	var listings []*Listing
	var missing []string // the methods that do not have the provider
	var registryMissing error
	for _, m := range methods {
		l, err := pi.methodVersions(ctx, m, p)
		switch {
		case errors.Is(err, ErrNotFound):
			missing = append(missing, m.String())
			if m.Kind == Direct {
				registryMissing = err
			}
			continue
		case err != nil:
			if m.Kind == Direct {
				return nil, err
			}
			return nil, fmt.Errorf("provider %s: %s: %w", addr, m, err)
		}
		if len(l.Versions) == 0 {
			missing = append(missing, m.String())
			continue
		}
		listings = append(listings, l)
	}
	if len(listings) == 0 {
		if registryMissing != nil && len(missing) == 1 {
			return nil, registryMissing
		}
		return nil, fmt.Errorf("provider %s: %w: none of the installation methods that include it has a version of it: %s", addr, ErrNotFound, strings.Join(missing, "; "))
	}
	if len(listings) == 1 {
		return listings[0], nil
	}
	return union(listings), nil
}

// methodVersions lists p's versions by one method. A method that does not
// have p returns an error wrapping ErrNotFound.
func (pi *ProviderInstallation) methodVersions(ctx context.Context, m InstallMethod, p tfaddr.Provider) (*Listing, error) {
	switch m.Kind {
	case Direct:
		return pi.Registry.providerVersions(ctx, p)
	case FilesystemMirror:
		vs, err := pi.filesystemVersions(m, p)
		if err != nil {
			return nil, err
		}
		return &Listing{Versions: vs, From: "filesystem_mirror " + m.Location}, nil
	case NetworkMirror:
		return pi.networkVersions(ctx, m, p)
	}
	return nil, fmt.Errorf("unknown installation method %q", m.Kind)
}

// union joins listings as Terraform joins the versions of several
// methods: each version once (two spellings of one version, such as
// "1.0" and "1.0.0", are one), in increasing order, with the versions no
// rule can read after them in the order found.
func union(listings []*Listing) *Listing {
	type entry struct {
		text string
		v    versions.Version
		ok   bool
	}
	var all []entry
	seen := map[string]bool{}
	var out Listing
	var from []string
	for _, l := range listings {
		from = append(from, l.From)
		out.Warnings = append(out.Warnings, l.Warnings...)
		for _, s := range l.Versions {
			v, err := versions.ParseVersion(s)
			key := s
			if err == nil {
				key = "\x00" + v.String()
			}
			if seen[key] {
				continue
			}
			seen[key] = true
			all = append(all, entry{text: s, v: v, ok: err == nil})
		}
	}
	slices.SortStableFunc(all, func(a, b entry) int {
		switch {
		case a.ok && b.ok:
			if a.v.LessThan(b.v) {
				return -1
			}
			if b.v.LessThan(a.v) {
				return 1
			}
			return 0
		case a.ok:
			return -1
		case b.ok:
			return 1
		}
		return 0
	})
	for _, e := range all {
		out.Versions = append(out.Versions, e.text)
	}
	out.From = strings.Join(from, ", ")
	return &out
}

func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}
