package compare

import (
	"runtime/debug"
	"slices"
	"strings"
	"sync"

	"github.com/prerel/prerel/engine"
)

// fillReasons sets the policies' reasons on the witness of every class of
// agg, which the workers keep with their verdicts only: a class's witness
// changes many times while a run lasts, and only the last one is shown.
// A run of some groups (RunGroups) does so before it returns its
// aggregate; a whole run fills the reasons of its report's classes
// instead (fillClassReasons). A policy that panics makes it return a
// PanicError.
func fillReasons(agg *aggregate, policies []engine.Policy, pairs [][2]int, workers int) error {
	// The sides of each witness, found pair by pair in parallel.
	type sides struct {
		a, b   int32
		ra, rb *string
	}
	witnesses, of := groupParallel(len(pairs), workers, func(k int, add func([2]string, sides)) {
		pr := pairs[k]
		agg.pairs[k].classes.each(func(_ classKey, c *classAgg) {
			ra, rb := c.reasonSlots()
			add([2]string{c.key.constraint, c.key.version}, sides{int32(pr[0]), int32(pr[1]), ra, rb})
		})
	})
	return fillWitnessReasons(witnesses, policies, workers, func(w int, side func(int32, *string)) {
		for _, s := range of[w] {
			side(s.a, s.ra)
			side(s.b, s.rb)
		}
	})
}

// fillClassReasons sets the policies' reasons on the witness of every
// class, as fillReasons does on an aggregate; the policies of classes[i]
// are sides[i], and classesOf[w] are the classes of witnesses[w]
// (classWitnesses).
func fillClassReasons(classes []Class, sides [][2]int32, witnesses [][2]string, classesOf [][]int32, policies []engine.Policy, workers int) error {
	return fillWitnessReasons(witnesses, policies, workers, func(w int, side func(int32, *string)) {
		for _, i := range classesOf[w] {
			c := &classes[i]
			side(sides[i][0], &c.Witness.AReason)
			side(sides[i][1], &c.Witness.BReason)
		}
	})
}

// fillWitnessReasons sets the reason of every side of the witnesses:
// sides(w, side) calls side with the policy (its index) and the place of
// the reason of each side of witnesses[w]. Each policy judges each
// witness once, whatever the number of its sides.
//
// The witnesses are taken constraint by constraint, spread over workers
// goroutines, and each policy compiles each constraint once. When the
// witnesses name at most maxCauseVersions versions, and few enough for
// their constraints (newReasonTables), each policy that is an
// engine.VersionReader reads them all once (reasonTables) and compiles
// every constraint against that table; otherwise, and for the other
// policies, each constraint is compiled against its own witness versions
// (engine.ReadVersions, or for a few versions engine.TextTable, as a run
// judges a short list).
func fillWitnessReasons(witnesses [][2]string, policies []engine.Policy, workers int, sides func(w int, side func(policy int32, reason *string))) error {
	// A second look at cases the run judged: not counted again in a
	// policy's record of the cases it failed on.
	quiet := make([]engine.Policy, len(policies))
	for i, p := range policies {
		quiet[i] = engine.Quiet(p)
	}
	policies = quiet
	const block = 1024
	constraints, byConstraint := groupParallel((len(witnesses)+block-1)/block, workers, func(b int, add func(string, int32)) {
		for w := b * block; w < min(len(witnesses), (b+1)*block); w++ {
			add(witnesses[w][0], int32(w))
		}
	})
	tables := newReasonTables(witnesses, len(constraints), policies, workers)
	var firstErr error
	var once sync.Once
	parallel(len(constraints), workers, func() func(int) {
		f := reasonFiller{policies: policies, tables: tables, sides: sides,
			matchers: make([]engine.TableMatcher, len(policies)), errs: make([]error, len(policies)),
			done: make([]bool, len(policies)), judged: make([]bool, len(policies)), reasons: make([]string, len(policies))}
		return func(i int) {
			ws := byConstraint[i]
			slices.SortFunc(ws, func(x, y int32) int { return strings.Compare(witnesses[x][1], witnesses[y][1]) })
			if err := f.fill(constraints[i], ws, witnesses); err != nil {
				once.Do(func() { firstErr = err })
			}
		}
	})
	return firstErr
}

