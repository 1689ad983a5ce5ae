package compare

import (
	"fmt"
)

// Scopes of the exhaustive domain.
const (
	MinScope     = 1 // the smallest alphabet, for tests
	DefaultScope = 2 // the scope CI runs, in seconds
	MaxScope     = 4 // the largest alphabet
)

// exhaustiveOperators are written before each comparator version: bare
// (no operator) first, then every operator.
var exhaustiveOperators = []string{"", "= ", "!= ", "> ", ">= ", "< ", "<= ", "~> "}

// exhaustiveLevel is what one scope adds to the alphabet of the scope
// below it.
type exhaustiveLevel struct {
	comparators []string // comparator versions, at their written precision
	written     []string // further comparators, written out (operator and layout)
	bases       []string // version bases (MAJOR.MINOR.PATCH)
	tags        []string // prerelease tags put on every base ("" = release)
	extra       []string // further versions, written out
}

// exhaustiveLevels grow the alphabet scope by scope; Exhaustive's doc
// says what each adds and why.
var exhaustiveLevels = []exhaustiveLevel{
	1: {
		comparators: []string{"1", "1.0", "1.0.0", "1.0.0-alpha", "1.0.0-beta", "2.0.0"},
		bases:       []string{"0.0.0", "1.0.0", "1.0.1", "1.1.0", "2.0.0"},
		tags:        []string{"", "alpha", "alpha.1", "alpha.beta", "beta"},
		extra:       []string{"1.0.0+b", "1.0.0-beta+b"},
	},
	2: {
		comparators: []string{"2", "1.1", "2.0", "1.1.0", "2.0.0-beta", "1.0.0+b", "v1.0.0"},
		bases:       []string{"0.0.1", "0.1.0", "0.1.1", "1.1.1", "2.0.1", "2.1.0", "2.1.1", "3.0.0"},
		tags:        []string{"rc.1"},
		extra:       []string{"2.0.0+b", "2.0.0-beta+b", "v1.0.0-beta"},
	},
	3: {
		comparators: []string{"0", "0.1", "1.0.0-0", "2.0.0-0", "1.0-beta", "1.0.0-alpha.1", "1.1.0-beta"},
		written:     []string{"=1.0.0-beta", ">=1.0.0-beta", "<=1.0.0-beta", "!=1.0.0-beta", "~>1.0.0-beta", "~>1.0", "<2.0.0", ">=1.0.0"},
		tags:        []string{"0", "beta.2"},
		extra:       []string{"v1.0.0", "v2.0.0-beta"},
	},
	4: {
		comparators: []string{"3", "1.2", "1.2.0", "1.0.1", "3.0.0-rc.1", "2.1.0"},
		bases:       []string{"1.2.0", "1.2.1", "2.2.0", "3.0.1", "3.1.0", "4.0.0"},
		tags:        []string{"1", "rc.2"},
	},
}

// exhaustive is the exhaustive domain of one scope.
type exhaustive struct {
	scope              int
	comparators        []string
	comparatorVersions int // comparators are these x the operators, then the written ones
	versions           []string
}

