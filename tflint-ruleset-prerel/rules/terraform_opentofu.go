package rules

import (
	"fmt"
	"maps"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/terraform-linters/tflint-plugin-sdk/tflint"

	"github.com/prerel/prerel/terraform/config"
	"github.com/prerel/prerel/terraform/installer"
)

// TerraformOpenTofuDifference flags, with no registry, a module call or
// provider requirement that OpenTofu reads from a .tofu file and
// Terraform from a .tf file, or that only one of them reads: OpenTofu 1.8
// and later read NAME.tofu in place of NAME.tf, and Terraform never reads
// .tofu files. The readings are prerel's: the module tree of
// terraform/config read both ways, as prerel resolve reads it, over the
// local modules (a downloaded module is its author's). tflint itself
// reads .tf files only.
//
// The two other differences prerel knows are reported where they can be
// decided: a "v" before an exact prerelease, which OpenTofu's module
// installer strips and Terraform's refuses, by
// prerel_module_exact_prerelease (which names the installer that excludes
// the version and fixes it); a provider version of more than three parts
// that a registry lists (OpenTofu fails the query, Terraform 1.13 and
// later skip it), which needs the registry's answer, by
// prerel_policy_selection.
type TerraformOpenTofuDifference struct {
	tflint.DefaultRule
}

// Name returns the rule's name.
func (r *TerraformOpenTofuDifference) Name() string { return "prerel_terraform_opentofu_difference" }

// Enabled returns true: the rule is on by default.
func (r *TerraformOpenTofuDifference) Enabled() bool { return true }

// Severity returns WARNING: the two install different things.
func (r *TerraformOpenTofuDifference) Severity() tflint.Severity { return tflint.WARNING }

// Link returns the rule's documentation.
func (r *TerraformOpenTofuDifference) Link() string { return link(r.Name()) }

// Check reads the tree as each reads it and compares.
func (r *TerraformOpenTofuDifference) Check(runner tflint.Runner) error {
	rt, ok, err := rootOf(runner)
	if err != nil || !ok {
		return err
	}
	findings, err := readingDifferences(rt)
	if err != nil {
		return err
	}
	for _, f := range findings {
		if err := runner.EmitIssue(r, f.msg, rt.tflintRange(f.rng)); err != nil {
			return err
		}
	}
	return nil
}

// readingDifferences returns what Terraform and OpenTofu (today's
// releases: root.installers) read differently in the root module's tree.
func readingDifferences(rt *root) ([]finding, error) {
	tf, tofu, err := rt.installers()
	if err != nil {
		return nil, err
	}
	tofuTree, err := rt.loadTree(!tofu.ReadsTofuFiles(), nil)
	if err != nil {
		return nil, err
	}
	if !readsTofuFiles(tofuTree) {
		return nil, nil
	}
	tfTree, err := rt.loadTree(true, nil)
	if err != nil {
		return nil, err
	}
	return fileDifferences(rt, tf, tofu, tfTree, tofuTree), nil
}

// fileDifferences compares the module calls and providers of each module
// as Terraform reads it (tfTree) and as OpenTofu does (tofuTree). Each
// finding is at Terraform's place when it has one, which tflint (reading
// .tf files alone) shows.
func fileDifferences(rt *root, tf, tofu installer.Release, tfTree, tofuTree *config.Tree) []finding {
	byKey := map[string]*config.Module{}
	for _, n := range tfTree.Nodes {
		byKey[n.Key()] = n.Module
	}
	var out []finding
	add := func(rng hcl.Range, format string, args ...any) {
		out = append(out, finding{msg: fmt.Sprintf("%s and %s read this differently: ", tf.Display(), tofu.Display()) + fmt.Sprintf(format, args...), rng: rng})
	}
	for _, n := range tofuTree.Nodes {
		tm := byKey[n.Key()]
		if tm == nil || n.Module == nil || n.Remote() {
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
				add(c.Pos, "module %q is in OpenTofu's files only (%s)", c.Name, rt.show(c.Pos))
			case t.Source != c.Source || t.Version != c.Version:
				add(t.VersionPos, "module %q: source %q, version %q for Terraform; source %q, version %q for OpenTofu (%s)",
					c.Name, t.Source, t.Version, c.Source, c.Version, rt.show(c.VersionPos))
			}
			delete(calls, c.Name)
		}
		for _, name := range slices.Sorted(maps.Keys(calls)) {
			c := calls[name]
			add(c.Pos, "module %q is in Terraform's files only; OpenTofu reads no such call", name)
		}
		providers := map[string]*config.ProviderRequirement{}
		for _, p := range tm.Providers {
			providers[p.LocalName] = p
		}
		for _, p := range n.Module.Providers {
			t := providers[p.LocalName]
			if t == nil || (t.Source == p.Source && t.Constraint() == p.Constraint()) {
				continue
			}
			rng := t.Pos
			if rng.Filename == "" {
				rng = p.Pos
			}
			add(rng, "provider %q: source %q, version %q for Terraform; source %q, version %q for OpenTofu (%s)",
				p.LocalName, t.Source, t.Constraint(), p.Source, p.Constraint(), rt.show(p.Pos))
		}
	}
	return out
}
