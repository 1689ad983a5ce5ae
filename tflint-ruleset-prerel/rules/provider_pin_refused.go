package rules

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/terraform-linters/tflint-plugin-sdk/tflint"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/resolve"
	"github.com/prerel/prerel/terraform/address"
	"github.com/prerel/prerel/terraform/config"
)

// ProviderPinRefused flags a provider that the root module pins to one
// version (in its own files or an override file such as
// prerel_override.tf) when a called module's constraint on the same
// provider refuses that version: init intersects every module's
// constraints and finds no version. The issue names the module and the
// place of its constraint. The verdict is the provider installer's
// (apparentlymart/go-versions, policy apparentlymart), over the module
// tree as prerel reads it: local modules from disk, downloaded ones from
// .terraform/modules/modules.json.
type ProviderPinRefused struct {
	tflint.DefaultRule
}

// Name returns the rule's name.
func (r *ProviderPinRefused) Name() string { return "prerel_provider_pin_refused" }

// Enabled returns true: the rule is on by default.
func (r *ProviderPinRefused) Enabled() bool { return true }

// Severity returns ERROR: init fails.
func (r *ProviderPinRefused) Severity() tflint.Severity { return tflint.ERROR }

// Link returns the rule's documentation.
func (r *ProviderPinRefused) Link() string { return link(r.Name()) }

// Check reads the module tree and judges every provider pin of the root
// module against every other module's constraint.
func (r *ProviderPinRefused) Check(runner tflint.Runner) error {
	rt, ok, err := rootOf(runner)
	if err != nil || !ok {
		return err
	}
	prov, ok := policies().Lookup(resolve.ProviderPolicy)
	if !ok {
		return fmt.Errorf("prerel: the policy %s is not registered", resolve.ProviderPolicy)
	}
	tree, err := rt.loadTree(false, nil)
	if err != nil {
		return err
	}
	trees := []*config.Tree{tree}
	if readsTofuFiles(tree) {
		// Terraform reads no .tofu file: its tree may pin or require
		// otherwise.
		tfTree, err := rt.loadTree(true, nil)
		if err != nil {
			return err
		}
		trees = append(trees, tfTree)
	}
	seen := map[string]bool{}
	for _, t := range trees {
		for _, f := range refusedPins(rt, prov, t) {
			key := fmt.Sprint(f.rng, f.msg)
			if seen[key] {
				continue
			}
			seen[key] = true
			if err := runner.EmitIssue(r, f.msg, rt.tflintRange(f.rng)); err != nil {
				return err
			}
		}
	}
	return nil
}

// finding is one issue: its message and place.
type finding struct {
	msg string
	rng hcl.Range
}

// readsTofuFiles reports whether some module of tree was read from a
// .tofu or .tofu.json file.
func readsTofuFiles(tree *config.Tree) bool {
	for _, n := range tree.Nodes {
		if n.Module != nil && n.Module.ReadsTofuFiles() {
			return true
		}
	}
	return false
}

// providerKey returns the full address of a provider requirement (an
// entry without a source stands for hashicorp/NAME).
func providerKey(p *config.ProviderRequirement) (string, bool) {
	src := p.Source
	if src == "" {
		src = "hashicorp/" + p.LocalName
	}
	addr, err := address.ParseProvider(src)
	if err != nil {
		return "", false
	}
	return address.ProviderKey(addr), true
}

// exactVersion returns the version a constraint pins: one "=" comparator
// (or a bare version) of three parts, without a "v".
func exactVersion(constraint string) (string, bool) {
	c, err := engine.ParseConstraint(constraint)
	if err != nil || c.Len() != 1 {
		return "", false
	}
	cmp := c.Comparators()[0]
	if cmp.Op != engine.OpEqual || cmp.Precision != 3 {
		return "", false
	}
	return strings.TrimPrefix(cmp.Version.String(), "v"), true
}

// refusedPins returns, for every provider the root module of tree pins,
// each other module whose constraint on it refuses the pin.
func refusedPins(rt *root, prov engine.Policy, tree *config.Tree) []finding {
	var out []finding
	if tree.Root == nil || tree.Root.Module == nil {
		return nil
	}
	for _, p := range tree.Root.Module.Providers {
		if p.Implied || p.Expr != "" {
			continue
		}
		key, ok := providerKey(p)
		if !ok {
			continue
		}
		pin, ok := exactVersion(p.Constraint())
		if !ok {
			continue
		}
		for _, n := range tree.Nodes[1:] {
			if n.Module == nil {
				continue
			}
			for _, q := range n.Module.Providers {
				if q.Expr != "" || q.Constraint() == "" {
					continue
				}
				if k, ok := providerKey(q); !ok || k != key {
					continue
				}
				// The installer intersects the constraints: a prerelease
				// the pin requests exactly passes a child's ">= 5.0".
				res := engine.Evaluate(prov, p.Constraint()+", "+q.Constraint(), pin)
				if res.Verdict == engine.Allow {
					continue
				}
				out = append(out, finding{
					msg: fmt.Sprintf("provider %s is pinned to %s, which %s refuses with %q (%s): init finds no version that meets every module's constraint (%s)",
						strings.TrimPrefix(key, "registry.terraform.io/"), pin, n.Address(), q.Constraint(), rt.show(q.Pos), res.Reason),
					rng: p.Pos,
				})
			}
		}
	}
	return out
}
