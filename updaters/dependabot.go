package updaters

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/prerel/prerel/engine"
)

// Dependabot is how Dependabot reads a Terraform constraint, registered
// as "dependabot".
//
// Dependabot's terraform ecosystem reads a constraint with
// Dependabot::Terraform::Requirement (dependabot-core,
// terraform/lib/dependabot/terraform/requirement.rb, read at commit
// 54c10285 of 2026-08-22), a Gem::Requirement: the string is split at
// commas, each term must be an operator of = != > < >= <= ~> (or none,
// meaning =), blanks, an optional "v" and a RubyGems version, and a
// version satisfies the constraint when it satisfies every term
// (Gem::Requirement#satisfied_by?, RubyGems 3.3.15). Versions are
// Dependabot::Terraform::Version (version.rb): a leading "v" and any
// "+build" are removed, and "-" becomes ".pre.". Gem::Requirement has no
// prerelease rule: a prerelease is a version like another, ordered by
// Gem::Version#<=>, which compares segments (runs of digits as numbers,
// runs of letters as strings, a string below a number), so 1.0.0-rc10 is
// newer than 1.0.0-rc9 where SemVer says older, and 1.0.0-0 newer than
// 1.0.0-beta. "~> 1.2" is ">= 1.2, < 2", "~> 1.2.3" is ">= 1.2.3, <
// 1.3" (of the version's release).
//
// Prereleases are candidates only by opt-in: the update checker
// (update_checker.rb, wants_prerelease? and
// latest_version_for_registry_dependency) drops them unless the
// constraint matches /\d-[A-Za-z0-9]/ (any term, "!=" included) or the
// current version is one. This policy admits a version when
// satisfied_by? holds and, for a prerelease (a letter in it, as RubyGems
// says), the constraint opts in; the current version's opt-in is
// [DependabotWantsPrerelease].
//
//	~> 1.2               | 1.9.0         allow
//	~> 1.2               | 2.0.0-beta    reject (2.0.0-beta's release is 2.0.0)
//	>= 1.0               | 2.0.0-beta    reject (no opt-in)
//	>= 1.0.0-rc1         | 2.0.0-beta    allow
//	~> 1.0.0-rc9         | 1.0.0-rc10    allow
//
// What it refuses (Invalid): a term that is not such an operator and a
// RubyGems version, such as one with build metadata ("= 1.0.0+b") or an
// empty term between two commas; a version RubyGems cannot read. The
// empty constraint is Gem::Requirement's default ">= 0": every release.
//
// Selection is the newest admitted version by Gem::Version#<=>, the
// version Dependabot keeps the constraint for; [DependabotProposal] is
// the newest candidate whatever the constraint, which Dependabot proposes
// and rewrites the constraint to admit.
type Dependabot struct{}

var (
	_ engine.Policy   = Dependabot{}
	_ engine.Selector = Dependabot{}
)

// Name returns "dependabot".
func (Dependabot) Name() string { return "dependabot" }

// Rule returns the rule in one line.
func (Dependabot) Rule() string {
	return "Dependabot's Gem::Requirement: no prerelease rule, ~> by segments, versions ordered as RubyGems does; prereleases are candidates when the constraint names one"
}

// gemOp is one term of a Gem::Requirement; bump is v.bump() for "~>".
type gemOp struct {
	op   string
	v    GemVersion
	bump GemVersion
}

// dependabotMatcher is a compiled Dependabot constraint.
type dependabotMatcher struct {
	terms   []gemOp
	wantPre bool // the constraint opts in to prereleases
}

// Compile reads constraint as Dependabot::Terraform::Requirement.new
// does.
func (Dependabot) Compile(constraint string) (engine.Matcher, error) {
	m := &dependabotMatcher{wantPre: DependabotWantsPrerelease(constraint, "")}
	for _, term := range rubySplitComma(constraint) {
		term = strings.Trim(term, " \t\n\v\f\r\x00")
		op, v, err := parseGemTerm(term)
		if err != nil {
			return nil, err
		}
		t := gemOp{op: op, v: v}
		if op == "~>" {
			t.bump = v.bump()
		}
		m.terms = append(m.terms, t)
	}
	return m, nil
}

// rubySplitComma is Ruby's String#split(","): trailing empty fields are
// removed.
func rubySplitComma(s string) []string {
	parts := strings.Split(s, ",")
	for len(parts) > 0 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	return parts
}

// gemTerm is Dependabot::Terraform::Requirement::PATTERN up to the
// version; the version itself is checked by gemPattern.
var gemTerm = regexp.MustCompile(`^[ \t\n\v\f\r]*(=|!=|>|<|>=|<=|~>)?[ \t\n\v\f\r]*v?([0-9].*?)[ \t\n\v\f\r]*$`)

func parseGemTerm(term string) (string, GemVersion, error) {
	g := gemTerm.FindStringSubmatch(term)
	if g == nil || !gemPattern(g[2]) {
		return "", GemVersion{}, fmt.Errorf("dependabot: Illformed requirement [%q]", term)
	}
	op := g[1]
	if op == "" {
		op = "="
	}
	return op, newGemVersion(g[2]), nil
}

