package policies

import "github.com/prerel/prerel/engine"

// Lexical is the hashicorp/go-version rule, registered as "lexical".
//
// Each comparator is checked on its own, and a version is admitted when every
// comparator passes it:
//
//   - "=" and "!=" compare by SemVer precedence, with no prerelease gate.
//   - ">", ">=", "<", "<=" and "~>" pass a prerelease version only when the
//     comparator's version has a prerelease and the same base
//     (MAJOR.MINOR.PATCH, missing parts zero), and the version then holds by
//     precedence. A comparator without a prerelease refuses every prerelease.
//   - They pass a release version by precedence, also when the comparator's
//     version has a prerelease, except that "~>" with a prerelease admits
//     prerelease versions only.
//
// The empty constraint has no comparator to refuse anything, so it admits
// every version, prereleases included.
//
// This is hashicorp/go-version Constraints.Check, used by Terraform's module
// installer and its required_version check, with two differences: "~>" has
// this project's bounds (engine.Comparator.Upper), so "~> 1" is
// ">= 1.0.0, < 2.0.0", where go-version gives a one-part "~>" no upper bound;
// and precedence is SemVer's, where go-version orders some prereleases its
// own way ("1.0.0-beta.alpha" below "1.0.0-beta").
//
//	>= 1.1.0-beta.2            | 1.1.0-rc.1  allow
//	>= 1.0.0-beta, < 1.0.0     | 1.0.0-rc.1  reject (the release comparator "< 1.0.0" refuses every prerelease)
//	~> 1.0.0-beta              | 1.0.1       reject
//
// A reject names the first comparator, in written order, that refuses the
// version.
type Lexical struct{}

var (
	_ engine.Policy        = Lexical{}
	_ engine.Judge         = Lexical{}
	_ engine.VersionReader = Lexical{}
	_ engine.Explainer     = Lexical{}
)

const (
	reasonLexicalEmpty      = "prerelease: the empty constraint has no comparator to refuse it"
	reasonLexicalRanges     = "prerelease: every range comparator names a prerelease of its base, and every comparator holds"
	reasonLexicalOnlyEquals = "prerelease: = and != compare by precedence with no prerelease gate, and every comparator holds"
	reasonLexicalTildePre   = "release: a ~> comparator with a prerelease admits prereleases only"
)

// lexicalNoPrerelease is the reason a range comparator without a prerelease
// refuses a prerelease version, by operator.
var lexicalNoPrerelease = [...]string{
	"prerelease: a comparator without a prerelease refuses every prerelease",
	engine.OpGreater:      "prerelease: a > comparator without a prerelease refuses every prerelease",
	engine.OpGreaterEqual: "prerelease: a >= comparator without a prerelease refuses every prerelease",
	engine.OpLess:         "prerelease: a < comparator without a prerelease refuses every prerelease",
	engine.OpLessEqual:    "prerelease: a <= comparator without a prerelease refuses every prerelease",
	engine.OpPessimistic:  "prerelease: a ~> comparator without a prerelease refuses every prerelease",
}

// lexicalOtherBase is the reason a range comparator whose prerelease has
// another base refuses a prerelease version, by operator.
var lexicalOtherBase = [...]string{
	"prerelease: a comparator names a prerelease of another base",
	engine.OpGreater:      "prerelease: a > comparator names a prerelease of another base",
	engine.OpGreaterEqual: "prerelease: a >= comparator names a prerelease of another base",
	engine.OpLess:         "prerelease: a < comparator names a prerelease of another base",
	engine.OpLessEqual:    "prerelease: a <= comparator names a prerelease of another base",
	engine.OpPessimistic:  "prerelease: a ~> comparator names a prerelease of another base",
}

// Name returns "lexical".
func (Lexical) Name() string { return "lexical" }

// Rule returns the rule in one line.
func (Lexical) Rule() string {
	return "each comparator on its own: a range passes a prerelease only if it names a prerelease of the same base (hashicorp/go-version)"
}

// Compile parses constraint with the engine's parser.
func (l Lexical) Compile(constraint string) (engine.Matcher, error) {
	return engine.CompileNative(l, constraint)
}

// ReadVersions reads versions once for the fast path: each constraint is
// compiled against the table and judged with integer comparisons, with
// the results Compile and Match give.
func (Lexical) ReadVersions(versions []string) engine.VersionTable {
	return lexicalRule.readVersions(versions)
}

