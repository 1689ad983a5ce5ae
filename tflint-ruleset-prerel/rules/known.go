package rules

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"

	tfaddr "github.com/hashicorp/terraform-registry-address"

	"github.com/prerel/prerel/internal/hclread"
	"github.com/prerel/prerel/internal/safefile"
	"github.com/prerel/prerel/pin"
	"github.com/prerel/prerel/resolve"
	"github.com/prerel/prerel/terraform/address"
	"github.com/prerel/prerel/terraform/config"
	"github.com/prerel/prerel/terraform/registry"
)

// known is the versions a root module knows of without a registry: the
// module versions .terraform/modules/modules.json records as installed,
// the provider versions of the lock file, and the versions prerel pin's
// override files pin. It is a registry.Source: resolve and pin plan over
// it as over a registry's answer, so that a pin that no longer follows
// from the configuration (a constraint or a policy changed since) shows,
// while a newer version on the registry does not (an index file or the
// prerel_policy_selection rule's registry sees those).
type known struct {
	modules   map[tfaddr.ModulePackage][]string
	providers map[string][]string
}

var _ registry.Source = (*known)(nil)

// knownFrom says where the versions come from, for reports.
const knownFrom = "the versions known offline (lock file, modules.json, pins)"

// ModuleVersions returns the versions known of the module package; none
// is no error.
func (k *known) ModuleVersions(_ context.Context, pkg tfaddr.ModulePackage) (*registry.Listing, error) {
	return &registry.Listing{Versions: k.modules[address.ModuleKey(pkg)], From: knownFrom}, nil
}

// ProviderVersions returns the versions known of the provider; none is
// no error.
func (k *known) ProviderVersions(_ context.Context, p tfaddr.Provider) (*registry.Listing, error) {
	return &registry.Listing{Versions: k.providers[address.ProviderKey(p)], From: knownFrom}, nil
}

// String says where the versions come from.
func (k *known) String() string { return knownFrom }

func (k *known) addModule(source, version string) {
	s := address.ParseModuleSource(source)
	if s.Kind != address.Registry || version == "" {
		return
	}
	key := address.ModuleKey(s.Package)
	if !slices.Contains(k.modules[key], version) {
		k.modules[key] = append(k.modules[key], version)
	}
}

func (k *known) addProvider(source, version string) {
	p, err := address.ParseProvider(source)
	if err != nil || version == "" {
		return
	}
	key := address.ProviderKey(p)
	if !slices.Contains(k.providers[key], version) {
		k.providers[key] = append(k.providers[key], version)
	}
}

// pinFiles returns prerel pin's own override files in the module
// directories of tree that init does not download, as pin looks for
// them.
func pinFiles(tree *config.Tree) []pinFile {
	var out []pinFile
	seen := map[string]bool{}
	for _, n := range tree.Nodes {
		if n.Remote() || n.Module == nil || seen[n.Dir] {
			continue
		}
		seen[n.Dir] = true
		path := filepath.Join(n.Dir, pin.FileName)
		if own, err := pin.Owned(path); err == nil && own {
			out = append(out, pinFile{path, n})
		}
	}
	return out
}

// pinFile is one of prerel pin's override files and the module instance
// whose directory holds it.
type pinFile struct {
	path string
	node *config.Node
}

// knownVersions gathers the versions tree (read without pin's files), its
// module manifest, its lock file and pin's files know of.
func knownVersions(tree *config.Tree, dir string) (*known, error) {
	k := &known{modules: map[tfaddr.ModulePackage][]string{}, providers: map[string][]string{}}
	for _, n := range tree.Nodes {
		if n.Record != nil && n.Call != nil {
			k.addModule(n.Call.Source, n.Record.Version)
		}
	}
	lockPath, diags := config.FindLockFile(dir)
	if diags.HasErrors() {
		return nil, fmt.Errorf("prerel: %s", diags.Error())
	}
	if lockPath != "" {
		locks, diags := config.LoadLockFile(lockPath)
		if diags.HasErrors() {
			return nil, fmt.Errorf("prerel: %s", diags.Error())
		}
		for _, l := range locks {
			k.addProvider(l.Address, l.Version)
		}
	}
	for _, pf := range pinFiles(tree) {
		path := pf.path
		src, err := safefile.Read(path, safefile.ConfigLimit)
		if err != nil {
			return nil, fmt.Errorf("prerel: %w", err)
		}
		f, diags := hclread.ParseHCL(src, path)
		if diags.HasErrors() || f == nil {
			// pin --check reports the file as changed.
			continue
		}
		mod := pf.node.Module
		for _, e := range resolve.OverrideEntries(f.Body) {
			switch e.Kind {
			case resolve.KindModule:
				for _, c := range mod.ModuleCalls {
					if c.Name == e.Name {
						k.addModule(c.Source, e.Version)
					}
				}
			case resolve.KindProvider:
				k.addProvider(e.Source, e.Version)
			}
		}
	}
	return k, nil
}
