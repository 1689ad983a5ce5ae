package rules

import (
	"errors"
	"fmt"

	"github.com/terraform-linters/tflint-plugin-sdk/tflint"

	"github.com/prerel/prerel/pin"
	"github.com/prerel/prerel/resolve"
)

// PolicySelection is the deep check: with the versions an index file or a
// registry lists (the rule's index or registry attribute), it flags every
// module call and provider where the chosen policy of prerel.hcl selects
// another version than terraform init or tofu init installs, as prerel
// resolve shows it, unless a prerel pin override already installs the
// chosen version. It also flags a provider whose registry answer makes
// one of today's releases stop (OpenTofu fails the query on a listed
// version such as "1.2.3.4" that Terraform skips). It is off by default,
// like tflint-ruleset-aws's deep_check: enable it in .tflint.hcl with one
// of the two attributes.
type PolicySelection struct {
	tflint.DefaultRule
}

// Name returns the rule's name.
func (r *PolicySelection) Name() string { return "prerel_policy_selection" }

// Enabled returns false: the rule needs an index or a registry.
func (r *PolicySelection) Enabled() bool { return false }

// Severity returns NOTICE: init works, and installs another version than
// the one chosen.
func (r *PolicySelection) Severity() tflint.Severity { return tflint.NOTICE }

// Link returns the rule's documentation.
func (r *PolicySelection) Link() string { return link(r.Name()) }

// errNoSource is the error of the rule enabled without a source of
// versions.
var errNoSource = errors.New(`prerel: prerel_policy_selection needs an index file (index = "index.json") or a registry (registry = "default", or its URL) in its rule block`)

// Check resolves the root module's tree and compares each item's chosen
// selection with today's installers'.
func (r *PolicySelection) Check(runner tflint.Runner) error {
	rt, ok, err := rootOf(runner)
	if err != nil || !ok {
		return err
	}
	var conf sourceConfig
	if err := runner.DecodeRuleConfig(r.Name(), &conf); err != nil {
		return err
	}
	findings, err := policySelections(rt, conf)
	if err != nil {
		return err
	}
	for _, f := range findings {
		if err := runner.EmitIssue(r, f.msg, f.rng); err != nil {
			return err
		}
	}
	return nil
}

// policySelections resolves the root module with the configured source
// and returns every item whose chosen selection init does not install.
func policySelections(rt *root, conf sourceConfig) ([]finding, error) {
	src, err := conf.source(rt)
	if err != nil {
		return nil, err
	}
	if src == nil {
		return nil, errNoSource
	}
	rep, _, err := resolveRoot(rt, src, pin.Skip)
	if err != nil {
		return nil, err
	}
	var out []finding
	for i := range rep.Items {
		it := &rep.Items[i]
		rng, ok := rt.itemRange(it.Pos)
		if !ok {
			continue
		}
		for _, e := range it.TodayErrors {
			out = append(out, finding{msg: fmt.Sprintf("%s %s: init stops on the registry's answer: %s", it.Kind, it.Name, e.Error), rng: rng})
		}
		switch {
		case it.Status == resolve.StatusError:
			out = append(out, finding{msg: fmt.Sprintf("%s %s: the versions could not be listed: %s", it.Kind, it.Name, it.Problem), rng: rng})
			continue
		case it.Pinned != nil && !it.Pinned.Stale:
			// prerel pin's override installs the chosen version.
			continue
		case same(it.Selected, it.ByPolicy[it.TerraformPolicy]) && same(it.Selected, it.ByPolicy[it.OpenTofuPolicy]):
			continue
		}
		chosen := "no version"
		if it.Selected != nil {
			chosen = *it.Selected
		} else if it.NoMatch != nil && it.NoMatch.Why != "" {
			chosen = "no version (" + it.NoMatch.Why + ")"
		}
		out = append(out, finding{
			msg: fmt.Sprintf("%s %s: policy %s (%s) selects %s for %q; terraform init selects %s, tofu init %s",
				it.Kind, it.Name, it.Policy, rt.relFrom(it.PolicyFrom), chosen, it.Constraint,
				selection(it.ByPolicy[it.TerraformPolicy]), selection(it.ByPolicy[it.OpenTofuPolicy])),
			rng: rng,
		})
	}
	return out, nil
}

// selection is a selected version, or "none".
func selection(v *string) string {
	if v == nil {
		return "none"
	}
	return *v
}

// same reports whether two selections are the same version, or both none.
func same(a, b *string) bool {
	return (a == nil) == (b == nil) && (a == nil || *a == *b)
}
