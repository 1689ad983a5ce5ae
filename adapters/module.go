package adapters

import (
	"fmt"
	"regexp"
	"sync"

	"github.com/apparentlymart/go-versions/versions"
	goversion "github.com/hashicorp/go-version"

	"github.com/prerel/prerel/engine"
)

// ModuleInstaller is the version filter of Terraform's module installer
// (installRegistryModule), rebuilt from the two libraries it uses,
// registered as "terraform-module"; with OpenTofu set it is OpenTofu's,
// "opentofu-module".
//
// Compile parses the constraint with hashicorp/go-version NewConstraint
// (refused: Invalid). Match then does for one candidate what the
// installer's loop over the registry's versions does:
//
//  1. version.NewVersion(candidate); refused: Invalid (the installer warns
//     and skips it).
//  2. If the candidate has a prerelease: versions.MeetingConstraintsString
//     on required.String(), go-version's own rendering of the constraint
//     (its pieces as written, joined by ","). That is go-versions' npm-style
//     parser, not the Ruby-style one the constraint is written in, and when
//     it refuses the text the candidate is excluded: Reject, not Invalid,
//     because this is what the installer does. Then versions.ParseVersion
//     on the candidate's go-version String(); refused: Reject. Then the
//     candidate must be in the set (MeetingConstraints: a prerelease only
//     when requested exactly); if not: Reject.
//  3. required.Check(candidate) decides.
//
// OpenTofu adds one retry: when the npm-style parser refuses the text,
// every match of go-version's VersionRegexpRaw (unanchored) that starts
// with "v" loses the "v", and if that changed the text it is parsed again;
// if the retry fails too, or nothing was stripped, the candidate is
// excluded.
//
// The empty constraint "" is a module call without a version argument:
// required is the empty Constraints, which every version passes, and its
// String() is "", which the npm-style parser refuses ("empty
// specification"). So the installer takes the newest release and excludes
// every prerelease. Blank text such as " " is a version argument that
// NewConstraint refuses: Invalid.
//
// Consequences, each verified by the tests: "= 2.0.0-beta.1" (with a space)
// excludes every prerelease, since the npm-style parser allows no space
// after an operator, while "2.0.0-beta.1" and "=2.0.0-beta.1" admit it; any
// comma-separated constraint and any "~>" or "!=" exclude every prerelease
// (the npm-style parser wants spaces between comparators and knows neither
// operator); "~> 10" admits 11.10.10 (go-version's one-part "~>"); and a
// "v" prefix excludes prereleases under terraform-module only
// ("v0.0.3-alpha.1" admits 0.0.3-alpha.1 under opentofu-module). A
// candidate with build metadata is never in an exact set whose request has
// none: "2.0.0-beta.1" excludes 2.0.0-beta.1+b. Releases are go-version's
// Check alone.
//
// Selection is the installer's loop: go-version's GreaterThan, keeping the
// first of equal versions.
type ModuleInstaller struct {
	// OpenTofu adds OpenTofu's retry with "v" prefixes stripped.
	OpenTofu bool
}

var (
	_ engine.Policy   = ModuleInstaller{}
	_ engine.Selector = ModuleInstaller{}
)

// Name returns "terraform-module" or "opentofu-module".
func (mi ModuleInstaller) Name() string {
	if mi.OpenTofu {
		return "opentofu-module"
	}
	return "terraform-module"
}

// Rule returns the rule in one line.
func (mi ModuleInstaller) Rule() string {
	if mi.OpenTofu {
		return "OpenTofu's module installer: as terraform-module, retrying the npm-style parse with v prefixes stripped"
	}
	return "Terraform's module installer: go-version Check, and a prerelease must be requested exactly per go-versions' npm-style parse of the constraint (unparsable: excluded)"
}

// Compile parses constraint with go-version and prepares the prerelease
// step.
func (mi ModuleInstaller) Compile(constraint string) (engine.Matcher, error) {
	return mi.compile(constraint)
}

// Select runs the installer's loop over available.
func (mi ModuleInstaller) Select(constraint string, available []string) (engine.Selection, error) {
	f, err := mi.compile(constraint)
	if err != nil {
		return engine.Selection{}, err
	}
	return newest(available, f.judge, (*goversion.Version).GreaterThan), nil
}

const prereleaseExcluded = "prerelease excluded: "

// moduleFilter is a compiled module constraint.
type moduleFilter struct {
	required goversion.Constraints
	// acceptable is the npm-style set for required.String(), when the
	// parser accepted it; otherwise refused says why every prerelease is
	// excluded, or broken is the parser's panic.
	acceptable versions.Set
	refused    string
	broken     error
	// stripped is the text OpenTofu's retry parsed, when it did.
	stripped string
}

func (mi ModuleInstaller) compile(constraint string) (*moduleFilter, error) {
	// A module call without a version argument holds the empty
	// Constraints, which every version passes.
	var required goversion.Constraints
	if constraint != "" {
		var err error
		if required, err = parseGoVersionConstraints(constraint); err != nil {
			return nil, err
		}
	}
	f := &moduleFilter{required: required}
	f.prereleases(mi.prereleaseRule(required.String()))
	return f, nil
}

