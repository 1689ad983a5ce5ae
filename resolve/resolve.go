package resolve

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/diag"
	"github.com/prerel/prerel/resolve/policyconfig"
	"github.com/prerel/prerel/terraform/config"
	"github.com/prerel/prerel/terraform/installer"
	"github.com/prerel/prerel/terraform/registry"
)

// The policies that stand for today's installers.
const (
	TerraformModulePolicy = "terraform-module"
	OpenTofuModulePolicy  = "opentofu-module"
	ProviderPolicy        = "apparentlymart"
)

// Options says what Run reads and which policies it runs.
type Options struct {
	// Dir is the root module's directory.
	Dir string
	// ModulesDir holds Terraform's module manifest, modules.json; ""
	// means Dir/.terraform/modules, or the modules directory in
	// TF_DATA_DIR when it is set (see config.DefaultModulesDir).
	ModulesDir string
	// Config chooses the policy per module call and provider; required.
	Config *policyconfig.Config
	// Versions lists the available versions; required.
	Versions registry.Source
	// Policies holds today's selectors and every policy named; required.
	Policies *engine.Registry
	// Extra are more policies to show, one column each, in order.
	Extra []engine.Policy
	// LockFile is the dependency lock file to check. "" means
	// Dir/.terraform.lock.hcl when it exists; "-" means none.
	LockFile string
	// Concurrency bounds the version lookups under way at once; 0 means
	// DefaultConcurrency. Each address is looked up once per run, however
	// many module calls or modules name it.
	Concurrency int
	// SkipFile, when it is not nil, leaves out of every module the
	// configuration files for which it returns true
	// (config.TreeOptions.SkipFile): package pin passes pin.Skip, so
	// that the report shows what the configuration selects without the
	// override files pin wrote. The module and provider versions the
	// override files it leaves out pin are read apart: each item shows
	// its pin (Item.Pinned), stale when the chosen policy selects another
	// version now.
	SkipFile func(path string) bool
	// Terraform and OpenTofu are the releases whose init is "today"
	// (package terraform/installer); the zero Release means the newest
	// of each. The configuration is read as OpenTofu reads it (its
	// .tofu files included from OpenTofu 1.8 on), and again as Terraform
	// reads it when some module has .tofu files, the differences named
	// among the warnings; each release's required_version is checked
	// against its own reading; a provider whose registry answer fails a
	// release's query has that release's error (Item.TodayErrors).
	Terraform, OpenTofu installer.Release
	// TerraformFrom and OpenTofuFrom say where each release came from
	// ("terraform on PATH"), for the report's header; "" when it was
	// named.
	TerraformFrom, OpenTofuFrom string
	// Now is the time a minimum release age (prerel.hcl's min_age) counts
	// at; the zero time means when Run is called.
	Now time.Time
}

// now is Options.Now, or the time of the call.
func (o Options) now() time.Time {
	if o.Now.IsZero() {
		o.Now = time.Now()
	}
	return o.Now.UTC()
}

// DefaultConcurrency is how many version lookups Run makes at once when
// Options.Concurrency is 0. The registry client's own limits (its
// deadline, per-request timeout and retries, and the per-host limit on
// errors) hold for them together.
const DefaultConcurrency = 8

// installers are the policies that stand for today's Terraform and
// OpenTofu.
type installers struct {
	terraformModule, opentofuModule, provider engine.Policy
}

// today is the pair of policies an item is compared with.
type today struct {
	terraform, opentofu engine.Policy
}

