package compare

import (
	"fmt"
)

// Scopes of the exhaustive domain.
const (
	MinScope     = 1
	DefaultScope = 2
	MaxScope     = 4
)

// exhaustiveOperators are written before each comparator version: bare
// (no operator) first, then every operator.
var exhaustiveOperators = []string{"", "= ", "!= ", "> ", ">= ", "< ", "<= ", "~> "}

// exhaustiveLevel is what one scope adds to the alphabet of the scope
// below it.
type exhaustiveLevel struct {
	comparators []string // comparator versions, at their written precision
	bases       []string // version bases (MAJOR.MINOR.PATCH)
	tags        []string // prerelease tags put on every base ("" = release)
	extra       []string // further versions, written out
}

// exhaustiveLevels grow the alphabet scope by scope. Scope 1 already
// makes every native rule and every known library quirk bite: comparators
// of one, two and three parts, with and without a prerelease; versions
// below, at and above each comparator's base; the prerelease tags alpha <
// alpha.1 < alpha.beta < beta, where one library orders alpha.beta below
// alpha (hashicorp/go-version) and another beta below alpha.1
// (apparentlymart/go-versions); 0.0.0; and build metadata.
var exhaustiveLevels = []exhaustiveLevel{
	1: {
		comparators: []string{"1", "1.0", "1.0.0", "1.0.0-alpha", "1.0.0-beta", "2.0.0"},
		bases:       []string{"0.0.0", "1.0.0", "1.0.1", "1.1.0", "2.0.0"},
		tags:        []string{"", "alpha", "alpha.1", "alpha.beta", "beta"},
		extra:       []string{"1.0.0+b", "1.0.0-beta+b"},
	},
	2: {
		comparators: []string{"2", "1.1", "2.0", "1.1.0", "2.0.0-beta", "1.0.0+b"},
		bases:       []string{"0.0.1", "0.1.0", "0.1.1", "1.1.1", "2.0.1", "2.1.0", "2.1.1", "3.0.0"},
		tags:        []string{"rc.1"},
		extra:       []string{"2.0.0+b", "2.0.0-beta+b"},
	},
	3: {
		comparators: []string{"0", "0.1", "1.0.0-0", "2.0.0-0", "1.0-beta", "1.0.0-alpha.1", "1.1.0-beta", "v1.0.0"},
		tags:        []string{"0", "beta.2"},
		extra:       []string{"v1.0.0", "v1.0.0-beta", "v2.0.0-beta"},
	},
	4: {
		comparators: []string{"3", "1.2", "1.2.0", "1.0.1", "3.0.0-rc.1", "2.1.0"},
		bases:       []string{"1.2.0", "1.2.1", "2.2.0", "3.0.1", "3.1.0", "4.0.0"},
		tags:        []string{"1", "rc.2"},
	},
}

// exhaustive is the exhaustive domain of one scope.
type exhaustive struct {
	scope       int
	comparators []string
	versions    []string
}

// Exhaustive returns the exhaustive domain of a scope from MinScope to
// MaxScope. Its constraints are every comparator of the scope's alphabet
// (each comparator version of the scope, with no operator and with each of
// = != > >= < <= ~>) alone, and every two of them joined by ", " (each
// unordered pair once, in alphabet order, never a comparator with itself);
// its versions are every base of the scope with every prerelease tag, plus
// a few with build metadata or a "v". Every constraint meets every
// version.
//
// Each scope adds to the one below it. Scope 1 is about 37 thousand cases,
// the default scope 2 about 380 thousand, 3 about 1.9 million and 4 about
// 7 million.
func Exhaustive(scope int) (Domain, error) {
	if scope < MinScope || scope > MaxScope {
		return nil, fmt.Errorf("exhaustive scope %d: the scope runs from %d to %d", scope, MinScope, MaxScope)
	}
	d := &exhaustive{scope: scope}
	var bases, tags []string
	var extra []string
	for _, l := range exhaustiveLevels[1 : scope+1] {
		d.comparators = append(d.comparators, l.comparators...)
		bases = append(bases, l.bases...)
		tags = append(tags, l.tags...)
		extra = append(extra, l.extra...)
	}
	d.comparators = withOperators(d.comparators)
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
		Name: "exhaustive",
		Description: fmt.Sprintf("exhaustive scope %d: %d comparators (%d versions x %d operators, bare included) alone and two at a time (%d constraints) x %d versions",
			d.scope, len(d.comparators), len(d.comparators)/len(exhaustiveOperators), len(exhaustiveOperators), d.constraints(), len(d.versions)),
		Cases: d.constraints() * int64(len(d.versions)),
	}
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
