// Package rowgroups groups the rows of a check report by the pattern of
// their verdicts, for the tables that show many versions: prerel check's
// HTML page and the playground's verdict table.
//
// A check report has one row per version and one verdict per policy on
// each row. The rows whose verdicts are the same, policy by policy, form
// one group, which a table shows as one entry: how many versions it
// holds, which, and in words what sets it apart ("only
// terraform-module-versions dissents: it rejects, the other 19 allow",
// "every policy agrees: reject", "admitted by linear, cargo; rejected by
// today's rule and 12 others"). The groups come in the order a reader
// wants them: first those that hold a prerelease the policies disagree
// on, then the other groups the policies disagree on, then those every
// policy agrees on; within each, the groups where some policy allows and
// another rejects come before those where they differ only in that some
// cannot judge the versions, those all policies allow before those they
// all reject, and groups of a kind keep the order of their first
// version.
package rowgroups

import (
	"fmt"
	"slices"
	"strings"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/plural"
)

// Kind says why a group comes where it does.
type Kind string

// The kinds of group, in the order they come.
const (
	// Prerelease is a group that holds a prerelease and on which the
	// policies disagree.
	Prerelease Kind = "prerelease"
	// Disagree is a group of releases on which the policies disagree.
	Disagree Kind = "disagree"
	// Agree is a group on which every policy gives the same verdict.
	Agree Kind = "agree"
)

// Group is the versions of a report whose verdicts are the same, policy
// by policy.
type Group struct {
	// Kind is why the group comes where it does.
	Kind Kind `json:"kind"`
	// Verdicts are the verdicts each of the group's versions gets, one
	// per policy, in the order of the report's policies.
	Verdicts []engine.Verdict `json:"verdicts"`
	// Rows are the indexes of the group's versions in the report's
	// Versions, in the order given.
	Rows []int `json:"rows"`
	// Prereleases is how many of the versions are prereleases (see
	// IsPrerelease).
	Prereleases int `json:"prereleases"`
	// Size says how many versions the group holds: "137 versions",
	// "2 prereleases", "12 versions, 3 of them prereleases".
	Size string `json:"size"`
	// Says is, in words, what sets the group apart: which policies give
	// which verdict, today's rule named as such.
	Says string `json:"says"`
}

// Options are the choices of Of.
type Options struct {
	// Today reports whether the policy named is today's rule; the
	// description names such policies together as "today's rule". Nil,
	// no policy is.
	Today func(policy string) bool
	// Order lists the indexes of the report's policies in the order a
	// description names them, as the table's columns come; policies it
	// leaves out come after, in the report's order. Nil, the report's
	// order.
	Order []int
}

// Row is one row of a check report: a version and one verdict per
// policy, in the report's order of policies.
type Row struct {
	Version  string
	Verdicts []engine.Verdict
}

// Of groups rows, the rows of a check report of the policies named, by
// the pattern of their verdicts, in the order the package documentation
// gives. A report without rows has no group; a row with fewer verdicts
// than there are policies is grouped as if the missing ones were
// Invalid.
func Of(policies []string, rows []Row, opt Options) []Group {
	n := len(policies)
	order := fullOrder(opt.Order, n)
	today := make([]bool, n)
	if opt.Today != nil {
		for j, p := range policies {
			today[j] = opt.Today(p)
		}
	}
	var groups []Group
	index := map[string]int{}
	for i, row := range rows {
		vs := make([]engine.Verdict, n)
		for j := range vs {
			vs[j] = engine.Invalid
			if j < len(row.Verdicts) {
				vs[j] = row.Verdicts[j]
			}
		}
		key := verdictKey(vs)
		k, ok := index[key]
		if !ok {
			k = len(groups)
			index[key] = k
			groups = append(groups, Group{Verdicts: vs})
		}
		groups[k].Rows = append(groups[k].Rows, i)
		if IsPrerelease(row.Version) {
			groups[k].Prereleases++
		}
	}
	for k := range groups {
		g := &groups[k]
		level := disagreement(g.Verdicts)
		switch {
		case level == agree:
			g.Kind = Agree
		case g.Prereleases > 0:
			g.Kind = Prerelease
		default:
			g.Kind = Disagree
		}
		g.Size = size(len(g.Rows), g.Prereleases)
		g.Says = says(g.Verdicts, policies, today, order)
	}
	slices.SortStableFunc(groups, func(a, b Group) int { return rank(a) - rank(b) })
	return groups
}

