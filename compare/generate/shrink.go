package generate

import (
	"github.com/leanovate/gopter"

	"github.com/prerel/prerel/engine"
)

// shape is what the shrinkers work on: comparators and, optionally, a
// version. Every candidate a shape proposes is strictly smaller by the sum
// of its measures (comparator count, operator rank, numbers, prerelease
// rank, build, "v", missing precision, bareness), and none of them grows,
// so shrinking always ends.
type shape struct {
	cmps []ComparatorSpec
	v    VersionSpec
	hasV bool
}

func (s shape) clone() shape {
	s.cmps = append([]ComparatorSpec(nil), s.cmps...)
	return s
}

// versions returns pointers to every version of s: the comparators' in
// order, then the version.
func (s *shape) versions() []*VersionSpec {
	out := make([]*VersionSpec, 0, len(s.cmps)+1)
	for i := range s.cmps {
		out = append(out, &s.cmps[i].Version)
	}
	if s.hasV {
		out = append(out, &s.v)
	}
	return out
}

// numbers returns pointers to every written number of s, in reading order.
func (s *shape) numbers() []*uint64 {
	var out []*uint64
	for i := range s.cmps {
		c := &s.cmps[i]
		out = append(out, &c.Version.Major)
		if c.Precision >= 2 {
			out = append(out, &c.Version.Minor)
		}
		if c.Precision >= 3 {
			out = append(out, &c.Version.Patch)
		}
	}
	if s.hasV {
		out = append(out, &s.v.Major, &s.v.Minor, &s.v.Patch)
	}
	return out
}

// part returns pointers to the written numbers of one part (0 major, 1
// minor, 2 patch) of every version of s.
func (s *shape) part(i int) []*uint64 {
	var out []*uint64
	for j := range s.cmps {
		c := &s.cmps[j]
		if c.Precision > i {
			out = append(out, c.Version.number(i))
		}
	}
	if s.hasV {
		out = append(out, s.v.number(i))
	}
	return out
}

func (v *VersionSpec) number(i int) *uint64 {
	switch i {
	case 0:
		return &v.Major
	case 1:
		return &v.Minor
	}
	return &v.Patch
}

// opRank orders the operators from simplest to most involved.
func opRank(o engine.Op) int {
	switch o {
	case engine.OpGreaterEqual:
		return 0
	case engine.OpLess:
		return 1
	case engine.OpEqual:
		return 2
	case engine.OpGreater:
		return 3
	case engine.OpLessEqual:
		return 4
	case engine.OpNotEqual:
		return 5
	}
	return 6
}

var opsByRank = []engine.Op{
	engine.OpGreaterEqual, engine.OpLess, engine.OpEqual, engine.OpGreater,
	engine.OpLessEqual, engine.OpNotEqual, engine.OpPessimistic,
}

// preRank is 0 for no prerelease, then the position in the alphabet; a tag
// outside the alphabet ranks last.
func preRank(p string) int {
	if p == "" {
		return 0
	}
	for i, q := range prereleases {
		if p == q {
			return i + 1
		}
	}
	return len(prereleases) + 1
}

// simplerPrereleases lists the tags that rank below p, simplest first.
func simplerPrereleases(p string) []string {
	r := preRank(p)
	if r == 0 {
		return nil
	}
	out := []string{""}
	for i, q := range prereleases {
		if i+1 >= r {
			break
		}
		out = append(out, q)
	}
	return out
}

// smallerNumbers lists the numbers to try instead of n: 0, n/2, n-1.
func smallerNumbers(n uint64) []uint64 {
	if n == 0 {
		return nil
	}
	out := []uint64{0}
	if h := n / 2; h > 0 {
		out = append(out, h)
	}
	if n-1 > n/2 {
		out = append(out, n-1)
	}
	return out
}

// candidates returns the shrink candidates of s, most drastic first. A
// constraint keeps at least minCmps comparators.
func (s shape) candidates(minCmps int) []shape {
	var out []shape
	out = append(out, s.withFewerComparators(minCmps)...)
	out = append(out, s.withSimplerOperators()...)
	out = append(out, s.withSmallerNumbers()...)
	out = append(out, s.withSimplerPrereleases()...)
	out = append(out, s.withoutDecorations()...)
	out = append(out, s.withPlainerComparators()...)
	return out
}

