package policies

import "github.com/prerel/prerel/engine"

// Strict is the exact-only policy, registered as "strict".
//
// A release version is admitted when it satisfies every comparator by
// precedence, B(c, v). A prerelease version is admitted only when some "="
// comparator (written "=" or with no operator) names exactly that version,
// equal by SemVer precedence (build metadata never counts), and the version
// also satisfies every other comparator. A range such as ">= 1.1.0-beta.2"
// never admits a prerelease, not even one of its own base. The empty
// constraint has no "=" comparator, so it admits every release and no
// prerelease.
//
// This is the rule of apparentlymart/go-versions MeetingConstraints, which
// Terraform's and OpenTofu's provider installers use, and the documented
// Terraform/OpenTofu behaviour: a prerelease is installed only when it is
// requested exactly. Precedence is SemVer's, where go-versions has quirks of
// its own: here build metadata never counts ("= 1.0.0" admits 1.0.0+def) and
// 0.0.0 is an ordinary version.
//
//	>= 1.1.0-beta.2            | 1.1.0-beta.3  reject
//	= 2.0.0-beta.1             | 2.0.0-beta.1  allow
//	>= 1.0.0, = 2.0.0-beta     | 2.0.0-beta    allow
//
// When B fails, the reason names the failed comparator; a reason that starts
// with "prerelease:" means B holds and the prerelease rule decided.
type Strict struct{}

var (
	_ engine.Policy        = Strict{}
	_ engine.Judge         = Strict{}
	_ engine.VersionReader = Strict{}
	_ engine.Explainer     = Strict{}
)

const (
	reasonStrictAllow   = "prerelease: an = comparator names exactly this version, and every comparator holds"
	reasonStrictNoEqual = "prerelease: no = comparator names it, and only an exact = admits a prerelease"
)

// Name returns "strict".
func (Strict) Name() string { return "strict" }

// Group returns "installers", the catalogue's group of what Terraform
// and OpenTofu do today: this is the documented rule of Terraform's and OpenTofu's provider installer.
func (Strict) Group() string { return "installers" }

// Rule returns the rule in one line.
func (Strict) Rule() string {
	return "a prerelease only when an = comparator names exactly that version; releases by precedence"
}

// Compile parses constraint with the engine's parser.
func (s Strict) Compile(constraint string) (engine.Matcher, error) {
	return engine.CompileNative(s, constraint)
}

// ReadVersions reads versions once for the fast path: each constraint is
// compiled against the table and judged with integer comparisons, with
// the results Compile and Match give.
func (Strict) ReadVersions(versions []string) engine.VersionTable {
	return strictRule.readVersions(versions)
}

// Judge applies the strict rule to a parsed pair. It does not allocate.
func (Strict) Judge(c *engine.Constraint, v *engine.Version) engine.Result {
	if !v.IsPrerelease() {
		return judgeRelease(c, v)
	}
	if cmp := failedBase(c, v); cmp != nil {
		return engine.Rejected(precedenceReason(cmp, v))
	}
	// B holds, so every "=" comparator already names v by precedence: one
	// is enough.
	cs := c.Comparators()
	for i := range cs {
		if cs[i].Op == engine.OpEqual {
			return engine.Allowed(reasonStrictAllow)
		}
	}
	return engine.Rejected(reasonStrictNoEqual)
}

// Explain shows each comparator checked by precedence and whether an "="
// comparator requests the version exactly.
func (s Strict) Explain(constraint, version string) engine.Explanation {
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
		if x.precedence(cmp, v) && pre && cmp.Op == engine.OpEqual {
			x.add(cmp.String(), "an = comparator names exactly this version: an exact request")
		}
	}
	if pre {
		x.add("rule", "a prerelease needs every comparator to hold by precedence (B) and an = comparator that names exactly this version")
	} else {
		x.add("rule", "a release is admitted when every comparator holds by precedence (B)")
	}
	return x.verdict(s.Judge(&c, &v))
}

// strictRule is Strict's rule for the fast path.
var strictRule = &nativeRule[strictFacts]{judge: Strict{}, parse: parseNative, facts: readStrictFacts, fast: fastStrict}

// strictFacts are what strict decides once per constraint: whether an
// "=" comparator may name the version.
type strictFacts struct{ hasEqual bool }

func readStrictFacts(m *compiled) (f strictFacts) {
	for i := range m.cmps {
		f.hasEqual = f.hasEqual || m.cmps[i].op == engine.OpEqual
	}
	return f
}

// fastStrict is Judge on the compiled form: a prerelease every
// comparator admits by precedence is the version an "=" names.
func fastStrict(m *compiled, f *strictFacts, v *fastVersion) engine.Result {
	if r, done := m.byPrecedence(v); done {
		return r
	}
	if f.hasEqual {
		return engine.Allowed(reasonStrictAllow)
	}
	return engine.Rejected(reasonStrictNoEqual)
}
