package adapters

import (
	"github.com/apparentlymart/go-versions/versions"

	"github.com/prerel/prerel/engine"
)

// ApparentlyMart is apparentlymart/go-versions as Terraform's and
// OpenTofu's provider installers use it, registered as "apparentlymart";
// with Exact set it is "apparentlymart-exact".
//
// Compile calls constraints.ParseRubyStyleMulti on the constraint text as
// given and builds versions.MeetingConstraints(spec) (with Exact,
// versions.MeetingConstraintsExact(spec)); Match calls versions.ParseVersion
// on the version text and Set.Has. Text either parser refuses is Invalid
// with the library's error: a "v" prefix (in the constraint or the version),
// more than one space after an operator, more than three numeric parts, a
// prerelease without "-". Both parsers panic on a number that does not fit
// in uint64 (strconv.ParseUint inside the library); the panic is recovered
// and the input is Invalid with the panic's text.
//
// MeetingConstraints admits a prerelease only when an "=" comparator (or a
// bare version) requests exactly that version and the version also lies in
// the rest of the constraint; MeetingConstraintsExact has no prerelease
// rule and admits every version in range. The empty constraint parses as an
// empty intersection, the set of all versions: MeetingConstraints keeps
// its releases only, MeetingConstraintsExact keeps everything. Quirks, each
// verified by the tests:
//
//   - Prerelease precedence looks at the number of identifiers before
//     comparing them: when one list ends where the other goes on, the
//     shorter is lower, so 1.0.0-beta sorts below 1.0.0-alpha.beta. Set
//     bounds and selection both follow it.
//   - "= 1.0.0" rejects 1.0.0+def: an exact set is keyed by the whole
//     version, build metadata included.
//   - 0.0.0 is the library's Unspecified version, and Set.Has answers true
//     for it only on the set of all versions. So 0.0.0 is a member of no
//     constraint's set, not even of "= 0.0.0" or ">= 0.0.0", under both
//     adapters; the one exception is the empty constraint under
//     apparentlymart-exact, whose set is all versions. 0.0.0+build is not
//     Unspecified and is judged normally.
//   - Leading zeros are accepted (01.0.0 is 1.0.0).
//
// Selection orders admitted versions by go-versions' Version.GreaterThan and
// keeps the first of equal ones.
type ApparentlyMart struct {
	// Exact selects MeetingConstraintsExact instead of MeetingConstraints.
	Exact bool
}

var (
	_ engine.Policy   = ApparentlyMart{}
	_ engine.Selector = ApparentlyMart{}
)

// Name returns "apparentlymart" or "apparentlymart-exact".
func (a ApparentlyMart) Name() string {
	if a.Exact {
		return "apparentlymart-exact"
	}
	return "apparentlymart"
}

// Rule returns the rule in one line.
func (a ApparentlyMart) Rule() string {
	if a.Exact {
		return "go-versions MeetingConstraintsExact (Ruby-style syntax): every version in range by go-versions precedence, prereleases included"
	}
	return "go-versions MeetingConstraints (Ruby-style syntax): a prerelease only when an = comparator requests exactly that version"
}

func (a ApparentlyMart) call() string {
	if a.Exact {
		return "go-versions MeetingConstraintsExact"
	}
	return "go-versions MeetingConstraints"
}

// Compile parses constraint with ParseRubyStyleMulti and builds its set.
func (a ApparentlyMart) Compile(constraint string) (engine.Matcher, error) {
	return a.compile(constraint)
}

func (a ApparentlyMart) compile(constraint string) (apparentlymartMatcher, error) {
	spec, err := parseRubyStyle(constraint)
	if err != nil {
		return apparentlymartMatcher{}, err
	}
	set, err := meetingConstraints(spec, a.Exact)
	if err != nil {
		return apparentlymartMatcher{}, err
	}
	m := apparentlymartMatcher{set: set, results: &setResultsOf[0]}
	if a.Exact {
		m.results = &setResultsOf[1]
	}
	if !a.Exact {
		// Only to explain a rejected prerelease.
		exactSet, err := meetingConstraints(spec, true)
		if err != nil {
			return apparentlymartMatcher{}, err
		}
		m.exactSet = &exactSet
	}
	return m, nil
}

// Select returns the newest admitted version by go-versions precedence.
func (a ApparentlyMart) Select(constraint string, available []string) (engine.Selection, error) {
	m, err := a.compile(constraint)
	if err != nil {
		return engine.Selection{}, err
	}
	return newest(available, m.judge, versions.Version.GreaterThan), nil
}

type apparentlymartMatcher struct {
	set      versions.Set
	exactSet *versions.Set // without the prerelease rule; nil for Exact
	results  *setResults
}

// setResults are the results an apparentlymart matcher gives, made once
// for each set-building call so that judging a version builds no string.
type setResults struct {
	in, out, unspecified, notExact engine.Result
}

// setResultsOf are the results under MeetingConstraints and under
// MeetingConstraintsExact, in that order.
var setResultsOf = [2]setResults{
	newSetResults(ApparentlyMart{}.call()),
	newSetResults(ApparentlyMart{Exact: true}.call()),
}

// newSetResults returns the results whose reasons name call.
func newSetResults(call string) setResults {
	return setResults{
		in:          engine.Allowed(call + ": in set"),
		out:         engine.Rejected(call + ": not in set"),
		unspecified: engine.Rejected(call + ": not in set (0.0.0 is the library's Unspecified version, a member only of the set of all versions)"),
		notExact:    engine.Rejected(call + ": not in set (prerelease not requested exactly)"),
	}
}

func (m apparentlymartMatcher) Match(version string) engine.Result {
	r, _ := m.judge(version)
	return r
}

func (m apparentlymartMatcher) judge(version string) (engine.Result, versions.Version) {
	v, err := parseVersionsVersion(version)
	if err != nil {
		return engine.InvalidResult(err), v
	}
	return m.judgeParsed(v), v
}

// judgeParsed is judge for a version parseVersionsVersion has read.
func (m apparentlymartMatcher) judgeParsed(v versions.Version) engine.Result {
	has, err := setHas(m.set, v)
	switch {
	case err != nil:
		return engine.InvalidResult(err)
	case has:
		return m.results.in
	case v == versions.Unspecified:
		return m.results.unspecified
	case v.Prerelease != "" && m.exactSet != nil:
		if in, _ := setHas(*m.exactSet, v); in {
			return m.results.notExact
		}
	}
	return m.results.out
}

// SelectsPairwise marks Select as the newest version Match admits: under a
// cooldown (engine.SelectCooled) the order makes no difference.
func (ApparentlyMart) SelectsPairwise() {}
