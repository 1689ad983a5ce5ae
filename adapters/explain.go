package adapters

import (
	"fmt"
	"strings"

	"github.com/apparentlymart/go-versions/versions"
	goversion "github.com/hashicorp/go-version"

	"github.com/prerel/prerel/engine"
)

// The adapters explain themselves call by call: each step names a library
// call as its subject and says what it answered. The Result is the one
// Evaluate gives, computed by the same code.

var (
	_ engine.Explainer = HashiCorp{}
	_ engine.Explainer = ApparentlyMart{}
	_ engine.Explainer = Masterminds{}
	_ engine.Explainer = ModuleInstaller{}
)

// explanation collects steps.
type explanation struct{ steps []engine.Step }

func (x *explanation) add(subject, format string, args ...any) {
	x.steps = append(x.steps, engine.Step{Subject: subject, Detail: fmt.Sprintf(format, args...)})
}

func (x *explanation) done(r engine.Result) engine.Explanation {
	return engine.Explanation{Steps: x.steps, Result: r}
}

// explainGoVersion describes go-version's reading of a version and its
// Check, piece by piece, for hashicorp and the module installers.
func explainGoVersion(x *explanation, cs goversion.Constraints, v *goversion.Version) {
	for _, c := range cs {
		x.add(strings.TrimSpace(c.String()), "Constraint.Check: %v", c.Check(v))
	}
}

func describeGoVersion(v *goversion.Version) string {
	s := fmt.Sprintf("%s, segments %v", v.String(), v.Segments64())
	if v.Prerelease() != "" {
		s += fmt.Sprintf(", prerelease %q", v.Prerelease())
	}
	return s
}

// Explain shows go-version's parse of each piece and each piece's Check.
func (h HashiCorp) Explain(constraint, version string) engine.Explanation {
	var x explanation
	cs, err := parseGoVersionConstraints(constraint)
	switch {
	case err != nil:
		x.add("version.NewConstraint", "%v", err)
		return x.done(engine.InvalidResult(err))
	default:
		x.add("version.NewConstraint", "%d piece(s), split at commas: %q", len(cs), cs.String())
	}
	r, v := hashicorpMatcher{cs}.judge(version)
	if v == nil {
		x.add("version.NewVersion", "%s", r.Reason)
		return x.done(r)
	}
	x.add("version.NewVersion", "read %q as %s", version, describeGoVersion(v))
	explainGoVersion(&x, cs, v)
	x.add("Constraints.Check", "%v", r.Verdict == engine.Allow)
	return x.done(r)
}

// Explain shows the go-versions spec, the version as go-versions reads it
// and the set membership, with and without the exact-request rule.
func (a ApparentlyMart) Explain(constraint, version string) engine.Explanation {
	var x explanation
	m, err := a.compile(constraint)
	if err != nil {
		x.add("constraints.ParseRubyStyleMulti", "%v", err)
		return x.done(engine.InvalidResult(err))
	}
	x.add("constraints.ParseRubyStyleMulti", "accepted %q", constraint)
	x.add(a.call(), "the set is %#v", m.set)
	r, v := m.judge(version)
	if r.Verdict == engine.Invalid {
		x.add("versions.ParseVersion", "%s", r.Reason)
		return x.done(r)
	}
	x.add("versions.ParseVersion", "read %q as %s", version, v.String())
	if v == versions.Unspecified {
		x.add("Set.Has", "0.0.0 is versions.Unspecified: Has answers true only for the set of all versions")
	}
	if m.exactSet != nil && v.Prerelease != "" {
		in, _ := setHas(*m.exactSet, v)
		x.add("MeetingConstraintsExact(spec).Has", "%v (the range alone, before the exact-request rule)", in)
	}
	x.add(a.call()+"(spec).Has", "%v", r.Verdict == engine.Allow)
	return x.done(r)
}

// Explain shows the translation into Masterminds syntax, Masterminds'
// reading of the version, and Check with Validate's reasons.
func (m Masterminds) Explain(constraint, version string) engine.Explanation {
	var x explanation
	text, err := MastermindsConstraint(constraint)
	if err != nil {
		x.add("translation", "the engine's parser refused %q: %v", constraint, err)
		return x.done(engine.InvalidResult(fmt.Errorf("translating to Masterminds syntax: %w", err)))
	}
	x.add("translation", "%q is %q in Masterminds syntax", constraint, text)
	mm, err := m.compile(constraint)
	if err != nil {
		x.add("semver.NewConstraint", "%v", err)
		return x.done(engine.InvalidResult(err))
	}
	x.add("semver.NewConstraint", "accepted %q; IncludePrerelease = %v", text, m.IncludePrerelease)
	r, v := mm.judge(version)
	if v == nil {
		x.add("semver.NewVersion", "%s", r.Reason)
		return x.done(r)
	}
	x.add("semver.NewVersion", "read %q as %s", version, v.String())
	if _, errs := mm.cs.Validate(v); len(errs) > 0 {
		for _, e := range errs {
			x.add("Constraints.Validate", "%v", e)
		}
	}
	x.add("Constraints.Check", "%v", r.Verdict == engine.Allow)
	return x.done(r)
}

// Explain walks the installer's filter for one candidate.
func (mi ModuleInstaller) Explain(constraint, version string) engine.Explanation {
	var x explanation
	f, err := mi.compile(constraint)
	if err != nil {
		x.add("version.NewConstraint", "%v", err)
		return x.done(engine.InvalidResult(err))
	}
	if constraint == "" {
		x.add("constraint", "empty: a module call without a version argument; every version passes Check")
	} else {
		x.add("version.NewConstraint", "%d piece(s); String() is %q", len(f.required), f.required.String())
	}
	r, v := f.judge(version)
	if v == nil {
		x.add("version.NewVersion", "%s; the installer skips it", r.Reason)
		return x.done(r)
	}
	x.add("version.NewVersion", "read %q as %s", version, describeGoVersion(v))
	if v.Prerelease() != "" {
		switch {
		case f.broken != nil:
			x.add("versions.MeetingConstraintsString", "%v", f.broken)
			return x.done(r)
		case f.refused != "":
			x.add("versions.MeetingConstraintsString", "%s; the installer skips every prerelease", f.refused)
			return x.done(r)
		}
		if f.stripped != "" {
			x.add("versions.MeetingConstraintsString", "refused %q; accepted it with v prefixes stripped, %q", f.required.String(), f.stripped)
		}
		x.add("versions.MeetingConstraintsString", "the set is %#v", f.acceptable)
		if why, excluded := strings.CutPrefix(r.Reason, prereleaseExcluded); excluded {
			x.add("prerelease", "%s; the installer skips it", why)
			return x.done(r)
		}
		if r.Verdict != engine.Invalid {
			x.add("Set.Has", "true: the prerelease is requested exactly")
		}
	}
	if r.Verdict != engine.Invalid {
		explainGoVersion(&x, f.required, v)
		x.add("Constraints.Check", "%v", r.Verdict == engine.Allow)
	}
	return x.done(r)
}
