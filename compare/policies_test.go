package compare_test

import (
	"strings"

	"github.com/prerel/prerel/engine"
)

// Deterministic test policies, each a plain rule with one twist, so that
// every cause has a pair that shows it.

// rule is a test policy over the engine's parser.
type rule struct {
	name  string
	judge func(c engine.Constraint, v engine.Version, text string) engine.Verdict
	// refuse, when set, makes the constraint or version text Invalid.
	refuse func(text string) bool
}

func (r rule) Name() string { return r.name }
func (r rule) Rule() string { return "test rule " + r.name }

func (r rule) Compile(constraint string) (engine.Matcher, error) {
	if r.refuse != nil && r.refuse(constraint) {
		return nil, errRefused
	}
	c, err := engine.ParseConstraint(constraint)
	if err != nil {
		return nil, err
	}
	return ruleMatcher{r, c, constraint}, nil
}

type ruleMatcher struct {
	r    rule
	c    engine.Constraint
	text string
}

func (m ruleMatcher) Match(version string) engine.Result {
	if m.r.refuse != nil && m.r.refuse(version) {
		return engine.InvalidResult(errRefused)
	}
	v, err := engine.ParseVersion(version)
	if err != nil {
		return engine.InvalidResult(err)
	}
	verdict := m.r.judge(m.c, v, m.text)
	return engine.Result{Verdict: verdict, Reason: m.r.name + " says " + verdict.String()}
}

type refusedError struct{}

func (refusedError) Error() string { return "refused by the test rule" }

var errRefused error = refusedError{}

func verdictOf(ok bool) engine.Verdict {
	if ok {
		return engine.Allow
	}
	return engine.Reject
}

// holdsWith is B(c, v) with a precedence function and a "~>" upper bound
// function of the policy's own.
func holdsWith(c engine.Constraint, v engine.Version, cmp func(a, b engine.Version) int, upper func(engine.Comparator) (engine.Version, bool)) bool {
	for _, k := range c.Comparators() {
		d := cmp(v, k.Version)
		ok := false
		switch k.Op {
		case engine.OpEqual:
			ok = d == 0
		case engine.OpNotEqual:
			ok = d != 0
		case engine.OpGreater:
			ok = d > 0
		case engine.OpGreaterEqual:
			ok = d >= 0
		case engine.OpLess:
			ok = d < 0
		case engine.OpLessEqual:
			ok = d <= 0
		case engine.OpPessimistic:
			u, has := upper(k)
			ok = d >= 0 && (!has || cmp(v, u) < 0)
		}
		if !ok {
			return false
		}
	}
	return true
}

func semver(a, b engine.Version) int { return a.Compare(b) }

func engineUpper(k engine.Comparator) (engine.Version, bool) { return k.Upper() }

// linear: B(c, v) alone.
var linear = rule{name: "linear", judge: func(c engine.Constraint, v engine.Version, _ string) engine.Verdict {
	return verdictOf(c.Holds(v))
}}

// sameBase: B(c, v), and a prerelease needs a comparator naming a
// prerelease of its base.
var sameBase = rule{name: "same-base", judge: func(c engine.Constraint, v engine.Version, _ string) engine.Verdict {
	if !c.Holds(v) {
		return engine.Reject
	}
	if !v.IsPrerelease() {
		return engine.Allow
	}
	for _, k := range c.Comparators() {
		if k.NamesPrerelease() && k.Version.SameCore(v) && k.Op != engine.OpNotEqual {
			return engine.Allow
		}
	}
	return engine.Reject
}}

// exact: a prerelease only through an = comparator naming it.
var exact = rule{name: "exact", judge: func(c engine.Constraint, v engine.Version, _ string) engine.Verdict {
	if !c.Holds(v) {
		return engine.Reject
	}
	if !v.IsPrerelease() {
		return engine.Allow
	}
	for _, k := range c.Comparators() {
		if k.Op == engine.OpEqual && k.Version.Equal(v) {
			return engine.Allow
		}
	}
	return engine.Reject
}}

// buildEq: linear, but = also compares build metadata.
var buildEq = rule{name: "build-eq", judge: func(c engine.Constraint, v engine.Version, _ string) engine.Verdict {
	for _, k := range c.Comparators() {
		if k.Op == engine.OpEqual && k.Version.Build() != v.Build() {
			return engine.Reject
		}
	}
	return verdictOf(c.Holds(v))
}}

