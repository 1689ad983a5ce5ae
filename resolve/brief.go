package resolve

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/plural"
	"github.com/prerel/prerel/internal/textwrap"
	"github.com/prerel/prerel/terraform/installer"
)

// textWidth is the width the text report fits, unless --show-all asks for
// every origin.
const textWidth = 80

// BriefConstraint is an item's constraint in short, as the text report's
// table shows it: a module call's version argument; a provider's one
// requirement as written; for a provider several modules require, the
// bounds that bind (the highest lower bound, the lowest upper bound) and
// how many modules require it, after the module whose bound binds (by
// its call path, "root" for the root module): `>= 6.28 (root; 17
// modules)`; `>= 2.0 (6 modules alike)` when every module writes the
// same. A comparator that names a prerelease is shown, with its module,
// where it does not bind too. The full origins are in Requirements.
func (it *Item) BriefConstraint() string {
	if it.Kind != KindProvider || len(it.Requirements) <= 1 {
		if it.Constraint == "" {
			return "(any)"
		}
		return it.Constraint
	}
	n := plural.Of(len(it.Requirements), "module", "modules")
	same := true
	for _, r := range it.Requirements[1:] {
		same = same && r.Constraint == it.Requirements[0].Constraint
	}
	if same {
		c := it.Requirements[0].Constraint
		if c == "" {
			c = "(any)"
		}
		return fmt.Sprintf("%s (%s alike)", c, n)
	}
	lower, upper, ok := it.bindingBounds()
	if !ok {
		return fmt.Sprintf("%s (%s)", it.Constraint, n)
	}
	var bounds []string
	var by []string
	for _, b := range []*bound{lower, upper} {
		if b == nil || (b == upper && lower != nil && b.text == lower.text && b.module == lower.module) {
			continue
		}
		bounds = append(bounds, b.text)
		if m := shortModule(b.module); !containsString(by, m) {
			by = append(by, m)
		}
	}
	// A comparator that names a prerelease matters to the policies even
	// where it does not bind.
	for _, r := range it.Requirements {
		c, _ := engine.ParseConstraint(r.Constraint)
		for _, k := range c.Comparators() {
			if t := k.String(); k.NamesPrerelease() && !containsString(bounds, t) {
				bounds = append(bounds, t)
				if m := shortModule(r.Module); !containsString(by, m) {
					by = append(by, m)
				}
			}
		}
	}
	if len(bounds) == 0 {
		return fmt.Sprintf("(any) (%s)", n)
	}
	return fmt.Sprintf("%s (%s; %s)", strings.Join(bounds, ", "), strings.Join(by, ", "), n)
}

// shortModule is a module address as a call path: "module.eks.module.kms"
// is "eks.kms"; RootModule stays.
func shortModule(module string) string {
	if module == RootModule {
		return module
	}
	return strings.ReplaceAll(strings.TrimPrefix(module, "module."), ".module.", ".")
}

// bound is a comparator that binds a provider's versions from below or
// above, and the module that writes it.
type bound struct {
	version engine.Version
	strict  bool // > or <: the version itself is outside
	text    string
	module  string
}