// fullOrder is order with every index below n it leaves out appended,
// indexes out of range and repeats dropped.
func fullOrder(order []int, n int) []int {
	seen := make([]bool, n)
	var out []int
	for _, j := range order {
		if j >= 0 && j < n && !seen[j] {
			seen[j] = true
			out = append(out, j)
		}
	}
	for j := range n {
		if !seen[j] {
			out = append(out, j)
		}
	}
	return out
}

// verdictKey is a map key for a pattern of verdicts.
func verdictKey(vs []engine.Verdict) string {
	b := make([]byte, len(vs))
	for j, v := range vs {
		b[j] = byte(v)
	}
	return string(b)
}

// How much the policies disagree on a group.
const (
	agree         = iota // every policy gives the same verdict
	invalidOnly          // some say invalid, the others agree
	allowVsReject        // some policy allows and another rejects
)

func disagreement(vs []engine.Verdict) int {
	allow := slices.Contains(vs, engine.Allow)
	reject := slices.Contains(vs, engine.Reject)
	switch {
	case allow && reject:
		return allowVsReject
	case slices.ContainsFunc(vs, func(v engine.Verdict) bool { return v != vs[0] }):
		return invalidOnly
	}
	return agree
}

// rank is where a group comes: prerelease groups, then the other groups
// the policies disagree on, then those they agree on; allow against
// reject before invalid against the rest; and of the groups every policy
// agrees on, those they allow, then those they reject, then those they
// cannot judge.
func rank(g Group) int {
	level := disagreement(g.Verdicts)
	switch {
	case level == agree && len(g.Verdicts) > 0 && g.Verdicts[0] == engine.Allow:
		return 4
	case level == agree && len(g.Verdicts) > 0 && g.Verdicts[0] == engine.Reject:
		return 5
	case level == agree:
		return 6
	case g.Kind == Prerelease && level == allowVsReject:
		return 0
	case g.Kind == Prerelease:
		return 1
	case level == allowVsReject:
		return 2
	}
	return 3
}

// IsPrerelease reports whether version is a prerelease: one the engine
// reads (as SemVer, or with more than three numeric parts) with
// prerelease identifiers. A version the engine cannot read is a
// prerelease when a "-" follows its first digit before any "+", as in
// "1.0-beta".
func IsPrerelease(version string) bool {
	if v, err := engine.ParseVersion(version); err == nil {
		return v.Prerelease() != ""
	}
	if v, err := engine.ParseMultipartVersion(version); err == nil {
		return v.Prerelease() != ""
	}
	s, _, _ := strings.Cut(version, "+")
	digit := strings.IndexAny(s, "0123456789")
	return digit >= 0 && strings.Contains(s[digit:], "-")
}

// size says how many versions, prereleases of them, a group holds.
func size(n, pre int) string {
	switch {
	case pre == n:
		return plural.Of(n, "prerelease", "prereleases")
	case pre == 0:
		return plural.Of(n, "version", "versions")
	case pre == 1:
		return fmt.Sprintf("%d versions, 1 of them a prerelease", n)
	}
	return fmt.Sprintf("%d versions, %d of them prereleases", n, pre)
}

// The verdicts in the order a description names them.
var sayOrder = []engine.Verdict{engine.Allow, engine.Reject, engine.Invalid}

