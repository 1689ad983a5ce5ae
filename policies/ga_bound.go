package policies

import "github.com/prerel/prerel/engine"

// GABound admits a prerelease when its GA release is in range, registered
// as "ga-bound".
//
// A version is admitted when every comparator passes it. "=" and "!="
// judge the version by SemVer precedence, and so does every comparator
// whose version names a prerelease. Every other comparator judges a
// prerelease v by GA(v), the release it leads up to (v without prerelease
// and build): ">= 1.0.0, < 2.0.0" refuses 2.0.0-beta because 2.0.0 is not
// below 2.0.0, while ">= 1.0.0, < 3.0.0" admits it, and so does
// "~> 2.0.0", because 2.0.0 is in [2.0.0, 2.1.0). A release is judged by
// precedence, B(c, v). So ga-bound admits some prereleases that B refuses
// (2.0.0-beta for ">= 2.0.0") and refuses some that B admits (2.0.0-beta
// for "< 2.0.0"). The empty constraint has no comparator to refuse
// anything, so it admits every version, prereleases included.
//
// A "~>" is judged as the two comparators it stands for. Its lower bound
// is the comparator's version, prerelease included, so it judges a
// prerelease by precedence when the comparator names one and by GA(v)
// when it does not. Its upper bound, the next minor or major release
// ("~> 3.2.0-beta.1" is ">= 3.2.0-beta.1, < 3.3.0"), names no prerelease,
// so it always judges a prerelease by GA(v): the GA release must stay
// below it. "~> 3.2.0-beta.1" admits 3.2.0-beta.2 and refuses
// 3.3.0-alpha.1, whose GA release 3.3.0 is not below 3.3.0.
//
// This is the design raised in the Terraform discussion of prerelease
// constraints (hashicorp/terraform issue 36985): 2.0.0-beta is not valid for
// ">= 1.0, < 2.0", is valid for ">= 1.0, < 3.0", and even for "~> 2.0.0".
// It is meant to be switched on per module.
//
//	>= 1.0.0, < 2.0.0          | 2.0.0-beta     reject
//	~> 2.0.0                   | 2.0.0-beta     allow
//	>= 1.1.0-beta.2            | 1.1.0-beta.1   reject
//	~> 3.2.0-beta.1            | 3.2.0-beta.2   allow
//	~> 3.2.0-beta.1            | 3.3.0-alpha.1  reject
//
// A reject names the first comparator, in written order, that refuses the
// version; a reason that starts with "prerelease:" means a comparator (or
// the upper bound of a "~>") refused the version's GA release.
type GABound struct{}

var (
	_ engine.Policy        = GABound{}
	_ engine.Judge         = GABound{}
	_ engine.VersionReader = GABound{}
	_ engine.Explainer     = GABound{}
)

const (
	reasonGABoundGA    = "prerelease: every comparator holds, those that name no prerelease (= and != aside) for its GA release"
	reasonGABoundExact = "prerelease: every comparator is = or != or names a prerelease, and each holds by precedence"
	reasonGABoundEmpty = "prerelease: the empty constraint has no comparator to refuse it"
	reasonGABoundUpper = "prerelease: every comparator holds, the upper bound of a ~> that names a prerelease for its GA release"
)

// gaFailure names, per operator, why a prerelease's GA release fails a
// comparator that judges it. "=" and "!=" never judge the GA release.
var gaFailure = [...]string{
	"prerelease: its GA release fails a comparator",
	engine.OpGreater:      "prerelease: its GA release is not above a > comparator's version",
	engine.OpGreaterEqual: "prerelease: its GA release is below a >= comparator's version",
	engine.OpLess:         "prerelease: its GA release is not below a < comparator's version",
	engine.OpLessEqual:    "prerelease: its GA release is above a <= comparator's version",
	engine.OpPessimistic:  "prerelease: its GA release is not below a ~> comparator's upper bound",
}

const reasonGABelowPessimistic = "prerelease: its GA release is below a ~> comparator's version"

// Name returns "ga-bound".
func (GABound) Name() string { return "ga-bound" }

// Rule returns the rule in one line.
func (GABound) Rule() string {
	return "a prerelease is judged by its GA release, except by = and != and comparators that name a prerelease: >= 1.0, < 2.0 refuses 2.0.0-beta"
}

// Compile parses constraint with the engine's parser.
func (g GABound) Compile(constraint string) (engine.Matcher, error) {
	return engine.CompileNative(g, constraint)
}

