package policies

import (
	"math"
	"math/bits"
	"slices"

	"github.com/prerel/prerel/engine"
)

// The compiled form's precedence key. Most versions map to a 128-bit
// integer whose order is SemVer precedence, so that the compiled rules
// compare integers only:
//
//	hi  MAJOR (24 bits) | MINOR (20 bits) | PATCH (20 bits)
//	lo  the prerelease, or all ones for a release
//
// A version whose numbers do not fit has no key (the key is not exact),
// and the compiled rules hand it to the policy's Judge. The prerelease
// is keyed in the ranked space of the table that reads the versions, and
// a constraint is compiled in that space: the table's distinct
// prereleases sorted by precedence, the i-th keyed 2i+2; a comparator's
// prerelease that is not in the table is keyed 2i+1, between the table's
// prereleases it lies between. Every prerelease has a key; two
// comparators' keys may be equal without their precedence being equal,
// but no version of the table lies between them, so every version is
// judged as by precedence.
//
// No prerelease key is all ones, so every prerelease lies below its
// release. A judged version and a version it is compared with (another
// judged one, a comparator's, a "~>" bound), both with keys, have equal
// keys exactly when they have equal precedence, and the lesser key
// exactly when the lesser precedence.

// ranked is the ranked key space of a table: its distinct prereleases,
// sorted by precedence.
type ranked struct{ prereleases []string }

// rank returns the ranked space of versions' prereleases.
func rank(versions []engine.Version) *ranked {
	var pre []string
	for i := range versions {
		if p := versions[i].Prerelease(); p != "" {
			pre = append(pre, p)
		}
	}
	slices.SortFunc(pre, engine.ComparePrerelease)
	return sharedRank(slices.Compact(pre))
}

// key returns v's key in the space; ok is false when v's numbers do not
// fit one.
func (r *ranked) key(v *engine.Version) (key, bool) {
	hi, ok := coreKey(v.Major(), v.Minor(), v.Patch())
	if !ok {
		return key{}, false
	}
	if !v.IsPrerelease() {
		return key{hi, releaseLo}, true
	}
	pre := v.Prerelease()
	i, found := slices.BinarySearchFunc(r.prereleases, pre, engine.ComparePrerelease)
	lo := 2*uint64(i) + 1
	if found {
		lo++
	}
	return key{hi, lo}, true
}

// key is a precedence key: a 128-bit unsigned integer.
type key struct{ hi, lo uint64 }

// Field widths of key.hi. The largest value of a field is kept out of
// keys, so that a bound one above a key never carries out of 128 bits.
const (
	minorBits = 20
	patchBits = 20
	majorBits = 64 - minorBits - patchBits
	maxMajor  = 1<<majorBits - 2
	maxMinor  = 1<<minorBits - 2
	maxPatch  = 1<<patchBits - 2
)

// releaseLo is key.lo of a release, above every prerelease.
const releaseLo = math.MaxUint64

var (
	minKey = key{}
	maxKey = key{math.MaxUint64, math.MaxUint64}
)

// coreKey packs MAJOR.MINOR.PATCH into key.hi; ok is false when a number
// does not fit.
func coreKey(major, minor, patch uint64) (uint64, bool) {
	if major > maxMajor || minor > maxMinor || patch > maxPatch {
		return 0, false
	}
	return major<<(minorBits+patchBits) | minor<<patchBits | patch, true
}

// le reports a <= b.
func le(a, b key) bool {
	_, borrow := bits.Sub64(b.lo, a.lo, 0)
	_, borrow = bits.Sub64(b.hi, a.hi, borrow)
	return borrow == 0
}

// next returns k+1; k must be below maxKey.
func (k key) next() key {
	lo, carry := bits.Add64(k.lo, 1, 0)
	return key{k.hi + carry, lo}
}

// prev returns k-1; k must be above minKey.
func (k key) prev() key {
	lo, borrow := bits.Sub64(k.lo, 1, 0)
	return key{k.hi - borrow, lo}
}

// maxOf returns the greater of a and b.
func maxOf(a, b key) key {
	if le(a, b) {
		return b
	}
	return a
}

// minOf returns the lesser of a and b.
func minOf(a, b key) key {
	if le(a, b) {
		return a
	}
	return b
}
