package updaters

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"github.com/prerel/prerel/engine"
)

// Renovate is how Renovate reads a Terraform constraint, registered as
// "renovate".
//
// Renovate's terraform manager reads module, provider and required_version
// constraints with its "hashicorp" versioning (renovatebot/renovate,
// lib/modules/versioning/hashicorp/index.ts, read at commit c2dd4f85 of
// 2026-08-22). Its matches removes every "!=" term (getExcludedVersions,
// getFilteredRange in lib/modules/versioning/common.ts), turns the rest
// into an npm range with hashicorp2npm (convertor.ts) and asks node-semver
// (semver 7.8.5, the version Renovate's package.json pins) whether the
// version satisfies it; a version equal as text to a "!=" term's version
// is refused. hashicorp2npm writes:
//
//	= 1.2.3, 1.2.3   1.2.3      (a bare 1.2 is the npm x-range 1.2.x)
//	~> 1             >=1
//	~> 1.2           ^1.2       (below 2.0.0, where ~> 1.2 means the same)
//	~> 0.14          ^0.14      (below 0.15.0, where Terraform means < 1.0.0)
//	~> 1.2.3         ~1.2.3     (below 1.3.0)
//	>= 1.2, < 2      >=1.2 <2   (the other operators are copied)
//
// and strips a leading "v". node-semver's default prerelease rule then
// applies: a prerelease is admitted only when every comparator holds and
// some comparator names a prerelease of the same MAJOR.MINOR.PATCH.
//
//	~> 0.14            | 0.15.0        reject (Terraform installs it)
//	~> 4               | 5.0.0         allow  (the provider installer refuses it)
//	1.2                | 1.2.5         allow  (Terraform means exactly 1.2.0)
//	>= 1.0.0-beta      | 1.0.0-rc.1    allow
//	>= 1.0.0-beta      | 1.1.0-rc.1    reject
//
// What it refuses (Invalid): a constraint whose terms, "!=" terms aside,
// are empty (Renovate matches nothing then), a term that is not an
// operator of = != > >= < <= ~> followed by a version of one to three
// numbers without leading zeros (a prerelease and build allowed), and a
// prerelease on a version of fewer than three numbers ("1.0-beta"), which
// node-semver cannot read. Renovate's lookup itself skips a constraint
// with any "!=" term as an invalid value (its isValid converts the whole
// constraint, and hashicorp2npm throws on "!="); the lock-file update
// (getSatisfyingVersion) and matches exclude the "!=" versions as
// described, which is what this policy does. Versions are read as
// node-semver reads them: SemVer with an optional "v", ordered by SemVer
// precedence, so selection is the engine's newest admitted version, as
// node-semver's maxSatisfying picks it.
//
// Renovate's candidate filter (ignoreUnstable, on by default,
// lib/workers/repository/process/lookup/filter.ts filterVersions) is
// [RenovateCandidates].
type Renovate struct{}

var (
	_ engine.Policy   = Renovate{}
	_ engine.Selector = Renovate{}
)

// Name returns "renovate".
func (Renovate) Name() string { return "renovate" }

// Rule returns the rule in one line.
func (Renovate) Rule() string {
	return "Renovate's hashicorp versioning: ~> N is >=N, ~> N.M is ^N.M, a bare 1.2 is 1.2.x; node-semver's prerelease rule"
}

// renovateTerm is hashicorp2npm's pattern for one comma-separated term
// (convertor.ts): an operator, an optional "v", and the SemVer regular
// expression with the minor and patch numbers optional.
var renovateTerm = regexp.MustCompile(`^\s*(|=|!=|>|<|>=|<=|~>)\s*v?((0|[1-9]\d*)(\.(0|[1-9]\d*))?(\.(0|[1-9]\d*))?(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?)\s*$`)

// npmComparator is one comparator of a node-semver range after its
// x-ranges, tildes and carets are expanded.
type npmComparator struct {
	op string // "", ">", ">=", "<", "<="
	v  engine.Version
}

