package policies

import "github.com/prerel/prerel/engine"

// AnyPre lets one prerelease bound opt the whole constraint in, registered
// as "any-pre".
//
// A version is admitted when it satisfies every comparator by precedence,
// B(c, v), and, if it is a prerelease, some comparator other than "!="
// names a prerelease, of any base. Once a constraint names a prerelease,
// every prerelease in its range is admitted: ">= 1.1.0-beta.2" admits
// 2.0.0-beta.1. "!=" never opts in: excluding a prerelease is no request
// for prereleases. The empty constraint names no prerelease, so it admits
// every release and no prerelease.
//
// This is OpenTofu's RFC for prerelease provider constraints
// (opentofu/opentofu PR 3981), and the rule of NuGet and of PEP 440 (a
// specifier that mentions a prerelease accepts prereleases). Masterminds
// and RubyGems let "!=" opt in too, a quirk the "masterminds" adapter
// shows.
//
//	>= 1.1.0-beta.2            | 2.0.0-beta.1  allow
//	>= 1.0.0, != 1.5.0-rc.1    | 1.5.0-rc.2    reject
//	>= 1.0.0-0, < 2.0.0        | 2.0.0-beta.1  allow
//
// When B fails, the reason names the failed comparator; a reason that starts
// with "prerelease:" means B holds and the prerelease rule decided.
type AnyPre struct{}

var (
	_ engine.Policy        = AnyPre{}
	_ engine.Judge         = AnyPre{}
	_ engine.VersionReader = AnyPre{}
	_ engine.Explainer     = AnyPre{}
)

const (
	reasonAnyPreAllow    = "prerelease: a comparator other than != names a prerelease, and every comparator holds"
	reasonAnyPreEmpty    = "prerelease: the empty constraint names no prerelease"
	reasonAnyPreNone     = "prerelease: no comparator names a prerelease"
	reasonAnyPreNotEqual = "prerelease: only a != comparator names a prerelease, and != never opts in"
)

// Name returns "any-pre".
func (AnyPre) Name() string { return "any-pre" }

// Rule returns the rule in one line.
func (AnyPre) Rule() string {
	return "a prerelease in range when any comparator other than != names a prerelease, of any base (OpenTofu RFC, NuGet, PEP 440)"
}

// Compile parses constraint with the engine's parser.
func (a AnyPre) Compile(constraint string) (engine.Matcher, error) {
	return engine.CompileNative(a, constraint)
}

// ReadVersions reads versions once for the fast path: each constraint is
// compiled against the table and judged with integer comparisons, with
// the results Compile and Match give.
func (AnyPre) ReadVersions(versions []string) engine.VersionTable {
	return anyPreRule.readVersions(versions)
}

// optsIn reports whether cmp opts a constraint into prereleases under
// any-pre: it names a prerelease and is not "!=".
func optsIn(cmp *engine.Comparator) bool {
	return cmp.NamesPrerelease() && cmp.Op != engine.OpNotEqual
}

// Judge applies the any-pre rule to a parsed pair. It does not allocate.
func (AnyPre) Judge(c *engine.Constraint, v *engine.Version) engine.Result {
	if !v.IsPrerelease() {
		return judgeRelease(c, v)
	}
	if cmp := failedBase(c, v); cmp != nil {
		return engine.Rejected(precedenceReason(cmp, v))
	}
	notEqual := false
	cs := c.Comparators()
	for i := range cs {
		if optsIn(&cs[i]) {
			return engine.Allowed(reasonAnyPreAllow)
		}
		if cs[i].NamesPrerelease() {
			notEqual = true
		}
	}
	switch {
	case len(cs) == 0:
		return engine.Rejected(reasonAnyPreEmpty)
	case notEqual:
		return engine.Rejected(reasonAnyPreNotEqual)
	}
	return engine.Rejected(reasonAnyPreNone)
}

// Explain shows each comparator checked by precedence and whether it opts
// the constraint into prereleases.
func (a AnyPre) Explain(constraint, version string) engine.Explanation {
	var x explanation
	c, v, err := x.parse(constraint, version)
	if err != nil {
		return x.invalid(err)
	}
	pre := v.IsPrerelease()
	cs := c.Comparators()
	for i := range cs {
		cmp := &cs[i]
		x.readAs(cmp, false)
		x.precedence(cmp, v)
		switch {
		case !pre:
		case optsIn(cmp):
			x.add(cmp.String(), "names the prerelease %s: opts the constraint into prereleases", show(cmp.Version))
		case cmp.NamesPrerelease():
			x.add(cmp.String(), "names the prerelease %s, but a != never opts in", show(cmp.Version))
		default:
			x.add(cmp.String(), "names no prerelease")
		}
	}
	if pre {
		x.add("rule", "a prerelease needs every comparator to hold by precedence (B) and some comparator other than != to name a prerelease, of any base")
	} else {
		x.add("rule", "a release is admitted when every comparator holds by precedence (B)")
	}
	return x.verdict(a.Judge(&c, &v))
}

// anyPreRule is AnyPre's rule for the fast path.
var anyPreRule = &nativeRule[anyPreFacts]{judge: AnyPre{}, parse: parseNative, facts: readAnyPreFacts, fast: fastAnyPre}

// anyPreFacts are what any-pre decides once per constraint: whether a
// comparator other than "!=" names a prerelease (optIn), and whether any
// does.
type anyPreFacts struct{ optIn, namesPre bool }

func readAnyPreFacts(m *compiled) (f anyPreFacts) {
	for i := range m.cmps {
		c := &m.cmps[i]
		f.optIn = f.optIn || c.namesPre && !c.ne
		f.namesPre = f.namesPre || c.namesPre
	}
	return f
}

// fastAnyPre is Judge on the compiled form: whether the constraint opts
// prereleases in was decided once.
func fastAnyPre(m *compiled, f *anyPreFacts, v *fastVersion) engine.Result {
	if r, done := m.byPrecedence(v); done {
		return r
	}
	switch {
	case f.optIn:
		return engine.Allowed(reasonAnyPreAllow)
	case len(m.cmps) == 0:
		return engine.Rejected(reasonAnyPreEmpty)
	case f.namesPre:
		return engine.Rejected(reasonAnyPreNotEqual)
	}
	return engine.Rejected(reasonAnyPreNone)
}