// ReadVersions reads versions once for the fast path: each constraint is
// compiled against the table and judged with integer comparisons, with
// the results Compile and Match give.
func (GABound) ReadVersions(versions []string) engine.VersionTable {
	return gaBoundRule.readVersions(versions)
}

// judgesGA reports whether cmp judges a prerelease by its GA release:
// every comparator but "=", "!=" and those that name a prerelease.
func judgesGA(cmp *engine.Comparator) bool {
	return cmp.Op != engine.OpEqual && cmp.Op != engine.OpNotEqual && !cmp.NamesPrerelease()
}

// pessimisticSplit reports whether cmp is a "~>" that names a prerelease
// and has an upper bound: its lower bound judges a prerelease by
// precedence, its upper bound by the GA release.
func pessimisticSplit(cmp *engine.Comparator) bool {
	if cmp.Op != engine.OpPessimistic || !cmp.NamesPrerelease() {
		return false
	}
	_, ok := cmp.Upper()
	return ok
}

// Judge applies the ga-bound rule to a parsed pair. It does not allocate.
func (GABound) Judge(c *engine.Constraint, v *engine.Version) engine.Result {
	if !v.IsPrerelease() {
		return judgeRelease(c, v)
	}
	ga := v.Core()
	anyGA, anyUpper := false, false
	cs := c.Comparators()
	for i := range cs {
		cmp := &cs[i]
		if pessimisticSplit(cmp) {
			// Its lower bound judges the version itself; its upper bound,
			// which names no prerelease, the GA release. v is at or above
			// the lower bound, so GA(v) is too, and Holds(ga) decides the
			// upper bound alone.
			if v.Compare(cmp.Version) < 0 {
				return engine.Rejected(reasonBelowPessimistic)
			}
			anyUpper = true
			if !cmp.Holds(ga) {
				return engine.Rejected(byOp(&gaFailure, engine.OpPessimistic))
			}
			continue
		}
		if !judgesGA(cmp) {
			if !cmp.Holds(*v) {
				return engine.Rejected(precedenceReason(cmp, v))
			}
			continue
		}
		anyGA = true
		if !cmp.Holds(ga) {
			if cmp.Op == engine.OpPessimistic && ga.Compare(cmp.Version) < 0 {
				return engine.Rejected(reasonGABelowPessimistic)
			}
			return engine.Rejected(byOp(&gaFailure, cmp.Op))
		}
	}
	switch {
	case len(cs) == 0:
		return engine.Allowed(reasonGABoundEmpty)
	case anyGA:
		return engine.Allowed(reasonGABoundGA)
	case anyUpper:
		return engine.Allowed(reasonGABoundUpper)
	}
	return engine.Allowed(reasonGABoundExact)
}

// Explain shows, for each comparator, whether it judges the version or its
// GA release, and whether that holds.
func (g GABound) Explain(constraint, version string) engine.Explanation {
	var x explanation
	c, v, err := x.parse(constraint, version)
	if err != nil {
		return x.invalid(err)
	}
	pre := v.IsPrerelease()
	ga := v.Core()
	cs := c.Comparators()
	for i := range cs {
		cmp := &cs[i]
		x.readAs(cmp, false)
		switch {
		case !pre:
			x.precedence(cmp, v)
		case cmp.Op == engine.OpEqual || cmp.Op == engine.OpNotEqual:
			_, text := relation(cmp, v)
			x.add(cmp.String(), "%s judges the version itself by precedence: %s", cmp.Op, text)
		case pessimisticSplit(cmp):
			upper, _ := cmp.Upper()
			if v.Compare(cmp.Version) < 0 {
				x.add(cmp.String(), "its lower bound names a prerelease, so it judges the version itself by precedence: %s: fails, below the lower bound", compared(v, cmp.Version))
				break
			}
			holds := cmp.Holds(ga)
			x.add(cmp.String(), "its lower bound names a prerelease, so it judges the version itself by precedence: %s: holds; its upper bound names none, so it judges GA(v) = %s: %s%s",
				compared(v, cmp.Version), show(ga), compared(ga, upper), verdictWord(holds))
		case cmp.NamesPrerelease():
			_, text := relation(cmp, v)
			x.add(cmp.String(), "names a prerelease, so it judges the version itself by precedence: %s", text)
		default:
			_, text := relation(cmp, ga)
			x.add(cmp.String(), "names no prerelease, so it judges GA(v) = %s: %s", show(ga), text)
		}
	}
	split := false
	for i := range cs {
		split = split || pessimisticSplit(&cs[i])
	}
	switch {
	case pre && split:
		x.add("rule", "= and != and every comparator that names a prerelease judge the version by precedence; every other comparator judges a prerelease by its GA release, and so does the upper bound of a ~> that names a prerelease, which names none")
	case pre:
		x.add("rule", "= and != and every comparator that names a prerelease judge the version by precedence; every other comparator judges a prerelease by its GA release")
	default:
		x.add("rule", "a release is admitted when every comparator holds by precedence (B)")
	}
	return x.verdict(g.Judge(&c, &v))
}

