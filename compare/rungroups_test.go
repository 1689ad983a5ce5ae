package compare

import (
	"context"
	"strings"
	"testing"

	"github.com/prerel/prerel/catalogue"
	"github.com/prerel/prerel/compare/internal/caps"
)

// A run of some groups counts every group the domain yields, judges
// those it owns, and keeps the offsets of their cases in the whole
// domain; a run of every group owns them all.
func TestRunOfSomeGroupsCountsEveryCase(t *testing.T) {
	const groups = 23
	for _, n := range []int{1, 2, 3, 7, 30} {
		for k := 1; k <= n; k++ {
			sr := &shardRun{own: func(i int64) bool { return i%int64(n) == int64(k-1) }}
			var offset, owned int64
			for i := range groups {
				size := i%4 + 1
				if sr.owns(offset, size) {
					owned += int64(size)
				}
				offset += int64(size)
			}
			if sr.yielded != offset {
				t.Errorf("N=%d, group %d: counted %d cases yielded, want %d", n, k, sr.yielded, offset)
			}
			var ranges int64
			for _, r := range sr.owned {
				ranges += r[1] - r[0]
			}
			if ranges != owned {
				t.Errorf("N=%d, group %d: ranges of %d cases, want %d", n, k, ranges, owned)
			}
		}
	}
	var none *shardRun
	if !none.owns(0, 5) {
		t.Error("a run of every group does not own a group")
	}
}

// RunGroups needs the groups to judge, and judges only those.
func TestRunGroups(t *testing.T) {
	d, err := Exhaustive(1)
	if err != nil {
		t.Fatal(err)
	}
	ps := catalogue.New().All()[:2]
	if _, err := RunGroups(context.Background(), d, ps, Options{}, nil); err == nil || !strings.Contains(err.Error(), "groups") {
		t.Errorf("RunGroups without groups: %v", err)
	}
	none, err := RunGroups(context.Background(), d, ps, Options{}, func(int64) bool { return false })
	if err != nil {
		t.Fatal(err)
	}
	all, err := RunGroups(context.Background(), d, ps, Options{}, func(int64) bool { return true })
	if err != nil {
		t.Fatal(err)
	}
	if none.Cases() != 0 || all.Cases() != d.Info().Cases {
		t.Errorf("RunGroups judged %d cases of none and %d of all %d", none.Cases(), all.Cases(), d.Info().Cases)
	}
}

// The caps in force start at MaxClasses and MaxSplits.
func TestCapsAreTheMaxima(t *testing.T) {
	if caps.Classes != MaxClasses || caps.Splits != MaxSplits {
		t.Errorf("caps %d classes, %d splits; want MaxClasses %d, MaxSplits %d", caps.Classes, caps.Splits, MaxClasses, MaxSplits)
	}
}
