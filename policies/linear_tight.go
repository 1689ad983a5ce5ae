package policies

import "github.com/prerel/prerel/engine"

// LinearTight puts prereleases on the timeline but stops "~>" before the
// next release, registered as "linear-tight".
//
// As [Linear], a version is admitted when it satisfies every comparator by
// SemVer precedence, except that the upper bound implied by "~>" excludes
// the prereleases of the next release: "~> 1.2" is ">= 1.2.0, < 2.0.0-0"
// and "~> 1.2.3" is ">= 1.2.3, < 1.3.0-0", so a version is below the bound
// when its MAJOR.MINOR.PATCH is. The lower bound, with its prerelease if
// it has one, stays as written ("~> 1.2.3-beta" is
// ">= 1.2.3-beta, < 1.3.0-0"). An explicit "<" or "<=" stays as written:
// "< 2.0.0" admits 2.0.0-beta.1, which lies below 2.0.0. On a release the
// rule is B(c, v). The empty constraint admits every version.
//
// This is npm's includePrerelease option and Cargo's matches_prerelease,
// both of which read a caret or tilde range with a "-0" upper bound.
//
//	~> 1.2                     | 2.0.0-beta.1  reject
//	~> 1.2                     | 1.9.0-rc.1    allow
//	< 2.0.0                    | 2.0.0-beta.1  allow
//
// When B fails, the reason names the failed comparator; a reason that starts
// with "prerelease:" means B holds and the prerelease rule decided.
type LinearTight struct{}

var (
	_ engine.Policy        = LinearTight{}
	_ engine.Judge         = LinearTight{}
	_ engine.VersionReader = LinearTight{}
	_ engine.Explainer     = LinearTight{}
)

const (
	reasonTightAllow   = "prerelease: every comparator holds by precedence, and no ~> upper bound is its release"
	reasonTightEmpty   = "prerelease: the empty constraint admits every version"
	reasonTightExclude = "prerelease: the upper bound implied by ~> excludes the prereleases of the next release"
)

// Name returns "linear-tight".
func (LinearTight) Name() string { return "linear-tight" }

// Rule returns the rule in one line.
func (LinearTight) Rule() string {
	return "as linear, but the upper bound of ~> excludes the next release's prereleases: ~> 1.2 is < 2.0.0-0 (npm includePrerelease)"
}

// Compile parses constraint with the engine's parser.
func (l LinearTight) Compile(constraint string) (engine.Matcher, error) {
	return engine.CompileNative(l, constraint)
}

// ReadVersions reads versions once for the fast path: each constraint is
// compiled against the table and judged with integer comparisons, with
// the results Compile and Match give.
func (LinearTight) ReadVersions(versions []string) engine.VersionTable {
	return linearTightRule.readVersions(versions)
}

// Judge applies the linear-tight rule to a parsed pair. It does not
// allocate.
func (LinearTight) Judge(c *engine.Constraint, v *engine.Version) engine.Result {
	if !v.IsPrerelease() {
		return judgeRelease(c, v)
	}
	if cmp := failedBase(c, v); cmp != nil {
		return engine.Rejected(precedenceReason(cmp, v))
	}
	cs := c.Comparators()
	for i := range cs {
		if tightExcludes(&cs[i], *v) {
			return engine.Rejected(reasonTightExclude)
		}
	}
	if len(cs) == 0 {
		return engine.Allowed(reasonTightEmpty)
	}
	return engine.Allowed(reasonTightAllow)
}

// tightExcludes reports whether cmp is a "~>" whose upper bound is the
// release the prerelease v leads up to: below the bound by precedence, but
// not below its "-0".
func tightExcludes(cmp *engine.Comparator, v engine.Version) bool {
	if cmp.Op != engine.OpPessimistic || !v.IsPrerelease() {
		return false
	}
	upper, ok := cmp.Upper()
	return ok && v.SameCore(upper)
}

// Explain shows each comparator read with the tight "~>" bound and checked
// by precedence.
func (l LinearTight) Explain(constraint, version string) engine.Explanation {
	var x explanation
	c, v, err := x.parse(constraint, version)
	if err != nil {
		return x.invalid(err)
	}
	cs := c.Comparators()
	for i := range cs {
		cmp := &cs[i]
		x.readAs(cmp, true)
		if !tightExcludes(cmp, v) || !cmp.Holds(v) {
			x.precedence(cmp, v)
			continue
		}
		upper, _ := cmp.Upper()
		x.add(cmp.String(), "%s < %s by precedence, but it is a prerelease of the upper bound %s, and %s-0 keeps it out: fails",
			show(v), show(upper), show(upper), show(upper))
	}
	x.add("rule", "as linear (every comparator by precedence), except that the upper bound implied by ~> excludes the prereleases of the next release; an explicit < or <= stays as written")
	return x.verdict(l.Judge(&c, &v))
}

// linearTightRule is LinearTight's rule for the fast path.
var linearTightRule = &nativeRule[linearTightFacts]{judge: LinearTight{}, parse: parseNative, facts: readLinearTightFacts, fast: fastLinearTight}

// linearTightFacts are what linear-tight decides once per constraint:
// the cores of the "~>" upper bounds, whose prereleases it keeps out.
type linearTightFacts struct{ bases []uint64 }

func readLinearTightFacts(m *compiled) (f linearTightFacts) {
	for i := range m.cmps {
		if c := &m.cmps[i]; c.op == engine.OpPessimistic {
			// The upper bound's key is one above c.hi, in the same core.
			f.bases = append(f.bases, c.hi.hi)
		}
	}
	return f
}

// fastLinearTight is Judge on the compiled form: the bases of the "~>"
// upper bounds were collected once.
func fastLinearTight(m *compiled, f *linearTightFacts, v *fastVersion) engine.Result {
	if r, done := m.byPrecedence(v); done {
		return r
	}
	switch {
	case contains(f.bases, v.base()):
		return engine.Rejected(reasonTightExclude)
	case len(m.cmps) == 0:
		return engine.Allowed(reasonTightEmpty)
	}
	return engine.Allowed(reasonTightAllow)
}
