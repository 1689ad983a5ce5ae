package hclpolicy_test

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/prerel/prerel/compare"
	"github.com/prerel/prerel/compare/comparetest"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/longtest"
	"github.com/prerel/prerel/policies"
)

// proofScope is the exhaustive scope on which every design written in HCL
// must equal its native policy: the smallest every day, 3 in the long run
// (longtest).
func proofScope() int {
	return longtest.Pick(compare.MinScope, 3)
}

// withHistory is a domain whose groups each carry the whole version list
// as a history, so that compare.Run also compares what each policy
// selects from it.
type withHistory struct{ compare.Domain }

func (d withHistory) Groups(yield func(compare.Group) bool) error {
	return d.Domain.Groups(func(g compare.Group) bool {
		g.History = "exhaustive"
		return yield(g)
	})
}

// pairEvery is how sparsely the everyday run samples the constraints of
// two comparators of the exhaustive domain (comparetest.Sampled): one in
// this many.
const pairEvery = 4

// TestDesignsEqualNativePolicies proves each native policy re-expressed in
// HCL (testdata/designs/hcl-<name>.hcl; a native policy need not have
// one) equal to the native one on the exhaustive domain: the same verdict
// on every case (invalid included) and the same selection from the
// domain's whole version list for every constraint. Every day on
// comparetest.Sampled of scope 1; on scope 3 whole in the long run.
func TestDesignsEqualNativePolicies(t *testing.T) {
	scope := proofScope()
	for _, native := range rewrittenNatives(t) {
		name := native.Name()
		t.Run(name, func(t *testing.T) {
			hcl := design(t, "hcl-"+name)
			var d compare.Domain
			d, err := compare.Exhaustive(scope)
			if err != nil {
				t.Fatal(err)
			}
			if !longtest.Enabled() {
				d = comparetest.Sampled(d, pairEvery)
			}
			r, err := compare.Run(context.Background(), withHistory{d}, []engine.Policy{native, hcl}, compare.Options{})
			if err != nil {
				t.Fatal(err)
			}
			pair, ok := r.PairOf(name, hcl.Name())
			if !ok {
				t.Fatalf("no pair %s, %s in the report", name, hcl.Name())
			}
			if pair.Agree != r.Domain.Cases || pair.Diverge != 0 {
				var b strings.Builder
				for i, c := range r.ClassesOf(name, hcl.Name()) {
					if i == 5 {
						break
					}
					w := c.Witness
					fmt.Fprintf(&b, "\n  %s: %q %s: %s (%s) vs %s (%s)", c.Signature, w.Constraint, w.Version, w.AVerdict, w.AReason, w.BVerdict, w.BReason)
				}
				t.Fatalf("%s and %s diverge on %d of %d cases:%s", name, hcl.Name(), pair.Diverge, r.Domain.Cases, b.String())
			}
			if r.Selection == nil || len(r.Selection.Pairs) != 1 {
				t.Fatalf("the report compares no selection")
			}
			if sp := r.Selection.Pairs[0]; sp.Diverge != 0 || sp.Agree != r.Selection.Groups {
				t.Fatalf("%s and %s select differently in %d of %d groups, e.g. %+v", name, hcl.Name(), sp.Diverge, r.Selection.Groups, sp.Witness)
			}
			t.Logf("%s = %s on %d cases, %d selections (%s)", name, hcl.Name(), pair.Agree, r.Selection.Groups, r.Domain.Description)
		})
	}
}

// TestFallbackSelectsAsNative compares engine.Select of fallback and
// hcl-fallback on every constraint of the exhaustive domain over its
// whole version list, Selection for Selection: the version, whether one
// was found, and the versions neither can read.
func TestFallbackSelectsAsNative(t *testing.T) {
	native, hcl := policies.Fallback{}, design(t, "hcl-fallback")
	d, err := compare.Exhaustive(proofScope())
	if err != nil {
		t.Fatal(err)
	}
	groups := 0
	err = d.Groups(func(g compare.Group) bool {
		groups++
		want, werr := engine.Select(native, g.Constraint, g.Versions)
		got, gerr := engine.Select(hcl, g.Constraint, g.Versions)
		if (werr == nil) != (gerr == nil) || want.Found != got.Found || want.Version != got.Version || !sameVersions(want.Unreadable, got.Unreadable) {
			t.Errorf("%q: fallback selects %+v (%v), hcl-fallback %+v (%v)", g.Constraint, want, werr, got, gerr)
			return false
		}
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d constraints select alike", groups)
}

// sameVersions reports whether two unreadable lists name the same
// versions in the same order.
func sameVersions(a, b []engine.Unreadable) bool {
	var x, y []string
	for _, u := range a {
		x = append(x, u.Version)
	}
	for _, u := range b {
		y = append(y, u.Version)
	}
	return reflect.DeepEqual(x, y)
}