// Reasons of the dependabot policy.
const (
	reasonDependabotAllow    = "satisfies every Gem::Requirement term"
	reasonDependabotPreAllow = "prerelease: satisfies every Gem::Requirement term, and the constraint opts in to prereleases"
	reasonDependabotNoOptIn  = "prerelease: not a candidate, the constraint does not match /\\d-[A-Za-z0-9]/ (wants_prerelease?)"
)

// Match judges version as Gem::Requirement#satisfied_by? does, and a
// prerelease only when the constraint opts in.
func (m *dependabotMatcher) Match(version string) engine.Result {
	v, err := ParseGemVersion(version)
	if err != nil {
		return engine.InvalidResult(err)
	}
	return m.judge(v)
}

// judge is Match on a version ParseGemVersion read.
func (m *dependabotMatcher) judge(v GemVersion) engine.Result {
	verdict, failed := m.decide(v)
	switch {
	case failed >= 0:
		t := m.terms[failed]
		return engine.Rejected(fmt.Sprintf("fails the term %s %s", t.op, t.v))
	case !v.Prerelease():
		return engine.Allowed(reasonDependabotAllow)
	case verdict == engine.Reject:
		return engine.Rejected(reasonDependabotNoOptIn)
	}
	return engine.Allowed(reasonDependabotPreAllow)
}

// decide is judge's verdict, and the index of the first term v fails
// (-1 when it satisfies every term).
func (m *dependabotMatcher) decide(v GemVersion) (engine.Verdict, int) {
	for i, t := range m.terms {
		if !t.holds(v) {
			return engine.Reject, i
		}
	}
	if v.Prerelease() && !m.wantPre {
		return engine.Reject, -1
	}
	return engine.Allow, -1
}

func (t gemOp) holds(v GemVersion) bool {
	d := v.Compare(t.v)
	switch t.op {
	case "=":
		return d == 0
	case "!=":
		return d != 0
	case ">":
		return d > 0
	case "<":
		return d < 0
	case ">=":
		return d >= 0
	case "<=":
		return d <= 0
	}
	// "~>": v >= r && v.release < r.bump
	return d >= 0 && v.release().Compare(t.bump) < 0
}

// dependabotWantsPrerelease is the update checker's test on the
// requirement string.
var dependabotWantsPrerelease = regexp.MustCompile(`\d-[A-Za-z0-9]`)

// DependabotWantsPrerelease reports whether Dependabot takes prereleases
// as candidates for a dependency with this constraint and current version
// ("" for none): the current version is a prerelease, or the constraint
// matches /\d-[A-Za-z0-9]/ (update_checker.rb wants_prerelease?).
func DependabotWantsPrerelease(constraint, current string) bool {
	if current != "" {
		if v, err := ParseGemVersion(current); err == nil && v.Prerelease() {
			return true
		}
	}
	return dependabotWantsPrerelease.MatchString(constraint)
}

// Select returns the newest version, by Gem::Version#<=>, that the
// policy admits (ties keep list order): it depends on the admitted
// versions alone.
func (d Dependabot) Select(constraint string, available []string) (engine.Selection, error) {
	m, err := d.Compile(constraint)
	if err != nil {
		return engine.Selection{}, err
	}
	return dependabotNewest(available, true, m.Match), nil
}

// DependabotProposal returns the version Dependabot proposes for a
// dependency with this constraint and current version ("" for none): the
// newest candidate by Gem::Version#<=>, whether the constraint admits it
// or not (Dependabot then rewrites the constraint). Found is false when
// no listed version is a candidate.
func DependabotProposal(constraint, current string, available []string) engine.Selection {
	return dependabotNewest(available, DependabotWantsPrerelease(constraint, current), func(string) engine.Result {
		return engine.Allowed("")
	})
}

// Propose is DependabotProposal, as package resolve asks an updater:
// the version Dependabot proposes for a dependency with this constraint
// at current ("" for none); selected is not needed.
func (Dependabot) Propose(constraint, current, selected string, available []string) (string, bool) {
	sel := DependabotProposal(constraint, current, available)
	return sel.Version, sel.Found
}

func dependabotNewest(available []string, wantPre bool, match func(string) engine.Result) engine.Selection {
	var sel engine.Selection
	var best GemVersion
	for _, text := range available {
		v, err := ParseGemVersion(text)
		if err != nil {
			sel.Unreadable = append(sel.Unreadable, engine.Unreadable{Version: text, Reason: err.Error()})
			continue
		}
		if v.Prerelease() && !wantPre {
			continue
		}
		if match(text).Verdict != engine.Allow {
			continue
		}
		if !sel.Found || best.Compare(v) < 0 {
			sel.Found, sel.Version, best = true, text, v
		}
	}
	return sel
}

// SelectsPairwise marks Select as the newest version Match admits: under a
// cooldown (engine.SelectCooled) the order makes no difference.
func (Dependabot) SelectsPairwise() {}
