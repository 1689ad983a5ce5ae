package catalogue

import (
	"slices"
	"testing"
)

// TestEveryPolicyHasAGroup checks that each shipped policy is placed in a
// group other than GroupOwn, and that no group names a policy the
// catalogue does not ship.
func TestEveryPolicyHasAGroup(t *testing.T) {
	shipped := map[string]bool{}
	for _, p := range New().All() {
		name := p.Name()
		shipped[name] = true
		if g := Group(name); g == GroupOwn {
			t.Errorf("policy %s has no group", name)
		}
	}
	for name, g := range groupOf() {
		if !shipped[name] {
			t.Errorf("group table names %s, which the catalogue does not ship", name)
		}
		if !slices.Contains(Groups(), g) || g == GroupOwn {
			t.Errorf("policy %s names the group %q, not one of the catalogue's", name, g)
		}
	}
	for name, want := range map[string]string{"strict": GroupInstallers, "core-only": GroupInstallers, "cargo": GroupProposals, "hashicorp": GroupLibraries} {
		if got := Group(name); got != want {
			t.Errorf("Group(%s) = %q, want %q", name, got, want)
		}
	}
	if Group("my-policy") != GroupOwn {
		t.Errorf("Group(my-policy) = %q, want %q", Group("my-policy"), GroupOwn)
	}
	for _, name := range TodayPolicies() {
		if Group(name) != GroupInstallers || Today(name) == "" {
			t.Errorf("today's rule %s is not among the installers, or says nothing of itself", name)
		}
	}
	if Today("strict") != "" {
		t.Error("strict, the documented rule, is marked as today's installer")
	}
}
