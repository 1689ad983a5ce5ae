// Package resolve shows what each prerelease policy would install for a
// real Terraform/OpenTofu root module: for every module call and required
// provider, the version its chosen policy selects from the available
// versions, next to what today's Terraform and OpenTofu select and any
// other policies asked for.
//
// Run reads the configuration (adapters/tfconfig), applies the policy
// configuration (policies/moduleconfig), lists versions from a registry or
// an offline index (adapters/registry), selects with engine.Select per
// policy and checks the dependency lock file. The Report it returns is
// rendered as text, Markdown or JSON (RenderText, RenderMarkdown,
// RenderJSON).
//
// # Layout
//
// The package sits beside compare: it joins readers of outside systems
// (adapters/...) with the policy configuration and the engine, and prints
// nothing itself. Dependencies point one way: cmd/prerel → resolve →
// adapters/registry, adapters/tfconfig, policies/moduleconfig → engine.
// It looks policies up by name in an engine.Registry and imports no
// policy package, so a program's own policies work everywhere.
//
// # Today's selectors
//
// Terraform's module installer is the "terraform-module" policy and
// OpenTofu's "opentofu-module"; both install providers with
// apparentlymart/go-versions' MeetingConstraints, the "apparentlymart"
// policy. Registry sources must have them registered (importing package
// adapters does).
//
// # Errors and findings
//
// A mistake in the configuration, the policy configuration or the lock
// file is a *ConfigError that lists every problem with its file, line and
// column; a constraint the engine's parser refuses is one too, as
// Terraform refuses it when it loads the configuration. Everything else
// is in the Report: an item whose chosen policy admits no available
// version is Unsatisfied (its Problem names the newest available version,
// as Terraform's message does), an item whose versions could not be
// listed has an Error.
package resolve

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/prerel/prerel/adapters/registry"
	"github.com/prerel/prerel/adapters/tfconfig"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/policies/moduleconfig"
)

// The policies that stand for today's installers.
const (
	TerraformModulePolicy = "terraform-module"
	OpenTofuModulePolicy  = "opentofu-module"
	ProviderPolicy        = "apparentlymart"
)

// Kinds of items.
const (
	KindModule   = "module"
	KindProvider = "provider"
)

// Item statuses.
const (
	StatusOK          = "ok"          // the chosen policy selects a version
	StatusUnsatisfied = "unsatisfied" // it admits no available version, or refuses the constraint
	StatusError       = "error"       // the versions could not be listed
)

// Options says what Run reads and which policies it runs.
type Options struct {
	// Dir is the root module's directory.
	Dir string
	// Config chooses the policy per module call and provider; required.
	Config *moduleconfig.Config
	// Source lists the available versions; required.
	Source registry.Source
	// Registry holds today's selectors and every policy named; nil means
	// engine.Default.
	Registry *engine.Registry
	// Extra are more policies to show, one column each, in order.
	Extra []engine.Policy
	// LockFile is the dependency lock file to check. "" means
	// Dir/.terraform.lock.hcl when it exists; "-" means none.
	LockFile string
	// Concurrency bounds the version lookups under way at once; 0 means 4.
	Concurrency int
}

// Report is the result of Run. Its JSON form is the contract scripts rely
// on: see RenderJSON.
type Report struct {
	Dir           string   `json:"dir"`
	VersionsFrom  string   `json:"versions_from"`
	ConfigFile    string   `json:"config_file,omitempty"`
	DefaultPolicy string   `json:"default_policy"`
	DefaultFrom   string   `json:"default_policy_from"`
	Extra         []string `json:"extra_policies"`
	Items         []Item   `json:"items"`
	Skipped       []Skip   `json:"skipped"`
	LockFile      string   `json:"lock_file,omitempty"`
	Locks         []Lock   `json:"locks,omitempty"`
	Warnings      []string `json:"warnings"`
}

