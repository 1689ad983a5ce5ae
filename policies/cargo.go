package policies

import "github.com/prerel/prerel/engine"

// Cargo is the same-base rule, registered as "cargo".
//
// A version is admitted when it satisfies every comparator by precedence,
// B(c, v), and, if it is a prerelease, at least one comparator other than
// "!=" names a prerelease with the same base (MAJOR.MINOR.PATCH) as the
// version. A comparator written with fewer parts has its missing parts
// zero, so ">= 1.2-beta" names a prerelease of base 1.2.0. The empty
// constraint names no prerelease, so it admits every release and no
// prerelease.
//
// This is the rule of Rust's semver crate (VersionReq::matches, its
// matches_req) that Cargo uses, and of npm's node-semver within one
// comparator set. Neither has "!=", which here never opts a prerelease in:
// excluding a prerelease is no request for prereleases.
//
//	>= 1.1.0-beta.2            | 1.1.0-beta.3  allow
//	>= 1.1.0-beta.2            | 2.0.0-beta.1  reject
//	>= 1.0.0-beta, < 1.0.0     | 1.0.0-rc.1    allow
//
// When B fails, the reason names the failed comparator; a reason that starts
// with "prerelease:" means B holds and the prerelease rule decided.
type Cargo struct{}

var (
	_ engine.Policy        = Cargo{}
	_ engine.Judge         = Cargo{}
	_ engine.VersionReader = Cargo{}
	_ engine.Explainer     = Cargo{}
)

const (
	reasonCargoAllow     = "prerelease: a comparator with the same base names a prerelease, and every comparator holds"
	reasonCargoEmpty     = "prerelease: the empty constraint names no prerelease"
	reasonCargoNone      = "prerelease: no comparator names a prerelease"
	reasonCargoOtherBase = "prerelease: no comparator with the same base names a prerelease (only other bases do)"
	reasonCargoNotEqual  = "prerelease: only a != comparator names a prerelease of the same base, and != never opts in"
)

// Name returns "cargo".
func (Cargo) Name() string { return "cargo" }

// Rule returns the rule in one line.
func (Cargo) Rule() string {
	return "a prerelease only when a comparator other than != names a prerelease of the same base (Cargo, npm)"
}

// Compile parses constraint with the engine's parser.
func (p Cargo) Compile(constraint string) (engine.Matcher, error) {
	return engine.CompileNative(p, constraint)
}

// ReadVersions reads versions once for the fast path: each constraint is
// compiled against the table and judged with integer comparisons, with
// the results Compile and Match give.
func (Cargo) ReadVersions(versions []string) engine.VersionTable {
	return cargoRule.readVersions(versions)
}

// Judge applies the cargo rule to a parsed pair. It does not allocate.
func (Cargo) Judge(c *engine.Constraint, v *engine.Version) engine.Result {
	if !v.IsPrerelease() {
		return judgeRelease(c, v)
	}
	if cmp := failedBase(c, v); cmp != nil {
		return engine.Rejected(precedenceReason(cmp, v))
	}
	named, sameBaseNotEqual := false, false
	cs := c.Comparators()
	for i := range cs {
		cmp := &cs[i]
		if !cmp.NamesPrerelease() {
			continue
		}
		named = true
		if !cmp.Version.SameCore(*v) {
			continue
		}
		if cmp.Op == engine.OpNotEqual {
			sameBaseNotEqual = true
			continue
		}
		return engine.Allowed(reasonCargoAllow)
	}
	switch {
	case len(cs) == 0:
		return engine.Rejected(reasonCargoEmpty)
	case sameBaseNotEqual:
		return engine.Rejected(reasonCargoNotEqual)
	case named:
		return engine.Rejected(reasonCargoOtherBase)
	}
	return engine.Rejected(reasonCargoNone)
}

// Explain shows each comparator checked by precedence and whether it names
// a prerelease of the version's base.
func (p Cargo) Explain(constraint, version string) engine.Explanation {
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
		case !cmp.NamesPrerelease():
			x.add(cmp.String(), "names no prerelease")
		case !cmp.Version.SameCore(v):
			x.add(cmp.String(), "names a prerelease of base %s, not of the version's base %s: does not opt it in", show(cmp.Version.Core()), show(v.Core()))
		case cmp.Op == engine.OpNotEqual:
			x.add(cmp.String(), "names a prerelease of the same base %s, but a != never opts in", show(v.Core()))
		default:
			x.add(cmp.String(), "names a prerelease of the same base %s: opts the version in", show(v.Core()))
		}
	}
	if pre {
		x.add("rule", "a prerelease needs every comparator to hold by precedence (B) and a comparator other than != that names a prerelease of the same base")
	} else {
		x.add("rule", "a release is admitted when every comparator holds by precedence (B)")
	}
	return x.verdict(p.Judge(&c, &v))
}

// cargoRule is Cargo's rule for the fast path.
var cargoRule = &nativeRule[cargoFacts]{judge: Cargo{}, parse: parseNative, facts: readCargoFacts, fast: fastCargo}

// cargoFacts are what cargo decides once per constraint: the bases of
// the comparators other than "!=" that name a prerelease (optIn), those
// of the "!=" comparators that do (ne), and whether any comparator does.
type cargoFacts struct {
	optIn, ne []uint64
	namesPre  bool
}

func readCargoFacts(m *compiled) (f cargoFacts) {
	for i := range m.cmps {
		c := &m.cmps[i]
		switch {
		case !c.namesPre:
		case c.ne:
			f.ne = append(f.ne, c.base)
		default:
			f.optIn = append(f.optIn, c.base)
		}
		f.namesPre = f.namesPre || c.namesPre
	}
	return f
}

// fastCargo is Judge on the compiled form: the bases that opt a
// prerelease in were collected once.
func fastCargo(m *compiled, f *cargoFacts, v *fastVersion) engine.Result {
	if r, done := m.byPrecedence(v); done {
		return r
	}
	switch {
	case contains(f.optIn, v.base()):
		return engine.Allowed(reasonCargoAllow)
	case len(m.cmps) == 0:
		return engine.Rejected(reasonCargoEmpty)
	case contains(f.ne, v.base()):
		return engine.Rejected(reasonCargoNotEqual)
	case f.namesPre:
		return engine.Rejected(reasonCargoOtherBase)
	}
	return engine.Rejected(reasonCargoNone)
}
