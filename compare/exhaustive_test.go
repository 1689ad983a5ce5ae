package compare_test

import (
	"testing"

	"github.com/prerel/prerel/compare"
	"github.com/prerel/prerel/engine"
)

func TestExhaustiveDomain(t *testing.T) {
	for _, bad := range []int{compare.MinScope - 1, compare.MaxScope + 1} {
		if _, err := compare.Exhaustive(bad); err == nil {
			t.Errorf("scope %d: no error", bad)
		}
	}
	prev := map[string]bool{}
	for scope := compare.MinScope; scope <= compare.MaxScope; scope++ {
		d := mustExhaustive(t, scope)
		seen := map[string]bool{}
		var cases int64
		var versions []string
		err := d.Groups(func(g compare.Group) bool {
			if seen[g.Constraint] {
				t.Errorf("scope %d: constraint %q twice", scope, g.Constraint)
			}
			seen[g.Constraint] = true
			if _, err := engine.ParseConstraint(g.Constraint); err != nil {
				t.Errorf("scope %d: %v", scope, err)
			}
			cases += int64(len(g.Versions))
			versions = g.Versions
			return true
		})
		if err != nil {
			t.Fatal(err)
		}
		if cases != d.Info().Cases {
			t.Errorf("scope %d: %d cases, Info says %d", scope, cases, d.Info().Cases)
		}
		for _, v := range versions {
			if _, err := engine.ParseVersion(v); err != nil {
				t.Errorf("scope %d: %v", scope, err)
			}
		}
		for c := range prev {
			if !seen[c] {
				t.Errorf("scope %d lost the constraint %q of the scope below", scope, c)
				break
			}
		}
		prev = seen
	}
}

// Groups stops when yield says so.
func TestExhaustiveStops(t *testing.T) {
	n := 0
	err := mustExhaustive(t, 1).Groups(func(compare.Group) bool {
		n++
		return n < 3
	})
	if err != nil || n != 3 {
		t.Errorf("%d groups, %v", n, err)
	}
}
