package policies

import "github.com/prerel/prerel/engine"

// Fallback installs a prerelease only when no release fits, registered as
// "fallback".
//
// Fallback is a selection-level policy: its rule is about the whole list of
// available versions. Among the versions that satisfy every comparator by
// precedence, B(c, v), it selects the newest release; only when there is
// none does it select the newest prerelease. Versions it cannot read are
// reported in Selection.Unreadable and never selected; of equal versions
// the first listed wins.
//
// Pairwise, a selection-level policy answers as if v were the only version
// available: a prerelease in range is then selected, so Fallback answers
// like [Linear], B(c, v) alone, and the empty constraint admits every
// version. Its difference shows only in selection (engine.Select, prerel
// select, and the compare report's selection divergence).
//
// This is how Go resolves @latest and version range queries (a release is
// preferred, a prerelease chosen only when no release matches) and PEP
// 440's rule that a prerelease is accepted when it is the only available
// version that satisfies the specifier.
//
//	>= 1.0.0 over {1.0.0, 1.1.0-beta.1}     selects 1.0.0
//	>= 1.0.0 over {0.9.0, 1.1.0-beta.1}     selects 1.1.0-beta.1
//	>= 3.0.0 over {1.9.0, 2.1.0-rc.1}       selects nothing
//
// A reject names the first comparator the version fails by precedence.
type Fallback struct{}

var (
	_ engine.Policy        = Fallback{}
	_ engine.Judge         = Fallback{}
	_ engine.VersionReader = Fallback{}
	_ engine.Selector      = Fallback{}
	_ engine.Admitter      = Fallback{}
	_ engine.Explainer     = Fallback{}
)

const (
	reasonFallbackAllow = "prerelease: every comparator holds by precedence; alone in the list it is selected, as no release fits"
	reasonFallbackEmpty = "prerelease: the empty constraint admits every version; alone in the list it is selected"
)

// Name returns "fallback".
func (Fallback) Name() string { return "fallback" }

// Rule returns the rule in one line.
func (Fallback) Rule() string {
	return "selects the newest release in range, and a prerelease in range only when no release fits (Go's version queries, PEP 440)"
}

// Compile parses constraint with the engine's parser. The Matcher answers
// pairwise, as if each version were the only one available.
func (f Fallback) Compile(constraint string) (engine.Matcher, error) {
	return engine.CompileNative(f, constraint)
}

// ReadVersions reads versions once for the fast path: each constraint is
// compiled against the table and judged with integer comparisons, with
// the results Compile and Match give.
func (Fallback) ReadVersions(versions []string) engine.VersionTable {
	return fallbackRule.readVersions(versions)
}

// Judge answers for v as the only version available: B(c, v). It does not
// allocate.
func (Fallback) Judge(c *engine.Constraint, v *engine.Version) engine.Result {
	return judgeTimeline(c, v, reasonFallbackAllow, reasonFallbackEmpty)
}

// Select returns the newest release of available that satisfies every
// comparator by precedence, or, when there is none, the newest such
// prerelease. The error is the engine parser's refusal of the constraint.
func (Fallback) Select(constraint string, available []string) (engine.Selection, error) {
	c, err := engine.ParseConstraint(constraint)
	if err != nil {
		return engine.Selection{}, err
	}
	var sel engine.Selection
	var release, prerelease engine.Version
	var releaseText, prereleaseText string
	foundRelease, foundPrerelease := false, false
	for _, text := range available {
		v, err := engine.ParseVersion(text)
		if err != nil {
			sel.Unreadable = append(sel.Unreadable, engine.Unreadable{Version: text, Reason: err.Error()})
			continue
		}
		if !c.Holds(v) {
			continue
		}
		if v.IsPrerelease() {
			if !foundPrerelease || prerelease.Compare(v) < 0 {
				foundPrerelease, prerelease, prereleaseText = true, v, text
			}
			continue
		}
		if !foundRelease || release.Compare(v) < 0 {
			foundRelease, release, releaseText = true, v, text
		}
	}
	switch {
	case foundRelease:
		sel.Found, sel.Version = true, releaseText
	case foundPrerelease:
		sel.Found, sel.Version = true, prereleaseText
	}
	return sel, nil
}

// Explain shows each comparator checked by precedence, and how selection
// differs from the pairwise answer.
func (f Fallback) Explain(constraint, version string) engine.Explanation {
	var x explanation
	c, v, err := x.parse(constraint, version)
	if err != nil {
		return x.invalid(err)
	}
	cs := c.Comparators()
	for i := range cs {
		x.readAs(&cs[i], false)
		x.precedence(&cs[i], v)
	}
	x.add("rule", "fallback decides from the whole list: the newest release in range, and a prerelease in range only when no release fits")
	if v.IsPrerelease() {
		x.add("rule", "pairwise the version is taken as the only one available, so no release fits and a prerelease in range is admitted (as linear); in a list with a release in range it would not be selected")
	} else {
		x.add("rule", "pairwise the version is taken as the only one available: a release in range is admitted (B)")
	}
	return x.verdict(f.Judge(&c, &v))
}

// fallbackRule is Fallback's rule for the fast path.
var fallbackRule = &nativeRule{judge: Fallback{}, fast: fastFallback, parse: parseNative}

// fastFallback is Judge on the compiled form.
func fastFallback(m *compiled, v *fastVersion) engine.Result {
	return fastTimeline(m, v, reasonFallbackAllow, reasonFallbackEmpty)
}

// Admitted reports which versions of available Fallback admits given the
// whole list: the releases in range when there is one, else the
// prereleases in range. A cooldown (engine.SelectCooled) holds versions
// back from this set, so that holding a young release back never lets a
// prerelease in.
func (Fallback) Admitted(constraint string, available []string) ([]bool, error) {
	c, err := engine.ParseConstraint(constraint)
	if err != nil {
		return nil, err
	}
	out := make([]bool, len(available))
	release := false
	for i, text := range available {
		v, err := engine.ParseVersion(text)
		if err != nil || !c.Holds(v) {
			continue
		}
		out[i] = true
		release = release || !v.IsPrerelease()
	}
	if release {
		for i, text := range available {
			if out[i] {
				v, _ := engine.ParseVersion(text)
				out[i] = !v.IsPrerelease()
			}
		}
	}
	return out, nil
}