// gaBoundRule is GABound's rule for the fast path.
var gaBoundRule = &nativeRule[gaBoundFacts]{judge: GABound{}, parse: parseNative, facts: readGABoundFacts, fast: fastGABound}

// gaBoundFacts are what ga-bound decides once per constraint: allow is
// its result for a prerelease every comparator passes. A prerelease
// passes them all when its key lies in [selfLo, selfHi] (the comparators
// that judge the version) and is none of the "!=" versions, and its GA
// release's key lies in [gaLo, gaHi] (those that judge the GA release).
type gaBoundFacts struct {
	allow          engine.Result
	selfLo, selfHi key
	gaLo, gaHi     key
}

func readGABoundFacts(m *compiled) gaBoundFacts {
	f := gaBoundFacts{selfLo: minKey, selfHi: maxKey, gaLo: minKey, gaHi: maxKey}
	cs := m.c.Comparators()
	anyGA, anyUpper := false, false
	for i := range m.cmps {
		fc := &m.cmps[i]
		switch {
		case fc.ne:
		case pessimisticSplit(&cs[i]):
			anyUpper = true
			f.selfLo = maxOf(f.selfLo, fc.lo)
			f.gaHi = minOf(f.gaHi, fc.hi)
		case judgesGA(&cs[i]):
			anyGA = true
			f.gaLo, f.gaHi = maxOf(f.gaLo, fc.lo), minOf(f.gaHi, fc.hi)
		default:
			f.selfLo, f.selfHi = maxOf(f.selfLo, fc.lo), minOf(f.selfHi, fc.hi)
		}
	}
	switch {
	case len(cs) == 0:
		f.allow = engine.Allowed(reasonGABoundEmpty)
	case anyGA:
		f.allow = engine.Allowed(reasonGABoundGA)
	case anyUpper:
		f.allow = engine.Allowed(reasonGABoundUpper)
	default:
		f.allow = engine.Allowed(reasonGABoundExact)
	}
	return f
}

// fastGABound is Judge on the compiled form: comparator by comparator,
// the version or its GA release.
func fastGABound(m *compiled, f *gaBoundFacts, v *fastVersion) engine.Result {
	if !v.pre {
		if m.admits(v.k) {
			return m.releaseAllow
		}
		return m.fastRelease(v)
	}
	// Every comparator passes when the version lies in the interval of
	// those that judge it, and its GA release in the interval of those
	// that judge the GA release, for a constraint with at most one "!=".
	ga := v.ga()
	if le(f.selfLo, v.k) && le(v.k, f.selfHi) && le(f.gaLo, ga) && le(ga, f.gaHi) &&
		v.k != m.ne0 && len(m.ne) <= 1 {
		return f.allow
	}
	for i := range m.cmps {
		c := &m.cmps[i]
		switch {
		case c.op == engine.OpPessimistic && c.namesPre:
			// A compiled "~>" always has its upper bound: the lower bound
			// judges the version, the upper bound its GA release.
			if !le(c.lo, v.k) {
				return engine.Rejected(reasonBelowPessimistic)
			}
			if !le(ga, c.hi) {
				return engine.Rejected(byOp(&gaFailure, engine.OpPessimistic))
			}
		case c.op == engine.OpEqual || c.op == engine.OpNotEqual || c.namesPre:
			if !c.holds(v.k) {
				return m.precedenceReject(i, v.k)
			}
		case !c.holds(ga):
			if c.op == engine.OpPessimistic && !le(c.lo, ga) {
				return engine.Rejected(reasonGABelowPessimistic)
			}
			return engine.Rejected(byOp(&gaFailure, c.op))
		}
	}
	return f.allow
}
