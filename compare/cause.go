package compare

import (
	"sync"

	"github.com/prerel/prerel/engine"
)

// Cause names why two policies diverge on a case, as far as prerel can
// tell by re-evaluating the case with one thing changed.
type Cause string

// The causes a class can have. See CauseOf for how each is decided.
const (
	CauseSyntax      Cause = "syntax"
	CauseMetadata    Cause = "metadata"
	CausePessimistic Cause = "~> quirk"
	CausePrecedence  Cause = "precedence quirk"
	CausePrerelease  Cause = "prerelease rule"
	CauseUnknown     Cause = "unknown"
)

// CauseOf evaluates the case with both policies and, when their verdicts
// differ, names the cause by counterfactual re-evaluation: it changes one
// thing in the case, evaluates again with both policies (engine.Evaluate),
// and names the first change after which they agree. The steps, in order:
//
//  1. syntax: one side is Invalid (it refuses the constraint or the
//     version).
//  2. syntax: the constraint written in the engine's canonical form
//     (Constraint.String: one space after each operator, ", " between
//     comparators) differs from the text, and with it the two agree; they
//     disagree about how the constraint is written, not what it means.
//  3. metadata: the text has build metadata, and with every "+build"
//     removed from the constraint and the version the two agree.
//  4. ~> quirk: the constraint has a "~>" comparator, and with each one
//     rewritten as its explicit expansion (">= X, < U", U the bound
//     Comparator.Upper gives; ">= X" alone when there is none) the two
//     agree.
//  5. precedence quirk: the version is a prerelease and some comparator
//     names a different prerelease of the same base, and with every
//     prerelease renamed to a single letter identifier that keeps SemVer
//     order (so that no library can order them differently) the two
//     agree.
//  6. prerelease rule: the version or the constraint has a prerelease, and
//     on the same case with every prerelease removed the two agree: they
//     read the numbers alike and differ only in whether a prerelease is
//     admitted.
//  7. unknown: none of the above.
//
// Steps 4 to 6 need the engine to parse the constraint and the version and
// write the changed constraint in canonical form (which, by step 2, does
// not remove the divergence by itself). CauseOf returns "" when the two
// policies agree on the case.
func CauseOf(a, b engine.Policy, constraint, version string) Cause {
	return new(evaluator).causeOf(a, b, constraint, version)
}

// causeOf is CauseOf with the evaluations memoized in e.
func (e *evaluator) causeOf(a, b engine.Policy, constraint, version string) Cause {
	va := e.verdict(a, constraint, version)
	vb := e.verdict(b, constraint, version)
	if va == vb {
		return ""
	}
	if va == engine.Invalid || vb == engine.Invalid {
		return CauseSyntax
	}
	agree := func(c, v string) bool {
		return e.verdict(a, c, v) == e.verdict(b, c, v)
	}
	c, cerr := engine.ParseConstraint(constraint)
	v, verr := engine.ParseVersion(version)
	if cerr == nil {
		if canon := c.String(); canon != constraint && agree(canon, version) {
			return CauseSyntax
		}
	}
	if cs, vs := stripBuild(constraint), stripBuild(version); (cs != constraint || vs != version) && agree(cs, vs) {
		return CauseMetadata
	}
	if cerr != nil || verr != nil {
		return CauseUnknown
	}
	comps := splitComparators(c)
	if hasPessimistic(comps) && agree(formatComparators(expandPessimistic(comps)), version) {
		return CausePessimistic
	}
	if prereleaseOrderMatters(c, v) {
		rc, rv := relabelPrereleases(comps, v)
		if agree(rc, rv) {
			return CausePrecedence
		}
	}
	if v.IsPrerelease() || c.NamesPrerelease() {
		if agree(formatComparators(dropPrereleases(comps)), formatVersion(v, "")) {
			return CausePrerelease
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

// evaluator memoizes compiled constraints and verdicts, so that deciding
// the causes of many classes, whose counterfactual cases repeat from pair
// to pair, judges each (policy, constraint, version) once. It is safe for
// concurrent use.
type evaluator struct {
	matchers sync.Map // compileKey -> compiled
	verdicts sync.Map // verdictKey -> engine.Verdict
}

type compileKey struct{ policy, constraint string }

type verdictKey struct{ policy, constraint, version string }

type compiled struct {
	m   engine.Matcher
	err error
}

// verdict is engine.Evaluate(p, constraint, version).Verdict, memoized.
func (e *evaluator) verdict(p engine.Policy, constraint, version string) engine.Verdict {
	vk := verdictKey{p.Name(), constraint, version}
	if v, ok := e.verdicts.Load(vk); ok {
		return v.(engine.Verdict)
	}
	ck := compileKey{p.Name(), constraint}
	c, ok := e.matchers.Load(ck)
	if !ok {
		m, err := p.Compile(constraint)
		c, _ = e.matchers.LoadOrStore(ck, compiled{m, err})
	}
	v := engine.Invalid
	if cc := c.(compiled); cc.err == nil {
		v = cc.m.Match(version).Verdict
	}
	e.verdicts.Store(vk, v)
	return v
}
