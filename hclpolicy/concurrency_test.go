package hclpolicy_test

import (
	"fmt"
	"sync"
	"testing"

	"github.com/prerel/prerel/compare"
	"github.com/prerel/prerel/engine"
)

// TestConcurrentMatch judges the same cases from several goroutines, with
// one matcher per constraint shared by all of them, and checks that each
// gets what a lone Evaluate gets.
func TestConcurrentMatch(t *testing.T) {
	p := design(t, "hcl-ga-bound")
	d, err := compare.Exhaustive(compare.MinScope)
	if err != nil {
		t.Fatal(err)
	}
	var groups []compare.Group
	_ = d.Groups(func(g compare.Group) bool {
		if len(groups) < 60 {
			groups = append(groups, g)
		}
		return true
	})
	want := map[[2]string]engine.Result{}
	for _, g := range groups {
		for _, v := range g.Versions {
			want[[2]string{g.Constraint, v}] = engine.Evaluate(p, g.Constraint, v)
		}
	}
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for _, g := range groups {
		m, err := p.Compile(g.Constraint)
		if err != nil {
			t.Fatal(err)
		}
		for w := 0; w < 4; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for _, v := range g.Versions {
					if got := m.Match(v); got != want[[2]string{g.Constraint, v}] {
						select {
						case errs <- fmt.Errorf("%q %s: %+v", g.Constraint, v, got):
						default:
						}
					}
				}
			}()
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestManyVersions judges more distinct versions than a policy keeps, and
// then the first ones again.
func TestManyVersions(t *testing.T) {
	p := design(t, "hcl-cargo")
	m, err := p.Compile(">= 1.0.0-beta.1, < 2.0.0")
	if err != nil {
		t.Fatal(err)
	}
	for round := 0; round < 2; round++ {
		for i := 0; i < 5000; i++ {
			v := fmt.Sprintf("1.0.%d-beta.%d", i%3, i)
			want := engine.Reject
			if i%3 == 0 && i >= 1 {
				want = engine.Allow
			}
			if got := m.Match(v); got.Verdict != want {
				t.Fatalf("%s: %+v, want %s", v, got, want)
			}
		}
	}
}
