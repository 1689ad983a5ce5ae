package impact

import (
	"fmt"
	"strings"

	"github.com/prerel/prerel/engine"
)

// Class is how what P installs differs from what B installs for one call.
// The names are stable: --fail-on and the JSON report use them.
type Class string

// The classes; the package documentation says what each means.
const (
	Unchanged                   Class = "unchanged"
	PrereleaseSameRelease       Class = "prerelease-same-release"
	PrereleaseLaterPatch        Class = "prerelease-later-patch"
	PrereleaseLaterMinorOrMajor Class = "prerelease-later-minor-or-major"
	ReleaseInsteadOfPrerelease  Class = "release-instead-of-prerelease"
	OtherRelease                Class = "other-release"
	OtherPrerelease             Class = "other-prerelease"
	NoneInsteadOfVersion        Class = "none-instead-of-version"
	VersionInsteadOfNone        Class = "version-instead-of-none"
	Refused                     Class = "refused"
)

// Classes lists every class in report order: the changes, the most
// surprising first, then Unchanged.
var Classes = []Class{
	PrereleaseLaterMinorOrMajor,
	PrereleaseLaterPatch,
	PrereleaseSameRelease,
	OtherPrerelease,
	ReleaseInsteadOfPrerelease,
	OtherRelease,
	VersionInsteadOfNone,
	NoneInsteadOfVersion,
	Refused,
	Unchanged,
}

// Changed reports whether c is a change, that is anything but Unchanged.
func (c Class) Changed() bool { return c != Unchanged }

// ParseClass reads a class name.
func ParseClass(s string) (Class, error) {
	for _, c := range Classes {
		if string(c) == s {
			return c, nil
		}
	}
	return "", fmt.Errorf("unknown class %q (valid: %s)", s, ClassNames())
}

// ClassNames returns the class names in report order, comma-separated.
func ClassNames() string {
	names := make([]string, len(Classes))
	for i, c := range Classes {
		names[i] = string(c)
	}
	return strings.Join(names, ", ")
}

// Cause is what made P's selection differ from B's.
type Cause string

// The causes; the package documentation says how they are decided.
const (
	CausePrereleaseRule Cause = "prerelease rule"
	CauseReading        Cause = "reading"
	// CauseCooldown: P and B agree without the minimum release age.
	CauseCooldown Cause = "cooldown"
)

// Outcome is what one policy installs for a call: a version, nothing, or
// a refusal of the constraint.
type Outcome struct {
	// Selects is the version installed, as offered; nil for none.
	Selects *string `json:"selects"`
	// Refuses is the policy's reason for refusing the constraint, or "".
	Refuses string `json:"refuses,omitempty"`
}

// Select is the Outcome of engine.Select.
func Select(p engine.Policy, constraint string, offered []string) Outcome {
	sel, err := engine.Select(p, constraint, offered)
	switch {
	case err != nil:
		return Outcome{Refuses: err.Error()}
	case !sel.Found:
		return Outcome{}
	}
	v := sel.Version
	return Outcome{Selects: &v}
}

// Refused reports whether the policy refuses the constraint.
func (o Outcome) Refused() bool { return o.Refuses != "" }

// Version returns the version installed, or "".
func (o Outcome) Version() string {
	if o.Selects == nil {
		return ""
	}
	return *o.Selects
}

// String is the outcome in words: the version, "none" or "refuses the
// constraint".
func (o Outcome) String() string {
	switch {
	case o.Refused():
		return "refuses the constraint"
	case o.Selects == nil:
		return "none"
	}
	return *o.Selects
}

// Same reports whether two outcomes install the same: the same version
// text, both none, or both refuse.
func (o Outcome) Same(q Outcome) bool {
	if o.Refused() || q.Refused() {
		return o.Refused() && q.Refused()
	}
	return o.Version() == q.Version() && (o.Selects == nil) == (q.Selects == nil)
}

