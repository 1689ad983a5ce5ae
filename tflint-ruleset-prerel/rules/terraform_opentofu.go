package rules

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/terraform-linters/tflint-plugin-sdk/tflint"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/terraform/config"
	"github.com/prerel/prerel/terraform/installer"
)

// TerraformOpenTofuDifference flags what Terraform and OpenTofu read
// differently, with no registry:
//
//   - a module call or provider requirement that OpenTofu reads from a
//     .tofu file and Terraform from a .tf file, or that only one of them
//     reads (OpenTofu 1.8 and later read NAME.tofu in place of NAME.tf;
//     Terraform never reads .tofu files);
//   - a module call's version under which Terraform's module installer
//     and OpenTofu's admit different versions among those it names: a "v"
//     prefix before a prerelease, which OpenTofu's installer strips and
//     Terraform's refuses (the "v" before an exact prerelease is
//     prerel_module_exact_prerelease's, which fixes it).
//
// The readings are prerel's: the module tree of terraform/config read
// both ways, and the installers' policies terraform-module and
// opentofu-module. A provider version of more than three parts that a
// registry lists (OpenTofu fails the query, Terraform skips it) needs the
// registry's answer: prerel_policy_selection reports it.
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

// readingDifferences returns what Terraform and OpenTofu (the newest
// releases prerel knows) read differently in the root module's tree.
func readingDifferences(rt *root) ([]finding, error) {
	tf, tofu := installer.Newest(installer.Terraform), installer.Newest(installer.OpenTofu)
	tofuTree, err := rt.loadTree(!tofu.ReadsTofuFiles(), nil)
	if err != nil {
		return nil, err
	}
	installers, err := moduleInstallers()
	if err != nil {
		return nil, err
	}
	var out []finding
	for _, n := range tofuTree.Nodes {
		if n.Remote() || n.Module == nil {
			continue
		}
		for _, c := range n.Module.ModuleCalls {
			if c.VersionExpr || !c.HasVersion {
				continue
			}
			if f := versionDifference(installers, c); f != "" {
				out = append(out, finding{msg: fmt.Sprintf("module %q: %s", c.Name, f), rng: c.VersionPos})
			}
		}
	}
	if !readsTofuFiles(tofuTree) {
		return out, nil
	}
	tfTree, err := rt.loadTree(true, nil)
	if err != nil {
		return nil, err
	}
	return append(out, fileDifferences(rt, tf, tofu, tfTree, tofuTree)...), nil
}

// versionDifference says how Terraform's and OpenTofu's module installers
// read a call's version differently, "" when they do not: each version
// the constraint names is judged by both. A constraint that means one
// exact prerelease the bare version fixes is left to
// prerel_module_exact_prerelease.
func versionDifference(installers []installerPolicy, c *config.ModuleCall) string {
	if exactPrereleaseFinding(installers, c.Version) != nil {
		return ""
	}
	named, err := engine.ParseMultipartConstraint(c.Version)
	if err != nil {
		return ""
	}
	tf, tofu := installers[0], installers[1]
	for _, cmp := range named.Comparators() {
		v := strings.TrimPrefix(cmp.Version.String(), "v")
		a, b := engine.Evaluate(tf.policy, c.Version, v), engine.Evaluate(tofu.policy, c.Version, v)
		if a.Verdict == b.Verdict {
			continue
		}
		return fmt.Sprintf("Terraform and OpenTofu read version %q differently: for %s, %s says %s (%s), %s says %s (%s)",
			c.Version, v, tf.name, a.Verdict, a.Reason, tofu.name, b.Verdict, b.Reason)
	}
	return ""
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
