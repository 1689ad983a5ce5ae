package compare

import (
	"math/bits"
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
// PanicError, and no reason is set.
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
	need := newPolicySets(len(witnesses), len(policies))
	for w, ss := range of {
		for _, s := range ss {
			need.add(w, s.a)
			need.add(w, s.b)
		}
	}
	reasons, err := fillWitnessReasons(witnesses, policies, workers, need)
	if err != nil {
		return err
	}
	for w, ss := range of {
		for _, s := range ss {
			*s.ra, *s.rb = reasons.of(w, s.a), reasons.of(w, s.b)
		}
	}
	return nil
}

// fillClassReasons sets the policies' reasons on the witness of every
// class, as fillReasons does on an aggregate; the policies of classes[i]
// are sides[i], and its witness is witnesses[witnessOf[i]]
// (classWitnesses). A policy that panics makes it return a PanicError,
// and no reason is set.
//
// The classes of a witness lie far apart in classes: each policy's reason
// on each witness is worked out once (fillWitnessReasons), and the
// reasons are then written to the classes in order, in chunks spread over
// workers goroutines, as the causes are (decideWitnessCauses).
func fillClassReasons(classes []Class, sides [][2]int32, witnesses [][2]string, witnessOf []int32, policies []engine.Policy, workers int) error {
	need := newPolicySets(len(witnesses), len(policies))
	for i, w := range witnessOf {
		need.add(int(w), sides[i][0])
		need.add(int(w), sides[i][1])
	}
	reasons, err := fillWitnessReasons(witnesses, policies, workers, need)
	if err != nil {
		return err
	}
	chunks := (len(classes) + reasonChunk - 1) / reasonChunk
	parallel(chunks, workers, func() func(int) {
		return func(k int) {
			for i := k * reasonChunk; i < min(len(classes), (k+1)*reasonChunk); i++ {
				w, s := int(witnessOf[i]), sides[i]
				c := &classes[i].Witness
				c.AReason, c.BReason = reasons.of(w, s[0]), reasons.of(w, s[1])
			}
		}
	})
	return nil
}

// reasonChunk is how many classes a goroutine writes the reasons of in a
// row.
const reasonChunk = 1 << 14

// policySets is a set of policies (their indexes) for each of a number of
// witnesses, a bit per policy.
type policySets struct {
	words int      // per witness
	bits  []uint64 // witness w's are bits[w*words : (w+1)*words]
}

// newPolicySets is n empty sets of policies among policies.
func newPolicySets(n, policies int) policySets {
	words := (policies + 63) / 64
	return policySets{words: words, bits: make([]uint64, n*words)}
}

// set is the words of witness w's set.
func (s policySets) set(w int) []uint64 { return s.bits[w*s.words : (w+1)*s.words] }

// add puts policy p in witness w's set.
func (s policySets) add(w int, p int32) { s.bits[w*s.words+int(p/64)] |= 1 << (p % 64) }

// len is the number of policies in witness w's set.
func (s policySets) len(w int) int {
	n := 0
	for _, x := range s.set(w) {
		n += bits.OnesCount64(x)
	}
	return n
}

// rank is the number of policies in witness w's set that come before p.
func (s policySets) rank(w int, p int32) int {
	set := s.set(w)
	n := 0
	for _, x := range set[:p/64] {
		n += bits.OnesCount64(x)
	}
	return n + bits.OnesCount64(set[p/64]&(1<<(p%64)-1))
}

// witnessReasons are the policies' reasons on the witnesses, each policy's
// on each witness whose set in need holds it, and only those.
type witnessReasons struct {
	need    policySets
	start   []int32  // witness w's reasons are reasons[start[w]:start[w+1]], by policy in order
	reasons []string // in the order of the witnesses
}

// of is policy p's reason on witness w, which must be in w's set.
func (r *witnessReasons) of(w int, p int32) string {
	return r.reasons[int(r.start[w])+r.need.rank(w, p)]
}

// fillWitnessReasons works out the reason of every policy on every
// witness whose set in need holds it. Each policy judges each witness
// once.
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
func fillWitnessReasons(witnesses [][2]string, policies []engine.Policy, workers int, need policySets) (*witnessReasons, error) {
	// A second look at cases the run judged: not counted again in a
	// policy's record of the cases it failed on.
	quiet := make([]engine.Policy, len(policies))
	for i, p := range policies {
		quiet[i] = engine.Quiet(p)
	}
	policies = quiet
	out := &witnessReasons{need: need, start: make([]int32, len(witnesses)+1)}
	for w := range witnesses {
		out.start[w+1] = out.start[w] + int32(need.len(w))
	}
	out.reasons = make([]string, out.start[len(witnesses)])
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
		f := reasonFiller{policies: policies, tables: tables, out: out,
			matchers: make([]engine.TableMatcher, len(policies)), errs: make([]error, len(policies)),
			compiled: make([]int32, len(policies))}
		return func(i int) {
			ws := byConstraint[i]
			slices.SortFunc(ws, func(x, y int32) int { return strings.Compare(witnesses[x][1], witnesses[y][1]) })
			if err := f.fill(constraints[i], ws, witnesses); err != nil {
				once.Do(func() { firstErr = err })
			}
		}
	})
	if firstErr != nil {
		return nil, firstErr
	}
	return out, nil
}

// reasonFiller works out the reasons on the witnesses of one constraint
// after another; matchers and errs are per policy, of the constraint
// numbered compiled[p] (from 1; 0 for none).
type reasonFiller struct {
	policies []engine.Policy
	tables   *reasonTables // nil: each constraint on its own versions
	out      *witnessReasons
	matchers []engine.TableMatcher
	errs     []error
	compiled []int32
	numbered int32    // the constraints taken so far
	versions []string // the witness versions of the constraint
	at       []int32  // with tables, the position of each in them
}

// fill works out the reasons on the witnesses ws (indexes into witnesses,
// sorted by version), which share constraint, of the policies their sets
// hold.
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
	f.numbered++
	need, out := f.out.need, f.out.reasons
	for at, w := range ws {
		k := f.out.start[w]
		for word, x := range need.set(int(w)) {
			for ; x != 0; x &= x - 1 {
				policy, version = word*64+bits.TrailingZeros64(x), ""
				out[k] = f.reason(policy, constraint, at, &version)
				k++
			}
		}
	}
	return nil
}

// reason is policy p's reason on constraint and the witness version at
// position at of f.versions, compiling the constraint the first time;
// version is set to the version while it is judged.
func (f *reasonFiller) reason(p int, constraint string, at int, version *string) string {
	onTable := f.tables != nil && f.tables.tables[p] != nil
	if f.compiled[p] != f.numbered {
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
		f.compiled[p] = f.numbered
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