// Classify returns the class of a call where B installs b and P installs
// p, in the order the package documentation gives. A version the engine
// cannot read counts as a release.
func Classify(b, p Outcome) Class {
	switch {
	case b.Refused() != p.Refused():
		return Refused
	case b.Same(p):
		return Unchanged
	case p.Selects == nil:
		return NoneInsteadOfVersion
	case b.Selects == nil:
		return VersionInsteadOfNone
	}
	bv, berr := engine.ParseVersion(*b.Selects)
	pv, perr := engine.ParseVersion(*p.Selects)
	bPre, pPre := berr == nil && bv.IsPrerelease(), perr == nil && pv.IsPrerelease()
	switch {
	case pPre && berr == nil:
		switch d := pv.Core().Compare(bv.Core()); {
		case d == 0:
			return PrereleaseSameRelease
		case d < 0:
			return OtherPrerelease
		case pv.Major() == bv.Major() && pv.Minor() == bv.Minor():
			return PrereleaseLaterPatch
		default:
			return PrereleaseLaterMinorOrMajor
		}
	case pPre:
		return OtherPrerelease
	case bPre:
		return ReleaseInsteadOfPrerelease
	}
	return OtherRelease
}

// Assessment is one call's answer: what B and P install, the class, and
// for a change its cause.
type Assessment struct {
	Against, Policy Outcome
	Class           Class
	// Cause is "" for Unchanged.
	Cause Cause
}

// Assess selects with p and b from the offered versions, classifies the
// difference and, for a change, decides its cause: both select again
// with every prerelease removed from offered and from the constraint's
// comparators (see WithoutPrereleases); when they then agree, the
// prerelease rule caused the change, otherwise the reading of the
// constraint did.
func Assess(p, b engine.Policy, constraint string, offered []string) Assessment {
	a := Assessment{Against: Select(b, constraint, offered), Policy: Select(p, constraint, offered)}
	a.Class = Classify(a.Against, a.Policy)
	if !a.Class.Changed() {
		return a
	}
	c, releases := WithoutPrereleases(constraint), releasesOf(offered)
	if Select(p, c, releases).Same(Select(b, c, releases)) {
		a.Cause = CausePrereleaseRule
	} else {
		a.Cause = CauseReading
	}
	return a
}

// releasesOf returns the versions of offered that are not prereleases
// (a version the engine cannot read is kept).
func releasesOf(offered []string) []string {
	out := make([]string, 0, len(offered))
	for _, s := range offered {
		if v, err := engine.ParseVersion(s); err == nil && v.IsPrerelease() {
			continue
		}
		out = append(out, s)
	}
	return out
}

// WithoutPrereleases returns the constraint with the prerelease part of
// each comparator's version removed, the rest of the text as written:
// ">= 1.71.3-beta1" becomes ">= 1.71.3", "~> 1.2.0-rc1, != 1.2.1" becomes
// "~> 1.2.0, != 1.2.1". A constraint that names no prerelease, or that the
// engine cannot parse, is returned as it is.
func WithoutPrereleases(constraint string) string {
	c, err := engine.ParseConstraint(constraint)
	if err != nil || !c.NamesPrerelease() {
		return constraint
	}
	var b strings.Builder
	inBuild := false
	for i := 0; i < len(constraint); i++ {
		ch := constraint[i]
		switch {
		case ch == ',' || ch == ' ' || ch == '\t':
			inBuild = false
		case ch == '+':
			inBuild = true
		case ch == '-' && !inBuild && i > 0 && isDigit(constraint[i-1]):
			// A prerelease starts here: skip it, up to the build
			// metadata, the next comparator or the end.
			for i+1 < len(constraint) && !strings.ContainsRune("+, \t", rune(constraint[i+1])) {
				i++
			}
			continue
		}
		b.WriteByte(ch)
	}
	return b.String()
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// AssessCooled is Assess with P under a cooldown (engine.SelectCooled)
// and B without one: where P would select what B does without the
// cooldown, the change's cause is the cooldown.
func AssessCooled(p, b engine.Policy, constraint string, offered []string, dates engine.Dates, c engine.Cooldown) Assessment {
	a := Assessment{Against: Select(b, constraint, offered)}
	sel, err := engine.SelectCooled(p, constraint, offered, dates, c)
	switch {
	case err != nil:
		a.Policy = Outcome{Refuses: err.Error()}
	case sel.Found:
		v := sel.Version
		a.Policy = Outcome{Selects: &v}
	}
	a.Class = Classify(a.Against, a.Policy)
	if !a.Class.Changed() {
		return a
	}
	if Select(p, constraint, offered).Same(a.Against) {
		a.Cause = CauseCooldown
		return a
	}
	without := Assess(p, b, constraint, offered)
	a.Cause = without.Cause
	return a
}
