package adapters

import (
	"fmt"

	"github.com/apparentlymart/go-versions/versions"
	"github.com/apparentlymart/go-versions/versions/constraints"

	"github.com/prerel/prerel/engine"
)

// GoVersionsCargo is the cargo rule built in apparentlymart/go-versions'
// own set algebra, registered as "go-versions-cargo": what Terraform's and
// OpenTofu's provider installer would admit if it followed Cargo's
// prerelease rule while reading constraints as it does today.
//
// Compile calls constraints.ParseRubyStyleMulti on the constraint text as
// given, exactly as the provider installer does (the same refusals, with
// the library's error, and the same recovered panics as ApparentlyMart),
// and walks the resulting constraints.Spec tree instead of calling
// MeetingConstraints. For each comparator it builds two sets:
//
//   - its range, read as go-versions reads it: missing parts are zero
//     (">= 1.2" is AtLeast(1.2.0), "= 1.2" is Only(1.2.0)); "=" and a
//     bare version are Only(v) and "!=" is All.Subtract(Only(v)), both
//     keeping build metadata; ">", ">=", "<", "<=" are NewerThan, AtLeast,
//     OlderThan and AtMost; "~>" with three parts written is
//     AtLeast(v).Intersection(OlderThan(next minor)), with one or two
//     parts AtLeast(v).Intersection(OlderThan(next major)), the prerelease
//     staying on the lower bound ("~> 1.2-beta" is >= 1.2.0-beta, < 2.0.0).
//   - when its version names a prerelease and its operator is not "!=",
//     the prereleases of that version's base, the window
//     AtLeast(base-0).Intersection(OlderThan(base)).
//
// The constraint's range is the intersection of the comparators' ranges,
// and its set is
//
//	range.Intersection(Union(windows...)).Union(range.WithoutUnrequestedPrereleases())
//
// which for ">= 1.1.0-beta.2" is AtLeast(1.1.0-beta.2) restricted to the
// prereleases of 1.1.0, together with the releases at or above
// 1.1.0-beta.2: the same set as
// AtLeast(1.1.0-beta.2).Intersection(AtMost(1.1.0)).Union(AtLeast(1.1.0-beta.2).WithoutUnrequestedPrereleases()).
// Match calls versions.ParseVersion on the version text and
// Set.Has. The windows are intersected with the whole range, never with
// one comparator's, so that ">= 1.0.0-beta, < 1.0.0" admits 1.0.0-rc.1 as
// Cargo does.
//
// The set inherits go-versions' quirks (see ApparentlyMart): prerelease
// precedence by the number of identifiers first (1.0.0-beta sorts below
// 1.0.0-alpha.1); "=" and "!=" keyed by the whole version, build metadata
// included; 0.0.0 as the Unspecified version, a member of no set here (not
// even the empty constraint's, whose set is the releases); a "~>" whose
// next minor or major overflows wraps to zero; the "v" prefix and more
// than one space after an operator refused; a version of one or two parts
// (1.0 is 1.0.0) and leading zeros accepted.
//
// Selection orders admitted versions by go-versions' Version.GreaterThan
// and keeps the first of equal ones.
type GoVersionsCargo struct{}

var (
	_ engine.Policy    = GoVersionsCargo{}
	_ engine.Selector  = GoVersionsCargo{}
	_ engine.Explainer = GoVersionsCargo{}
)

const goVersionsCargoCall = "go-versions cargo set"

// Name returns "go-versions-cargo".
func (GoVersionsCargo) Name() string { return "go-versions-cargo" }

// Rule returns the rule in one line.
func (GoVersionsCargo) Rule() string {
	return "the cargo rule built in go-versions set algebra (Ruby-style syntax): in range, and a prerelease only when a comparator other than != names a prerelease of its base"
}

// Compile parses constraint with ParseRubyStyleMulti and builds its set.
func (g GoVersionsCargo) Compile(constraint string) (engine.Matcher, error) {
	return g.compile(constraint)
}

// Select returns the newest admitted version by go-versions precedence.
func (g GoVersionsCargo) Select(constraint string, available []string) (engine.Selection, error) {
	m, err := g.compile(constraint)
	if err != nil {
		return engine.Selection{}, err
	}
	return newest(available, m.judge, versions.Version.GreaterThan), nil
}

func (GoVersionsCargo) compile(constraint string) (goVersionsCargoMatcher, error) {
	spec, err := parseRubyStyle(constraint)
	if err != nil {
		return goVersionsCargoMatcher{}, err
	}
	return cargoSet(spec)
}

// cargoComparator is one comparator of the spec with its sets.
type cargoComparator struct {
	spec   constraints.SelectionSpec
	rng    versions.Set
	window versions.Set // versions.None when it opts no prerelease in
}

