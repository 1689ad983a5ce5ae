package policies

import "github.com/prerel/prerel/engine"

// Linear puts prereleases on the timeline, registered as "linear".
//
// A version is admitted when it satisfies every comparator by SemVer
// precedence, B(c, v), and that is all: there is no prerelease rule. A
// prerelease lies just below its release, so it is admitted wherever its
// place on the timeline is inside the range. "~>" is read as a range
// ("~> 1.2" is ">= 1.2.0, < 2.0.0"), so "~> 1.2" admits 2.0.0-beta.1: the
// upper bound lets the next release's prereleases in (linear-tight keeps
// them out). The empty constraint admits every version.
//
// This is the TF_ALLOW_PRERELEASE proposal for Terraform
// (hashicorp/terraform issue 36985), apparentlymart/go-versions
// MeetingConstraintsExact, and Masterminds/semver with IncludePrerelease.
//
//	>= 1.0.0, < 2.0.0          | 2.0.0-beta.1  allow
//	>= 1.1.0-beta.2            | 1.1.0-beta.1  reject
//	~> 1.2                     | 2.0.0-beta.1  allow
//
// A reject names the first comparator the version fails by precedence.
type Linear struct{}

var (
	_ engine.Policy        = Linear{}
	_ engine.Judge         = Linear{}
	_ engine.VersionReader = Linear{}
	_ engine.Explainer     = Linear{}
)

const (
	reasonLinearAllow = "prerelease: every comparator holds by precedence, and linear has no prerelease rule"
	reasonLinearEmpty = "prerelease: the empty constraint admits every version"
)

// Name returns "linear".
func (Linear) Name() string { return "linear" }

// Rule returns the rule in one line.
func (Linear) Rule() string {
	return "every version in range by SemVer precedence, prereleases included; ~> 1.2 admits 2.0.0-beta.1 (TF_ALLOW_PRERELEASE)"
}

// Compile parses constraint with the engine's parser.
func (l Linear) Compile(constraint string) (engine.Matcher, error) {
	return engine.CompileNative(l, constraint)
}

// ReadVersions reads versions once for the fast path: each constraint is
// compiled against the table and judged with integer comparisons, with
// the results Compile and Match give.
func (Linear) ReadVersions(versions []string) engine.VersionTable {
	return linearRule.readVersions(versions)
}

// Judge applies the linear rule to a parsed pair. It does not allocate.
func (Linear) Judge(c *engine.Constraint, v *engine.Version) engine.Result {
	return judgeTimeline(c, v, reasonLinearAllow, reasonLinearEmpty)
}

// judgeTimeline is B(c, v) with the given reasons for an admitted
// prerelease: the rule of linear and, pairwise, of fallback.
func judgeTimeline(c *engine.Constraint, v *engine.Version, allow, empty string) engine.Result {
	if !v.IsPrerelease() {
		return judgeRelease(c, v)
	}
	if cmp := failedBase(c, v); cmp != nil {
		return engine.Rejected(precedenceReason(cmp, v))
	}
	if c.Len() == 0 {
		return engine.Allowed(empty)
	}
	return engine.Allowed(allow)
}

// Explain shows each comparator read and checked by precedence.
func (l Linear) Explain(constraint, version string) engine.Explanation {
	var x explanation
	c, v, err := x.parse(constraint, version)
	if err != nil {
		return x.invalid(err)
	}
	cs := c.Comparators()
	for i := range cs {
		x.readAs(&cs[i], false)
		x.precedence(&cs[i], v)
	}
	x.add("rule", "linear has no prerelease rule: a version is admitted when every comparator holds by precedence (B)")
	return x.verdict(l.Judge(&c, &v))
}

// linearRule is Linear's rule for the fast path.
var linearRule = &nativeRule[noFacts]{judge: Linear{}, parse: parseNative, fast: fastLinear}

// fastLinear is Judge on the compiled form.
func fastLinear(m *compiled, _ *noFacts, v *fastVersion) engine.Result {
	return fastTimeline(m, v, reasonLinearAllow, reasonLinearEmpty)
}

// fastTimeline is judgeTimeline on the compiled form.
func fastTimeline(m *compiled, v *fastVersion, allow, empty string) engine.Result {
	if r, done := m.byPrecedence(v); done {
		return r
	}
	switch {
	case len(m.cmps) == 0:
		return engine.Allowed(empty)
	}
	return engine.Allowed(allow)
}
