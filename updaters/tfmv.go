package updaters

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/prerel/prerel/engine"
)

// TerraformModuleVersions is how terraform-module-versions reads a
// module's version constraint, registered as "terraform-module-versions".
//
// keilerkonzept/terraform-module-versions (read at commit 958e88de of
// 2025-09-15) parses a module call's version with
// github.com/Masterminds/semver/v3 v3.3.1, the version its go.mod pins
// (pkg/modulecall/parse.go Parse: semver.NewConstraint), and lists the
// newest version that Constraints.Check admits (pkg/update/updates.go
// Client.Update), after dropping every prerelease unless it is run with
// -pre-release. Masterminds is not Terraform's grammar:
//
//	~> 1.2       | 1.5.0     reject (~> is Masterminds' tilde: >= 1.2.0, < 1.3.0)
//	~> 1         | 1.5.0     allow
//	1.2          | 1.2.5     allow  (a bare 1.2 is 1.2.x)
//	= 1.2.0      | 1.2.0     allow
//	>= 1.0.0-0   | 1.1.0-rc1 reject (prereleases are dropped)
//
// This policy is the default run: a prerelease is never admitted, and a
// release is judged by Check of v3.3.1. Later versions differ: v3.4.0
// judges a prerelease against every comparator of an AND group once one
// of them names a prerelease, and reads leading zeros in NewVersion again
// (CHANGELOG #266); v3.5.0 refuses a constraint longer than 512 bytes or
// with more than 32 "||" groups. The constraint functions judge a release
// alike in all three.
// What it refuses (Invalid) is what NewConstraint refuses: a term that is
// not one of = != > < >= => <= =< ~ ~> ^ (or none) and a version of up to
// three numbers or x/X/* wildcards, terms joined by blanks or commas,
// alternatives by "||"; a number with a leading zero. Versions are read
// as semver.NewVersion reads them: "v", one to three numbers, a
// prerelease and build metadata.
type TerraformModuleVersions struct{}

var _ engine.Policy = TerraformModuleVersions{}

// Name returns "terraform-module-versions".
func (TerraformModuleVersions) Name() string { return "terraform-module-versions" }

// Rule returns the rule in one line.
func (TerraformModuleVersions) Rule() string {
	return "terraform-module-versions: Masterminds/semver v3.3.1, ~> read as a tilde, a bare 1.2 as 1.2.x; prereleases dropped"
}

// The regular expressions of Masterminds/semver v3.3.1 (constraints.go
// and version.go), which this policy reads constraints with.
const (
	mmOps     = `=||!=|>|<|>=|=>|<=|=<|~|~>|\^`
	mmCV      = `v?([0-9|x|X|\*]+)(\.[0-9|x|X|\*]+)?(\.[0-9|x|X|\*]+)?` + `(-([0-9A-Za-z\-]+(\.[0-9A-Za-z\-]+)*))?` + `(\+([0-9A-Za-z\-]+(\.[0-9A-Za-z\-]+)*))?`
	mmVersion = `v?(0|[1-9]\d*)(?:\.(0|[1-9]\d*))?(?:\.(0|[1-9]\d*))?` + `(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?` + `(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?`
)

var (
	mmConstraint = regexp.MustCompile(fmt.Sprintf(`^\s*(%s)\s*(%s)\s*$`, mmOps, mmCV))
	mmRange      = regexp.MustCompile(fmt.Sprintf(`\s*(%s)\s+-\s+(%s)\s*`, mmCV, mmCV))
	mmFind       = regexp.MustCompile(fmt.Sprintf(`(%s)\s*(%s)`, mmOps, mmCV))
	mmValid      = regexp.MustCompile(fmt.Sprintf(`^(\s*(%s)\s*(%s)\s*)((?:\s+|,\s*)(%s)\s*(%s)\s*)*$`, mmOps, mmCV, mmOps, mmCV))
	mmVersionRe  = regexp.MustCompile("^" + mmVersion + "$")
)

// mmVer is a Masterminds version: numbers and prerelease.
type mmVer struct {
	major, minor, patch uint64
	pre                 string
}

func (v mmVer) compare(w mmVer) int {
	for _, d := range [...][2]uint64{{v.major, w.major}, {v.minor, w.minor}, {v.patch, w.patch}} {
		if d[0] != d[1] {
			if d[0] < d[1] {
				return -1
			}
			return 1
		}
	}
	switch {
	case v.pre == w.pre:
		return 0
	case v.pre == "":
		return 1
	case w.pre == "":
		return -1
	}
	return engine.ComparePrerelease(v.pre, w.pre)
}

// parseMMVersion is semver.NewVersion of v3.3.1.
func parseMMVersion(s string) (mmVer, error) {
	g := mmVersionRe.FindStringSubmatch(s)
	if g == nil {
		return mmVer{}, fmt.Errorf("terraform-module-versions: %q: Invalid Semantic Version", s)
	}
	var v mmVer
	var err error
	for i, p := range []*uint64{&v.major, &v.minor, &v.patch} {
		if g[i+1] == "" {
			continue
		}
		if *p, err = strconv.ParseUint(g[i+1], 10, 64); err != nil {
			return mmVer{}, fmt.Errorf("terraform-module-versions: %q: Error parsing version segment: %v", s, err)
		}
	}
	v.pre = g[4]
	return v, nil
}

// mmTerm is one parsed Masterminds constraint.
type mmTerm struct {
	op                            string
	con                           mmVer
	dirty, minorDirty, patchDirty bool
}

// tfmvMatcher is a compiled constraint: alternatives of terms.
type tfmvMatcher struct{ or [][]mmTerm }

func mmIsX(s string) bool { return s == "x" || s == "X" || s == "*" }