// goVersionsCargoMatcher holds the built sets: the range alone, the union
// of the windows, and the constraint's set.
type goVersionsCargoMatcher struct {
	comparators []cargoComparator
	rng         versions.Set
	windows     versions.Set
	set         versions.Set
}

// cargoSet walks the spec and builds the sets. It turns a panic in the
// library into an error.
func cargoSet(spec constraints.IntersectionSpec) (m goVersionsCargoMatcher, err error) {
	defer func() {
		if p := recover(); p != nil {
			m, err = goVersionsCargoMatcher{}, panicError("go-versions set algebra", p)
		}
	}()
	ranges := make([]versions.Set, 0, len(spec))
	var windows []versions.Set
	for _, sel := range spec {
		c, err := cargoSelection(sel)
		if err != nil {
			return goVersionsCargoMatcher{}, err
		}
		m.comparators = append(m.comparators, c)
		ranges = append(ranges, c.rng)
		if c.window != versions.None {
			windows = append(windows, c.window)
		}
	}
	m.rng = versions.All
	if len(ranges) > 0 {
		m.rng = versions.Intersection(ranges...)
	}
	m.windows = versions.Union(windows...) // None when there are none
	m.set = m.rng.WithoutUnrequestedPrereleases()
	if len(windows) > 0 {
		m.set = m.rng.Intersection(m.windows).Union(m.set)
	}
	return m, nil
}

// cargoSelection builds the range and the window of one comparator, reading
// its version as MeetingConstraintsExact does.
func cargoSelection(sel constraints.SelectionSpec) (cargoComparator, error) {
	c := cargoComparator{spec: sel, window: versions.None}
	lower := sel.Boundary.ConstrainToZero()
	if sel.Operator != constraints.OpEqual && sel.Operator != constraints.OpNotEqual {
		lower.Metadata = "" // metadata counts only for exact matches
	}
	v := versionFromSpec(lower)
	switch sel.Operator {
	case constraints.OpEqual:
		c.rng = versions.Only(v)
	case constraints.OpNotEqual:
		c.rng = versions.All.Subtract(versions.Only(v))
	case constraints.OpGreaterThan:
		c.rng = versions.NewerThan(v)
	case constraints.OpGreaterThanOrEqual:
		c.rng = versions.AtLeast(v)
	case constraints.OpLessThan:
		c.rng = versions.OlderThan(v)
	case constraints.OpLessThanOrEqual:
		c.rng = versions.AtMost(v)
	case constraints.OpGreaterThanOrEqualMinorOnly: // "~>" with one or two parts
		upper := versions.Version{Major: v.Major + 1}
		c.rng = versions.AtLeast(v).Intersection(versions.OlderThan(upper))
	case constraints.OpGreaterThanOrEqualPatchOnly: // "~>" with three parts
		upper := versions.Version{Major: v.Major, Minor: v.Minor + 1}
		c.rng = versions.AtLeast(v).Intersection(versions.OlderThan(upper))
	default:
		return c, fmt.Errorf("go-versions-cargo: operator %s is not part of the Ruby-style syntax", sel.Operator)
	}
	if v.Prerelease != "" && sel.Operator != constraints.OpNotEqual {
		c.window = prereleasesOf(v)
	}
	return c, nil
}

// prereleasesOf is the set of every prerelease of v's base: from base-0,
// the lowest prerelease in go-versions' order, up to the base release,
// excluded.
func prereleasesOf(v versions.Version) versions.Set {
	base := versions.Version{Major: v.Major, Minor: v.Minor, Patch: v.Patch}
	lowest := base
	lowest.Prerelease = "0"
	return versions.AtLeast(lowest).Intersection(versions.OlderThan(base))
}

// rubyOperator writes an operator of the Ruby-style syntax as written.
func rubyOperator(op constraints.SelectionOp) string {
	switch op {
	case constraints.OpEqual:
		return "="
	case constraints.OpNotEqual:
		return "!="
	case constraints.OpGreaterThan:
		return ">"
	case constraints.OpGreaterThanOrEqual:
		return ">="
	case constraints.OpLessThan:
		return "<"
	case constraints.OpLessThanOrEqual:
		return "<="
	case constraints.OpGreaterThanOrEqualMinorOnly, constraints.OpGreaterThanOrEqualPatchOnly:
		return "~>"
	}
	return op.String()
}

func versionFromSpec(s constraints.VersionSpec) versions.Version {
	return versions.Version{
		Major:      s.Major.Num,
		Minor:      s.Minor.Num,
		Patch:      s.Patch.Num,
		Prerelease: versions.VersionExtra(s.Prerelease),
		Metadata:   versions.VersionExtra(s.Metadata),
	}
}

