package generate

import (
	"math/rand"
	"slices"

	"github.com/leanovate/gopter"

	"github.com/prerel/prerel/engine"
)

// DefaultMaxComparators is the largest number of comparators Cases puts in
// a constraint.
const DefaultMaxComparators = 4

// Version generates a VersionSpec: a standalone version with small numbers
// and, about half of the time, a prerelease. Render it with String.
func Version() gopter.Gen {
	return func(p *gopter.GenParameters) *gopter.GenResult {
		v := genVersion(p.Rng, 50)
		return gopter.NewGenResult(v, shrinkVersion)
	}
}

// Constraint generates a ConstraintSpec of 1 to maxComparators comparators
// (at least 1), mostly short ones. Later comparators often reuse or
// neighbour the base of an earlier one, as real ranges do
// (">= 1.0.0-beta, < 1.0.0"). Render it with String.
func Constraint(maxComparators int) gopter.Gen {
	return func(p *gopter.GenParameters) *gopter.GenResult {
		c := genConstraint(p.Rng, maxComparators)
		return gopter.NewGenResult(c, shrinkConstraint)
	}
}

// Case generates a CaseSpec: a constraint as Constraint does and a version
// that, most of the time, is made from one of its comparators (the same
// base, a neighbour, the next release or the upper bound of "~>", with or
// without a prerelease) so that prerelease rules decide the verdict.
// Shrinking works on both parts together.
func Case(maxComparators int) gopter.Gen {
	return func(p *gopter.GenParameters) *gopter.GenResult {
		c := genCase(p.Rng, maxComparators)
		return gopter.NewGenResult(c, shrinkCase)
	}
}

// GroupSize is the number of versions Groups generates for each
// constraint, and HistoryConstraints the number of constraints that share
// one history of them.
const (
	GroupSize          = 64
	HistoryConstraints = 16
)

// Cases yields count cases of Groups(seed, count, ...) one at a time, as
// (constraint, version) text, the same stream for the same seed. It stops
// early when yield returns false.
func Cases(seed int64, count int, yield func(constraint, version string) bool) {
	Groups(seed, count, func(c string, versions []string) bool {
		for _, v := range versions {
			if !yield(c, v) {
				return false
			}
		}
		return true
	})
}

// Groups yields count cases in groups, the same stream for the same seed,
// as constraints meet the version history of what they constrain:
// HistoryConstraints constraints of 1 to DefaultMaxComparators comparators,
// which most often repeat the bounds of one another as constraints on one
// module do, share a history of GroupSize versions generated around them
// as Case does (each made from a comparator of one of them, most of the
// time, or a free one), and each is judged against the whole history, one
// group to a constraint. The last
// group has only the first versions of its history when count is not a
// multiple of GroupSize. The groups of one history are handed the same
// versions slice, which the caller must not change. Groups stops early
// when yield returns false.
func Groups(seed int64, count int, yield func(constraint string, versions []string) bool) {
	r := rand.New(rand.NewSource(seed))
	for done := 0; done < count; {
		constraints := make([]ConstraintSpec, 0, HistoryConstraints)
		var bounds []ComparatorSpec
		for range HistoryConstraints {
			c := genConstraintFrom(r, DefaultMaxComparators, &bounds)
			constraints = append(constraints, c)
		}
		history := make([]string, 0, GroupSize)
		seen := make(map[string]bool, GroupSize)
		for i := range GroupSize {
			c := constraints[i%len(constraints)]
			v := genCaseVersion(r, c).String()
			// a history names each version once: draw again a few times
			for try := 0; seen[v] && try < 8; try++ {
				v = genCaseVersion(r, c).String()
			}
			seen[v] = true
			history = append(history, v)
		}
		for _, c := range constraints {
			n := min(GroupSize, count-done)
			if n == 0 {
				return
			}
			if !yield(c.String(), history[:n]) {
				return
			}
			done += n
		}
	}
}

// percent reports true with probability n/100.
func percent(r *rand.Rand, n int) bool { return r.Intn(100) < n }

// genNumber returns a version number: 0 to 3 most of the time, sometimes
// up to 12, rarely a multi-digit one.
func genNumber(r *rand.Rand) uint64 {
	switch n := r.Intn(100); {
	case n < 82:
		return uint64(r.Intn(4))
	case n < 96:
		return uint64(4 + r.Intn(9))
	default:
		large := [...]uint64{10, 11, 20, 99, 100, 123, 1000}
		return large[r.Intn(len(large))]
	}
}

func genPrerelease(r *rand.Rand) string { return prereleases[r.Intn(len(prereleases))] }

// decorate adds build metadata and a "v" prefix, each now and then.
func decorate(r *rand.Rand, v *VersionSpec) {
	if percent(r, 8) {
		v.Build = builds[r.Intn(len(builds))]
	}
	if percent(r, 8) {
		v.VPrefix = true
	}
}

// genVersion returns a fresh version with a prerelease with probability
// prePercent/100.
func genVersion(r *rand.Rand, prePercent int) VersionSpec {
	v := VersionSpec{Major: genNumber(r), Minor: genNumber(r), Patch: genNumber(r)}
	if percent(r, prePercent) {
		v.Prerelease = genPrerelease(r)
	}
	decorate(r, &v)
	return v
}

