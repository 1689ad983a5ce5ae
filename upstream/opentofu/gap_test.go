package opentofu_test

import (
	"testing"

	"github.com/prerel/prerel/catalogue"
	"github.com/prerel/prerel/compare"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/longtest"
)

// TestGoVersionsOnlyGap measures what a build that replaces
// apparentlymart/go-versions alone (its MeetingConstraints behaving as
// cargo) would admit for modules, on the exhaustive domain at scope 2:
// the module installer runs go-version's Check after the prerelease gate,
// so of the cases cargo admits and today's OpenTofu installer refuses,
// such a build admits at most those go-version's Check (the "hashicorp"
// policy) admits too. docs/upstream.md quotes these counts.
//
// It is a figure of the docs, not a behaviour a change can break in
// passing: it runs in the long run only.
func TestGoVersionsOnlyGap(t *testing.T) {
	longtest.Skip(t)
	d, err := compare.Exhaustive(compare.DefaultScope)
	if err != nil {
		t.Fatal(err)
	}
	pols := catalogue.New()
	get := func(name string) engine.Policy {
		p, ok := pols.Lookup(name)
		if !ok {
			t.Fatalf("no policy %q", name)
		}
		return p
	}
	cargo, today, check := get("cargo"), get("opentofu-module"), get("hashicorp")
	allow := func(p engine.Policy, c, v string) bool { return engine.Evaluate(p, c, v).Verdict == engine.Allow }
	cases, gained, kept := 0, 0, 0
	if err := d.Groups(func(g compare.Group) bool {
		for _, v := range g.Versions {
			cases++
			if !allow(cargo, g.Constraint, v) || allow(today, g.Constraint, v) {
				continue
			}
			gained++
			if allow(check, g.Constraint, v) {
				kept++
			}
		}
		return true
	}); err != nil {
		t.Fatal(err)
	}
	t.Logf("scope %d: %d cases; cargo admits and today's OpenTofu refuses %d; a go-versions-only build admits at most %d of them (%d stay refused by go-version's Check)",
		compare.DefaultScope, cases, gained, kept, gained-kept)
	if gained != 3020 || kept != 994 {
		t.Errorf("counts %d and %d, docs/upstream.md says 3020 and 994", gained, kept)
	}
}
