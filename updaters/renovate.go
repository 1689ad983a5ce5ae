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
// constraints with its "hashicorp" versioning
// (lib/modules/versioning/hashicorp/index.ts of renovatebot/renovate; the
// proof runs the published npm package renovate 44.121.2,
// dist/modules/versioning/hashicorp/index.js). Its lookup
// (lib/workers/repository/process/lookup/index.ts lookupUpdates) first
// asks isValid, which converts the whole constraint into an npm range with
// hashicorp2npm (convertor.ts) and asks node-semver (semver 7.8.5, the
// version the package pins) whether the range is valid. hashicorp2npm
// reads the comma-separated terms in order and throws at the first one
// that is not an operator of = != > >= < <= ~> followed by a version of
// one to three numbers without leading zeros (a prerelease and build
// allowed), and at the first "!=" term: it has no npm form ("Unsupported
// hashicorp constraint"). A constraint isValid refuses is Invalid here: the
// lookup gives the dependency skipReason "invalid-value", selects nothing
// and proposes nothing (matches, which splits the "!=" terms off first,
// is never asked). The other terms it writes:
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
//	~> 4.0, != 4.2.0   | 4.3.0         invalid (Renovate skips the dependency)
//
// isValid also refuses the empty constraint and a prerelease on a version
// of fewer than three numbers ("1.0-beta"), which node-semver cannot
// read. The blanks around a term are \s of hashicorp2npm's regular
// expression as RE2 reads it: space, tab, newline, carriage return and
// form feed (Renovate's regEx uses RE2 when its optional dependency re2
// loads; without it JavaScript's RegExp, whose \s also takes the vertical
// tab and Unicode's blanks). Versions are read as node-semver reads them
// (isVersion): SemVer with an optional "v", ordered by SemVer precedence.
//
// Select is the version the lookup finds a dependency at with nothing
// locked, node-semver's maxSatisfying; Propose is the update the lookup
// proposes; the candidate filter (ignoreUnstable, on by default,
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
	set  []npmComparator // empty: node-semver's "*" (any release)
	null bool            // the range holds <0.0.0-0 and admits nothing
	// exact: hashicorp2npm writes one version, not a range (one term of
	// "=" or no operator, with three numbers), which getNewValue replaces
	// with the new version.
	exact bool
}

// errRenovateEmpty is the refusal of the empty constraint.
var errRenovateEmpty = errors.New(`renovate: an empty constraint: Renovate's hashicorp versioning refuses it (isValid), and the lookup skips the dependency`)

