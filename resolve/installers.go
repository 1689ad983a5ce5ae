package resolve

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/terraform/config"
	"github.com/prerel/prerel/terraform/installer"
)

// TodayError is the error a release's init stops with on an item's
// registry answer: Terraform 1.12 and earlier and OpenTofu fail the
// provider query on a listed version go-versions cannot read.
type TodayError struct {
	// Installer names the release: "tofu@1.12.6".
	Installer string `json:"installer"`
	// Error is the release's error.
	Error string `json:"error"`
}

// releases returns the Terraform and OpenTofu releases Run emulates:
// opts.Terraform and opts.OpenTofu, or the newest of each.
func (opts Options) releases() (tf, tofu installer.Release) {
	tf, tofu = opts.Terraform, opts.OpenTofu
	if tf.IsZero() {
		tf = installer.Newest(installer.Terraform)
	}
	if tofu.IsZero() {
		tofu = installer.Newest(installer.OpenTofu)
	}
	return tf, tofu
}

// checkReleases refuses a release of the wrong product.
func checkReleases(opts Options) error {
	if !opts.Terraform.IsZero() && opts.Terraform.Product != installer.Terraform {
		return fmt.Errorf("resolve: Options.Terraform is %s, not a Terraform release", opts.Terraform)
	}
	if !opts.OpenTofu.IsZero() && opts.OpenTofu.Product != installer.OpenTofu {
		return fmt.Errorf("resolve: Options.OpenTofu is %s, not an OpenTofu release", opts.OpenTofu)
	}
	return nil
}

// readsTofuFiles reports whether some module of tree was read from a
// .tofu or .tofu.json file.
func readsTofuFiles(tree *config.Tree) bool {
	return slices.ContainsFunc(tree.Nodes, func(n *config.Node) bool { return n.Module != nil && n.Module.ReadsTofuFiles() })
}

// readingDifferences says where Terraform, reading tfTree, and OpenTofu,
// reading tofuTree, read other module calls or provider requirements,
// one line each; the table shows OpenTofu's reading.
func readingDifferences(tf, tofu installer.Release, tfTree, tofuTree *config.Tree, rel func(hcl.Range) string) []note {
	byAddr := map[string]*config.Module{}
	for _, n := range tfTree.Nodes {
		byAddr[moduleName(n)] = n.Module
	}
	var out []note
	// say adds a difference at OpenTofu's reading, with Terraform's as
	// the related place.
	say := func(at, tfAt hcl.Range, format string, args ...any) {
		n := note{text: fmt.Sprintf("%s and %s read this configuration differently: ", tf.Display(), tofu.Display()) +
			fmt.Sprintf(format, args...) + "; the table shows OpenTofu's reading", rule: RuleReadDifferently, at: at}
		if tfAt.Filename != "" && tfAt != at {
			n.related = []relatedNote{{at: tfAt, text: "as " + tf.Display() + " reads it"}}
		}
		out = append(out, n)
	}
	for _, n := range tofuTree.Nodes {
		mod := moduleName(n)
		tm := byAddr[mod]
		if tm == nil || n.Module == nil {
			continue
		}
		calls := map[string]*config.ModuleCall{}
		for _, c := range tm.ModuleCalls {
			calls[c.Name] = c
		}
		for _, c := range n.Module.ModuleCalls {
			t := calls[c.Name]
			switch {
			case t == nil:
				say(c.Pos, hcl.Range{}, "%s: module call %q (%s) is in OpenTofu's files only", mod, c.Name, rel(c.Pos))
			case t.Source != c.Source || t.Version != c.Version:
				say(c.VersionPos, t.VersionPos, "%s: module call %q: source %q, version %q (%s) for OpenTofu; source %q, version %q (%s) for Terraform",
					mod, c.Name, c.Source, c.Version, rel(c.VersionPos), t.Source, t.Version, rel(t.VersionPos))
			}
			delete(calls, c.Name)
		}
		for _, name := range slices.Sorted(maps.Keys(calls)) {
			say(calls[name].Pos, hcl.Range{}, "%s: module call %q (%s) is in Terraform's files only", mod, name, rel(calls[name].Pos))
		}
		providers := map[string]*config.ProviderRequirement{}
		for _, p := range tm.Providers {
			providers[p.LocalName] = p
		}
		for _, p := range n.Module.Providers {
			t := providers[p.LocalName]
			if t != nil && (t.Source != p.Source || t.Constraint() != p.Constraint()) {
				say(versionOrEntry(p), versionOrEntry(t), "%s: provider %q: source %q, version %q (%s) for OpenTofu; source %q, version %q (%s) for Terraform",
					mod, p.LocalName, p.Source, p.Constraint(), rel(p.Pos), t.Source, t.Constraint(), rel(t.Pos))
			}
		}
	}
	return out
}