// ops lists the operators with their weights in generation.
var ops = []struct {
	op     engine.Op
	weight int
}{
	{engine.OpEqual, 14},
	{engine.OpNotEqual, 8},
	{engine.OpGreater, 12},
	{engine.OpGreaterEqual, 20},
	{engine.OpLess, 16},
	{engine.OpLessEqual, 10},
	{engine.OpPessimistic, 20},
}

func genOp(r *rand.Rand) engine.Op {
	total := 0
	for _, o := range ops {
		total += o.weight
	}
	n := r.Intn(total)
	for _, o := range ops {
		if n < o.weight {
			return o.op
		}
		n -= o.weight
	}
	return engine.OpGreaterEqual
}

// neighbour returns v's base moved a little: the next patch, minor or
// major release, or one step down.
func neighbour(r *rand.Rand, v VersionSpec) VersionSpec {
	w := VersionSpec{Major: v.Major, Minor: v.Minor, Patch: v.Patch}
	switch r.Intn(5) {
	case 0:
		w.Patch++
	case 1:
		w.Minor, w.Patch = w.Minor+1, 0
	case 2:
		w.Major, w.Minor, w.Patch = w.Major+1, 0, 0
	default:
		switch {
		case w.Patch > 0:
			w.Patch--
		case w.Minor > 0:
			w.Minor--
		case w.Major > 0:
			w.Major--
		default:
			w.Patch++
		}
	}
	return w
}

// genComparator returns a comparator, often built on the base of one of
// the earlier comparators.
func genComparator(r *rand.Rand, earlier []ComparatorSpec) ComparatorSpec {
	c := ComparatorSpec{Op: genOp(r), Precision: 3}
	if c.Op == engine.OpEqual && percent(r, 40) {
		c.Bare = true
	}
	switch n := r.Intn(100); {
	case n < 20:
		c.Precision = 2
	case n < 30:
		c.Precision = 1
	}
	prePercent := 45
	if c.Precision < 3 {
		prePercent = 15
	}
	if len(earlier) > 0 && percent(r, 55) {
		e := earlier[r.Intn(len(earlier))].Version
		if percent(r, 60) {
			c.Version = VersionSpec{Major: e.Major, Minor: e.Minor, Patch: e.Patch}
		} else {
			c.Version = neighbour(r, e)
		}
		if percent(r, prePercent) {
			c.Version.Prerelease = genPrerelease(r)
		}
		decorate(r, &c.Version)
	} else {
		c.Version = genVersion(r, prePercent)
	}
	if c.Precision < 3 {
		c.Version.Patch = 0
	}
	if c.Precision < 2 {
		c.Version.Minor = 0
	}
	return c
}

// comparatorCount returns 1 to max (at least 1), mostly small.
func comparatorCount(r *rand.Rand, max int) int {
	if max <= 1 {
		return 1
	}
	for n := 1; n < max; n++ {
		if percent(r, 45) {
			return n
		}
	}
	return max
}

func genConstraint(r *rand.Rand, maxComparators int) ConstraintSpec {
	n := comparatorCount(r, maxComparators)
	c := ConstraintSpec{Comparators: make([]ComparatorSpec, 0, n)}
	for i := 0; i < n; i++ {
		c.Comparators = append(c.Comparators, genComparator(r, c.Comparators))
	}
	return c
}

// genConstraintFrom is genConstraint for a constraint among others on the
// same releases: most comparators repeat one of bounds, the comparators
// already written, as constraints on one module repeat its bounds, and
// the others are new, often built on the bases of bounds, and added to
// them.
func genConstraintFrom(r *rand.Rand, maxComparators int, bounds *[]ComparatorSpec) ConstraintSpec {
	n := comparatorCount(r, maxComparators)
	c := ConstraintSpec{Comparators: make([]ComparatorSpec, 0, n)}
	for i := 0; i < n; i++ {
		if len(*bounds) >= 4 && percent(r, 70) {
			c.Comparators = append(c.Comparators, (*bounds)[r.Intn(len(*bounds))])
			continue
		}
		cmp := genComparator(r, append(slices.Clip(*bounds), c.Comparators...))
		c.Comparators = append(c.Comparators, cmp)
		*bounds = append(*bounds, cmp)
	}
	return c
}

func genCase(r *rand.Rand, maxComparators int) CaseSpec {
	c := genConstraint(r, maxComparators)
	return CaseSpec{Constraint: c, Version: genCaseVersion(r, c)}
}

// genCaseVersion returns a version for c: most of the time one made from
// one of its comparators, otherwise a free one.
func genCaseVersion(r *rand.Rand, c ConstraintSpec) VersionSpec {
	if !percent(r, 80) {
		return genVersion(r, 50)
	}
	cmp := c.Comparators[r.Intn(len(c.Comparators))]
	e := cmp.Version
	v := VersionSpec{Major: e.Major, Minor: e.Minor, Patch: e.Patch}
	switch n := r.Intn(100); {
	case n < 55:
		// the comparator's own base
	case n < 70 && cmp.Op == engine.OpPessimistic:
		// the upper bound of "~>": the first version it excludes
		if cmp.Precision == 3 {
			v.Minor, v.Patch = v.Minor+1, 0
		} else {
			v.Major, v.Minor, v.Patch = v.Major+1, 0, 0
		}
	default:
		v = neighbour(r, v)
	}
	switch {
	case e.Prerelease != "" && percent(r, 40):
		v.Prerelease = e.Prerelease
	case percent(r, 60):
		v.Prerelease = genPrerelease(r)
	}
	decorate(r, &v)
	return v
}
