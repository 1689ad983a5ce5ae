package resolve

import (
	"fmt"
	"strings"

	"github.com/prerel/prerel/engine"
)

// NoneToday explains an item for which today's installer selects no
// version: terraform init fails with "There is no available version ...
// which matches the given version constraint".
type NoneToday struct {
	// Why says in one line why today's installer selects none:
	// `">= 2.0.0-beta.1" names a prerelease; today only "=" selects one`.
	Why string `json:"why"`
	// Selects says what the chosen policy, then each extra policy,
	// selects: "cargo selects 2.0.0-beta.1".
	Selects []string `json:"selects"`
	// Pin is the override that makes init install the chosen policy's
	// selection, as prerel pin writes it; "" when it selects none.
	Pin string `json:"pin,omitempty"`
}

// NoneToday explains why today's Terraform selects no version for the
// item, what the chosen policy and the extra policies select instead, and
// the pin that makes init install the chosen one. It is nil when today's
// Terraform selects a version, when the versions were not listed, and
// when no listed version is within the constraint, prerelease or not,
// and the chosen policy selects none either (the item's Problem and
// NoMatch then say why).
func (it *Item) NoneToday() *NoneToday {
	if it.Status == StatusError || it.ByPolicy == nil || it.ByPolicy[it.TerraformPolicy] != nil {
		return nil
	}
	why := it.whyNone()
	if why == "" {
		return nil
	}
	n := &NoneToday{Why: why}
	for _, p := range it.columns {
		if p == it.TerraformPolicy || p == it.OpenTofuPolicy {
			continue
		}
		n.Selects = append(n.Selects, p+" selects "+it.cell(p))
	}
	if it.Selected != nil {
		v := *it.Selected
		if it.Kind == KindModule {
			name := it.Name[strings.LastIndex(it.Name, ".")+1:]
			n.Pin = fmt.Sprintf("module %q { version = %q } in an override file next to the call", name, v)
		} else {
			n.Pin = fmt.Sprintf("%s = { source = %q, version = %q } in the root module's required_providers, in an override file", it.Name, it.Source, v)
		}
	}
	return n
}

// whyNone is NoneToday.Why, "" when no listed version is within the
// constraint and the chosen policy selects none.
func (it *Item) whyNone() string {
	if reason := it.Refused[it.TerraformPolicy]; reason != "" {
		return fmt.Sprintf("today's installer refuses %q: %s", it.Constraint, reason)
	}
	c, err := engine.ParseConstraint(it.Constraint)
	if err != nil {
		return fmt.Sprintf("today's installer cannot read %q", it.Constraint)
	}
	inRange := false
	for _, s := range it.listed {
		if v, err := engine.ParseVersion(s); err == nil && c.Holds(v) {
			inRange = true
			break
		}
	}
	switch {
	case !inRange && it.Selected == nil:
		return ""
	case !inRange:
		// The chosen policy selects by a rule of its own ("~> 2.0" and
		// 2.0.0-beta.1 under ga-bound).
		return fmt.Sprintf("no listed version is within %q by precedence, which today's installer requires", it.Constraint)
	}
	exact := false
	for _, cmp := range c.Comparators() {
		if cmp.NamesPrerelease() && cmp.Op != engine.OpEqual {
			return fmt.Sprintf("%q names a prerelease; today only \"=\" selects one", it.Constraint)
		}
		exact = exact || cmp.NamesPrerelease()
	}
	if exact {
		// "2.0.0-rc1, >= 1.0.0": the other comparators refuse it.
		return fmt.Sprintf("%q names a prerelease; today only \"=\" alone selects one", it.Constraint)
	}
	return fmt.Sprintf("only prereleases are within %q; today only \"=\" selects one", it.Constraint)
}