// bindingBounds returns the highest lower bound and the lowest upper
// bound of a provider's requirements, each the first written of those
// alike; ok is false when some requirement cannot be read.
func (it *Item) bindingBounds() (lower, upper *bound, ok bool) {
	for _, r := range it.Requirements {
		c, err := engine.ParseConstraint(r.Constraint)
		if err != nil {
			return nil, nil, false
		}
		for _, k := range c.Comparators() {
			text := k.String()
			switch k.Op {
			case engine.OpGreater, engine.OpGreaterEqual, engine.OpEqual, engine.OpPessimistic:
				b := &bound{version: k.Version, strict: k.Op == engine.OpGreater, text: text, module: r.Module}
				if lower == nil || b.version.Compare(lower.version) > 0 || (b.version.Compare(lower.version) == 0 && b.strict && !lower.strict) {
					lower = b
				}
			}
			var u engine.Version
			strict := true
			switch k.Op {
			case engine.OpLess:
				u = k.Version
			case engine.OpLessEqual, engine.OpEqual:
				u, strict = k.Version, false
			case engine.OpPessimistic:
				var has bool
				if u, has = k.Upper(); !has {
					continue
				}
			default:
				continue
			}
			b := &bound{version: u, strict: strict, text: text, module: r.Module}
			if upper == nil || b.version.Compare(upper.version) < 0 || (b.version.Compare(upper.version) == 0 && b.strict && !upper.strict) {
				upper = b
			}
		}
	}
	return lower, upper, true
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// NewMajorPrerelease says in words when policy selects a prerelease of
// a higher major version than today's Terraform selects for the item:
// "7.0.0-beta1, a prerelease of a new major (today 6.28.0)"; "" when it
// does not.
func (it *Item) NewMajorPrerelease(policy string) string {
	sel, today := it.ByPolicy[policy], it.ByPolicy[it.TerraformPolicy]
	if sel == nil || today == nil {
		return ""
	}
	v, err := engine.ParseVersion(*sel)
	if err != nil || !v.IsPrerelease() {
		return ""
	}
	t, err := engine.ParseVersion(*today)
	if err != nil || v.Major() <= t.Major() {
		return ""
	}
	return fmt.Sprintf("%s, a prerelease of a new major (today %s)", *sel, *today)
}

// newMajorPolicies lists the item's policies, in column order, that
// select a prerelease of a new major (see NewMajorPrerelease); extra are
// the report's extra policies.
func (it *Item) newMajorPolicies(extra []string) []string {
	var out []string
	for _, p := range it.policyNames(extra) {
		if it.NewMajorPrerelease(p) != "" {
			out = append(out, p)
		}
	}
	return out
}

// policyNames is the item's columns: Columns for a report Run built,
// else the chosen policy, today's installers and the extra policies, as
// a report read back from JSON has them.
func (it *Item) policyNames(extra []string) []string {
	if it.columns != nil {
		return it.columns
	}
	var out []string
	for _, p := range append([]string{it.Policy, it.TerraformPolicy, it.OpenTofuPolicy}, extra...) {
		if p != "" && !containsString(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// todayCell is what the text table shows as today's selection:
// Terraform's, with OpenTofu's after it when they differ.
func (it *Item) todayCell() string {
	tf := it.releaseCell(it.TerraformPolicy, installer.Terraform)
	if tofu := it.releaseCell(it.OpenTofuPolicy, installer.OpenTofu); tofu != tf {
		return tf + " (tofu " + tofu + ")"
	}
	return tf
}

// selectsCell is what the text table shows as the chosen policy's
// selection, with the policy's name when it is not the report's default.
func (it *Item) selectsCell(defaultPolicy string) string {
	if it.Wanted != nil {
		return it.selectedCell() + " (wanted)"
	}
	s := it.selectedCell()
	if it.Policy != defaultPolicy {
		s += " (" + it.Policy + ")"
	}
	if c := it.Cooldown; c != nil && c.Changed {
		s += " (cooldown)"
	}
	return s
}

// policyCell names what chose the item's selection: its policy, or
// "want" when the configuration wants an exact version.
func (it *Item) policyCell() string {
	if it.Wanted != nil {
		return "want"
	}
	return it.Policy
}

// selectedCell is what a table shows as the item's selection: the chosen
// policy's, or the wanted version as listed ("none" when the registry
// does not list it).
func (it *Item) selectedCell() string {
	if (it.Wanted == nil && (it.Cooldown == nil || !it.Cooldown.Changed)) || it.Status == StatusError {
		return it.cell(it.Policy)
	}
	if it.Selected == nil {
		return "none"
	}
	return *it.Selected
}

// width is how many columns s takes on a terminal, one a rune.
func width(s string) int { return utf8.RuneCountInString(s) }

// clip cuts s to at most n columns, ending it with "…" when cut.
func clip(s string, n int) string {
	if width(s) <= n {
		return s
	}
	if n <= 1 {
		return "…"
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// wrapText breaks s into lines of at most textWidth columns at spaces,
// the first indented by first, the others by rest.
func wrapText(s string, first, rest int) []string {
	return textwrap.Lines(s, textWidth, first, rest)
}