// prereleaseRule is how the installer treats prereleases for a
// constraint whose go-version rendering is text: the npm-style set, or
// the parser's refusal (every prerelease is excluded), or its panic
// (broken).
type prereleaseRule struct {
	acceptable versions.Set
	broken     error
	refused    bool
	// text is the text parsed and err the parser's refusal; retryErr is
	// the refusal of OpenTofu's retry on stripped, when there was one.
	text, stripped string
	err, retryErr  error
}

// prereleases sets f's prerelease rule.
func (f *moduleFilter) prereleases(r prereleaseRule) {
	f.acceptable, f.broken = r.acceptable, r.broken
	if r.refused {
		f.refused = r.reason()
	} else {
		f.stripped = r.stripped
	}
}

// reason says why every prerelease is excluded, for a refused rule.
func (r prereleaseRule) reason() string {
	if r.retryErr != nil {
		return fmt.Sprintf("the npm-style parser (go-versions MeetingConstraintsString) refused %q: %v, and with v prefixes stripped %q: %v", r.text, r.err, r.stripped, r.retryErr)
	}
	return fmt.Sprintf("the npm-style parser (go-versions MeetingConstraintsString) refused %q: %v", r.text, r.err)
}

// prereleaseRule parses text with the npm-style parser, and for OpenTofu
// again with v prefixes stripped when the first parse fails.
func (mi ModuleInstaller) prereleaseRule(text string) prereleaseRule {
	return mi.prereleaseRuleStripping(text, stripVPrefixes)
}

// prereleaseRuleStripping is prereleaseRule with strip in place of
// stripVPrefixes.
func (mi ModuleInstaller) prereleaseRuleStripping(text string, strip func(string) string) prereleaseRule {
	set, err := meetingConstraintsString(text)
	if err == nil {
		return prereleaseRule{acceptable: set}
	}
	if isPanic(err) {
		return prereleaseRule{broken: err}
	}
	refused := prereleaseRule{refused: true, text: text, err: err}
	if !mi.OpenTofu {
		return refused
	}
	stripped := strip(text)
	if stripped == text {
		return refused
	}
	set, err2 := meetingConstraintsString(stripped)
	if err2 == nil {
		return prereleaseRule{acceptable: set, stripped: stripped}
	}
	if isPanic(err2) {
		return prereleaseRule{broken: err2}
	}
	refused.stripped, refused.retryErr = stripped, err2
	return refused
}

func (f *moduleFilter) Match(version string) engine.Result {
	r, _ := f.judge(version)
	return r
}

func (f *moduleFilter) judge(version string) (r engine.Result, v *goversion.Version) {
	defer guard("module installer filter", &r)
	v, err := parseGoVersion(version)
	if err != nil {
		return engine.InvalidResult(err), nil
	}
	return f.filter(v), v
}

// judgeParsed is judge for a version parseGoVersion has read.
func (f *moduleFilter) judgeParsed(v *goversion.Version) (r engine.Result) {
	defer guard("module installer filter", &r)
	return f.filter(v)
}

// filter is the installer's filter for one candidate go-version has read.
func (f *moduleFilter) filter(v *goversion.Version) engine.Result {
	if v.Prerelease() == "" {
		return checkGoVersion(f.required, v)
	}
	if f.broken != nil {
		return engine.InvalidResult(f.broken)
	}
	if f.refused != "" {
		return engine.Rejected(prereleaseExcluded + f.refused)
	}
	av, err := parseVersionsVersion(v.String())
	if isPanic(err) {
		return engine.InvalidResult(err)
	}
	if err != nil {
		return engine.Rejected(fmt.Sprintf("%s%v (reading go-version's String() %q)", prereleaseExcluded, err, v.String()))
	}
	has, err := setHas(f.acceptable, av)
	if err != nil {
		return engine.InvalidResult(err)
	}
	if !has {
		return engine.Rejected(prereleaseExcluded + "not in the go-versions MeetingConstraints set (not requested exactly)")
	}
	r := checkGoVersion(f.required, v)
	r.Reason = "prerelease in the go-versions MeetingConstraints set; " + r.Reason
	return r
}

// meetingConstraintsString calls versions.MeetingConstraintsString, turning
// a panic into an error.
func meetingConstraintsString(text string) (set versions.Set, err error) {
	defer func() {
		if p := recover(); p != nil {
			set, err = versions.None, panicError("go-versions MeetingConstraintsString", p)
		}
	}()
	return versions.MeetingConstraintsString(text)
}

// versionRegexp is OpenTofu's: go-version's VersionRegexpRaw, unanchored.
var versionRegexp = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(goversion.VersionRegexpRaw)
})

// stripVPrefixes drops the leading "v" of every version in text, as
// OpenTofu does before its retry.
func stripVPrefixes(text string) string {
	return versionRegexp().ReplaceAllStringFunc(text, func(match string) string {
		if match[0] == 'v' {
			return match[1:]
		}
		return match
	})
}

// SelectsPairwise marks Select as the newest version Match admits: under a
// cooldown (engine.SelectCooled) the order makes no difference.
func (ModuleInstaller) SelectsPairwise() {}