// Run resolves the configuration rooted at opts.Dir. Mistakes in the
// inputs are returned at once as hcl.Diagnostics (an error); options that
// cannot work (no Versions, a nil policy among Extra, a today's selector
// that is not registered) are another error. The user information of a
// URL (user name and password) is replaced as registry.RedactURL
// replaces it wherever the report shows one: where the versions come
// from, each item's From and Problem, the sources and reasons of the
// modules not read and skipped, and the warnings.
func Run(ctx context.Context, opts Options) (*Report, error) {
	inst, err := checkOptions(opts)
	if err != nil {
		return nil, err
	}
	opts.Now = opts.now()
	tf, tofu := opts.releases()
	tree, diags := config.LoadTree(opts.Dir, config.TreeOptions{ModulesDir: opts.ModulesDir, SkipFile: opts.SkipFile, Terraform: !tofu.ReadsTofuFiles()})
	tfTree := tree
	if readsTofuFiles(tree) {
		// Terraform reads no .tofu file: read the tree again as it does.
		var tfDiags hcl.Diagnostics
		tfTree, tfDiags = config.LoadTree(opts.Dir, config.TreeOptions{ModulesDir: opts.ModulesDir, SkipFile: opts.SkipFile, Terraform: true})
		if tfDiags.HasErrors() {
			for _, d := range errorsOnly(tfDiags) {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Subject: d.Subject,
					Summary: "Not readable by " + tf.Display(), Detail: d.Summary + ": " + d.Detail})
			}
		}
	}
	r := newReport(opts, tree)
	r.tree = tree
	if tfTree != tree {
		r.tfTree = tfTree
	}
	c := collector{opts: opts, inst: inst, rel: relativeTo(opts.Dir), report: r, diags: append(opts.Config.Warnings(), diags...)}
	c.collect(tree)
	pins, pinWarnings := readPins(tree, opts.SkipFile, c.rel)
	if !diags.HasErrors() {
		// With errors in the configuration, calls may be missing: the
		// policy settings are checked once it reads cleanly.
		c.checkTargets(tree)
	}
	locked, lockFile := c.readLockFile()
	if c.diags.HasErrors() {
		return nil, errorsOnly(c.diags)
	}
	r.warn(diagNotes(c.diags)...)
	if tfTree != tree {
		r.warn(readingDifferences(tf, tofu, tfTree, tree, c.rel)...)
	}
	r.warn(coreWarnings(tf, tfTree, c.rel)...)
	r.warn(coreWarnings(tofu, tree, c.rel)...)

	listings := lookup(ctx, opts.Versions, c.jobs, opts.Concurrency)
	var dates map[lookupKey]datesOf
	if cooled(c.jobs) {
		dates = lookupDates(ctx, opts.Versions, c.jobs, listings, opts.Concurrency)
	}
	registered := opts.Policies.All()
	for _, j := range c.jobs {
		l := listings[j.key]
		it := j.resolve(l, opts.Extra, dates[j.key])
		if it.Status == StatusUnsatisfied && (it.Cooldown == nil || !it.Cooldown.Changed) {
			it.NoMatch = it.noMatch(j.chosen, registered)
		}
		r.Items = append(r.Items, it)
		if l.listing != nil && l.err == nil {
			todayErrors(&r.Items[len(r.Items)-1], l.listing.Versions, tf, tofu)
		}
		if l.listing != nil {
			for _, w := range l.listing.Warnings {
				r.warn(note{text: fmt.Sprintf("%s %q (%s): the registry warns: %s", j.item.Kind, j.item.Name, j.item.Source, w), at: j.item.Range})
			}
		}
	}
	if dates != nil {
		r.Cooldown = cooldownHeader(opts.Now, r.Items)
	}
	r.warn(unreadableByAll(r.Items)...)
	r.applyPins(pins)
	r.warn(pinWarnings...)
	if lockFile != "" {
		r.LockFile = c.rel(hcl.Range{Filename: lockFile})
		r.LockPath = lockFile
		r.Locks = checkLocks(locked, c.jobs, r.Items, c.rel)
		r.warn(lockWarnings(tf, r.Locks)...)
	}
	r.redact()
	return r, nil
}

// checkOptions checks the required options and looks up today's
// installers.
func checkOptions(opts Options) (installers, error) {
	if opts.Config == nil || isNil(opts.Versions) || opts.Policies == nil {
		return installers{}, errors.New("resolve: Options.Config, Options.Versions and Options.Policies are required")
	}
	if err := checkReleases(opts); err != nil {
		return installers{}, err
	}
	for i, p := range opts.Extra {
		if isNil(p) {
			return installers{}, fmt.Errorf("resolve: Options.Extra[%d] is a nil policy", i)
		}
	}
	lookup := func(name string) (engine.Policy, error) {
		p, ok := opts.Policies.Lookup(name)
		if !ok {
			return nil, fmt.Errorf("resolve: the policy %q, which stands for today's installer, is not registered", name)
		}
		return p, nil
	}
	var inst installers
	var err error
	if inst.terraformModule, err = lookup(TerraformModulePolicy); err != nil {
		return inst, err
	}
	if inst.opentofuModule, err = lookup(OpenTofuModulePolicy); err != nil {
		return inst, err
	}
	inst.provider, err = lookup(ProviderPolicy)
	return inst, err
}

