package compare

import (
	"fmt"
	"slices"
	"testing"
)

// groupParallel files every value under its key once, whatever the
// number of goroutines: the keys and groups are those of a map filled in
// order, up to the order of the keys and of the values of each.
func TestGroupParallel(t *testing.T) {
	for _, tc := range []struct {
		n, workers int
	}{
		{0, 2}, {1, 1}, {10, 1}, {10, 2}, {1000, 2}, {1000, 3}, {1000, 7},
	} {
		t.Run(fmt.Sprintf("%d items, %d workers", tc.n, tc.workers), func(t *testing.T) {
			key := func(i int) string { return fmt.Sprint(i*i%17, "-", i%3) }
			want := map[string][]int{}
			for i := range tc.n {
				want[key(i)] = append(want[key(i)], i, -i)
			}
			keys, got := groupParallel(tc.n, tc.workers, func(i int, add func(string, int)) {
				add(key(i), i)
				add(key(i), -i)
			})
			if len(got) != len(want) || len(keys) != len(want) {
				t.Fatalf("%d keys, %d groups, want %d", len(keys), len(got), len(want))
			}
			for j, g := range got {
				k := keys[j]
				slices.Sort(g)
				w := slices.Clone(want[k])
				slices.Sort(w)
				if !slices.Equal(g, w) {
					t.Errorf("group of %q = %v, want %v", k, g, w)
				}
			}
		})
	}
}

// classWitnesses lists every witness once and, for each, the classes
// that have it in ascending order, whatever the number of goroutines.
func TestClassWitnesses(t *testing.T) {
	for _, tc := range []struct {
		classes, workers int
	}{
		{0, 2}, {1, 1}, {5, 3}, {3000, 1}, {3000, 2}, {5000, 7},
	} {
		t.Run(fmt.Sprintf("%d classes, %d workers", tc.classes, tc.workers), func(t *testing.T) {
			classes := make([]Class, tc.classes)
			want := map[[2]string][]int32{}
			for i := range classes {
				w := [2]string{fmt.Sprint("~> 1.", i%13), fmt.Sprint("1.", i%7, ".0")}
				classes[i].Witness.Constraint, classes[i].Witness.Version = w[0], w[1]
				want[w] = append(want[w], int32(i))
			}
			witnesses, classesOf, witnessOf := classWitnesses(classes, tc.workers)
			if len(witnesses) != len(want) || len(classesOf) != len(want) || len(witnessOf) != len(classes) {
				t.Fatalf("%d witnesses, %d groups, %d classes' witnesses, want %d, %d, %d",
					len(witnesses), len(classesOf), len(witnessOf), len(want), len(want), len(classes))
			}
			for j, w := range witnesses {
				if !slices.Equal(classesOf[j], want[w]) {
					t.Errorf("classes of %q = %v, want %v", w, classesOf[j], want[w])
				}
			}
			for i, c := range classes {
				if got, w := witnesses[witnessOf[i]], [2]string{c.Witness.Constraint, c.Witness.Version}; got != w {
					t.Errorf("witness of class %d = %q, want %q", i, got, w)
				}
			}
		})
	}
}
