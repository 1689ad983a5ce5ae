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
// The witnesses are taken constraint by constraint, spread over workers
// goroutines, and each policy compiles each constraint once. When the
// witnesses name at most maxCauseVersions versions, each policy that is an
// engine.VersionReader reads them all once (reasonTables) and compiles
// every constraint against that table; otherwise, and for the other
// policies, each constraint is compiled against its own witness versions
// (engine.ReadVersions, or for a few versions engine.TextTable, as a run
// judges a short list). A policy that panics makes it return a
// PanicError.
func fillReasons(agg *aggregate, policies []engine.Policy, pairs [][2]int, workers int) error {
	// The sides of each constraint, found pair by pair in parallel.
	byConstraint := groupParallel(len(pairs), workers, func(k int, add func(string, reasonSide)) {
		pr := pairs[k]
		agg.pairs[k].classes.each(func(_ classKey, c *classAgg) {
			add(c.key.constraint, reasonSide{c, int32(pr[0]), false})
			add(c.key.constraint, reasonSide{c, int32(pr[1]), true})
		})
	})
	tables := newReasonTables(byConstraint, policies, workers)
	next := make(chan []reasonSide)
	var wg sync.WaitGroup
	var firstErr error
	var once sync.Once
	for range max(workers, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f := reasonFiller{policies: policies, tables: tables, matchers: make([]engine.TableMatcher, len(policies)),
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
	tables   *reasonTables // nil: each constraint on its own versions
	matchers []engine.TableMatcher
	errs     []error
	done     []bool
	versions []string // the witness versions of the constraint
	at       []int32  // with tables, the position of each in them
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
	f.at = f.at[:0]
	for i, s := range run {
		if i == 0 || s.class.key.version != run[i-1].class.key.version {
			f.versions = append(f.versions, s.class.key.version)
			if f.tables != nil {
				f.at = append(f.at, f.tables.index[s.class.key.version])
			}
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
		onTable := f.tables != nil && f.tables.tables[p] != nil
		if !f.done[p] {
			var t engine.VersionTable
			switch {
			case onTable:
				t = f.tables.tables[p]
			case len(f.versions) < minReadVersions:
				t = engine.TextTable(f.policies[p], f.versions) // as a short list is judged in the run
			default:
				t = engine.ReadVersions(f.policies[p], f.versions)
			}
			f.matchers[p], f.errs[p] = t.Compile(constraint)
			f.done[p] = true
		}
		if err := f.errs[p]; err != nil {
			last = engine.InvalidResult(err)
		} else {
			version = f.versions[at]
			i := at
			if onTable {
				i = int(f.at[at])
			}
			last = f.matchers[p].Judge(i)
		}
		s.result().Reason = last.Reason
	}
	return nil
}

// reasonTables are the tables the reasons are judged on: for each policy
// that is an engine.VersionReader, its reading of every witness version
// of the run, so that the versions are read once and not once per
// constraint.
type reasonTables struct {
	index  map[string]int32      // version -> its position in the tables
	tables []engine.VersionTable // per policy; nil: per constraint
}

// newReasonTables reads the witness versions of the constraints'
// sides, or returns nil when no policy is a VersionReader or the
// witnesses name more than maxCauseVersions versions.
func newReasonTables(byConstraint [][]reasonSide, policies []engine.Policy, workers int) *reasonTables {
	readers := false
	for _, p := range policies {
		if _, ok := p.(engine.VersionReader); ok {
			readers = true
		}
	}
	if !readers {
		return nil
	}
	index := map[string]int32{}
	var versions []string
	for _, run := range byConstraint {
		for _, s := range run {
			if _, ok := index[s.class.key.version]; !ok {
				if len(versions) == maxCauseVersions {
					return nil
				}
				index[s.class.key.version] = int32(len(versions))
				versions = append(versions, s.class.key.version)
			}
		}
	}
	t := &reasonTables{index: index, tables: make([]engine.VersionTable, len(policies))}
	parallel(len(policies), workers, func() func(int) {
		return func(p int) {
			if r, ok := policies[p].(engine.VersionReader); ok {
				t.tables[p] = readTable(r, versions)
			}
		}
	})
	return t
}
