package compare

import (
	"cmp"
	"runtime/debug"
	"slices"
	"strings"
	"sync"

	"github.com/prerel/prerel/engine"
)

// fillReasons sets the policies' reasons on the witness of every class of
// agg, which the workers keep with their verdicts only: a class's witness
// changes many times while a run lasts, and only the last one is shown.
// A shard does so before it writes its partial report; a whole run fills
// the reasons of its report's classes instead (fillClassReasons). A
// policy that panics makes it return a PanicError.
func fillReasons(agg *aggregate, policies []engine.Policy, pairs [][2]int, workers int) error {
	// The sides of each constraint, found pair by pair in parallel.
	constraints, sides := groupParallel(len(pairs), workers, func(k int, add func(string, reasonSide)) {
		pr := pairs[k]
		agg.pairs[k].classes.each(func(_ classKey, c *classAgg) {
			add(c.key.constraint, reasonSide{version: c.key.version, reason: &c.ra.Reason, policy: int32(pr[0])})
			add(c.key.constraint, reasonSide{version: c.key.version, reason: &c.rb.Reason, policy: int32(pr[1])})
		})
	})
	return fillSides(constraints, sides, policies, workers)
}

// fillClassReasons sets the policies' reasons on the witness of every
// class, as fillReasons does on an aggregate. A class of a policy not
// among policies keeps its reasons.
func fillClassReasons(classes []Class, policies []engine.Policy, workers int) error {
	index := make(map[string]int32, len(policies))
	for i, p := range policies {
		index[p.Name()] = int32(i)
	}
	const block = 1024
	constraints, sides := groupParallel((len(classes)+block-1)/block, workers, func(b int, add func(string, reasonSide)) {
		for i := b * block; i < min(len(classes), (b+1)*block); i++ {
			w := &classes[i].Witness
			a, aok := index[classes[i].A]
			b, bok := index[classes[i].B]
			if !aok || !bok {
				continue
			}
			add(w.Constraint, reasonSide{version: w.Version, reason: &w.AReason, policy: a})
			add(w.Constraint, reasonSide{version: w.Version, reason: &w.BReason, policy: b})
		}
	})
	return fillSides(constraints, sides, policies, workers)
}

// fillSides sets the reason of every side of each constraint's witnesses
// (sides[i] are those of constraints[i]). The constraints are taken one
// by one, spread over workers goroutines, and each policy compiles each
// constraint once. When the witnesses name at most maxCauseVersions
// versions, each policy that is an engine.VersionReader reads them all
// once (reasonTables) and compiles every constraint against that table;
// otherwise, and for the other policies, each constraint is compiled
// against its own witness versions (engine.ReadVersions, or for a few
// versions engine.TextTable, as a run judges a short list).
func fillSides(constraints []string, sides [][]reasonSide, policies []engine.Policy, workers int) error {
	tables := newReasonTables(sides, policies, workers)
	var firstErr error
	var once sync.Once
	parallel(len(constraints), workers, func() func(int) {
		f := reasonFiller{policies: policies, tables: tables, matchers: make([]engine.TableMatcher, len(policies)),
			errs: make([]error, len(policies)), done: make([]bool, len(policies))}
		return func(i int) {
			run := sides[i]
			// Either order puts the sides of one version together; the
			// versions' positions in the tables are cheaper to compare.
			if tables != nil {
				for j := range run {
					run[j].at = tables.index[run[j].version]
				}
				slices.SortFunc(run, func(x, y reasonSide) int {
					if x.at != y.at {
						return cmp.Compare(x.at, y.at)
					}
					return cmp.Compare(x.policy, y.policy)
				})
			} else {
				slices.SortFunc(run, func(x, y reasonSide) int {
					if c := strings.Compare(x.version, y.version); c != 0 {
						return c
					}
					return cmp.Compare(x.policy, y.policy)
				})
			}
			if err := f.fill(constraints[i], run); err != nil {
				once.Do(func() { firstErr = err })
			}
		}
	})
	return firstErr
}

// reasonSide is one side of a class witness: its version, where its
// reason goes, and its policy (the index); at is the version's position
// in the reasonTables, when there are tables.
type reasonSide struct {
	version string
	reason  *string
	policy  int32
	at      int32
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

// fill sets the reason of every side of run, the sides of constraint
// sorted by version (their text, or with tables their position in them),
// then policy.
func (f *reasonFiller) fill(constraint string, run []reasonSide) (err error) {
	policy, version := 0, ""
	defer func() {
		if r := recover(); r != nil {
			err = &PanicError{Policy: f.policies[policy].Name(), Constraint: constraint, Version: version, Value: r, Stack: debug.Stack()}
		}
	}()
	f.versions = f.versions[:0]
	f.at = f.at[:0]
	for i, s := range run {
		if i == 0 || s.version != run[i-1].version {
			f.versions = append(f.versions, s.version)
			if f.tables != nil {
				f.at = append(f.at, s.at)
			}
		}
	}
	clear(f.done)
	clear(f.matchers)
	clear(f.errs)
	at := -1
	var last engine.Result
	for i, s := range run {
		if i == 0 || s.version != run[i-1].version {
			at++
		} else if s.policy == run[i-1].policy {
			*s.reason = last.Reason // the same policy on the same case
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
		*s.reason = last.Reason
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
			if _, ok := index[s.version]; !ok {
				if len(versions) == maxCauseVersions {
					return nil
				}
				index[s.version] = int32(len(versions))
				versions = append(versions, s.version)
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