// Item is one module call or required provider and what each policy
// selects for it.
type Item struct {
	Kind string `json:"kind"`
	// Name is the module call's name or the provider's local name.
	Name string `json:"name"`
	// Source is the source address as written (for a provider without
	// one, the implied hashicorp/NAME).
	Source string `json:"source"`
	// Address is the registry address in full, host included.
	Address    string `json:"address"`
	Constraint string `json:"constraint"`
	// Pos is where the constraint is written, relative to Dir.
	Pos string `json:"pos,omitempty"`
	// Policy is the chosen policy, PolicyFrom where it was chosen.
	Policy     string `json:"policy"`
	PolicyFrom string `json:"policy_from"`
	// Selected is what the chosen policy selects; nil for none.
	Selected *string `json:"selected"`
	// TerraformPolicy and OpenTofuPolicy name the by_policy entries that
	// stand for today's Terraform and OpenTofu.
	TerraformPolicy string `json:"terraform_policy"`
	OpenTofuPolicy  string `json:"opentofu_policy"`
	// ByPolicy maps each policy shown to its selection, nil for none.
	ByPolicy map[string]*string `json:"by_policy"`
	// ChangesTerraform and ChangesOpenTofu report whether the chosen
	// policy selects another version than today's Terraform or OpenTofu.
	ChangesTerraform bool   `json:"changes_terraform"`
	ChangesOpenTofu  bool   `json:"changes_opentofu"`
	Status           string `json:"status"`
	// Problem says why the status is not ok.
	Problem string `json:"problem,omitempty"`
	// Available is how many versions were listed; Newest the newest of
	// them by SemVer precedence that the engine can read.
	Available int     `json:"available"`
	Newest    *string `json:"newest"`
	// Refused maps a policy that refuses the constraint to its reason.
	Refused map[string]string `json:"refused,omitempty"`
	// Unreadable lists the listed versions some policy shown cannot read.
	Unreadable []Unreadable `json:"unreadable,omitempty"`
	// From is where the versions came from: a URL or an index entry.
	From string `json:"from,omitempty"`
	// Implied is set for a provider no required_providers entry names.
	Implied bool `json:"implied,omitempty"`

	columns []string // policy names in column order
}

// Columns returns the policy names shown for the item in column order: the
// chosen policy, today's Terraform, today's OpenTofu, then the extra
// policies; each name once.
func (it *Item) Columns() []string { return it.columns }

// Changed reports whether the chosen policy selects another version than
// today's Terraform or OpenTofu.
func (it *Item) Changed() bool { return it.ChangesTerraform || it.ChangesOpenTofu }

// Unreadable is a listed version that some policies cannot read.
type Unreadable struct {
	Version  string   `json:"version"`
	Policies []string `json:"policies"`
	Reason   string   `json:"reason"`
}

// Skip is a module call or provider that is not looked up, and why.
type Skip struct {
	Kind   string `json:"kind"`
	Name   string `json:"name"`
	Source string `json:"source"`
	Pos    string `json:"pos,omitempty"`
	Reason string `json:"reason"`
}

// Lock is one provider of the lock file, judged by the chosen policy
// against the configuration's constraint.
type Lock struct {
	Address string `json:"address"`
	Version string `json:"version"`
	// LockedConstraints is what the lock file recorded.
	LockedConstraints string `json:"locked_constraints"`
	Pos               string `json:"pos"`
	// Required is false when the configuration no longer requires the
	// provider; the fields below are then empty.
	Required   bool   `json:"required"`
	Name       string `json:"name,omitempty"`
	Constraint string `json:"constraint"`
	Policy     string `json:"policy,omitempty"`
	// Verdict is the chosen policy's verdict on the locked version:
	// "allow", "reject" or "invalid"; Reason is its reason.
	Verdict string `json:"verdict,omitempty"`
	Reason  string `json:"reason,omitempty"`
	// TerraformVerdict is today's installer's verdict.
	TerraformVerdict string `json:"terraform_verdict,omitempty"`
}

// Admitted reports whether the chosen policy admits the locked version.
func (l *Lock) Admitted() bool { return l.Verdict == engine.Allow.String() }

// ConfigError is every mistake found in the configuration, the policy
// configuration or the lock file, each with its place.
type ConfigError struct {
	Problems []string
}

func (e *ConfigError) Error() string { return strings.Join(e.Problems, "\n") }

// Unsatisfied returns the items whose chosen policy admits no available
// version.
func (r *Report) Unsatisfied() []Item { return r.withStatus(StatusUnsatisfied) }

// Errors returns the items whose versions could not be listed.
func (r *Report) Errors() []Item { return r.withStatus(StatusError) }

func (r *Report) withStatus(s string) []Item {
	var out []Item
	for _, it := range r.Items {
		if it.Status == s {
			out = append(out, it)
		}
	}
	return out
}

// pending is an item waiting for its versions.
type pending struct {
	item     Item
	module   registry.ModuleAddr
	provider registry.ProviderAddr
	chosen   engine.Policy
	today    [2]engine.Policy // Terraform, OpenTofu
}