// withFewerComparators drops each comparator in turn, keeping at least
// minCmps.
func (s shape) withFewerComparators(minCmps int) []shape {
	if len(s.cmps) <= minCmps {
		return nil
	}
	var out []shape
	for i := range s.cmps {
		t := s.clone()
		t.cmps = append(t.cmps[:i], t.cmps[i+1:]...)
		out = append(out, t)
	}
	return out
}

// withSimplerOperators gives each comparator, in turn, each lower-ranked
// operator.
func (s shape) withSimplerOperators() []shape {
	var out []shape
	for i, c := range s.cmps {
		for _, o := range opsByRank[:opRank(c.Op)] {
			t := s.clone()
			t.cmps[i].Op, t.cmps[i].Bare = o, false
			out = append(out, t)
		}
	}
	return out
}

// withSmallerNumbers shrinks a value shared by several places everywhere
// at once, then a value shared by several versions in the same part
// (major, minor or patch), then shifts each part down, then shrinks each
// place on its own.
func (s shape) withSmallerNumbers() []shape {
	out := everywhereAtOnce(s, allNumbers)
	for part := 0; part < 3; part++ {
		out = append(out, everywhereAtOnce(s, partNumbers(part))...)
	}
	for part := 0; part < 3; part++ {
		out = append(out, s.withPartShiftedDown(part)...)
	}
	return append(out, eachOnItsOwn(s, allNumbers)...)
}

// withPartShiftedDown subtracts 1, or the smallest non-zero value, from
// every non-zero number of one part, so that versions keep their distance
// ("~> 0.3.0" with 0.4.0-alpha becomes "~> 0.2.0" with 0.3.0-alpha).
func (s shape) withPartShiftedDown(part int) []shape {
	least, nonzero := leastNonZero(s.part(part))
	if nonzero < 2 {
		return nil
	}
	steps := []uint64{least}
	if least > 1 {
		steps = append(steps, 1)
	}
	var out []shape
	for _, d := range steps {
		t := s.clone()
		for _, q := range t.part(part) {
			if *q > 0 {
				*q -= d // d <= least <= *q
			}
		}
		out = append(out, t)
	}
	return out
}

// leastNonZero returns the smallest non-zero value among ps and how many of
// ps are non-zero.
func leastNonZero(ps []*uint64) (least uint64, nonzero int) {
	for _, p := range ps {
		if *p > 0 {
			nonzero++
			if least == 0 || *p < least {
				least = *p
			}
		}
	}
	return least, nonzero
}

// withSimplerPrereleases replaces a tag shared by several versions
// everywhere at once, then each version's tag on its own.
func (s shape) withSimplerPrereleases() []shape {
	return append(everywhereAtOnce(s, prereleaseTags), eachOnItsOwn(s, prereleaseTags)...)
}

// withoutDecorations drops each version's build metadata, then each "v"
// prefix.
func (s shape) withoutDecorations() []shape {
	return append(eachOnItsOwn(s, buildMetadata), eachOnItsOwn(s, vPrefixes)...)
}

// withPlainerComparators writes each comparator at full precision, then
// each bare "=" explicitly.
func (s shape) withPlainerComparators() []shape {
	return append(eachOnItsOwn(s, precisions), eachOnItsOwn(s, bareness)...)
}

// A dimension is one kind of value that a shape holds in several places,
// together with the simpler values to try in place of each.
type dimension[T comparable] struct {
	// places returns pointers to the values in s, in reading order; a
	// clone of s yields the matching pointers in the same order.
	places func(s *shape) []*T
	// simpler lists the values to try instead of v, simplest first.
	simpler func(v T) []T
}

var (
	allNumbers = dimension[uint64]{
		places:  (*shape).numbers,
		simpler: smallerNumbers,
	}
	prereleaseTags = dimension[string]{
		places:  onVersions(func(v *VersionSpec) *string { return &v.Prerelease }),
		simpler: simplerPrereleases,
	}
	buildMetadata = dimension[string]{
		places:  onVersions(func(v *VersionSpec) *string { return &v.Build }),
		simpler: cleared[string],
	}
	vPrefixes = dimension[bool]{
		places:  onVersions(func(v *VersionSpec) *bool { return &v.VPrefix }),
		simpler: cleared[bool],
	}
	precisions = dimension[int]{
		places:  onComparators(func(c *ComparatorSpec) *int { return &c.Precision }),
		simpler: fullPrecision,
	}
	bareness = dimension[bool]{
		places:  onComparators(func(c *ComparatorSpec) *bool { return &c.Bare }),
		simpler: cleared[bool],
	}
)

