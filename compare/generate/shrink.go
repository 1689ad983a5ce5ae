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

	// Fewer comparators.
	if len(s.cmps) > minCmps {
		for i := range s.cmps {
			t := s.clone()
			t.cmps = append(t.cmps[:i], t.cmps[i+1:]...)
			out = append(out, t)
		}
	}

	// Simpler operators.
	for i, c := range s.cmps {
		for _, o := range opsByRank[:opRank(c.Op)] {
			t := s.clone()
			t.cmps[i].Op, t.cmps[i].Bare = o, false
			out = append(out, t)
		}
	}

	// Smaller numbers: a value shared by several places everywhere at once,
	// then a value shared by several versions in the same part (major,
	// minor or patch), then each place on its own.
	nums := s.numbers()
	seen := map[uint64]bool{}
	for _, p := range nums {
		n := *p
		if n == 0 || seen[n] {
			continue
		}
		seen[n] = true
		shared := 0
		for _, q := range nums {
			if *q == n {
				shared++
			}
		}
		if shared < 2 {
			continue
		}
		for _, m := range smallerNumbers(n) {
			t := s.clone()
			for _, q := range t.numbers() {
				if *q == n {
					*q = m
				}
			}
			out = append(out, t)
		}
	}
	for part := 0; part < 3; part++ {
		seen := map[uint64]bool{}
		places := s.part(part)
		for _, p := range places {
			n := *p
			if n == 0 || seen[n] {
				continue
			}
			seen[n] = true
			shared := 0
			for _, q := range places {
				if *q == n {
					shared++
				}
			}
			if shared < 2 {
				continue
			}
			for _, m := range smallerNumbers(n) {
				t := s.clone()
				for _, q := range t.part(part) {
					if *q == n {
						*q = m
					}
				}
				out = append(out, t)
			}
		}
	}
	// Shift a part down: subtract 1, or the smallest non-zero value, from
	// every non-zero number of that part, so that versions keep their
	// distance ("~> 0.3.0" with 0.4.0-alpha becomes "~> 0.2.0" with
	// 0.3.0-alpha).
	for part := 0; part < 3; part++ {
		var least uint64
		nonzero := 0
		for _, p := range s.part(part) {
			if *p > 0 {
				nonzero++
				if least == 0 || *p < least {
					least = *p
				}
			}
		}
		if nonzero < 2 {
			continue
		}
		steps := []uint64{least}
		if least > 1 {
			steps = append(steps, 1)
		}
		for _, d := range steps {
			t := s.clone()
			for _, q := range t.part(part) {
				if *q > 0 {
					*q -= d // d <= least <= *q
				}
			}
			out = append(out, t)
		}
	}
	for i, p := range nums {
		for _, m := range smallerNumbers(*p) {
			t := s.clone()
			*t.numbers()[i] = m
			out = append(out, t)
		}
	}

	// Simpler prereleases: a tag shared by several versions everywhere at
	// once, then each version on its own.
	vs := s.versions()
	seenPre := map[string]bool{}
	for _, v := range vs {
		p := v.Prerelease
		if p == "" || seenPre[p] {
			continue
		}
		seenPre[p] = true
		shared := 0
		for _, w := range vs {
			if w.Prerelease == p {
				shared++
			}
		}
		if shared < 2 {
			continue
		}
		for _, q := range simplerPrereleases(p) {
			t := s.clone()
			for _, w := range t.versions() {
				if w.Prerelease == p {
					w.Prerelease = q
				}
			}
			out = append(out, t)
		}
	}
	for i, v := range vs {
		for _, q := range simplerPrereleases(v.Prerelease) {
			t := s.clone()
			t.versions()[i].Prerelease = q
			out = append(out, t)
		}
	}

	// No build metadata, no "v".
	for i, v := range vs {
		if v.Build != "" {
			t := s.clone()
			t.versions()[i].Build = ""
			out = append(out, t)
		}
	}
	for i, v := range vs {
		if v.VPrefix {
			t := s.clone()
			t.versions()[i].VPrefix = false
			out = append(out, t)
		}
	}

	// Full precision, explicit "=".
	for i, c := range s.cmps {
		if c.Precision < 3 {
			t := s.clone()
			t.cmps[i].Precision = 3
			out = append(out, t)
		}
	}
	for i, c := range s.cmps {
		if c.Bare {
			t := s.clone()
			t.cmps[i].Bare = false
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
