package shard

import (
	"context"
	"fmt"
	"maps"
	"runtime"
	"runtime/debug"
	"slices"
	"sort"
	"sync"

	"github.com/prerel/prerel/compare"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/elide"
)

// checkWitnesses judges every witness the aggregate keeps (of classes
// and splits) with the policies, and fails when one gives another verdict
// than the aggregate records: it is not the policy of the run, and the
// report would mix the two.
func checkWitnesses(ctx context.Context, name string, a *compare.Aggregate, policies []engine.Policy) error {
	t, err := a.Tally()
	if err != nil {
		return err
	}
	pairs := pairIndexes(len(policies))
	if len(t.Pairs) != len(pairs) {
		return fmt.Errorf("compare: %s holds %d pairs of policies, want %d", name, len(t.Pairs), len(pairs))
	}
	// want[constraint][version] is the verdict of each policy, -1 where
	// the aggregate records none.
	want := map[string]map[string][]int8{}
	expect := func(constraint, version string, policy int, v engine.Verdict) error {
		byVersion := want[constraint]
		if byVersion == nil {
			byVersion = map[string][]int8{}
			want[constraint] = byVersion
		}
		vs := byVersion[version]
		if vs == nil {
			vs = make([]int8, len(policies))
			for i := range vs {
				vs[i] = -1
			}
			byVersion[version] = vs
		}
		if vs[policy] >= 0 && vs[policy] != int8(v) {
			return fmt.Errorf("compare: %s records two verdicts of %s on constraint %q, version %q",
				name, policies[policy].Name(), elide.Head(constraint, 200), elide.Head(version, 200))
		}
		vs[policy] = int8(v)
		return nil
	}
	for k, pr := range pairs {
		for _, c := range t.Pairs[k].Classes {
			if err := expect(c.Constraint, c.Version, pr[0], c.A); err != nil {
				return err
			}
			if err := expect(c.Constraint, c.Version, pr[1], c.B); err != nil {
				return err
			}
		}
	}
	for _, s := range t.Splits {
		for i := range s.Verdicts {
			if err := expect(s.Constraint, s.Version, i, s.Verdicts[i]); err != nil {
				return err
			}
		}
	}
	constraints := slices.Collect(maps.Keys(want))
	sort.Strings(constraints)
	next := make(chan string)
	var mu sync.Mutex
	var firstErr error
	fail := func(err error) {
		mu.Lock()
		defer mu.Unlock()
		if firstErr == nil {
			firstErr = err
		}
	}
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := range next {
				if err := checkConstraint(policies, c, want[c]); err != nil {
					fail(err)
				}
			}
		}()
	}
	for _, c := range constraints {
		if ctx.Err() != nil {
			break
		}
		next <- c
	}
	close(next)
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	// A class where a policy refuses the case has a shape that policy
	// gives: its witness, judged again, must have its class's signature.
	// (Decoding checked the other classes' shapes, which need no policy.)
	for k, pr := range pairs {
		for _, c := range t.Pairs[k].Classes {
			if c.A != engine.Invalid && c.B != engine.Invalid {
				continue
			}
			want := c.Signature()
			if got := compare.Signature(policies[pr[0]], policies[pr[1]], c.Constraint, c.Version); got != want {
				return fmt.Errorf("compare: %s: %s vs %s: the witness of the class %q (constraint %q, version %q) has the signature %q: it is not a case of its class",
					name, policies[pr[0]].Name(), policies[pr[1]].Name(), elide.Head(want, 200),
					elide.Head(c.Constraint, 200), elide.Head(c.Version, 200), elide.Head(got, 200))
			}
		}
	}
	return nil
}

// pairIndexes is every pair of n policies, in the order a run pairs them:
// each policy with every one that comes after it.
func pairIndexes(n int) [][2]int {
	var pairs [][2]int
	for i := range n {
		for j := i + 1; j < n; j++ {
			pairs = append(pairs, [2]int{i, j})
		}
	}
	return pairs
}

// checkConstraint judges the recorded witnesses of one constraint with
// every policy that has a recorded verdict on them. A policy that panics
// is named with the case.
func checkConstraint(policies []engine.Policy, constraint string, byVersion map[string][]int8) (err error) {
	versions := slices.Collect(maps.Keys(byVersion))
	sort.Strings(versions)
	var policy engine.Policy
	var version string
	defer func() {
		if r := recover(); r != nil {
			err = &compare.PanicError{Policy: policy.Name(), Constraint: constraint, Version: version, Value: r, Stack: debug.Stack()}
		}
	}()
	for i, pol := range policies {
		policy, version = pol, ""
		var m engine.Matcher
		var cerr error
		compiled := false
		for _, v := range versions {
			w := byVersion[v][i]
			if w < 0 {
				continue
			}
			if !compiled {
				m, cerr = pol.Compile(constraint)
				compiled = true
			}
			version = v
			got := engine.Invalid
			if cerr == nil {
				got = m.Match(v).Verdict
			}
			if got != engine.Verdict(w) {
				return fmt.Errorf("compare: the policy %s judges constraint %q with version %q %s, where the shards recorded %s: it is not the policy the shards ran",
					pol.Name(), elide.Head(constraint, 200), elide.Head(v, 200), got, engine.Verdict(w))
			}
		}
	}
	return nil
}