// Compile reads constraint as semver.NewConstraint of v3.3.1 does.
func (TerraformModuleVersions) Compile(constraint string) (engine.Matcher, error) {
	c := rewriteRanges(constraint)
	m := &tfmvMatcher{}
	for _, alt := range strings.Split(c, "||") {
		if !mmValid.MatchString(alt) {
			return nil, fmt.Errorf("terraform-module-versions: improper constraint: %s", alt)
		}
		cs := mmFind.FindAllString(alt, -1)
		if cs == nil {
			cs = []string{alt}
		}
		var terms []mmTerm
		for _, s := range cs {
			t, err := parseMMTerm(s)
			if err != nil {
				return nil, err
			}
			terms = append(terms, t)
		}
		m.or = append(m.or, terms)
	}
	return m, nil
}

var errMMParser = errors.New("terraform-module-versions: constraint Parser Error")

// parseMMTerm is parseConstraint of v3.3.1.
func parseMMTerm(s string) (mmTerm, error) {
	if s == "" {
		return mmTerm{dirty: true}, nil
	}
	g := mmConstraint.FindStringSubmatch(s)
	if g == nil {
		return mmTerm{}, fmt.Errorf("terraform-module-versions: improper constraint: %s", s)
	}
	t := mmTerm{op: g[1]}
	ver := g[2]
	switch {
	case mmIsX(g[3]) || g[3] == "":
		ver, t.dirty = "0.0.0"+g[6], true
	case mmIsX(strings.TrimPrefix(g[4], ".")) || g[4] == "":
		ver, t.dirty, t.minorDirty = g[3]+".0.0"+g[6], true, true
	case mmIsX(strings.TrimPrefix(g[5], ".")) || g[5] == "":
		ver, t.dirty, t.patchDirty = g[3]+g[4]+".0"+g[6], true, true
	}
	v, err := parseMMVersion(ver)
	if err != nil {
		return mmTerm{}, errMMParser
	}
	t.con = v
	return t, nil
}

// Reasons of the terraform-module-versions policy.
const (
	reasonTFMVPre   = "prerelease: dropped, as terraform-module-versions does unless run with -pre-release"
	reasonTFMVAllow = "Masterminds/semver v3.3.1 Check admits it"
	reasonTFMVFail  = "Masterminds/semver v3.3.1 Check refuses it"
)

// Match judges version as terraform-module-versions does by default.
func (m *tfmvMatcher) Match(version string) engine.Result {
	v, err := parseMMVersion(version)
	if err != nil {
		return engine.InvalidResult(err)
	}
	return m.judge(v)
}

// judge is Match on a version parseMMVersion read.
func (m *tfmvMatcher) judge(v mmVer) engine.Result {
	if v.pre != "" {
		return engine.Rejected(reasonTFMVPre)
	}
	for _, terms := range m.or {
		ok := true
		for _, t := range terms {
			if !t.check(v) {
				ok = false
				break
			}
		}
		if ok {
			return engine.Allowed(reasonTFMVAllow)
		}
	}
	return engine.Rejected(reasonTFMVFail)
}

// check is the constraint functions of v3.3.1 for a version.
func (c mmTerm) check(v mmVer) bool {
	if v.pre != "" && c.con.pre == "" {
		return false // every function refuses a prerelease against a release
	}
	switch c.op {
	case "", "=":
		if c.dirty {
			return c.tilde(v)
		}
		return v.compare(c.con) == 0
	case "!=":
		return c.notEqual(v)
	case ">":
		if !c.dirty {
			return v.compare(c.con) > 0
		}
		switch {
		case v.major > c.con.major:
			return true
		case v.major < c.con.major || c.minorDirty:
			return false
		case c.patchDirty:
			return v.minor > c.con.minor
		}
		return v.compare(c.con) > 0
	case "<":
		return v.compare(c.con) < 0
	case ">=", "=>":
		return v.compare(c.con) >= 0
	case "<=", "=<":
		if !c.dirty {
			return v.compare(c.con) <= 0
		}
		if v.major > c.con.major || v.major == c.con.major && v.minor > c.con.minor && !c.minorDirty {
			return false
		}
		return true
	case "~", "~>":
		return c.tilde(v)
	case "^":
		return c.caret(v)
	}
	return false
}

func (c mmTerm) notEqual(v mmVer) bool {
	if c.dirty {
		if c.con.major != v.major {
			return true
		}
		if c.con.minor != v.minor && !c.minorDirty {
			return true
		} else if c.minorDirty {
			return false
		} else if c.con.patch != v.patch && !c.patchDirty {
			return true
		} else if c.patchDirty {
			if v.pre == "" || c.con.pre == "" {
				return v.pre != c.con.pre
			}
			return engine.ComparePrerelease(v.pre, c.con.pre) != 0
		}
	}
	return v.compare(c.con) != 0
}

func (c mmTerm) tilde(v mmVer) bool {
	if v.compare(c.con) < 0 {
		return false
	}
	if c.con.major == 0 && c.con.minor == 0 && c.con.patch == 0 && !c.minorDirty && !c.patchDirty {
		return true
	}
	if v.major != c.con.major {
		return false
	}
	return v.minor == c.con.minor || c.minorDirty
}

func (c mmTerm) caret(v mmVer) bool {
	if v.compare(c.con) < 0 {
		return false
	}
	if c.con.major > 0 || c.minorDirty {
		return v.major == c.con.major
	}
	if v.major > 0 {
		return false
	}
	if c.con.minor > 0 || c.patchDirty {
		return v.minor == c.con.minor
	}
	if v.minor > 0 {
		return false
	}
	return v.patch == c.con.patch
}