// renovateMatcher is a compiled Renovate constraint.
type renovateMatcher struct {
	excluded []string
	set      []npmComparator // empty: node-semver's "*" (any release)
	null     bool            // the range holds <0.0.0-0 and admits nothing
}

// errRenovateEmpty is the refusal of a constraint with no term left.
var errRenovateEmpty = errors.New(`renovate: no term besides "!=": Renovate's hashicorp versioning reads an empty range as invalid and matches nothing`)

// Compile reads constraint as Renovate's matches does.
func (Renovate) Compile(constraint string) (engine.Matcher, error) {
	m := &renovateMatcher{}
	var kept []string
	for _, term := range strings.Split(constraint, ",") {
		term = strings.TrimSpace(term)
		if strings.HasPrefix(term, "!=") {
			m.excluded = append(m.excluded, strings.TrimSpace(strings.Replace(term, "!=", "", 1)))
			continue
		}
		kept = append(kept, term)
	}
	filtered := strings.Join(kept, ",")
	if filtered == "" {
		return nil, errRenovateEmpty
	}
	for _, term := range strings.Split(filtered, ",") {
		g := renovateTerm.FindStringSubmatch(term)
		if g == nil {
			return nil, fmt.Errorf("renovate: %q is not a hashicorp constraint term Renovate reads (hashicorp2npm: Invalid hashicorp constraint)", term)
		}
		if err := m.add(g); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// add expands one term, as hashicorp2npm and then node-semver's Range
// (strip build metadata, carets, tildes, x-ranges, >=0.0.0 as "*") read
// it.
func (m *renovateMatcher) add(g []string) error {
	op, text := g[1], g[2]
	major, hasMinor, hasPatch, pre := g[3], g[4] != "", g[6] != "", g[8]
	minor, patch := g[5], g[7]
	partial := !hasMinor || !hasPatch
	if pre != "" && partial {
		return fmt.Errorf("renovate: node-semver cannot read %q: a prerelease needs MAJOR.MINOR.PATCH", text)
	}
	M, err1 := npmNumber(major)
	mi, err2 := npmNumber(minor)
	p, err3 := npmNumber(patch)
	if err := errors.Join(err1, err2, err3); err != nil {
		return fmt.Errorf("renovate: node-semver cannot read %q: %v", text, err)
	}
	full := func(M, mi, p uint64, pre string) engine.Version {
		s := fmt.Sprintf("%d.%d.%d", M, mi, p)
		if pre != "" {
			s += "-" + pre
		}
		return engine.MustParseVersion(s)
	}
	lower := func(v engine.Version) { m.push(">=", v) }
	below := func(v engine.Version) { m.push("<", v) }
	switch op {
	case "~>":
		switch {
		case !hasMinor && pre == "" && g[9] == "": // ">=N"
			lower(full(M, 0, 0, ""))
		case hasMinor && !hasPatch && pre == "" && g[9] == "": // "^N.M"
			lower(full(M, mi, 0, ""))
			if M == 0 {
				below(full(0, mi+1, 0, "0"))
			} else {
				below(full(M+1, 0, 0, "0"))
			}
		case !hasMinor: // "~N+build" reads as ~N
			lower(full(M, 0, 0, ""))
			below(full(M+1, 0, 0, "0"))
		case !hasPatch: // "~N.M+build"
			lower(full(M, mi, 0, ""))
			below(full(M, mi+1, 0, "0"))
		default: // "~N.M.P[-pre]"
			lower(full(M, mi, p, pre))
			below(full(M, mi+1, 0, "0"))
		}
	case "", "=":
		switch {
		case !hasMinor:
			lower(full(M, 0, 0, ""))
			below(full(M+1, 0, 0, "0"))
		case !hasPatch:
			lower(full(M, mi, 0, ""))
			below(full(M, mi+1, 0, "0"))
		default:
			m.push("", full(M, mi, p, pre))
		}
	case ">=":
		lower(full(M, mi, p, pre))
	case ">":
		switch {
		case !hasMinor:
			lower(full(M+1, 0, 0, ""))
		case !hasPatch:
			lower(full(M, mi+1, 0, ""))
		default:
			m.push(">", full(M, mi, p, pre))
		}
	case "<":
		if partial {
			below(full(M, mi, 0, "0"))
		} else {
			below(full(M, mi, p, pre))
		}
	case "<=":
		switch {
		case !hasMinor:
			below(full(M+1, 0, 0, "0"))
		case !hasPatch:
			below(full(M, mi+1, 0, "0"))
		default:
			m.push("<=", full(M, mi, p, pre))
		}
	}
	return nil
}

// push adds a comparator: ">=0.0.0" is node-semver's "*" (replaceGTE0)
// and "<0.0.0-0" its null set.
func (m *renovateMatcher) push(op string, v engine.Version) {
	if op == ">=" && v.Equal(engine.NewVersion(0, 0, 0)) && !v.IsPrerelease() {
		return
	}
	if op == "<" && v.Equal(engine.MustParseVersion("0.0.0-0")) {
		m.null = true
	}
	m.set = append(m.set, npmComparator{op, v})
}

// maxSafeInteger is JavaScript's Number.MAX_SAFE_INTEGER, node-semver's
// bound on a version's numbers.
const maxSafeInteger = 1<<53 - 1

// npmNumber reads a number of a term ("" is 0) within node-semver's
// bound.
func npmNumber(s string) (uint64, error) {
	if s == "" {
		return 0, nil
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil || n >= maxSafeInteger {
		return 0, fmt.Errorf("%s is above %d", s, uint64(maxSafeInteger))
	}
	return n, nil
}

// Reasons of the renovate policy.
const (
	reasonRenovateExcluded = `excluded: a "!=" term names this version as text`
	reasonRenovateNull     = "the npm range holds <0.0.0-0 and admits nothing"
	reasonRenovateAllow    = "every npm comparator holds"
	reasonRenovatePreAllow = "prerelease: every npm comparator holds and one names a prerelease of the same MAJOR.MINOR.PATCH"
	reasonRenovatePre      = "prerelease: no npm comparator names a prerelease of the same MAJOR.MINOR.PATCH (node-semver's default)"
)

// Match judges version as node-semver's satisfies does.
func (m *renovateMatcher) Match(version string) engine.Result {
	v, err := readNPMVersion(version)
	if err != nil {
		return engine.InvalidResult(err)
	}
	return m.judge(version, v)
}

// judge is Match on version, which readNPMVersion read as v.
func (m *renovateMatcher) judge(version string, v engine.Version) engine.Result {
	_, why := m.decide(version, v)
	switch why {
	case renovateExcluded:
		return engine.Rejected(reasonRenovateExcluded)
	case renovateNull:
		return engine.Rejected(reasonRenovateNull)
	case renovateRelease:
		return engine.Allowed(reasonRenovateAllow)
	case renovatePreAllow:
		return engine.Allowed(reasonRenovatePreAllow)
	case renovatePre:
		return engine.Rejected(reasonRenovatePre)
	}
	c := m.set[why]
	return engine.Rejected(fmt.Sprintf("fails the npm comparator %s%s", c.op, c.v))
}

// What decides renovateMatcher.decide's verdict: the index of the
// comparator the version fails, or one of these.
const (
	renovateExcluded = -1 - iota
	renovateNull
	renovateRelease
	renovatePreAllow
	renovatePre
)

// decide is judge's verdict, and what decides it: the index in m.set of
// the first comparator v fails, or one of renovateExcluded to
// renovatePre.
func (m *renovateMatcher) decide(version string, v engine.Version) (engine.Verdict, int) {
	for _, x := range m.excluded {
		if x == version {
			return engine.Reject, renovateExcluded
		}
	}
	if m.null {
		return engine.Reject, renovateNull
	}
	for i, c := range m.set {
		if !c.holds(v) {
			return engine.Reject, i
		}
	}
	if !v.IsPrerelease() {
		return engine.Allow, renovateRelease
	}
	for _, c := range m.set {
		if c.v.IsPrerelease() && c.v.SameCore(v) {
			return engine.Allow, renovatePreAllow
		}
	}
	return engine.Reject, renovatePre
}

// readNPMVersion reads a version as node-semver's SemVer does (strict,
// with an optional "v", blanks around it trimmed), within its bounds.
func readNPMVersion(s string) (engine.Version, error) {
	if jsLength(s) > 256 {
		return engine.Version{}, fmt.Errorf("renovate: node-semver cannot read a version longer than 256 characters")
	}
	v, err := engine.ParseVersion(strings.TrimFunc(s, isJSSpace))
	if err != nil {
		return v, err
	}
	if v.Major() >= maxSafeInteger || v.Minor() >= maxSafeInteger || v.Patch() >= maxSafeInteger {
		return v, fmt.Errorf("renovate: node-semver cannot read %q: too long or a number above %d", s, uint64(maxSafeInteger))
	}
	return v, nil
}

// isJSSpace reports whether String.prototype.trim removes r.
func isJSSpace(r rune) bool { return r == '\ufeff' || unicode.IsSpace(r) && r != '\u0085' }

// jsLength is the length of s in UTF-16 code units, as JavaScript counts.
func jsLength(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r >= 0x10000 {
			n++
		}
	}
	return n
}

func (c npmComparator) holds(v engine.Version) bool {
	d := v.Compare(c.v)
	switch c.op {
	case ">":
		return d > 0
	case ">=":
		return d >= 0
	case "<":
		return d < 0
	case "<=":
		return d <= 0
	}
	return d == 0
}

// Select returns the newest version of available that the constraint
// admits, as node-semver's maxSatisfying orders them (SemVer precedence,
// the first of equal versions), with the "!=" versions left out: the
// hashicorp versioning's getSatisfyingVersion, which Renovate's lock-file
// update calls.
func (r Renovate) Select(constraint string, available []string) (engine.Selection, error) {
	m, err := r.Compile(constraint)
	if err != nil {
		return engine.Selection{}, err
	}
	var sel engine.Selection
	var best engine.Version
	for _, text := range available {
		res := m.Match(text)
		switch res.Verdict {
		case engine.Invalid:
			sel.Unreadable = append(sel.Unreadable, engine.Unreadable{Version: text, Reason: res.Reason})
			continue
		case engine.Reject:
			continue
		}
		v, _ := readNPMVersion(text) // Match read it
		if !sel.Found || best.Compare(v) < 0 {
			sel.Found, sel.Version, best = true, text, v
		}
	}
	return sel, nil
}

// Propose returns what Renovate proposes for a dependency with this
// constraint at current (the locked version, "" for none) when it
// selects selected within the constraint: the newest of
// RenovateCandidates from current, or from selected when there is no
// current version; false when there is none. An update outside the
// constraint is, for Renovate, a pull request that rewrites the
// constraint.
func (Renovate) Propose(constraint, current, selected string, available []string) (string, bool) {
	from := current
	if from == "" {
		from = selected
	}
	if from == "" {
		return "", false
	}
	var best engine.Version
	out, found := "", false
	for _, c := range RenovateCandidates(from, available) {
		v, _ := readNPMVersion(c) // RenovateCandidates read it
		if !found || best.Compare(v) < 0 {
			out, best, found = c, v, true
		}
	}
	return out, found
}

// RenovateCandidates returns the versions of available that Renovate's
// candidate filter keeps when the dependency is at current, with
// ignoreUnstable on (its default): filterVersions in
// lib/workers/repository/process/lookup/filter.ts. Only versions above
// current are candidates; when current is a release, only releases; when
// it is a prerelease, releases and prereleases of the same major, minor
// and patch (the hashicorp versioning does not set
// allowUnstableMajorUpgrades). A current version node-semver cannot read
// keeps nothing; a listed one it cannot read is left out.
func RenovateCandidates(current string, available []string) []string {
	cur, err := readNPMVersion(current)
	if err != nil {
		return nil
	}
	var out []string
	for _, text := range available {
		v, err := readNPMVersion(text)
		if err != nil || v.Compare(cur) <= 0 {
			continue
		}
		if v.IsPrerelease() {
			if !cur.IsPrerelease() || !v.SameCore(cur) {
				continue
			}
		}
		out = append(out, text)
	}
	return out
}
