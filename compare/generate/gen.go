package generate

import (
	"math/rand"

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

// Cases yields count cases generated as Case(DefaultMaxComparators) does,
// as (constraint, version) text, the same stream for the same seed. It
// stops early when yield returns false.
func Cases(seed int64, count int, yield func(constraint, version string) bool) {
	r := rand.New(rand.NewSource(seed))
	for i := 0; i < count; i++ {
		c := genCase(r, DefaultMaxComparators)
		if !yield(c.Constraint.String(), c.Version.String()) {
			return
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

func genCase(r *rand.Rand, maxComparators int) CaseSpec {
	c := CaseSpec{Constraint: genConstraint(r, maxComparators)}
	if !percent(r, 80) {
		c.Version = genVersion(r, 50)
		return c
	}
	cmp := c.Constraint.Comparators[r.Intn(len(c.Constraint.Comparators))]
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
	c.Version = v
	return c
}
