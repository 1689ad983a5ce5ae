package comparetest_test

import (
	"strings"
	"testing"

	"github.com/prerel/prerel/compare"
	"github.com/prerel/prerel/compare/comparetest"
)

// TestSampled checks that Sampled keeps every constraint of one
// comparator and one in every of the others, and counts what it keeps.
func TestSampled(t *testing.T) {
	ex, err := compare.Exhaustive(compare.MinScope)
	if err != nil {
		t.Fatal(err)
	}
	count := func(d compare.Domain) (single, multi int, cases int64) {
		d.Groups(func(g compare.Group) bool {
			if strings.Contains(g.Constraint, ",") {
				multi++
			} else {
				single++
			}
			cases += int64(len(g.Versions))
			return true
		})
		return
	}
	allSingle, allMulti, _ := count(ex)
	for _, every := range []int{1, 4, 7} {
		d := comparetest.Sampled(ex, every)
		single, multi, cases := count(d)
		if want := (allMulti + every - 1) / every; single != allSingle || multi != want {
			t.Errorf("every %d: %d single and %d multi constraints, want %d and %d", every, single, multi, allSingle, want)
		}
		if got := d.Info().Cases; got != cases {
			t.Errorf("every %d: Info counts %d cases, the groups hold %d", every, got, cases)
		}
	}
}
