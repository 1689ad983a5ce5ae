package compare

import (
	"github.com/prerel/prerel/engine"
)

// Cause names why two policies diverge on a case, as far as prerel can
// tell by re-evaluating the case with one thing changed.
type Cause string

// The causes a class can have. See CauseOf for how each is decided.
const (
	CauseSyntax      Cause = "syntax"           // a side refuses the text, or reads its layout differently
	CauseVPrefix     Cause = "v prefix"         // a "v" before a version decides
	CausePartial     Cause = "partial version"  // a version written with fewer than three numbers decides
	CauseMetadata    Cause = "metadata"         // build metadata decides
	CausePessimistic Cause = "~> quirk"         // the reading of "~>" decides
	CausePrecedence  Cause = "precedence quirk" // the order of prerelease identifiers decides
	CausePrerelease  Cause = "prerelease rule"  // whether a prerelease is admitted decides
	CauseUnknown     Cause = "unknown"          // none of the counterfactuals removes the divergence
)

// CauseOf evaluates the case with both policies and, when their verdicts
// differ, names the cause by counterfactual re-evaluation: it changes one
// thing in the case, evaluates again with both policies (Compile and
// Match, as engine.Evaluate), and names the first change after which they
// agree. The steps, in order:
//
//  1. syntax: one side is Invalid (it refuses the constraint or the
//     version).
//  2. syntax: the constraint written in the engine's canonical form
//     (Constraint.String: one space after each operator, ", " between
//     comparators) differs from the text, and with it the two agree; they
//     disagree about how the constraint is written, not what it means.
//  3. v prefix: a version of the text is written with a leading "v", and
//     with every "v" removed the two agree.
//  4. partial version: a comparator other than "~>" (whose meaning rests
//     on the number of parts written) has fewer than three numbers, and
//     with each written in full (">= 1" as ">= 1.0.0") the two agree.
//  5. metadata: the text has build metadata, and with every "+build"
//     removed from the constraint and the version the two agree.
//  6. ~> quirk: the constraint has a "~>" comparator, and with each one
//     rewritten as its explicit expansion (">= X, < U", U the bound
//     Comparator.Upper gives, written with three parts; ">= X" alone when
//     there is none) the two agree.
//  7. precedence quirk: the version is a prerelease and some comparator
//     names a different prerelease of the same base, and with every
//     prerelease renamed to a single letter identifier that keeps SemVer
//     order (so that no library can order them differently) the two
//     agree.
//  8. prerelease rule: the version or the constraint has a prerelease, and
//     on the same case with every prerelease removed (from the constraint
//     as written, or from its "~>" expansion of step 6) the two agree:
//     they read the numbers alike and differ only in whether a prerelease
//     is admitted.
//  9. unknown: none of the above.
//
// Every cause but the prerelease rule is a difference in reading the
// text (Cause.Kind): the rules may agree on prereleases and still
// disagree about what a constraint says.
//
// Steps 3 to 8 need the engine to parse the constraint and the version,
// and write the changed constraint in canonical form (which, by step 2,
// does not remove the divergence by itself). CauseOf returns "" when the
// two policies agree on the case.
func CauseOf(a, b engine.Policy, constraint, version string) Cause {
	// The probes are cases outside the run: a policy's record of the
	// cases it failed on does not count them.
	verdict := func(p engine.Policy, c, v string) engine.Verdict {
		return engine.Evaluate(engine.Quiet(p), c, v).Verdict
	}
	return decideCause(a, b, constraint, version, counterfactuals(constraint, version), verdict)
}

// counterfactual is one step of CauseOf: the cause it names when the two
// policies agree on any of its cases.
type counterfactual struct {
	cause Cause
	cases [][2]string // (constraint, version)
}

// counterfactuals lists the steps 2 to 8 of CauseOf that apply to a case,
// in order. They depend on the case alone, so the classes of every pair
// that share a witness share them.
func counterfactuals(constraint, version string) []counterfactual {
	var out []counterfactual
	c, cerr := engine.ParseConstraint(constraint)
	v, verr := engine.ParseVersion(version)
	if cerr == nil {
		if canon := c.String(); canon != constraint {
			out = append(out, counterfactual{CauseSyntax, [][2]string{{canon, version}}})
		}
	}
	var comps []comparatorText
	if cerr == nil && verr == nil {
		comps = splitComparators(c)
		if vc, vv := dropVPrefixes(comps, v); vc != nil {
			out = append(out, counterfactual{CauseVPrefix, [][2]string{{formatComparators(vc), vv}}})
		}
		if full := writeInFull(comps); full != nil {
			out = append(out, counterfactual{CausePartial, [][2]string{{formatComparators(full), version}}})
		}
	}
	if cs, vs := stripBuild(constraint), stripBuild(version); cs != constraint || vs != version {
		out = append(out, counterfactual{CauseMetadata, [][2]string{{cs, vs}}})
	}
	if cerr != nil || verr != nil {
		return out
	}
	var expanded []comparatorText
	if hasPessimistic(comps) {
		expanded = expandPessimistic(comps)
		out = append(out, counterfactual{CausePessimistic, [][2]string{{formatComparators(expanded), version}}})
	}
	if prereleaseOrderMatters(c, v) {
		rc, rv := relabelPrereleases(comps, v)
		out = append(out, counterfactual{CausePrecedence, [][2]string{{rc, rv}}})
	}
	if v.IsPrerelease() || c.NamesPrerelease() {
		release := formatVersion(v, "")
		step := counterfactual{CausePrerelease, [][2]string{{formatComparators(dropPrereleases(comps)), release}}}
		if expanded != nil {
			step.cases = append(step.cases, [2]string{formatComparators(dropPrereleases(expanded)), release})
		}
		out = append(out, step)
	}
	return out
}

// Kind says what sort of difference a cause is: "rule" for the
// prerelease rule, "reading" for every difference in reading the text
// (syntax, a "v" prefix, a partial version, build metadata, the reading of
// "~>", the order of prerelease identifiers), "unknown" otherwise.
func (c Cause) Kind() string {
	switch c {
	case CausePrerelease:
		return "rule"
	case CauseSyntax, CauseVPrefix, CausePartial, CauseMetadata, CausePessimistic, CausePrecedence:
		return "reading"
	}
	return "unknown"
}

// decideCause runs the steps of CauseOf with the given way to judge a
// case.
func decideCause(a, b engine.Policy, constraint, version string, steps []counterfactual, verdict func(p engine.Policy, c, v string) engine.Verdict) Cause {
	va, vb := verdict(a, constraint, version), verdict(b, constraint, version)
	if va == vb {
		return ""
	}
	if va == engine.Invalid || vb == engine.Invalid {
		return CauseSyntax
	}
	for _, step := range steps {
		for _, cv := range step.cases {
			if verdict(a, cv[0], cv[1]) == verdict(b, cv[0], cv[1]) {
				return step.cause
			}
		}
	}
	return CauseUnknown
}

// prereleaseOrderMatters reports whether v is a prerelease and some
// comparator of c names a different prerelease of the same base, so that
// the order of prerelease identifiers takes part in the verdict.
func prereleaseOrderMatters(c engine.Constraint, v engine.Version) bool {
	if !v.IsPrerelease() {
		return false
	}
	for _, cmp := range c.Comparators() {
		if cmp.NamesPrerelease() && cmp.Version.SameCore(v) && cmp.Version.Prerelease() != v.Prerelease() {
			return true
		}
	}
	return false
}
