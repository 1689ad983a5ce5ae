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
	_ engine.Policy   = Lexical{}
	_ engine.Judge    = Lexical{}
	_ engine.Preparer = Lexical{}
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

// Prepare parses the pair once for repeated checks.
func (l Lexical) Prepare(constraint, version string) (func() engine.Result, error) {
	return engine.PrepareNative(l, constraint, version)
}

// Judge applies the lexical rule to a parsed pair. It does not allocate.
func (Lexical) Judge(c engine.Constraint, v engine.Version) engine.Result {
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
			case pre && !cmp.Version.SameCore(v):
				return engine.Rejected(byOp(&lexicalOtherBase, cmp.Op))
			case !pre && cmp.Op == engine.OpPessimistic && cmp.NamesPrerelease():
				return engine.Rejected(reasonLexicalTildePre)
			}
		}
		if !cmp.Holds(v) {
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
