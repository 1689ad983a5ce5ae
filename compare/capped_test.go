package compare

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/prerel/prerel/compare/internal/caps"
	"github.com/prerel/prerel/engine"
)

// The keys a capped map keeps, and their counts, do not depend on the
// order the keys come in or on how they are spread over merged maps.
func TestCappedKeepsTheSmallestKeysExactly(t *testing.T) {
	less := func(a, b int) bool { return a < b }
	var stream []int
	want := map[int]int{}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 5000 {
		k := rng.IntN(300)
		stream = append(stream, k)
		want[k]++
	}
	const limit = 40
	var keys []int
	for k := range want {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	keys = keys[:limit]
	for _, parts := range []int{1, 2, 3, 7} {
		t.Run(fmt.Sprint(parts, " parts"), func(t *testing.T) {
			maps := make([]*capped[int, int], parts)
			for i := range maps {
				maps[i] = newCapped[int, int](limit, less)
			}
			for i, k := range stream {
				if v := maps[i%parts].add(k); v != nil {
					*v++
				}
			}
			all := maps[0]
			for _, m := range maps[1:] {
				all.merge(m, func(mine, theirs *int) { *mine += *theirs })
			}
			got := map[int]int{}
			all.each(func(k int, v *int) { got[k] = *v })
			if len(got) != limit {
				t.Fatalf("kept %d keys, want %d", len(got), limit)
			}
			for _, k := range keys {
				if got[k] != want[k] {
					t.Errorf("key %d: count %d, want %d", k, got[k], want[k])
				}
			}
		})
	}
}

// A class key's rank orders keys as less does wherever two ranks
// differ, and a capped map of ranked class keys keeps the same keys as
// one without ranks.
func TestCappedRankAgreesWithLess(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	alphabet := []byte("<>=~^ .,0123456789abz")
	shape := func() string {
		n := rng.IntN(12)
		if rng.IntN(20) == 0 {
			n = 250 + rng.IntN(10)
		}
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		return string(b)
	}
	var stream []classKey
	for range 20000 {
		stream = append(stream, classKey{shape(), engine.Verdict(rng.IntN(3)), engine.Verdict(rng.IntN(3))})
	}
	for i := 1; i < len(stream); i++ {
		a, b := stream[i-1], stream[i]
		if ra, rb := a.rank(), b.rank(); ra != rb && (ra < rb) != a.less(b) {
			t.Fatalf("%q ranks %x, %q ranks %x, but less says %v", a.shape, ra, b.shape, rb, a.less(b))
		}
	}
	const limit = 500
	plain := newCapped[classKey, int](limit, classKey.less)
	ranked := newRankedCapped[classKey, int](limit, classKey.less, classKey.rank)
	for _, k := range stream {
		for _, m := range []*capped[classKey, int]{plain, ranked} {
			if v := m.add(k); v != nil {
				*v++
			}
		}
	}
	got := map[classKey]int{}
	ranked.each(func(k classKey, v *int) { got[k] = *v })
	if len(got) != plain.len() {
		t.Fatalf("ranked map keeps %d keys, want %d", len(got), plain.len())
	}
	plain.each(func(k classKey, v *int) {
		if got[k] != *v {
			t.Errorf("key %q: count %d, want %d", k.shape, got[k], *v)
		}
	})
}

// manyShapes is a domain of n cases whose constraints have n different
// shapes, so that every case of two policies that differ is a class of
// its own.
type manyShapes struct{ n int }

func (d manyShapes) Info() DomainInfo {
	return DomainInfo{Name: "shapes", Description: fmt.Sprintf("%d shapes", d.n), Cases: int64(d.n)}
}

func (d manyShapes) Groups(yield func(Group) bool) error {
	for i := range d.n {
		c := ">= 1.0.0-beta"
		for range i {
			c += ", >= 0.0.1-beta"
		}
		if !yield(Group{Constraint: c, Versions: []string{"1.0.0-rc"}}) {
			return nil
		}
	}
	return nil
}

// oneWay gives every version the same verdict.
type oneWay struct {
	name    string
	verdict engine.Verdict
}

func (p oneWay) Name() string { return p.name }
func (p oneWay) Rule() string { return "every version: " + p.verdict.String() }
func (p oneWay) Compile(string) (engine.Matcher, error) {
	return matchAll{p.verdict}, nil
}

type matchAll struct{ verdict engine.Verdict }

func (m matchAll) Match(string) engine.Result {
	return engine.Result{Verdict: m.verdict, Reason: "always"}
}

// A run keeps at most ClassesPerPair classes per pair and MaxSplits
// splits, counts the cases of the others, and keeps the same ones
// whatever the number of workers.
func TestRunCapsClassesAndSplits(t *testing.T) {
	defer func(c, s int) { caps.Classes, caps.Splits = c, s }(caps.Classes, caps.Splits)
	caps.Classes, caps.Splits = 10, 7
	policies := []engine.Policy{oneWay{"yes", engine.Allow}, oneWay{"no", engine.Reject}}
	var first *Report
	for _, workers := range []int{1, 3} {
		r, err := Run(context.Background(), manyShapes{60}, policies, Options{Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Classes) != 10 || r.Pairs[0].Diverge != 60 || r.Pairs[0].CasesLeftOut != 50 {
			t.Fatalf("workers %d: %d classes, pair %+v; want 10 classes and 50 cases left out", workers, len(r.Classes), r.Pairs[0])
		}
		if len(r.Splits) != 7 || r.SplitCasesLeftOut != 53 {
			t.Fatalf("workers %d: %d splits, %d cases left out; want 7 and 53", workers, len(r.Splits), r.SplitCasesLeftOut)
		}
		if first == nil {
			first = r
			continue
		}
		if d := diffReports(first, r); len(d) != 0 {
			t.Errorf("the kept classes depend on the workers: %v", d)
		}
	}
	var left int64
	for _, p := range first.Pairs {
		left += p.CasesLeftOut
	}
	if left != 50 {
		t.Errorf("the pairs count %d diverging cases in further classes, want 50", left)
	}
}

// selectSmallest leaves the k smallest elements in front, whatever the
// order they come in.
func TestSelectSmallest(t *testing.T) {
	less := func(a, b int) bool { return a < b }
	rnd := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		name string
		in   []int
		k    int
	}{
		{"empty", nil, 0},
		{"none", []int{3, 1, 2}, 0},
		{"all", []int{3, 1, 2}, 3},
		{"short", []int{5, 4, 3, 2, 1}, 2},
		{"ascending", seq(0, 200, 1), 37},
		{"descending", seq(199, -1, -1), 37},
		{"shuffled", rnd.Perm(5000), 253},
		{"shuffled, all but one", rnd.Perm(300), 299},
		{"shuffled, one", rnd.Perm(300), 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := slices.Clone(tc.in)
			selectSmallest(s, tc.k, less)
			want := slices.Sorted(slices.Values(tc.in))[:tc.k]
			got := slices.Sorted(slices.Values(s[:tc.k]))
			if !slices.Equal(got, want) {
				t.Errorf("smallest %d = %v, want %v", tc.k, got, want)
			}
			if !slices.Equal(slices.Sorted(slices.Values(s)), slices.Sorted(slices.Values(tc.in))) {
				t.Errorf("the elements changed")
			}
		})
	}
}

// seq is from, from+step, ... up to to, not included.
func seq(from, to, step int) []int {
	var s []int
	for i := from; i != to; i += step {
		s = append(s, i)
	}
	return s
}
