package policies_test

import (
	"context"
	"testing"

	"github.com/prerel/prerel/compare"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/policies"
)

// histories is a domain of version histories, so that a compare run also
// compares selection.
type histories []compare.Group

func (h histories) Info() compare.DomainInfo {
	n := 0
	for _, g := range h {
		n += len(g.Versions)
	}
	return compare.DomainInfo{Name: "histories", Description: "test histories", Cases: int64(n)}
}

func (h histories) Groups(yield func(compare.Group) bool) error {
	for _, g := range h {
		if !yield(g) {
			break
		}
	}
	return nil
}

// TestCompareSelectionHonoursFallback checks that the compare report's
// selection divergence uses fallback's own selection: pairwise it agrees
// with linear on every case, yet where a release fits the two install
// different versions.
func TestCompareSelectionHonoursFallback(t *testing.T) {
	d := histories{
		{Constraint: ">= 1.0.0", Versions: []string{"1.0.0", "1.1.0-beta.1"}, History: "a"},
		{Constraint: ">= 1.0.0", Versions: []string{"0.9.0", "1.1.0-beta.1"}, History: "b"},
		{Constraint: ">= 3.0.0", Versions: []string{"1.9.0", "2.1.0-rc.1"}, History: "c"},
	}
	ps := []engine.Policy{policies.Linear{}, policies.Fallback{}}
	r, err := compare.Run(context.Background(), d, ps, compare.Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if p, _ := r.PairOf("linear", "fallback"); p.Diverge != 0 || p.Agree != 6 {
		t.Errorf("pairwise linear/fallback: %+v, want 6 cases agreed", p)
	}
	if r.Selection == nil || len(r.Selection.Pairs) != 1 {
		t.Fatalf("no selection report: %+v", r.Selection)
	}
	s := r.Selection.Pairs[0]
	if s.Agree != 2 || s.Diverge != 1 || s.Witness == nil {
		t.Fatalf("selection linear/fallback: %+v, want 2 agreed and 1 diverged", s)
	}
	w := *s.Witness
	if w.Constraint != ">= 1.0.0" || w.History != "a" || w.ASelected != "1.1.0-beta.1" || w.BSelected != "1.0.0" {
		t.Errorf("selection witness %+v, want linear 1.1.0-beta.1 and fallback 1.0.0 from history a", w)
	}
}
