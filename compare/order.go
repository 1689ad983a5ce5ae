package compare

import (
	"math"
	"strings"
)

// caseKey orders cases for choosing witnesses: fewest comparators, then
// the smallest sum of the numbers written in the constraint and the
// version, then the shortest text (constraint and version together), then
// the constraint and the version in byte order. It is a total order on
// distinct cases, so the smallest witness of a class does not depend on
// the order in which cases were run.
//
// The comparators and the length are kept in 32 bits each (more count as
// the most), so that a class's witness, which every kept class holds,
// takes six words.
type caseKey struct {
	comps      int32
	length     int32
	nums       uint64
	constraint string
	version    string
}

func makeCaseKey(ci *constraintInfo, vi *versionInfo) caseKey {
	nums := ci.nums + vi.nums
	if nums < ci.nums {
		nums = ^uint64(0)
	}
	return caseKey{
		comps:      clampInt32(ci.comps),
		nums:       nums,
		length:     clampInt32(len(ci.text) + len(vi.text)),
		constraint: ci.text,
		version:    vi.text,
	}
}

// less reports whether k comes before o.
func (k caseKey) less(o caseKey) bool {
	if k.comps != o.comps {
		return k.comps < o.comps
	}
	if k.nums != o.nums {
		return k.nums < o.nums
	}
	if k.length != o.length {
		return k.length < o.length
	}
	if c := strings.Compare(k.constraint, o.constraint); c != 0 {
		return c < 0
	}
	return k.version < o.version
}

// clampInt32 is n, or the largest int32 when n is larger.
func clampInt32(n int) int32 {
	return int32(min(n, math.MaxInt32))
}
