package impact

import (
	"context"
	"fmt"
	"sync"
	"time"

	tfaddr "github.com/hashicorp/terraform-registry-address"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/resolve"
	"github.com/prerel/prerel/resolve/policyconfig"
	"github.com/prerel/prerel/terraform/address"
	"github.com/prerel/prerel/terraform/installer"
	"github.com/prerel/prerel/terraform/registry"
)

// LoadDirs reads every module call and provider of the configurations
// rooted at dirs as prerel resolve reads them (resolve.Run: the module
// tree as terraform init reads it, each provider's requirements of every
// module intersected into one constraint), and lists the versions of each
// source with src: that list is the call's history, offered as listed.
// policies must hold today's installers (package catalogue registers
// them); a policy file in a directory is not read, and neither is the
// lock file.
//
// Mistakes in a configuration are the error (hcl.Diagnostics, as
// resolve.Run returns them). Sources that are not looked up (Git, local
// paths, expressions) and modules that were not read go to
// Domain.Skipped and Domain.Unread; calls whose versions could not be listed have no
// history and go to Domain.Problems.
func LoadDirs(ctx context.Context, dirs []string, src registry.Source, policies *engine.Registry) (*Domain, error) {
	return LoadDirsAs(ctx, dirs, src, policies, installer.Release{}, installer.Release{})
}

// LoadDirsAs is LoadDirs with the configurations read as the OpenTofu
// release tofu reads them (resolve.Options.OpenTofu; the zero Release is
// the newest of each product), its .tofu files included, and tf as
// resolve.Options.Terraform.
func LoadDirsAs(ctx context.Context, dirs []string, src registry.Source, policies *engine.Registry, tf, tofu installer.Release) (*Domain, error) {
	rec := &recorder{src: src, listings: map[string]*registry.Listing{}}
	d := &Domain{Name: "dirs", Dirs: dirs, VersionsFrom: src.String(), Repositories: len(dirs), Histories: map[string]*History{}}
	for _, dir := range dirs {
		cfg, err := policyconfig.New(policies)
		if err != nil {
			return nil, err
		}
		rep, err := resolve.Run(ctx, resolve.Options{Dir: dir, Config: cfg, Versions: rec, Policies: policies, LockFile: "-", Terraform: tf, OpenTofu: tofu})
		if err != nil {
			return nil, err
		}
		d.add(dir, rep, rec)
	}
	return d, nil
}

// add adds the items of one directory's report.
func (d *Domain) add(dir string, rep *resolve.Report, rec *recorder) {
	for _, u := range rep.Unread {
		d.Unread = append(d.Unread, Unread{Dir: dir, Module: u.Module, Source: u.Source, Pos: u.Pos, Reason: u.Reason})
	}
	for _, s := range rep.Skipped {
		d.Skipped = append(d.Skipped, fmt.Sprintf("%s: %s %s (%s): %s: %s", dir, s.Kind, s.Name, placeOr(s.Pos), s.Source, s.Reason))
	}
	for _, it := range rep.Items {
		c := Call{Repo: dir, Path: it.Pos, Kind: Kind(it.Kind), Name: it.Name, Source: it.Source,
			SourceKey: it.Address, Constraint: it.Constraint}
		key := string(it.Kind) + " " + it.Address
		l := rec.listing(key)
		switch {
		case it.Status == resolve.StatusError || l == nil:
			problem := it.Problem
			if problem == "" {
				problem = "no versions were listed"
			}
			line := fmt.Sprintf("%s: %s %s (%s): %s", dir, it.Kind, it.Name, placeOr(it.Pos), problem)
			d.Problems = append(d.Problems, line)
			d.failed = append(d.failed, failedCall{item: it, line: line})
		default:
			c.History = key
			if d.Histories[key] == nil {
				d.Histories[key] = &History{Name: it.Address, From: l.From, Lines: l.Versions, Published: published(l)}
			}
		}
		d.Calls = append(d.Calls, c)
	}
}

// failedCall is a call of Domain.Problems: its item in its directory's
// report and its line.
type failedCall struct {
	item resolve.Item
	line string
}

func placeOr(pos string) string {
	if pos == "" {
		return "implied"
	}
	return pos
}

// recorder is a registry.Source that keeps every listing it passes on,
// by kind and address as resolve.Item.Address writes it.
type recorder struct {
	src      registry.Source
	mu       sync.Mutex
	listings map[string]*registry.Listing
}

func (r *recorder) ModuleVersions(ctx context.Context, pkg tfaddr.ModulePackage) (*registry.Listing, error) {
	l, err := r.src.ModuleVersions(ctx, pkg)
	if err == nil && l != nil {
		r.put(string(resolve.KindModule)+" "+pkg.String(), l)
	}
	return l, err
}

func (r *recorder) ProviderVersions(ctx context.Context, p tfaddr.Provider) (*registry.Listing, error) {
	l, err := r.src.ProviderVersions(ctx, p)
	if err == nil && l != nil {
		r.put(string(resolve.KindProvider)+" "+address.ProviderKey(p), l)
	}
	return l, err
}

func (r *recorder) String() string { return r.src.String() }

func (r *recorder) put(key string, l *registry.Listing) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.listings[key] = l
}

func (r *recorder) listing(key string) *registry.Listing {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.listings[key]
}

// published maps each version of a listing to its date, nil when it has
// none.
func published(l *registry.Listing) map[string]time.Time {
	if !engine.Dates(l.Published).Any() {
		return nil
	}
	out := map[string]time.Time{}
	for i, v := range l.Versions {
		if t, ok := engine.Dates(l.Published).At(i); ok {
			out[v] = t
		}
	}
	return out
}