// tilde: linear, but "~> X.Y" stays below X.(Y+1).0, as Masterminds reads
// its tilde.
var tilde = rule{name: "tilde", judge: func(c engine.Constraint, v engine.Version, _ string) engine.Verdict {
	return verdictOf(holdsWith(c, v, semver, func(k engine.Comparator) (engine.Version, bool) {
		if k.Precision == 2 {
			return engine.NewVersion(k.Version.Major(), k.Version.Minor()+1, 0), true
		}
		return k.Upper()
	}))
}}

// countFirst: linear, but a longer prerelease sorts above a shorter one
// before identifiers are compared, as apparentlymart/go-versions does.
var countFirst = rule{name: "count-first", judge: func(c engine.Constraint, v engine.Version, _ string) engine.Verdict {
	return verdictOf(holdsWith(c, v, func(a, b engine.Version) int {
		if a.SameCore(b) && a.IsPrerelease() && b.IsPrerelease() {
			na, nb := strings.Count(a.Prerelease(), "."), strings.Count(b.Prerelease(), ".")
			if na != nb {
				if na < nb {
					return -1
				}
				return 1
			}
		}
		return a.Compare(b)
	}, engineUpper))
}}

// noV: linear, but text with a "v" is Invalid.
var noV = rule{name: "no-v", judge: linear.judge, refuse: func(text string) bool { return strings.Contains(text, "v") }}

// tight: linear, but a prerelease is refused when an operator is written
// with no space after it (layout decides, as in Terraform's module
// installer).
var tight = rule{name: "tight", judge: func(c engine.Constraint, v engine.Version, text string) engine.Verdict {
	if v.IsPrerelease() {
		for _, op := range []string{">=", "<=", "!=", "~>", ">", "<", "="} {
			if i := strings.Index(text, op); i >= 0 && i+len(op) < len(text) && text[i+len(op)] != ' ' && text[i+len(op)] != '=' {
				return engine.Reject
			}
		}
	}
	return verdictOf(c.Holds(v))
}}

// zeroNever: linear, but 0.0.0 is never admitted, as in go-versions.
var zeroNever = rule{name: "zero-never", judge: func(c engine.Constraint, v engine.Version, _ string) engine.Verdict {
	if v.Core() == engine.NewVersion(0, 0, 0) && !v.IsPrerelease() {
		return engine.Reject
	}
	return verdictOf(c.Holds(v))
}}

// panicky panics on one version.
var panicky = rule{name: "panicky", judge: func(c engine.Constraint, v engine.Version, _ string) engine.Verdict {
	if v.String() == "6.6.6" {
		panic("the number of the beast")
	}
	return verdictOf(c.Holds(v))
}}

// single: linear, but a constraint of several comparators is refused.
var single = rule{name: "single", judge: linear.judge, refuse: func(text string) bool { return strings.Contains(text, ",") }}

// lenient accepts any text and admits everything.
type lenient struct{}

func (lenient) Name() string                           { return "lenient" }
func (lenient) Rule() string                           { return "test rule: everything" }
func (lenient) Compile(string) (engine.Matcher, error) { return lenient{}, nil }
func (lenient) Match(string) engine.Result             { return engine.Allowed("lenient") }

// vReleaseOnly is linear, but a version written with a "v" is never
// admitted, as if the "v" made it some other string.
var vReleaseOnly = rule{name: "v-never", judge: func(c engine.Constraint, v engine.Version, text string) engine.Verdict {
	if strings.HasPrefix(v.String(), "v") || strings.Contains(text, "v") {
		return engine.Reject
	}
	return linear.judge(c, v, text)
}}

// partialWildcard is linear, but reads "= 1.2" (fewer than three numbers)
// as every release of 1.2.
var partialWildcard = rule{name: "partial-wildcard", judge: func(c engine.Constraint, v engine.Version, text string) engine.Verdict {
	for _, k := range c.Comparators() {
		if k.Op == engine.OpEqual && k.Precision == 2 {
			return verdictOf(v.Major() == k.Version.Major() && v.Minor() == k.Version.Minor() && !v.IsPrerelease())
		}
	}
	return linear.judge(c, v, text)
}}