// Exhaustive returns the exhaustive domain of a scope from MinScope to
// MaxScope. Its comparators are each comparator version of the scope's
// alphabet with no operator and after each of = != > >= < <= ~> (from
// scope 3 also a few written with no space after the operator, which
// Terraform's module installer reads differently); its constraints are
// every comparator alone and every two of them joined by ", " (each
// unordered pair once, in alphabet order, never a comparator with itself);
// its versions are every base of the scope with every prerelease tag, plus
// a few written out. Every constraint meets every version.
//
// Each scope adds to the alphabet of the one below it:
//
//   - Scope 1 (31,752 cases): comparator versions 1, 1.0, 1.0.0,
//     1.0.0-alpha, 1.0.0-beta and 2.0.0; bases 0.0.0, 1.0.0, 1.0.1, 1.1.0
//     and 2.0.0 with the tags alpha < alpha.1 < alpha.beta < beta (one
//     library orders alpha.beta below alpha, another beta below alpha.1)
//     and none; 1.0.0+b and 1.0.0-beta+b. Versions fall below, at and
//     above each comparator's base, so every native rule bites: same base
//     and other bases, exact and range comparators, "~>" of one, two and
//     three parts, 0.0.0, and build metadata.
//   - Scope 2, the default (453,180 cases): comparator versions 2, 1.1,
//     2.0, 1.1.0, 2.0.0-beta, 1.0.0+b and v1.0.0; more bases (0.0.1 to
//     3.0.0) and the tag rc.1; 2.0.0+b, 2.0.0-beta+b and v1.0.0-beta.
//   - Scope 3 (1,575,756 cases): comparator versions 0, 0.1, 1.0.0-0,
//     2.0.0-0, 1.0-beta, 1.0.0-alpha.1 and 1.1.0-beta, and eight
//     comparators written with no space (">=1.0.0-beta"); the tags 0 and
//     beta.2; v1.0.0 and v2.0.0-beta.
//   - Scope 4 (4,616,892 cases): comparator versions 3, 1.2, 1.2.0, 1.0.1,
//     3.0.0-rc.1 and 2.1.0; bases up to 4.0.0 and the tags 1 and rc.2.
func Exhaustive(scope int) (Domain, error) {
	if scope < MinScope || scope > MaxScope {
		return nil, fmt.Errorf("exhaustive scope %d: the scope runs from %d to %d", scope, MinScope, MaxScope)
	}
	d := &exhaustive{scope: scope}
	var versions, written, bases, tags, extra []string
	for _, l := range exhaustiveLevels[1 : scope+1] {
		versions = append(versions, l.comparators...)
		written = append(written, l.written...)
		bases = append(bases, l.bases...)
		tags = append(tags, l.tags...)
		extra = append(extra, l.extra...)
	}
	d.comparators = append(withOperators(versions), written...)
	d.comparatorVersions = len(versions)
	for _, b := range bases {
		for _, t := range tags {
			if t == "" {
				d.versions = append(d.versions, b)
			} else {
				d.versions = append(d.versions, b+"-"+t)
			}
		}
	}
	d.versions = append(d.versions, extra...)
	return d, nil
}

// withOperators writes every operator before every comparator version,
// operator by operator.
func withOperators(versions []string) []string {
	out := make([]string, 0, len(versions)*len(exhaustiveOperators))
	for _, op := range exhaustiveOperators {
		for _, v := range versions {
			out = append(out, op+v)
		}
	}
	return out
}

func (d *exhaustive) constraints() int64 {
	n := int64(len(d.comparators))
	return n + n*(n-1)/2
}

// Info describes the domain.
func (d *exhaustive) Info() DomainInfo {
	return DomainInfo{
		Name:        "exhaustive",
		Description: d.describe(),
		Cases:       d.constraints() * int64(len(d.versions)),
	}
}

func (d *exhaustive) describe() string {
	unspaced := ""
	if n := len(d.comparators) - d.comparatorVersions*len(exhaustiveOperators); n > 0 {
		unspaced = fmt.Sprintf(", and %d written without a space", n)
	}
	return fmt.Sprintf("exhaustive scope %d: %d comparators (%d versions x %d operators, bare included%s) alone and two at a time (%d constraints) x %d versions",
		d.scope, len(d.comparators), d.comparatorVersions, len(exhaustiveOperators), unspaced, d.constraints(), len(d.versions))
}

// Groups yields every single comparator, then every pair.
func (d *exhaustive) Groups(yield func(Group) bool) error {
	for _, c := range d.comparators {
		if !yield(Group{Constraint: c, Versions: d.versions}) {
			return nil
		}
	}
	for i, a := range d.comparators {
		for _, b := range d.comparators[i+1:] {
			if !yield(Group{Constraint: a + ", " + b, Versions: d.versions}) {
				return nil
			}
		}
	}
	return nil
}