// Compile reads constraint as Renovate's hashicorp versioning does: its
// isValid, which the lookup asks first, converts the whole constraint
// with hashicorp2npm, term by term in order, and refuses it at the first
// term that is not a hashicorp term or is a "!=" term; node-semver then
// reads the npm range.
func (Renovate) Compile(constraint string) (engine.Matcher, error) {
	if constraint == "" {
		return nil, errRenovateEmpty
	}
	terms := strings.Split(constraint, ",")
	groups := make([][]string, len(terms))
	for i, term := range terms {
		g := renovateTerm.FindStringSubmatch(term)
		if g == nil {
			return nil, fmt.Errorf("renovate: %q is not a hashicorp constraint term Renovate reads (hashicorp2npm: Invalid hashicorp constraint): Renovate skips this dependency", strings.TrimSpace(term))
		}
		if g[1] == "!=" {
			return nil, fmt.Errorf("renovate: %q: `!=` is unsupported: Renovate skips this dependency (hashicorp2npm: Unsupported hashicorp constraint)", strings.TrimSpace(term))
		}
		groups[i] = g
	}
	m := &renovateMatcher{exact: len(groups) == 1 && (groups[0][1] == "" || groups[0][1] == "=") && groups[0][4] != "" && groups[0][6] != ""}
	for _, g := range groups {
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
	return m.judge(v)
}

// judge is Match on version, which readNPMVersion read as v.
func (m *renovateMatcher) judge(v engine.Version) engine.Result {
	_, why := m.decide(v)
	switch why {
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
	renovateNull = -1 - iota
	renovateRelease
	renovatePreAllow
	renovatePre
)

// decide is judge's verdict, and what decides it: the index in m.set of
// the first comparator v fails, or one of renovateNull to renovatePre.
func (m *renovateMatcher) decide(v engine.Version) (engine.Verdict, int) {
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

// Select returns the version Renovate's lookup finds a dependency with
// this constraint at when nothing is locked (resolveCurrentVersion in
// lib/workers/repository/process/lookup/current.ts, for the
// "update-lockfile" range strategy that the terraform manager gets): the
// newest version of available that the constraint admits, as
// node-semver's maxSatisfying orders them (SemVer precedence, the first
// of equal versions). A constraint Renovate refuses is refused: the
// lookup skips the dependency.
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

// Propose returns the newest version Renovate's lookup proposes
// (lookupUpdates in lib/workers/repository/process/lookup/index.ts, with
// the terraform manager's defaults) for a dependency with this
// constraint, locked at current ("" for none: a module, or a provider
// with no lock file), when Select selects selected ("" for none); false
// when it proposes nothing. A constraint Renovate refuses gets nothing
// (skipReason "invalid-value").
//
// The lookup starts from the locked version, else from the one Select
// finds, else from the constraint's own version when it is a single
// version ("1.2.3", "= 1.2.3") that is not listed. Its candidates are
// [RenovateCandidates] from there; it takes the newest of each bucket, a
// major update and a minor or patch one (separateMajorMinor; the newest
// of equal versions is the last listed), and asks getNewValue for the
// constraint that admits it. With nothing locked, an update whose new
// constraint is the old one is dropped: for a single version, when
// npm2hashicorp cannot write the new version (it is listed with blanks
// around it). An update to a single version below the one the
// constraint names is dropped as a downgrade. Otherwise a version
// outside the constraint is, for Renovate, a pull request that rewrites
// the constraint, and with a lock file one inside it a lock-file update.
func (r Renovate) Propose(constraint, current, selected string, available []string) (string, bool) {
	c, err := r.Compile(constraint)
	if err != nil {
		return "", false
	}
	m := c.(*renovateMatcher)
	from := current
	if from == "" {
		from = selected
	}
	if from == "" {
		from = renovateSingleVersion(constraint)
	}
	cur, err := readNPMVersion(from)
	if err != nil {
		return "", false
	}
	pinned, pinErr := readNPMVersion(constraint)
	// The newest candidate of each bucket: 0 a minor or patch update, 1 a
	// major one.
	var newest [2]string
	var best [2]engine.Version
	for _, text := range RenovateCandidates(from, available) {
		v, _ := readNPMVersion(text) // RenovateCandidates read it
		b := 0
		if v.Major() != cur.Major() {
			b = 1
		}
		if newest[b] == "" || best[b].Compare(v) <= 0 {
			newest[b], best[b] = text, v
		}
	}
	for _, b := range []int{1, 0} {
		if newest[b] == "" {
			continue
		}
		if m.exact {
			// getNewValue gives the new version itself, or throws when
			// npm2hashicorp cannot write it, and the lookup keeps the
			// constraint: a lock-file update only.
			if strings.IndexFunc(newest[b], isJSSpace) >= 0 {
				if current == "" {
					continue
				}
			} else if pinErr == nil && pinned.Compare(best[b]) > 0 {
				continue // "Unexpected downgrade detected: skipping"
			}
		}
		return newest[b], true
	}
	return "", false
}

// renovateSingleVersion is the version getCurrentVersion takes a
// constraint to be at when no listed version satisfies it: the
// constraint itself when node-semver reads it as a version, the version
// after a leading "=" when it does, else "".
func renovateSingleVersion(constraint string) string {
	if _, err := readNPMVersion(constraint); err == nil {
		return constraint
	}
	if rest, ok := strings.CutPrefix(constraint, "="); ok {
		rest = strings.TrimFunc(rest, isJSSpace)
		if _, err := readNPMVersion(rest); err == nil {
			return rest
		}
	}
	return ""
}

// RenovateCandidates returns the versions of available that Renovate's
// candidate filter keeps when the dependency is at current, with
// ignoreUnstable on (its default): filterVersions in
// lib/workers/repository/process/lookup/filter.ts. Only versions above
// current are candidates. When current is a stable release, only stable
// releases; otherwise stable releases and the versions of current's
// major, minor and patch (the hashicorp versioning does not set
// allowUnstableMajorUpgrades): above a prerelease, its own
// MAJOR.MINOR.PATCH's prereleases and release. Current is a stable release
// when the first listed version equal to it is one. Stable is
// semver-stable's test (Renovate's isStable), which reads a version with
// node-semver 6, whose parse does not trim blanks: a release listed with
// blanks around it is not stable. A current version node-semver cannot
// read keeps nothing; a listed one it cannot read is left out.
func RenovateCandidates(current string, available []string) []string {
	cur, err := readNPMVersion(current)
	if err != nil {
		return nil
	}
	versions := make([]engine.Version, len(available))
	readable := make([]bool, len(available))
	stableCurrent, found := false, false
	for i, text := range available {
		v, err := readNPMVersion(text)
		if err != nil {
			continue
		}
		versions[i], readable[i] = v, true
		if !found && v.Compare(cur) == 0 {
			found, stableCurrent = true, npmStable(text, v)
		}
	}
	var out []string
	for i, text := range available {
		v := versions[i]
		if !readable[i] || v.Compare(cur) <= 0 {
			continue
		}
		if !npmStable(text, v) && (stableCurrent || !v.SameCore(cur)) {
			continue
		}
		out = append(out, text)
	}
	return out
}

// npmStable reports whether semver-stable's is holds for text, which
// node-semver reads as v: a release with no blanks around it (it reads
// the text with node-semver 6.3.2's parse, which does not trim them).
func npmStable(text string, v engine.Version) bool {
	return !v.IsPrerelease() && strings.TrimFunc(text, isJSSpace) == text
}

// SelectsPairwise marks Select as the newest version Match admits: under a
// cooldown (engine.SelectCooled) the order makes no difference.
func (Renovate) SelectsPairwise() {}
