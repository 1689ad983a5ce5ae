// Package generate holds gopter generators for versions and constraints in
// the Terraform/OpenTofu syntax the engine reads, biased so that prerelease
// rules bite, with shrinking that yields readable minimal counterexamples.
//
// The generators produce structured values (VersionSpec, ComparatorSpec,
// ConstraintSpec, CaseSpec) rather than strings; each renders itself with
// String. Shrinking works on the structure, so a falsified property ends with
// a witness that has
//
//   - as few comparators as still fail,
//   - simpler operators (in the order >=, <, =, >, <=, !=, ~>),
//   - smaller numbers (towards 0; a number shared by several versions is
//     shrunk everywhere at once, and a part can be shifted down in every
//     version together, so "same base" and "next release" relations
//     survive),
//   - simpler prereleases (none, then alpha, beta, rc, 0, 1, alpha.1, beta.2,
//     rc.1, beta.11, beta.alpha, alpha.beta; a tag shared by several versions
//     is replaced everywhere at once),
//   - no build metadata and no "v" prefix,
//   - comparators written at full precision (MAJOR.MINOR.PATCH) and with an
//     explicit "=".
//
// Every generated value renders to text that engine.ParseConstraint and
// engine.ParseVersion accept, and that the engine prints back unchanged.
//
// The bias: numbers are mostly 0 to 3 with occasional larger ones; about
// half of the versions carry a prerelease; and in Case the version is
// usually made from one of the constraint's comparators (same base, a
// neighbour, the next release, the upper bound of "~>"), because a
// prerelease rule only decides when the version's base meets a comparator.
package generate

import (
	"strconv"
	"strings"

	"github.com/prerel/prerel/engine"
)

// prereleases is the prerelease alphabet, simplest first; shrinking moves a
// tag towards the front. The tags cover the precedence corners the
// libraries disagree on: numeric against alphanumeric identifiers, numeric
// identifiers compared as numbers (beta.2 < beta.11), and lists of
// different lengths (beta < beta.alpha, beta < alpha.beta by count).
var prereleases = []string{
	"alpha", "beta", "rc", "0", "1", "alpha.1", "beta.2", "rc.1",
	"beta.11", "beta.alpha", "alpha.beta",
}

// builds is the build metadata alphabet.
var builds = []string{"def", "build.1", "20130313144700"}

// VersionSpec is a generated version: MAJOR.MINOR.PATCH with an optional
// prerelease, build metadata and "v" prefix. String renders it as text
// engine.ParseVersion accepts.
type VersionSpec struct {
	Major, Minor, Patch uint64
	Prerelease          string // without the '-'; "" for a release
	Build               string // without the '+'; "" for none
	VPrefix             bool
}

// String renders the version, e.g. "v1.2.3-beta.2+def".
func (v VersionSpec) String() string {
	var b strings.Builder
	v.write(&b, 3)
	return b.String()
}

// Engine returns the version as the engine parses it.
func (v VersionSpec) Engine() engine.Version {
	return engine.MustParseVersion(v.String())
}

// write renders v with the given number of numeric parts.
func (v VersionSpec) write(b *strings.Builder, precision int) {
	if v.VPrefix {
		b.WriteByte('v')
	}
	b.WriteString(strconv.FormatUint(v.Major, 10))
	if precision >= 2 {
		b.WriteByte('.')
		b.WriteString(strconv.FormatUint(v.Minor, 10))
	}
	if precision >= 3 {
		b.WriteByte('.')
		b.WriteString(strconv.FormatUint(v.Patch, 10))
	}
	if v.Prerelease != "" {
		b.WriteByte('-')
		b.WriteString(v.Prerelease)
	}
	if v.Build != "" {
		b.WriteByte('+')
		b.WriteString(v.Build)
	}
}

// ComparatorSpec is a generated comparator. Precision is the number of
// numeric parts written (1 to 3); the parts not written are zero in
// Version. Bare is set for an "=" written without its operator.
type ComparatorSpec struct {
	Op        engine.Op
	Bare      bool
	Precision int
	Version   VersionSpec
}

// String renders the comparator the way engine.Comparator.String prints
// it: the operator (none when bare), a space, and the version at its
// precision, e.g. "~> 1.2-beta".
func (c ComparatorSpec) String() string {
	var b strings.Builder
	c.write(&b)
	return b.String()
}

func (c ComparatorSpec) write(b *strings.Builder) {
	if !(c.Bare && c.Op == engine.OpEqual) {
		b.WriteString(c.Op.String())
		b.WriteByte(' ')
	}
	c.Version.write(b, c.Precision)
}

// ConstraintSpec is a generated constraint: one or more comparators.
type ConstraintSpec struct {
	Comparators []ComparatorSpec
}

// String renders the constraint the way engine.Constraint.String prints
// it: the comparators joined by ", ".
func (c ConstraintSpec) String() string {
	var b strings.Builder
	for i, cmp := range c.Comparators {
		if i > 0 {
			b.WriteString(", ")
		}
		cmp.write(&b)
	}
	return b.String()
}

// Engine returns the constraint as the engine parses it.
func (c ConstraintSpec) Engine() engine.Constraint {
	return engine.MustParseConstraint(c.String())
}

// Clone returns a copy that shares no memory with c.
func (c ConstraintSpec) Clone() ConstraintSpec {
	return ConstraintSpec{Comparators: append([]ComparatorSpec(nil), c.Comparators...)}
}

// CaseSpec is one generated case: a constraint and a version to judge
// against it.
type CaseSpec struct {
	Constraint ConstraintSpec
	Version    VersionSpec
}

// String renders the case for reports, e.g.
// `constraint ">= 1.0.0-beta, < 1.0.0" version "1.0.0-rc.1"`.
func (c CaseSpec) String() string {
	return "constraint " + strconv.Quote(c.Constraint.String()) + " version " + strconv.Quote(c.Version.String())
}
