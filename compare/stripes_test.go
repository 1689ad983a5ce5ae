package compare

import (
	"context"
	"reflect"
	"testing"

	"github.com/prerel/prerel/catalogue"
	"github.com/prerel/prerel/compare/internal/caps"
)

// An index sealed many times in a run, by workers adding to it in turn,
// reaches every stripe's pairs and the splits once: the report is that
// of a run whose index is never sealed before the end, also when the
// splits kept are capped.
func TestSmallIndexesGiveTheSameReport(t *testing.T) {
	d, err := Random(7, 3000)
	if err != nil {
		t.Fatal(err)
	}
	pols := catalogue.New().All()[:6]
	for _, splits := range []int{caps.Splits, 5} {
		defer func(s int) { caps.Splits = s }(caps.Splits)
		caps.Splits = splits
		want, err := Run(context.Background(), d, pols, Options{Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		if splits == 5 && want.SplitCasesLeftOut == 0 {
			t.Fatal("the capped splits leave no case out")
		}
		func() {
			defer func(max, min int) { maxIndexed, minIndexed = max, min }(maxIndexed, minIndexed)
			maxIndexed, minIndexed = 0, 3*indexedVector // sealed past three entries
			for _, workers := range []int{1, 2, 3} {
				got, err := Run(context.Background(), d, pols, Options{Workers: workers})
				if err != nil {
					t.Fatal(err)
				}
				if diff := Diff(want, got); len(diff) != 0 {
					t.Errorf("%d splits, %d workers, small indexes: the report differs: %v", splits, workers, diff)
				}
				if !reflect.DeepEqual(want.Splits, got.Splits) || want.SplitCasesLeftOut != got.SplitCasesLeftOut {
					t.Errorf("%d splits, %d workers, small indexes: splits %+v (%d left out), want %+v (%d)",
						splits, workers, got.Splits, got.SplitCasesLeftOut, want.Splits, want.SplitCasesLeftOut)
				}
			}
		}()
	}
}

// A sealed index goes back to be used again, emptied, once every stripe
// has added it to its pairs, and not before; a stripe adds each sealed
// index once.
func TestSealedIndexIsUsedAgainOnceFlushed(t *testing.T) {
	s := newSharedAggregate(3, 2)
	pairs := [][2]int{{0, 1}, {0, 2}, {1, 2}}
	w := &worker{shared: s, pairs: pairs}
	x := s.openIndex()
	x.entries = append(x.entries, &vectorEntry{count: 1})
	x.verdicts = append(x.verdicts, 0, 1, 2)
	s.seal()
	if s.index != nil || len(s.sealed) != 1 {
		t.Fatalf("sealing left index %p and %d sealed", s.index, len(s.sealed))
	}
	w.sealed = s.sealedIndexes(nil)
	st := s.stripes[0]
	st.flushSealed(s.agg, pairs, w.sealed, false)
	st.flushSealed(s.agg, pairs, w.sealed, false) // again: nothing more
	if got := s.agg.pairs[0].classes.len(); got != 1 {
		t.Errorf("pair 0 has %d classes, want 1", got)
	}
	if c := classesCount(s.agg.pairs[0].classes); c != 1 {
		t.Errorf("pair 0 counts %d cases, want 1", c)
	}
	if s.sealedIndexes(nil); s.spare != nil {
		t.Fatal("an index a stripe has not added is used again")
	}
	s.stripes[1].flushSealed(s.agg, pairs, w.sealed, false)
	if sealed := s.sealedIndexes(nil); len(sealed) != 0 || s.spare != x || len(x.entries) != 0 {
		t.Errorf("after every stripe: %d sealed, spare %p (index %p, %d entries)", len(sealed), s.spare, x, len(x.entries))
	}
	if s.openIndex() != x {
		t.Error("the emptied index is not opened again")
	}
}

// classesCount is the cases of every class of classes.
func classesCount(classes *capped[classKey, classAgg]) int64 {
	var n int64
	classes.each(func(_ classKey, c *classAgg) { n += c.count })
	return n
}