// Judge applies the lexical rule to a parsed pair. It does not allocate.
func (Lexical) Judge(c *engine.Constraint, v *engine.Version) engine.Result {
	pre := v.IsPrerelease()
	ranges := false
	cs := c.Comparators()
	for i := range cs {
		cmp := &cs[i]
		if cmp.Op != engine.OpEqual && cmp.Op != engine.OpNotEqual {
			ranges = true
			switch {
			case pre && !cmp.NamesPrerelease():
				return engine.Rejected(byOp(&lexicalNoPrerelease, cmp.Op))
			case pre && !cmp.Version.SameCore(*v):
				return engine.Rejected(byOp(&lexicalOtherBase, cmp.Op))
			case !pre && cmp.Op == engine.OpPessimistic && cmp.NamesPrerelease():
				return engine.Rejected(reasonLexicalTildePre)
			}
		}
		if !cmp.Holds(*v) {
			return engine.Rejected(precedenceReason(cmp, v))
		}
	}
	switch {
	case !pre && len(cs) == 0:
		return engine.Allowed(reasonEmptyRelease)
	case !pre:
		return engine.Allowed(reasonReleaseHolds)
	case len(cs) == 0:
		return engine.Allowed(reasonLexicalEmpty)
	case ranges:
		return engine.Allowed(reasonLexicalRanges)
	}
	return engine.Allowed(reasonLexicalOnlyEquals)
}

// Explain shows each comparator checked on its own, with the prerelease
// gate of the range comparators.
func (l Lexical) Explain(constraint, version string) engine.Explanation {
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
		_, text := relation(cmp, v)
		switch {
		case cmp.Op == engine.OpEqual || cmp.Op == engine.OpNotEqual:
			x.add(cmp.String(), "%s compares by precedence with no prerelease gate: %s", cmp.Op, text)
		case pre && !cmp.NamesPrerelease():
			x.add(cmp.String(), "names no prerelease, so it refuses every prerelease version: fails")
		case pre && !cmp.Version.SameCore(v):
			x.add(cmp.String(), "names a prerelease of base %s, not of the version's base %s, so it refuses it: fails", show(cmp.Version.Core()), show(v.Core()))
		case pre:
			x.add(cmp.String(), "names a prerelease of the same base %s, so it compares by precedence: %s", show(v.Core()), text)
		case cmp.Op == engine.OpPessimistic && cmp.NamesPrerelease():
			x.add(cmp.String(), "a ~> with a prerelease admits prerelease versions only, so it refuses this release: fails")
		default:
			x.add(cmp.String(), "by precedence %s", text)
		}
	}
	x.add("rule", "each comparator is checked on its own and the first that refuses decides; > >= < <= ~> pass a prerelease only when they name a prerelease of the same base; = and != compare by precedence")
	return x.verdict(l.Judge(&c, &v))
}

// lexicalRule is Lexical's rule for the fast path.
var lexicalRule = &nativeRule[lexicalFacts]{judge: Lexical{}, parse: parseNative, facts: readLexicalFacts, fast: fastLexical}

// lexicalFacts are what lexical decides once per constraint: whether a
// range comparator (other than "=" and "!=") is among its comparators.
type lexicalFacts struct{ ranges bool }

func readLexicalFacts(m *compiled) (f lexicalFacts) {
	for i := range m.cmps {
		f.ranges = f.ranges || m.cmps[i].op != engine.OpEqual && m.cmps[i].op != engine.OpNotEqual
	}
	return f
}

// fastLexical is Judge on the compiled form: each comparator on its own,
// in written order.
func fastLexical(m *compiled, f *lexicalFacts, v *fastVersion) engine.Result {
	if !v.pre && !f.ranges {
		// Only = and !=: B decides, as judgeRelease words it.
		if m.admits(v.k) {
			return m.releaseAllow
		}
		return m.fastRelease(v)
	}
	for i := range m.cmps {
		c := &m.cmps[i]
		if c.op != engine.OpEqual && c.op != engine.OpNotEqual {
			switch {
			case v.pre && !c.namesPre:
				return engine.Rejected(byOp(&lexicalNoPrerelease, c.op))
			case v.pre && c.base != v.base():
				return engine.Rejected(byOp(&lexicalOtherBase, c.op))
			case !v.pre && c.op == engine.OpPessimistic && c.namesPre:
				return engine.Rejected(reasonLexicalTildePre)
			}
		}
		if !c.holds(v.k) {
			return m.precedenceReject(i, v.k)
		}
	}
	switch {
	case !v.pre:
		return m.releaseAllow
	case len(m.cmps) == 0:
		return engine.Allowed(reasonLexicalEmpty)
	case f.ranges:
		return engine.Allowed(reasonLexicalRanges)
	}
	return engine.Allowed(reasonLexicalOnlyEquals)
}