// partNumbers is the dimension of the written numbers of one part (0
// major, 1 minor, 2 patch).
func partNumbers(part int) dimension[uint64] {
	return dimension[uint64]{
		places:  func(s *shape) []*uint64 { return s.part(part) },
		simpler: smallerNumbers,
	}
}

// onVersions picks one field of every version of a shape.
func onVersions[T any](field func(*VersionSpec) *T) func(*shape) []*T {
	return func(s *shape) []*T {
		var out []*T
		for _, v := range s.versions() {
			out = append(out, field(v))
		}
		return out
	}
}

// onComparators picks one field of every comparator of a shape.
func onComparators[T any](field func(*ComparatorSpec) *T) func(*shape) []*T {
	return func(s *shape) []*T {
		var out []*T
		for i := range s.cmps {
			out = append(out, field(&s.cmps[i]))
		}
		return out
	}
}

// cleared lists the zero value as the one to try instead of a non-zero v.
func cleared[T comparable](v T) []T {
	var zero T
	if v == zero {
		return nil
	}
	return []T{zero}
}

// fullPrecision lists 3 as the precision to try instead of a lower one.
func fullPrecision(p int) []int {
	if p < 3 {
		return []int{3}
	}
	return nil
}

// everywhereAtOnce replaces, for each non-zero value found in at least two
// places of d, that value by each simpler one in all its places at once.
func everywhereAtOnce[T comparable](s shape, d dimension[T]) []shape {
	var out []shape
	for _, v := range sharedValues(d.places(&s)) {
		for _, w := range d.simpler(v) {
			t := s.clone()
			for _, p := range d.places(&t) {
				if *p == v {
					*p = w
				}
			}
			out = append(out, t)
		}
	}
	return out
}

// sharedValues returns the non-zero values that occur at least twice among
// ps, in order of first occurrence.
func sharedValues[T comparable](ps []*T) []T {
	var zero T
	count := map[T]int{}
	for _, p := range ps {
		count[*p]++
	}
	var out []T
	for _, p := range ps {
		v := *p
		if v == zero || count[v] < 2 {
			continue
		}
		out = append(out, v)
		count[v] = 0 // listed once
	}
	return out
}

// eachOnItsOwn replaces the value of each place of d, in turn, by each
// simpler one.
func eachOnItsOwn[T comparable](s shape, d dimension[T]) []shape {
	var out []shape
	for i, p := range d.places(&s) {
		for _, w := range d.simpler(*p) {
			t := s.clone()
			*d.places(&t)[i] = w
			out = append(out, t)
		}
	}
	return out
}

// stream turns a list of candidates into a gopter.Shrink.
func stream(cands []shape, as func(shape) interface{}) gopter.Shrink {
	i := 0
	return func() (interface{}, bool) {
		if i >= len(cands) {
			return nil, false
		}
		i++
		return as(cands[i-1]), true
	}
}

func caseOf(s shape) interface{} {
	return CaseSpec{Constraint: ConstraintSpec{Comparators: s.cmps}, Version: s.v}
}

func constraintOf(s shape) interface{} {
	return ConstraintSpec{Comparators: s.cmps}
}

func versionOf(s shape) interface{} { return s.v }

func shrinkCase(value interface{}) gopter.Shrink {
	c := value.(CaseSpec)
	s := shape{cmps: c.Constraint.Comparators, v: c.Version, hasV: true}
	return stream(s.candidates(1), caseOf)
}

func shrinkConstraint(value interface{}) gopter.Shrink {
	c := value.(ConstraintSpec)
	return stream(shape{cmps: c.Comparators}.candidates(1), constraintOf)
}

func shrinkVersion(value interface{}) gopter.Shrink {
	return stream(shape{v: value.(VersionSpec), hasV: true}.candidates(0), versionOf)
}