// coreWarnings checks, for release r reading tree, every requirement on
// the program's own version that r reads (installer.Release.AppliesTo)
// and names each one that does not admit r, or that r cannot read, with
// the error init stops with.
func coreWarnings(r installer.Release, tree *config.Tree, rel func(hcl.Range) string) []note {
	stop := `"Unsupported Terraform Core version"`
	switch {
	case r.Product == installer.OpenTofu && r.Has(installer.LanguageBlock):
		stop = `"Incompatible module"`
	case r.Product == installer.OpenTofu:
		stop = `"Unsupported OpenTofu Core version"`
	}
	var out []note
	for _, n := range tree.Nodes {
		if n.Module == nil {
			continue
		}
		for _, req := range n.Module.CoreRequirements {
			if !r.AppliesTo(installer.Requirement{Constraint: req.Constraint, Language: req.Language, Tofu: req.Tofu}) {
				continue
			}
			what := "required_version"
			if req.Language {
				what = "language { compatible_with { opentofu } }"
			}
			ok, err := r.Admits(req.Constraint)
			switch {
			case err != nil:
				out = append(out, note{text: fmt.Sprintf("%s: %s: %s %q (%s) is refused: %v", r, moduleName(n), what, req.Constraint, rel(req.Pos), err), at: req.Pos})
			case !ok:
				out = append(out, note{text: fmt.Sprintf("%s: %s: %s %q (%s) does not admit %s: init stops with %s", r, moduleName(n), what, req.Constraint, rel(req.Pos), r.Display(), stop), at: req.Pos})
			}
		}
	}
	return out
}

// todayErrors sets it.TodayErrors for a provider whose registry answer
// fails a release's query, and marks the item changed for that product
// when the chosen policy selects a version.
func todayErrors(it *Item, versions []string, releases ...installer.Release) {
	if it.Kind != KindProvider {
		return
	}
	for _, r := range releases {
		addr := it.Address
		if r.Product == installer.OpenTofu && !strings.Contains(it.Source, "registry.terraform.io") {
			// OpenTofu's default registry host.
			if rest, ok := strings.CutPrefix(addr, "registry.terraform.io/"); ok {
				addr = "registry.opentofu.org/" + rest
			}
		}
		if _, _, err := r.ProviderVersions(addr, versions); err != nil {
			it.TodayErrors = append(it.TodayErrors, TodayError{Installer: r.String(), Error: err.Error()})
			if it.Selected != nil {
				if r.Product == installer.OpenTofu {
					it.ChangesOpenTofu = true
				} else {
					it.ChangesTerraform = true
				}
			}
		}
	}
}

// expressionWarnings warns about a module version made of variables or
// locals that a release takes as a literal only.
func (c *collector) expressionWarnings(path string, call *config.ModuleCall) {
	if len(call.VersionFrom) == 0 {
		return
	}
	tf, tofu := c.opts.releases()
	for _, r := range []installer.Release{tf, tofu} {
		if r.AllowsModuleVersionExpressions() {
			continue
		}
		c.diags = append(c.diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Subject: call.VersionPos.Ptr(),
			Summary: "Version not literal for " + r.Display(),
			Detail: fmt.Sprintf("module %q: the version %s is an expression; %s takes a literal string only and init stops with an error (variables and locals in a module's version came with Terraform 1.15 and OpenTofu 1.8).",
				path, call.VersionText, r.Display())})
	}
}

// lockWarnings warns, for Terraform 1.15.0, about every locked
// prerelease provider: that release installs the providers the state
// uses without the configuration's constraints, so it refuses a locked
// prerelease once the state uses it (fixed in 1.15.1).
func lockWarnings(tf installer.Release, locks []Lock) []note {
	if !tf.RefusesLockedPrereleaseInState() {
		return nil
	}
	var out []note
	for _, l := range locks {
		if v, err := engine.ParseMultipartVersion(l.Version); err == nil && v.IsPrerelease() && l.Required {
			out = append(out, note{text: fmt.Sprintf("%s: locked provider %s %s (%s) is a prerelease: once the state uses it, init refuses it (providers from the state are installed without the configuration's constraints; fixed in Terraform 1.15.1)", tf, l.Address, l.Version, l.Pos), at: l.Range})
		}
	}
	return out
}

// todayErrorLines are the error rows: each item whose registry answer
// fails a release's query, with the release's error.
func (r *Report) todayErrorLines(code, text func(string) string) []string {
	var out []string
	for i := range r.Items {
		it := &r.Items[i]
		for _, e := range it.TodayErrors {
			out = append(out, fmt.Sprintf("%s %s %s: %s", it.Kind, code(it.Name), text(where(it.Pos)), text(e.Error)))
		}
	}
	return out
}

// installersLine names the releases emulated: "Terraform 1.15.9,
// OpenTofu 1.12.6".
func (r *Report) installersLine() string {
	var parts []string
	for i, s := range r.Installers {
		if rel, err := installer.Parse(s); err == nil {
			s = rel.Display()
		}
		if i < len(r.InstallersFrom) && r.InstallersFrom[i] != "" {
			s += " (" + r.InstallersFrom[i] + ")"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ", ")
}

// releaseCell is what a table shows for today's Terraform or OpenTofu:
// "error" when the release's query fails on the registry's answer,
// otherwise the policy's cell.
func (it *Item) releaseCell(policy string, p installer.Product) string {
	for _, e := range it.TodayErrors {
		if strings.HasPrefix(e.Installer, string(p)+"@") {
			return "error"
		}
	}
	return it.cell(policy)
}