// isNil reports whether v is nil or holds a nil pointer, map, slice,
// function or channel, whose methods may not work.
func isNil(v any) bool {
	if v == nil {
		return true
	}
	switch rv := reflect.ValueOf(v); rv.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Func, reflect.Chan, reflect.Interface:
		return rv.IsNil()
	}
	return false
}

// newReport fills in the report's header.
func newReport(opts Options, tree *config.Tree) *Report {
	def := opts.Config.Default()
	tf, tofu := opts.releases()
	r := &Report{
		Installers:    []string{tf.String(), tofu.String()},
		Schema:        SchemaVersion,
		Dir:           opts.Dir,
		VersionsFrom:  opts.Versions.String(),
		ConfigFile:    opts.Config.File(),
		ManifestFile:  tree.ManifestFile,
		DefaultPolicy: def.Policy.Name(),
		DefaultFrom:   def.Origin.String(),
		Extra:         []string{},
		Items:         []Item{},
		Unread:        []Unread{},
		Skipped:       []Skip{},
		Warnings:      []string{},
	}
	if opts.TerraformFrom != "" || opts.OpenTofuFrom != "" {
		r.InstallersFrom = []string{opts.TerraformFrom, opts.OpenTofuFrom}
	}
	for _, p := range opts.Extra {
		r.Extra = append(r.Extra, p.Name())
	}
	for _, n := range tree.Nodes {
		r.Modules = append(r.Modules, moduleName(n))
	}
	return r
}

// moduleName returns a node's address, RootModule for the root.
func moduleName(n *config.Node) string {
	if a := n.Address(); a != "" {
		return a
	}
	return RootModule
}

// errorsOnly returns the errors among diags, which then serve as the
// error of Run.
func errorsOnly(diags hcl.Diagnostics) hcl.Diagnostics {
	var out hcl.Diagnostics
	for _, d := range diags {
		if d.Severity == hcl.DiagError {
			out = append(out, d)
		}
	}
	return out
}

// diagNotes are the warnings among diags, each formatted on one line
// and placed at its subject.
func diagNotes(diags hcl.Diagnostics) []note {
	var out []note
	for _, d := range diags {
		if d.Severity == hcl.DiagWarning {
			n := note{text: diag.Format(d), rule: diagRule(d)}
			if d.Subject != nil {
				n.at = *d.Subject
			}
			out = append(out, n)
		}
	}
	return out
}

// relativeTo returns a function that prints a place relative to dir.
func relativeTo(dir string) func(hcl.Range) string {
	return func(r hcl.Range) string {
		if r.Filename == "" {
			return ""
		}
		if name, err := filepath.Rel(dir, r.Filename); err == nil && !strings.HasPrefix(name, "..") {
			r.Filename = name
		}
		return diag.FormatRange(r)
	}
}

// readLockFile returns the lock file's providers and its path ("" when
// there is none to read); its mistakes go to c.diags.
func (c *collector) readLockFile() ([]config.LockedProvider, string) {
	path := c.opts.LockFile
	switch path {
	case "-":
		return nil, ""
	case "":
		var diags hcl.Diagnostics
		path, diags = config.FindLockFile(c.opts.Dir)
		c.diags = append(c.diags, diags...)
		if path == "" {
			return nil, ""
		}
	}
	locked, diags := config.LoadLockFile(path)
	c.diags = append(c.diags, diags...)
	return locked, path
}

// unreadableByAll warns about listed versions that no policy shown can
// read.
func unreadableByAll(items []Item) []note {
	var out []note
	for _, it := range items {
		for _, u := range it.Unreadable {
			if len(u.Policies) == len(it.columns) {
				out = append(out, note{text: fmt.Sprintf("%s %q (%s): listed version %q is not readable by any policy shown: %s",
					it.Kind, it.Name, it.Source, u.Version, u.Reason), at: it.Range})
			}
		}
	}
	return out
}