// reasonFiller fills the reasons of the witnesses of one constraint after
// another; matchers, errs and done are per policy and constraint, judged
// and reasons per policy and witness.
type reasonFiller struct {
	policies []engine.Policy
	tables   *reasonTables // nil: each constraint on its own versions
	sides    func(w int, side func(policy int32, reason *string))
	matchers []engine.TableMatcher
	errs     []error
	done     []bool
	judged   []bool
	reasons  []string
	versions []string // the witness versions of the constraint
	at       []int32  // with tables, the position of each in them
}

// fill sets the reason of every side of the witnesses ws (indexes into
// witnesses, sorted by version), which share constraint.
func (f *reasonFiller) fill(constraint string, ws []int32, witnesses [][2]string) (err error) {
	policy, version := 0, ""
	defer func() {
		if r := recover(); r != nil {
			err = &PanicError{Policy: f.policies[policy].Name(), Constraint: constraint, Version: version, Value: r, Stack: debug.Stack()}
		}
	}()
	f.versions, f.at = f.versions[:0], f.at[:0]
	for _, w := range ws {
		f.versions = append(f.versions, witnesses[w][1])
		if f.tables != nil {
			f.at = append(f.at, f.tables.index[witnesses[w][1]])
		}
	}
	clear(f.done)
	clear(f.matchers)
	clear(f.errs)
	at := 0
	side := func(p int32, reason *string) {
		if !f.judged[p] {
			policy, version = int(p), ""
			*reason = f.reason(int(p), constraint, at, &version)
			f.reasons[p], f.judged[p] = *reason, true
			return
		}
		*reason = f.reasons[p]
	}
	for at = range ws {
		clear(f.judged)
		f.sides(int(ws[at]), side)
	}
	return nil
}

// reason is policy p's reason on constraint and the witness version at
// position at of f.versions, compiling the constraint the first time;
// version is set to the version while it is judged.
func (f *reasonFiller) reason(p int, constraint string, at int, version *string) string {
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
		return engine.InvalidResult(err).Reason
	}
	*version = f.versions[at]
	i := at
	if onTable {
		i = int(f.at[at])
	}
	return f.matchers[p].Judge(i).Reason
}

// Bounds of the versions of the reason tables (newReasonTables): as many
// as minReasonTableVersions are always read; more only up to
// reasonTableVersions times the witnesses a constraint has on average.
const (
	minReasonTableVersions = 64
	reasonTableVersions    = 8
)

// reasonTables are the tables the reasons are judged on: for each policy
// that is an engine.VersionReader, its reading of every witness version
// of the run, so that the versions are read once and not once per
// constraint.
type reasonTables struct {
	index  map[string]int32      // version -> its position in the tables
	tables []engine.VersionTable // per policy; nil: per constraint
}

// newReasonTables reads the versions of the witnesses, which name
// constraints constraints, or returns nil when no policy is a
// VersionReader, when the witnesses name more than maxCauseVersions
// versions, or more than minReasonTableVersions and more than
// reasonTableVersions times as many as a constraint has witnesses on
// average.
//
// A table judges every version it holds for what a constraint's
// comparators need (the adapters check each comparator against every
// version of the table), so that it pays when the constraints share the
// versions, as in the exhaustive domain, where every constraint meets
// every version. In a domain whose cases are nearly all different, such
// as the random domain, each constraint has a witness or two, and
// compiling it against its own versions is cheaper by far.
func newReasonTables(witnesses [][2]string, constraints int, policies []engine.Policy, workers int) *reasonTables {
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
	for _, w := range witnesses {
		if _, ok := index[w[1]]; !ok {
			if len(versions) == maxCauseVersions {
				return nil
			}
			index[w[1]] = int32(len(versions))
			versions = append(versions, w[1])
		}
	}
	if len(versions) > minReasonTableVersions && len(versions)*max(constraints, 1) > reasonTableVersions*len(witnesses) {
		return nil
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