func (m goVersionsCargoMatcher) Match(version string) engine.Result {
	r, _ := m.judge(version)
	return r
}

// Reasons of go-versions-cargo.
const (
	reasonGVCargoRelease   = goVersionsCargoCall + ": in set (a release in range)"
	reasonGVCargoWindow    = goVersionsCargoCall + ": in set (in range, and a comparator other than != names a prerelease of its base)"
	reasonGVCargoRange     = goVersionsCargoCall + ": not in set (not in range)"
	reasonGVCargoMetadata  = goVersionsCargoCall + ": not in set (not in range; without its build metadata it would be: = and != sets keep the whole version)"
	reasonGVCargoNoWindow  = goVersionsCargoCall + ": not in set (prerelease in range, but no comparator other than != names a prerelease of its base)"
	reasonGVCargoUnspec    = goVersionsCargoCall + ": not in set (0.0.0 is the library's Unspecified version, a member only of the set of all versions)"
	reasonGVCargoRequested = goVersionsCargoCall + ": in set (requested exactly)"
)

func (m goVersionsCargoMatcher) judge(version string) (engine.Result, versions.Version) {
	v, err := parseVersionsVersion(version)
	if err != nil {
		return engine.InvalidResult(err), v
	}
	return m.judgeParsed(v), v
}

// judgeParsed is judge for a version parseVersionsVersion has read.
func (m goVersionsCargoMatcher) judgeParsed(v versions.Version) engine.Result {
	has, err := setHas(m.set, v)
	switch {
	case err != nil:
		return engine.InvalidResult(err)
	case v == versions.Unspecified && !has:
		return engine.Rejected(reasonGVCargoUnspec)
	case has && v.Prerelease == "":
		return engine.Allowed(reasonGVCargoRelease)
	case has && m.windows.Has(v):
		return engine.Allowed(reasonGVCargoWindow)
	case has:
		return engine.Allowed(reasonGVCargoRequested)
	case !m.rng.Has(v) && v.Metadata != "" && m.rng.Has(v.Comparable()):
		return engine.Rejected(reasonGVCargoMetadata)
	case !m.rng.Has(v):
		return engine.Rejected(reasonGVCargoRange)
	}
	return engine.Rejected(reasonGVCargoNoWindow)
}

// Explain shows the spec walked comparator by comparator, the range, the
// windows and the set, then the version as go-versions reads it and each
// membership.
func (g GoVersionsCargo) Explain(constraint, version string) engine.Explanation {
	var x explanation
	m, err := g.compile(constraint)
	if err != nil {
		x.add("constraints.ParseRubyStyleMulti", "%v", err)
		return x.done(engine.InvalidResult(err))
	}
	x.add("constraints.ParseRubyStyleMulti", "accepted %q: %d comparator(s)", constraint, len(m.comparators))
	for _, c := range m.comparators {
		subject := rubyOperator(c.spec.Operator) + " " + c.spec.Boundary.String()
		x.add(subject, "range %#v", c.rng)
		switch {
		case c.window != versions.None:
			x.add(subject, "names a prerelease: opts in the prereleases of its base, %#v", c.window)
		case c.spec.Boundary.Prerelease != "":
			x.add(subject, "names a prerelease, but != never opts in")
		default:
			x.add(subject, "names no prerelease")
		}
	}
	x.add("range", "%#v", m.rng)
	x.add("set", "%#v", m.set)
	r, v := m.judge(version)
	if r.Verdict == engine.Invalid {
		x.add("versions.ParseVersion", "%s", r.Reason)
		return x.done(r)
	}
	x.add("versions.ParseVersion", "read %q as %s", version, v.String())
	if v == versions.Unspecified {
		x.add("Set.Has", "0.0.0 is versions.Unspecified: Has answers true only for the set of all versions")
	}
	inRange, _ := setHas(m.rng, v)
	x.add("range.Has", "%v", inRange)
	if v.Prerelease != "" {
		if inWindow, _ := setHas(m.windows, v); inWindow {
			x.add("windows.Has", "true: a comparator other than != names a prerelease of base %d.%d.%d", v.Major, v.Minor, v.Patch)
		} else {
			x.add("windows.Has", "false: no comparator other than != names a prerelease of base %d.%d.%d", v.Major, v.Minor, v.Patch)
		}
	}
	x.add("set.Has", "%v", r.Verdict == engine.Allow)
	return x.done(r)
}

// SelectsPairwise marks Select as the newest version Match admits: under a
// cooldown (engine.SelectCooled) the order makes no difference.
func (GoVersionsCargo) SelectsPairwise() {}
