package adapters

import (
	"fmt"
	"strconv"

	semver "github.com/Masterminds/semver/v3"

	"github.com/prerel/prerel/engine"
)

// Masterminds is Masterminds/semver/v3, registered as "masterminds"; with
// IncludePrerelease set it is "masterminds-pre".
//
// Masterminds reads "~>" as its tilde ("~> 1.2" is ">= 1.2.0, < 1.3.0") and
// a partial version as an x-range ("<= 1.2" admits 1.2.5), so the
// Terraform constraint is not handed over as written. Compile translates
// it with MastermindsConstraint into explicit three-part comparators with
// the same meaning, so that only the prerelease rule differs from the
// other policies, then calls semver.NewConstraint on the translation and
// sets Constraints.IncludePrerelease. Match calls semver.NewVersion on the
// version text as given and Constraints.Check. A constraint the engine's
// parser refuses is Invalid with the engine's error; text Masterminds
// refuses is Invalid with its error (a translation longer than 512 bytes
// is refused as too long, a version longer than 256 bytes too).
//
// NewVersion is the loose parser most callers use, not StrictNewVersion:
// it accepts a "v" prefix, one or two numeric parts (1.2 is 1.2.0) and
// leading zeros (01.02.03 is 1.2.3), and refuses four parts and a
// prerelease without "-".
//
// Without IncludePrerelease a prerelease version passes only in an AND group
// where some comparator's version has a prerelease, of any base and under
// any operator: "!= 1.5.0-rc.1" opts the group in as much as
// ">= 1.5.0-rc.1" does, so ">= 1.0.0, != 1.5.0-rc.1" admits 1.5.0-rc.2.
// With IncludePrerelease every version in range passes, by SemVer
// precedence. The empty constraint translates to "*", which Masterminds
// reads as a tilde from 0.0.0: releases only without IncludePrerelease, and
// with it every prerelease except those of 0.0.0 (0.0.0-beta lies below
// 0.0.0). The tests verify each of these.
//
// Selection orders admitted versions by Masterminds' Version.GreaterThan
// and keeps the first of equal ones.
type Masterminds struct {
	// IncludePrerelease sets Constraints.IncludePrerelease.
	IncludePrerelease bool
}

var (
	_ engine.Policy   = Masterminds{}
	_ engine.Selector = Masterminds{}
)

// Name returns "masterminds" or "masterminds-pre".
func (m Masterminds) Name() string {
	if m.IncludePrerelease {
		return "masterminds-pre"
	}
	return "masterminds"
}

// Rule returns the rule in one line.
func (m Masterminds) Rule() string {
	if m.IncludePrerelease {
		return "Masterminds Check with IncludePrerelease: every version in range by SemVer precedence, prereleases included"
	}
	return "Masterminds Check: a prerelease only when a comparator of the constraint names a prerelease (any base, != included)"
}

// MastermindsConstraint translates a Terraform/OpenTofu constraint into
// Masterminds syntax with the same meaning. The constraint is parsed with
// engine.ParseConstraint, and each comparator becomes:
//
//	~> 1.2.3       >=1.2.3, <1.3.0
//	~> 1.2, ~> 1   >=1.2.0, <2.0.0 and >=1.0.0, <2.0.0
//	~> 1.2.3-beta  >=1.2.3-beta, <1.3.0
//	<= 1.2         <=1.2.0 (partial versions are filled with zeros)
//	= 1.2, 1.2     =1.2.0
//	!= > >= < <=   kept, with the version filled to three parts
//
// The "v" prefix is dropped; prerelease and build metadata are kept.
// Comparators are joined with ", " (Masterminds' AND). The empty constraint
// is "*". A "~>" whose upper bound would overflow uint64 has none and
// becomes its lower bound alone.
func MastermindsConstraint(constraint string) (string, error) {
	text, _, err := mastermindsPieces(constraint, nil)
	return text, err
}

// mastermindsPiece is the translation of one comparator, and whether its
// versions name a prerelease (a "~>" names one in its lower bound only).
type mastermindsPiece struct {
	text       string
	prerelease bool
}

// mastermindsPieces is MastermindsConstraint that also appends each
// comparator's translation to pieces; the text is the pieces joined by
// ", ", or "*" when there are none.
func mastermindsPieces(constraint string, pieces []mastermindsPiece) (string, []mastermindsPiece, error) {
	c, err := engine.ParseConstraint(constraint)
	if err != nil {
		return "", pieces, err
	}
	if c.Len() == 0 {
		return "*", pieces, nil
	}
	first := len(pieces)
	var b []byte
	var ends []int // where each piece ends in b
	for i, cmp := range c.Comparators() {
		if i > 0 {
			b = append(b, ", "...)
		}
		if cmp.Op == engine.OpPessimistic {
			b = append(b, ">="...)
			b = appendVersion(b, cmp.Version)
			if upper, ok := cmp.Upper(); ok {
				b = append(b, ", <"...)
				b = appendVersion(b, upper)
			}
		} else {
			b = append(b, cmp.Op.String()...)
			b = appendVersion(b, cmp.Version)
		}
		pieces = append(pieces, mastermindsPiece{prerelease: cmp.Version.Prerelease() != ""})
		ends = append(ends, len(b))
	}
	text := string(b)
	start := 0
	for i, end := range ends {
		pieces[first+i].text = text[start:end]
		start = end + len(", ")
	}
	return text, pieces, nil
}

