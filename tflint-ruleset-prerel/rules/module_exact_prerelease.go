package rules

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/terraform-linters/tflint-plugin-sdk/hclext"
	"github.com/terraform-linters/tflint-plugin-sdk/tflint"
	"github.com/zclconf/go-cty/cty"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/resolve"
)

// ModuleExactPrerelease flags a module call whose version means one exact
// prerelease that Terraform's or OpenTofu's module installer excludes:
// "= 2.0.0-beta.1" with a space (the installer reads a prerelease's
// constraint with go-versions' npm-style parser, which allows no space
// after an operator), "v2.0.0-beta.1" (Terraform's installer), an exact
// version in a comma-separated list, or ">= P, <= P". The installer then
// installs a release, or nothing, and says nothing about it. The fix
// writes the bare version, "2.0.0-beta.1", which both installers take as
// exact. Each verdict is the installers' own, as prerel emulates them
// (policies terraform-module and opentofu-module).
type ModuleExactPrerelease struct {
	tflint.DefaultRule
}

// Name returns the rule's name.
func (r *ModuleExactPrerelease) Name() string { return "prerel_module_exact_prerelease" }

// Enabled returns true: the rule is on by default.
func (r *ModuleExactPrerelease) Enabled() bool { return true }

// Severity returns ERROR: init does not install the version written.
func (r *ModuleExactPrerelease) Severity() tflint.Severity { return tflint.ERROR }

// Link returns the rule's documentation.
func (r *ModuleExactPrerelease) Link() string { return link(r.Name()) }

var moduleSchema = &hclext.BodySchema{
	Blocks: []hclext.BlockSchema{{
		Type:       "module",
		LabelNames: []string{"name"},
		Body: &hclext.BodySchema{Attributes: []hclext.AttributeSchema{
			{Name: "source"}, {Name: "version"},
		}},
	}},
}

// Check inspects the version of every module call of the root module.
func (r *ModuleExactPrerelease) Check(runner tflint.Runner) error {
	if _, ok, err := rootOf(runner); err != nil || !ok {
		return err
	}
	content, err := runner.GetModuleContent(moduleSchema, &tflint.GetModuleContentOption{ExpandMode: tflint.ExpandModeNone})
	if err != nil {
		return err
	}
	installers, err := moduleInstallers()
	if err != nil {
		return err
	}
	for _, b := range content.Blocks {
		a, ok := b.Body.Attributes["version"]
		if !ok {
			continue
		}
		constraint, ok := literalString(a.Expr)
		if !ok {
			continue
		}
		f := exactPrereleaseFinding(installers, constraint)
		if f == nil {
			continue
		}
		msg := fmt.Sprintf("module %q: version %q installs no %s: %s it (%s); write %q",
			b.Labels[0], constraint, f.want, f.who, f.reason, f.want)
		rng := a.Expr.Range()
		want := f.want
		if err := runner.EmitIssueWithFix(r, msg, rng, func(fx tflint.Fixer) error {
			return fx.ReplaceText(rng, quoted(want))
		}); err != nil {
			return err
		}
	}
	return nil
}

// literalString returns the value of an expression that is a literal
// string (no variable, no function).
func literalString(e hcl.Expression) (string, bool) {
	if len(e.Variables()) > 0 {
		return "", false
	}
	v, diags := e.Value(nil)
	if diags.HasErrors() || v.IsNull() || !v.IsKnown() || v.Type() != cty.String {
		return "", false
	}
	return v.AsString(), true
}

// quoted returns s as an HCL string literal.
func quoted(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "${", "$${", "%{", "%%{")
	return `"` + r.Replace(s) + `"`
}

// installerPolicy is one of today's module installers.
type installerPolicy struct {
	name   string // "Terraform's module installer"
	policy engine.Policy
}

// moduleInstallers returns Terraform's and OpenTofu's module installers
// from prerel's catalogue.
func moduleInstallers() ([]installerPolicy, error) {
	reg := policies()
	var out []installerPolicy
	for _, p := range []struct{ name, policy string }{
		{"Terraform's module installer", resolve.TerraformModulePolicy},
		{"OpenTofu's module installer", resolve.OpenTofuModulePolicy},
	} {
		pol, ok := reg.Lookup(p.policy)
		if !ok {
			return nil, fmt.Errorf("prerel: the policy %s is not registered", p.policy)
		}
		out = append(out, installerPolicy{p.name, pol})
	}
	return out, nil
}

// exactFinding is a constraint that means one exact prerelease some
// installer excludes.
type exactFinding struct {
	// want is the prerelease, bare: what to write.
	want string
	// who names the installers that exclude it ("Terraform's and
	// OpenTofu's module installers exclude"), reason the first one's
	// reason.
	who, reason string
}

// exactPrereleaseFinding returns what is wrong with constraint, nil when
// nothing is: the constraint names one prerelease P exactly (a comparator
// "= P" or a bare P, or both ">= P" and "<= P"), some installer excludes
// P under the constraint as written, and every installer installs P under
// the bare "P".
func exactPrereleaseFinding(installers []installerPolicy, constraint string) *exactFinding {
	want, ok := meantExact(constraint)
	if !ok || want == constraint {
		return nil
	}
	for _, in := range installers {
		if engine.Evaluate(in.policy, want, want).Verdict != engine.Allow {
			return nil
		}
	}
	var who []string
	reason := ""
	for _, in := range installers {
		res := engine.Evaluate(in.policy, constraint, want)
		if res.Verdict == engine.Allow {
			continue
		}
		who = append(who, in.name)
		if reason == "" {
			reason = strings.TrimPrefix(res.Reason, "prerelease excluded: ")
		}
	}
	switch len(who) {
	case 0:
		return nil
	case 1:
		return &exactFinding{want: want, who: who[0] + " excludes", reason: reason}
	}
	return &exactFinding{want: want, who: "Terraform's and OpenTofu's module installers exclude", reason: reason}
}

// meantExact returns the prerelease a constraint evidently asks for
// exactly, without a "v": the version of an "=" comparator (or a bare
// one) naming a prerelease, or of a ">=" and a "<=" naming the same one.
func meantExact(constraint string) (string, bool) {
	c, err := engine.ParseConstraint(constraint)
	if err != nil {
		return "", false
	}
	var exact, lower, upper []engine.Version
	for _, cmp := range c.Comparators() {
		if cmp.Precision != 3 || !cmp.Version.IsPrerelease() {
			continue
		}
		switch cmp.Op {
		case engine.OpEqual:
			exact = append(exact, cmp.Version)
		case engine.OpGreaterEqual:
			lower = append(lower, cmp.Version)
		case engine.OpLessEqual:
			upper = append(upper, cmp.Version)
		}
	}
	pick := func(v engine.Version) (string, bool) { return strings.TrimPrefix(v.String(), "v"), true }
	if len(exact) == 1 {
		return pick(exact[0])
	}
	if len(exact) == 0 && len(lower) == 1 && len(upper) == 1 && lower[0] == upper[0] {
		return pick(lower[0])
	}
	return "", false
}