// Run resolves the root module in opts.Dir. The error is a *ConfigError
// for mistakes in the inputs, or another error for options that cannot
// work (no Source, a today's selector that is not registered).
func Run(ctx context.Context, opts Options) (*Report, error) {
	if opts.Config == nil || opts.Source == nil {
		return nil, errors.New("resolve: Options.Config and Options.Source are required")
	}
	reg := opts.Registry
	if reg == nil {
		reg = engine.Default
	}
	var today [3]engine.Policy
	for i, name := range []string{TerraformModulePolicy, OpenTofuModulePolicy, ProviderPolicy} {
		p, ok := reg.Lookup(name)
		if !ok {
			return nil, fmt.Errorf("resolve: the policy %q, which stands for today's installer, is not registered", name)
		}
		today[i] = p
	}
	def := opts.Config.Default()
	r := &Report{
		Dir:           opts.Dir,
		VersionsFrom:  opts.Source.String(),
		ConfigFile:    opts.Config.File(),
		DefaultPolicy: def.Policy.Name(),
		DefaultFrom:   def.Origin.String(),
		Extra:         []string{},
		Items:         []Item{},
		Skipped:       []Skip{},
		Warnings:      []string{},
	}
	for _, p := range opts.Extra {
		r.Extra = append(r.Extra, p.Name())
	}

	mod, diags := tfconfig.Load(opts.Dir)
	if diags.HasErrors() {
		return nil, diagsError(diags.Errors())
	}
	for _, d := range diags.Warnings() {
		r.Warnings = append(r.Warnings, d.String())
	}
	rel := func(p tfconfig.Pos) string {
		if p.IsZero() {
			return ""
		}
		if name, err := filepath.Rel(opts.Dir, p.Filename); err == nil && !strings.HasPrefix(name, "..") {
			p.Filename = name
		}
		return p.String()
	}

	var problems []string
	var items []*pending
	var providerSources []string
	for _, c := range mod.ModuleCalls {
		skip := func(reason string) {
			r.Skipped = append(r.Skipped, Skip{Kind: KindModule, Name: c.Name, Source: c.Source, Pos: rel(c.Pos), Reason: reason})
		}
		if c.SourceExpr {
			skip("the source is an expression, which prerel does not evaluate")
			continue
		}
		addr, err := registry.ParseModuleSource(c.Source)
		if err != nil {
			var nr *registry.NotRegistryError
			if errors.As(err, &nr) {
				skip(nr.Reason)
			} else {
				skip(err.Error())
			}
			continue
		}
		if c.VersionExpr {
			skip(fmt.Sprintf("the version is an expression (%s), which prerel does not evaluate", c.Version))
			continue
		}
		if _, err := engine.ParseConstraint(c.Version); err != nil {
			problems = append(problems, fmt.Sprintf("%s: module %q: invalid version constraint: %v", c.VersionPos, c.Name, err))
			continue
		}
		choice := opts.Config.Module(c.Name)
		items = append(items, &pending{
			item: Item{Kind: KindModule, Name: c.Name, Source: c.Source, Address: addr.Key(),
				Constraint: c.Version, Pos: rel(c.VersionPos), Policy: choice.Policy.Name(), PolicyFrom: choice.Origin.String()},
			module: addr, chosen: choice.Policy, today: [2]engine.Policy{today[0], today[1]},
		})
	}
	for _, p := range mod.Providers {
		source := p.Source
		if source == "" {
			source = "hashicorp/" + p.LocalName
		}
		providerSources = append(providerSources, source)
		skip := func(reason string) {
			r.Skipped = append(r.Skipped, Skip{Kind: KindProvider, Name: p.LocalName, Source: source, Pos: rel(p.Pos), Reason: reason})
		}
		if p.Expr != "" {
			skip(fmt.Sprintf("an argument is an expression (%s), which prerel does not evaluate", p.Expr))
			continue
		}
		addr, err := registry.ParseProviderSource(source)
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s: provider %q: %v", p.Pos, p.LocalName, err))
			continue
		}
		if addr.IsBuiltIn() {
			skip("built-in provider, not installed from a registry")
			continue
		}
		constraint := p.Constraint()
		if _, err := engine.ParseConstraint(constraint); err != nil {
			problems = append(problems, fmt.Sprintf("%s: provider %q: invalid version constraint: %v", p.Pos, p.LocalName, err))
			continue
		}
		choice := opts.Config.Provider(source)
		items = append(items, &pending{
			item: Item{Kind: KindProvider, Name: p.LocalName, Source: source, Address: addr.Key(),
				Constraint: constraint, Pos: rel(p.Pos), Policy: choice.Policy.Name(), PolicyFrom: choice.Origin.String(), Implied: p.Implied},
			provider: addr, chosen: choice.Policy, today: [2]engine.Policy{today[2], today[2]},
		})
	}
	if err := opts.Config.CheckTargets(mod.ModuleNames(), providerSources); err != nil {
		var es moduleconfig.Errors
		if errors.As(err, &es) {
			for _, e := range es {
				problems = append(problems, e.Error())
			}
		} else {
			problems = append(problems, err.Error())
		}
	}
	locked, lockFile, err := readLockFile(opts)
	if err != nil {
		var ce *ConfigError
		if errors.As(err, &ce) {
			problems = append(problems, ce.Problems...)
		} else {
			return nil, err
		}
	}
	if len(problems) > 0 {
		return nil, &ConfigError{Problems: problems}
	}

	listings := lookup(ctx, opts.Source, items, opts.Concurrency)
	for _, pi := range items {
		l := listings[pi.item.Address+" "+pi.item.Kind]
		r.Items = append(r.Items, pi.resolve(l, opts.Extra))
		if l.listing != nil {
			for _, w := range l.listing.Warnings {
				r.Warnings = append(r.Warnings, fmt.Sprintf("%s %q (%s): the registry warns: %s", pi.item.Kind, pi.item.Name, pi.item.Source, w))
			}
		}
	}
	for _, it := range r.Items {
		for _, u := range it.Unreadable {
			if len(u.Policies) == len(it.columns) {
				r.Warnings = append(r.Warnings, fmt.Sprintf("%s %q (%s): listed version %q is not readable by any policy shown: %s",
					it.Kind, it.Name, it.Source, u.Version, u.Reason))
			}
		}
	}
	if lockFile != "" {
		r.LockFile = lockFile
		r.Locks = checkLocks(locked, r.Items, items, rel)
	}
	return r, nil
}