// says describes a pattern of verdicts: the verdict of each policy,
// named in order, today's rule (the policies today marks) named as such.
func says(vs []engine.Verdict, names []string, today []bool, order []int) string {
	if len(vs) == 0 {
		return "no policy is chosen"
	}
	sides := map[engine.Verdict][]int{}
	for _, j := range order {
		sides[vs[j]] = append(sides[vs[j]], j)
	}
	if len(sides) == 1 {
		if len(vs) == 1 {
			return names[0] + " " + verb3(vs[0])
		}
		return "every policy agrees: " + vs[0].String()
	}
	// The largest side is summed up, the others named; of two sides as
	// large, the one that holds today's rule, else the first of
	// reject, allow, invalid.
	var big engine.Verdict
	best := -1
	for _, v := range []engine.Verdict{engine.Reject, engine.Allow, engine.Invalid} {
		score := len(sides[v]) * 2
		if count(sides[v], today) > 0 {
			score++
		}
		if len(sides[v]) > 0 && score > best {
			big, best = v, score
		}
	}
	if len(sides) == 2 && len(sides[big]) == len(vs)-1 && len(vs) >= 3 {
		for _, v := range sayOrder {
			if v != big && len(sides[v]) == 1 {
				j := sides[v][0]
				return fmt.Sprintf("only %s dissents: it %s, the other %d %s",
					named(names[j], today[j]), verb3(v), len(vs)-1, verb(big))
			}
		}
	}
	// A side summed up comes last: "the other 12" reads after the
	// names.
	sum := len(sides[big]) > 3
	var parts []string
	for _, v := range sayOrder {
		if len(sides[v]) > 0 && !(sum && v == big) {
			parts = append(parts, by(v)+" "+who(sides[v], names, today, false))
		}
	}
	if sum {
		parts = append(parts, by(big)+" "+who(sides[big], names, today, true))
	}
	return strings.Join(parts, "; ")
}

// count is how many of the policies js are marked in today.
func count(js []int, today []bool) int {
	n := 0
	for _, j := range js {
		if today[j] {
			n++
		}
	}
	return n
}

// named is a policy's name, marked when it is today's rule.
func named(name string, today bool) string {
	if today {
		return name + " (today's rule)"
	}
	return name
}

// who names the policies js: today's rule as such when js holds every
// policy of today's rule, the others by name, or, summed up, by count.
func who(js []int, names []string, today []bool, sum bool) string {
	all := 0
	for _, t := range today {
		if t {
			all++
		}
	}
	var ts, others []string
	for _, j := range js {
		if today[j] {
			ts = append(ts, names[j])
		} else {
			others = append(others, names[j])
		}
	}
	var todayPart string
	switch {
	case len(ts) == 0:
	case len(ts) == all:
		todayPart = "today's rule"
	default:
		// Some of today's rule: each marked, and named first, so that
		// the mark reads as the name's alone.
		for k := range ts {
			ts[k] += " (today's rule)"
		}
		todayPart = strings.Join(ts, ", ")
		if !sum && len(others) > 0 {
			return todayPart + ", " + strings.Join(others, ", ")
		}
	}
	var rest string
	switch {
	case len(others) == 0:
	case sum && todayPart == "":
		rest = fmt.Sprintf("the other %d", len(others))
	case sum:
		rest = plural.Of(len(others), "other", "others")
	default:
		rest = strings.Join(others, ", ")
	}
	switch {
	case todayPart == "":
		return rest
	case rest == "":
		return todayPart
	case sum:
		return todayPart + " and " + rest
	}
	return rest + " and " + todayPart
}

// by is how a description introduces the policies that give v.
func by(v engine.Verdict) string {
	switch v {
	case engine.Allow:
		return "admitted by"
	case engine.Reject:
		return "rejected by"
	}
	return "invalid for"
}

// verb is v said of several policies.
func verb(v engine.Verdict) string {
	switch v {
	case engine.Allow:
		return "allow"
	case engine.Reject:
		return "reject"
	}
	return "cannot judge them"
}

// verb3 is v said of one policy.
func verb3(v engine.Verdict) string {
	switch v {
	case engine.Allow:
		return "allows"
	case engine.Reject:
		return "rejects"
	}
	return "cannot judge them"
}
