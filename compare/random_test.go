package compare_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/prerel/prerel/compare"
	"github.com/prerel/prerel/compare/generate"
	"github.com/prerel/prerel/engine"
)

func TestRandomDomain(t *testing.T) {
	if _, err := compare.Random(1, 0); err == nil {
		t.Error("a random domain of 0 cases: no error")
	}
	d, err := compare.Random(42, 500)
	if err != nil {
		t.Fatal(err)
	}
	var got [][2]string
	for _, g := range groupsOf(t, d) {
		for _, v := range g.Versions {
			got = append(got, [2]string{g.Constraint, v})
		}
	}
	var want [][2]string
	generate.Cases(42, 500, func(c, v string) bool {
		want = append(want, [2]string{c, v})
		return true
	})
	if !reflect.DeepEqual(got, want) {
		t.Error("the random domain is not the generated stream")
	}
	if info := d.Info(); info.Cases != 500 || info.Name != "random" {
		t.Errorf("info %+v", info)
	}
	// Reproducible: a second run gives the same report.
	policies := []engine.Policy{linear, sameBase, tilde}
	r1, err := compare.Run(context.Background(), d, policies, compare.Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	r2, err := compare.Run(context.Background(), d, policies, compare.Options{Workers: 3})
	if err != nil {
		t.Fatal(err)
	}
	if diff := compare.Diff(r1, r2); len(diff) != 0 {
		t.Errorf("two runs of one seed differ: %v", diff)
	}
	if r1.Domain.Cases != 500 {
		t.Errorf("ran %d cases", r1.Domain.Cases)
	}
}