func diagsError(ds tfconfig.Diagnostics) *ConfigError {
	e := &ConfigError{}
	for _, d := range ds {
		e.Problems = append(e.Problems, d.String())
	}
	return e
}

// readLockFile returns the lock file's providers and its name ("" when
// there is none to read).
func readLockFile(opts Options) ([]tfconfig.LockedProvider, string, error) {
	path := opts.LockFile
	switch path {
	case "-":
		return nil, "", nil
	case "":
		path = filepath.Join(opts.Dir, tfconfig.LockFileName)
		if _, err := os.Stat(path); err != nil {
			return nil, "", nil
		}
	}
	locked, diags := tfconfig.LoadLockFile(path)
	if diags.HasErrors() {
		return nil, "", diagsError(diags.Errors())
	}
	return locked, path, nil
}

type lookupResult struct {
	listing *registry.Listing
	err     error
}

// lookup lists the versions of every distinct address, at most n at once.
func lookup(ctx context.Context, src registry.Source, items []*pending, n int) map[string]lookupResult {
	if n <= 0 {
		n = 4
	}
	var keys []string
	var first []*pending
	index := map[string]bool{}
	for _, pi := range items {
		key := pi.item.Address + " " + pi.item.Kind
		if !index[key] {
			index[key] = true
			keys = append(keys, key)
			first = append(first, pi)
		}
	}
	results := make([]lookupResult, len(keys))
	var wg sync.WaitGroup
	sem := make(chan struct{}, n)
	for i, pi := range first {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			if pi.item.Kind == KindModule {
				results[i].listing, results[i].err = src.ModuleVersions(ctx, pi.module)
			} else {
				results[i].listing, results[i].err = src.ProviderVersions(ctx, pi.provider)
			}
		}()
	}
	wg.Wait()
	out := make(map[string]lookupResult, len(keys))
	for i, k := range keys {
		out[k] = results[i]
	}
	return out
}