// appendVersion appends MAJOR.MINOR.PATCH[-PRE][+BUILD], without "v".
func appendVersion(b []byte, v engine.Version) []byte {
	b = strconv.AppendUint(b, v.Major(), 10)
	b = append(b, '.')
	b = strconv.AppendUint(b, v.Minor(), 10)
	b = append(b, '.')
	b = strconv.AppendUint(b, v.Patch(), 10)
	if pre := v.Prerelease(); pre != "" {
		b = append(b, '-')
		b = append(b, pre...)
	}
	if build := v.Build(); build != "" {
		b = append(b, '+')
		b = append(b, build...)
	}
	return b
}

// Compile translates constraint and parses it with semver.NewConstraint.
func (m Masterminds) Compile(constraint string) (engine.Matcher, error) {
	return m.compile(constraint)
}

func (m Masterminds) compile(constraint string) (mm mastermindsMatcher, err error) {
	text, err := MastermindsConstraint(constraint)
	if err != nil {
		return mastermindsMatcher{}, fmt.Errorf("translating to Masterminds syntax: %w", err)
	}
	defer func() {
		if p := recover(); p != nil {
			mm, err = mastermindsMatcher{}, panicError(fmt.Sprintf("Masterminds NewConstraint(%q)", text), p)
		}
	}()
	cs, err := cachedMastermindsConstraint(text)
	if err != nil {
		return mastermindsMatcher{}, fmt.Errorf("Masterminds NewConstraint(%q): %w", text, err)
	}
	cs.IncludePrerelease = m.IncludePrerelease
	return mastermindsMatcher{cs: cs, text: text}, nil
}

// Select returns the newest admitted version by Masterminds precedence.
func (m Masterminds) Select(constraint string, available []string) (engine.Selection, error) {
	mm, err := m.compile(constraint)
	if err != nil {
		return engine.Selection{}, err
	}
	return newest(available, mm.judge, (*semver.Version).GreaterThan), nil
}

func parseMastermindsVersion(text string) (*semver.Version, error) {
	return mastermindsVersions.get(text, readMastermindsVersion)
}

// readMastermindsVersion is parseMastermindsVersion without the cache.
func readMastermindsVersion(text string) (v *semver.Version, err error) {
	defer func() {
		if p := recover(); p != nil {
			v, err = nil, panicError("Masterminds NewVersion", p)
		}
	}()
	v, err = semver.NewVersion(text)
	if err != nil {
		return nil, fmt.Errorf("Masterminds NewVersion: %w", err)
	}
	return v, nil
}

type mastermindsMatcher struct {
	cs   *semver.Constraints
	text string // the translated constraint
}

func (m mastermindsMatcher) Match(version string) engine.Result {
	r, _ := m.judge(version)
	return r
}

func (m mastermindsMatcher) judge(version string) (r engine.Result, v *semver.Version) {
	defer guard("Masterminds Check", &r)
	v, err := parseMastermindsVersion(version)
	if err != nil {
		return engine.InvalidResult(err), nil
	}
	return m.check(v), v
}

// judgeParsed is judge for a version parseMastermindsVersion has read.
func (m mastermindsMatcher) judgeParsed(v *semver.Version) (r engine.Result) {
	defer guard("Masterminds Check", &r)
	return m.check(v)
}

// check runs Constraints.Check and explains the answer.
func (m mastermindsMatcher) check(v *semver.Version) engine.Result {
	if m.cs.Check(v) {
		return mastermindsAllowed(m.text)
	}
	return m.reject(v)
}

// rejectParsed is judgeParsed for a version Check is known to refuse.
func (m mastermindsMatcher) rejectParsed(v *semver.Version) (r engine.Result) {
	defer guard("Masterminds Check", &r)
	return m.reject(v)
}

// reject is check's answer for a version Check refuses.
func (m mastermindsMatcher) reject(v *semver.Version) engine.Result {
	// Validate walks the same groups as Check and says why each failed.
	why := ""
	if _, errs := m.cs.Validate(v); len(errs) > 0 {
		why = ": " + errs[0].Error()
	}
	return engine.Rejected(fmt.Sprintf("Masterminds Check(%q): false%s", m.text, why))
}

// mastermindsAllowed is check's answer for a version Check admits under
// the translated constraint text.
func mastermindsAllowed(text string) engine.Result {
	return engine.Allowed("Masterminds Check(" + strconv.Quote(text) + "): true")
}

// SelectsPairwise marks Select as the newest version Match admits: under a
// cooldown (engine.SelectCooled) the order makes no difference.
func (Masterminds) SelectsPairwise() {}
