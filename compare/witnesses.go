package compare

import (
	"cmp"
	"runtime/debug"
	"slices"
	"sync"

	"github.com/prerel/prerel/engine"
)

// fillReasons sets the policies' reasons on the witness of every class of
// agg, which the workers keep with their verdicts only: a class's witness
// changes many times while a run lasts, and only the last one is shown.
// The witnesses are taken constraint by constraint: each policy reads the
// constraint's witness versions once (engine.ReadVersions, or for a few
// versions engine.TextTable, as a run judges a short list) and compiles
// the constraint once, spread over workers goroutines. A policy that
// panics makes it return a PanicError.
func fillReasons(agg *aggregate, policies []engine.Policy, pairs [][2]int, workers int) error {
	// The sides of each constraint, in the order the constraints come.
	groups := map[string]int32{}
	var byConstraint [][]reasonSide
	for k, pr := range pairs {
		agg.pairs[k].classes.each(func(_ classKey, c *classAgg) {
			g, ok := groups[c.key.constraint]
			if !ok {
				g = int32(len(byConstraint))
				groups[c.key.constraint] = g
				byConstraint = append(byConstraint, nil)
			}
			byConstraint[g] = append(byConstraint[g], reasonSide{c, int32(pr[0]), false}, reasonSide{c, int32(pr[1]), true})
		})
	}
	groups = nil
	next := make(chan []reasonSide)
	var wg sync.WaitGroup
	var firstErr error
	var once sync.Once
	for range max(workers, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f := reasonFiller{policies: policies, matchers: make([]engine.TableMatcher, len(policies)),
				errs: make([]error, len(policies)), done: make([]bool, len(policies))}
			for run := range next {
				slices.SortFunc(run, func(x, y reasonSide) int {
					return cmp.Or(cmp.Compare(x.class.key.version, y.class.key.version), cmp.Compare(x.policy, y.policy))
				})
				if err := f.fill(run); err != nil {
					once.Do(func() { firstErr = err })
				}
			}
		}()
	}
	for _, run := range byConstraint {
		next <- run
	}
	close(next)
	wg.Wait()
	return firstErr
}

// reasonSide is one side of a class witness: the class, the policy (its
// index) and whether it is the class's b side.
type reasonSide struct {
	class  *classAgg
	policy int32
	b      bool
}

// result is the result of the witness that s completes.
func (s reasonSide) result() *engine.Result {
	if s.b {
		return &s.class.rb
	}
	return &s.class.ra
}

// reasonFiller fills the reasons of the witnesses of one constraint after
// another; matchers, errs and done are per policy.
type reasonFiller struct {
	policies []engine.Policy
	matchers []engine.TableMatcher
	errs     []error
	done     []bool
	versions []string
}

// fill sets the reason of every side of run, the sides of one constraint
// in the order of their versions, then policies.
func (f *reasonFiller) fill(run []reasonSide) (err error) {
	constraint := run[0].class.key.constraint
	policy, version := 0, ""
	defer func() {
		if r := recover(); r != nil {
			err = &PanicError{Policy: f.policies[policy].Name(), Constraint: constraint, Version: version, Value: r, Stack: debug.Stack()}
		}
	}()
	f.versions = f.versions[:0]
	for i, s := range run {
		if i == 0 || s.class.key.version != run[i-1].class.key.version {
			f.versions = append(f.versions, s.class.key.version)
		}
	}
	clear(f.done)
	clear(f.matchers)
	clear(f.errs)
	at := -1
	var last engine.Result
	for i, s := range run {
		if i == 0 || s.class.key.version != run[i-1].class.key.version {
			at++
		} else if s.policy == run[i-1].policy {
			s.result().Reason = last.Reason // the same policy on the same case
			continue
		}
		p := int(s.policy)
		policy, version = p, ""
		if !f.done[p] {
			var t engine.VersionTable
			if len(f.versions) < minReadVersions {
				t = engine.TextTable(f.policies[p], f.versions) // as a short list is judged in the run
			} else {
				t = engine.ReadVersions(f.policies[p], f.versions)
			}
			f.matchers[p], f.errs[p] = t.Compile(constraint)
			f.done[p] = true
		}
		if err := f.errs[p]; err != nil {
			last = engine.InvalidResult(err)
		} else {
			version = f.versions[at]
			last = f.matchers[p].Judge(at)
		}
		s.result().Reason = last.Reason
	}
	return nil
}