// resolve selects with every policy shown and fills in the item.
func (pi *pending) resolve(l lookupResult, extra []engine.Policy) Item {
	it := pi.item
	it.TerraformPolicy, it.OpenTofuPolicy = pi.today[0].Name(), pi.today[1].Name()
	var ps []engine.Policy
	seen := map[string]bool{}
	for _, p := range append([]engine.Policy{pi.chosen, pi.today[0], pi.today[1]}, extra...) {
		if !seen[p.Name()] {
			seen[p.Name()] = true
			ps = append(ps, p)
			it.columns = append(it.columns, p.Name())
		}
	}
	it.ByPolicy = map[string]*string{}
	for _, name := range it.columns {
		it.ByPolicy[name] = nil
	}
	if l.err != nil {
		it.Status, it.Problem = StatusError, l.err.Error()
		return it
	}
	if l.listing == nil {
		it.Status, it.Problem = StatusError, "no versions were listed"
		return it
	}
	versions := l.listing.Versions
	it.From, it.Available = l.listing.From, len(versions)
	if v, ok := newest(versions); ok {
		it.Newest = &v
	}
	unreadable := map[string]*Unreadable{}
	var order []string
	for _, p := range ps {
		sel, err := engine.Select(p, it.Constraint, versions)
		if err != nil {
			if it.Refused == nil {
				it.Refused = map[string]string{}
			}
			it.Refused[p.Name()] = err.Error()
			continue
		}
		if sel.Found {
			v := sel.Version
			it.ByPolicy[p.Name()] = &v
		}
		for _, u := range sel.Unreadable {
			x := unreadable[u.Version]
			if x == nil {
				x = &Unreadable{Version: u.Version, Reason: u.Reason}
				unreadable[u.Version] = x
				order = append(order, u.Version)
			}
			x.Policies = append(x.Policies, p.Name())
		}
	}
	for _, v := range order {
		it.Unreadable = append(it.Unreadable, *unreadable[v])
	}
	it.Selected = it.ByPolicy[pi.chosen.Name()]
	it.ChangesTerraform = !sameVersion(it.Selected, it.ByPolicy[it.TerraformPolicy])
	it.ChangesOpenTofu = !sameVersion(it.Selected, it.ByPolicy[it.OpenTofuPolicy])
	it.Status = StatusOK
	switch {
	case it.Refused[it.Policy] != "":
		it.Status = StatusUnsatisfied
		it.Problem = fmt.Sprintf("policy %s refuses the constraint %q: %s", it.Policy, it.Constraint, it.Refused[it.Policy])
	case it.Selected == nil:
		it.Status = StatusUnsatisfied
		what := "module"
		if it.Kind == KindProvider {
			what = "provider"
		}
		it.Problem = fmt.Sprintf("no available version of %s %s matches the constraint %q under policy %s", what, it.Source, it.Constraint, it.Policy)
		switch {
		case it.Available == 0:
			it.Problem += "; the registry lists no versions"
		case it.Newest != nil:
			it.Problem += fmt.Sprintf("; the newest available version is %s", *it.Newest)
		default:
			it.Problem += "; no listed version can be read"
		}
	}
	return it
}

func sameVersion(a, b *string) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// newest returns the newest version of vs by SemVer precedence, among those
// the engine can read.
func newest(vs []string) (string, bool) {
	var best engine.Version
	var text string
	found := false
	for _, s := range vs {
		v, err := engine.ParseVersion(s)
		if err != nil {
			continue
		}
		if !found || best.Less(v) {
			best, text, found = v, s, true
		}
	}
	return text, found
}

// checkLocks judges every locked provider against the configuration.
func checkLocks(locked []tfconfig.LockedProvider, items []Item, pend []*pending, rel func(tfconfig.Pos) string) []Lock {
	byAddr := map[string]int{}
	for i, it := range items {
		if it.Kind == KindProvider {
			byAddr[it.Address] = i
		}
	}
	chosen := map[string]*pending{}
	for _, p := range pend {
		if p.item.Kind == KindProvider {
			chosen[p.item.Address] = p
		}
	}
	out := []Lock{}
	for _, lp := range locked {
		l := Lock{Address: lp.Address, Version: lp.Version, LockedConstraints: lp.Constraints, Pos: rel(lp.Pos)}
		key := lp.Address
		if a, err := registry.ParseProviderSource(lp.Address); err == nil {
			key = a.Key()
		}
		if i, ok := byAddr[key]; ok {
			it := items[i]
			p := chosen[key]
			l.Required, l.Name, l.Constraint, l.Policy = true, it.Name, it.Constraint, it.Policy
			res := engine.Evaluate(p.chosen, it.Constraint, lp.Version)
			l.Verdict, l.Reason = res.Verdict.String(), res.Reason
			l.TerraformVerdict = engine.Evaluate(p.today[0], it.Constraint, lp.Version).Verdict.String()
		}
		out = append(out, l)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Address < out[j].Address })
	return out
}
