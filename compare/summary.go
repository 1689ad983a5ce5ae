package compare

import (
	"cmp"
	"slices"
	"strings"

	"github.com/prerel/prerel/engine"
)

// DefaultReference is the policy a report compares the others with when
// Options.Reference is empty and the run has it: the rule Terraform and
// OpenTofu apply today to module versions (a prerelease only on an exact
// pin), which is also their rule for the other constraints the domains
// hold. A run without it takes its first policy.
const DefaultReference = "terraform-module"

// summaryWitnesses is how many witnesses a SummaryRow keeps.
const summaryWitnesses = 3

// SummaryRow compares one policy, or several that agree on every case,
// with the reference.
type SummaryRow struct {
	// Policies agree with each other on every case, in run order.
	Policies []string `json:"policies"`
	// Agree and Diverge count the cases where they agree with the
	// reference and those where they do not.
	Agree   int64 `json:"agree"`
	Diverge int64 `json:"diverge"`
	// Relation is "=" when they agree on every case, "⊆" when they admit
	// a subset of what the reference admits on this domain, "⊇" a
	// superset, and "" when each admits something the other does not or
	// they differ only in what they refuse.
	Relation string `json:"relation"`
	// AdmitsMore counts the cases they allow and the reference does not;
	// AdmitsFewer the cases the reference allows and they do not.
	AdmitsMore  int64 `json:"admits_more"`
	AdmitsFewer int64 `json:"admits_fewer"`
	// Refuses counts the cases they answer Invalid and the reference does
	// not; Reads the cases the reference answers Invalid and they do not.
	Refuses int64 `json:"refuses"`
	Reads   int64 `json:"reads"`
	// Witnesses are up to three cases of what they do
	// differently, from the first classes of the pair in Rank order, one
	// per description.
	Witnesses []SummaryWitness `json:"witnesses,omitempty"`
}

// SummaryWitness is one case where a summary row's policies and the
// reference differ.
type SummaryWitness struct {
	Constraint string `json:"constraint"`
	Version    string `json:"version"`
	// Verdict is the row's; ReferenceVerdict the reference's.
	Verdict          engine.Verdict `json:"verdict"`
	ReferenceVerdict engine.Verdict `json:"reference_verdict"`
	// What says in words what the row's policies do with the case:
	// "admits a prerelease of the next major".
	What string `json:"what"`
	// Signature, Cause, Count and Relevance are those of the case's class.
	Signature string     `json:"signature"`
	Cause     Cause      `json:"cause"`
	Count     int64      `json:"count"`
	Relevance *Relevance `json:"relevance,omitempty"`
}

// Split is a case shape that splits the policies: the cases of one shape
// on which the same policies allow, the same reject and the same refuse.
type Split struct {
	// Shape is the case part of a signature (see Class).
	Shape   string   `json:"shape"`
	Allow   []string `json:"allow"`
	Reject  []string `json:"reject"`
	Invalid []string `json:"invalid,omitempty"`
	Count   int64    `json:"count"`
	// Witness is the smallest case of the split.
	Witness SplitWitness `json:"witness"`
	// Relevance is how common the witness's constraint shape is among
	// real constraints.
	Relevance *Relevance `json:"relevance,omitempty"`
}

// SplitWitness is the smallest case of a split.
type SplitWitness struct {
	Constraint string `json:"constraint"`
	Version    string `json:"version"`
}

// referenceOf is the reference of a run: ref when given, else
// DefaultReference when the run has it, else the first policy.
func referenceOf(ref string, names []string) string {
	if ref != "" {
		return ref
	}
	if slices.Contains(names, DefaultReference) {
		return DefaultReference
	}
	return names[0]
}

// identicalGroups partitions the policies into groups that agree on every
// case, each group in run order, the groups in the order of their first
// policy.
func identicalGroups(r *Report) [][]string {
	group := map[string]int{}
	var groups [][]string
	same := map[[2]string]bool{}
	for _, p := range r.Pairs {
		if p.Diverge == 0 {
			same[[2]string{p.A, p.B}] = true
		}
	}
	for _, name := range r.Policies {
		found := -1
		for i, g := range groups {
			if same[[2]string{g[0], name}] {
				found = i
				break
			}
		}
		if found < 0 {
			found = len(groups)
			groups = append(groups, nil)
		}
		groups[found] = append(groups[found], name)
		group[name] = found
	}
	return groups
}

// buildSummary compares every group of identical policies with the
// reference. byName gives the policies, to tell a refused constraint from
// a refused version.
func buildSummary(r *Report, byName map[string]engine.Policy) []SummaryRow {
	ref := r.Reference
	var rows []SummaryRow
	byPair := newPairClasses(r)
	for _, g := range identicalGroups(r) {
		if slices.Contains(g, ref) {
			if len(g) > 1 {
				rest := slices.DeleteFunc(slices.Clone(g), func(n string) bool { return n == ref })
				rows = append(rows, SummaryRow{Policies: rest, Agree: r.Domain.Cases, Relation: "="})
			}
			continue
		}
		rows = append(rows, summaryRow(r, byPair, g, byName))
	}
	slices.SortStableFunc(rows, func(x, y SummaryRow) int {
		return cmp.Or(cmp.Compare(x.Diverge, y.Diverge), strings.Compare(x.Policies[0], y.Policies[0]))
	})
	return rows
}

// summaryRow compares the group g (its first policy stands for it) with
// the reference.
func summaryRow(r *Report, byPair pairClasses, g []string, byName map[string]engine.Policy) SummaryRow {
	name, ref := g[0], r.Reference
	row := SummaryRow{Policies: g}
	if p, ok := r.PairOf(name, ref); ok {
		row.Agree, row.Diverge = p.Agree, p.Diverge
	}
	classes := byPair.of(name, ref)
	for _, c := range classes {
		mine, theirs := sides(c, name)
		switch {
		case mine == engine.Allow:
			row.AdmitsMore += c.Count
		case theirs == engine.Allow:
			row.AdmitsFewer += c.Count
		}
		switch {
		case mine == engine.Invalid:
			row.Refuses += c.Count
		case theirs == engine.Invalid:
			row.Reads += c.Count
		}
	}
	// The first witness is the first class the prerelease rule decides,
	// the rest the first classes of any cause, one per description.
	seen := map[string]bool{}
	add := func(c Class) {
		mine, theirs := sides(c, name)
		what := whatDiffers(byName[name], c.Witness.Constraint, c.Witness.Version, mine, theirs)
		key := strings.TrimSuffix(strings.TrimSuffix(what, " (+build)"), " (v-prefixed)")
		if seen[key] || len(row.Witnesses) == summaryWitnesses {
			return
		}
		seen[key] = true
		row.Witnesses = append(row.Witnesses, SummaryWitness{
			Constraint: c.Witness.Constraint, Version: c.Witness.Version,
			Verdict: mine, ReferenceVerdict: theirs, What: what,
			Signature: c.Signature, Cause: c.Cause, Count: c.Count, Relevance: c.Relevance,
		})
	}
	for _, c := range classes {
		if c.Cause == CausePrerelease {
			add(c)
			break
		}
	}
	for _, c := range classes {
		if len(row.Witnesses) == summaryWitnesses {
			break // full: no other class is described
		}
		add(c)
	}
	switch {
	case row.Diverge == 0:
		row.Relation = "="
	case row.AdmitsMore == 0 && row.AdmitsFewer > 0:
		row.Relation = "⊆"
	case row.AdmitsFewer == 0 && row.AdmitsMore > 0:
		row.Relation = "⊇"
	}
	return row
}

// sides returns the verdicts of a class's witness: the policy name's
// first, the other side's second.
func sides(c Class, name string) (mine, theirs engine.Verdict) {
	if c.A == name {
		return c.Witness.AVerdict, c.Witness.BVerdict
	}
	return c.Witness.BVerdict, c.Witness.AVerdict
}

// buildSplits turns the aggregated splits into Splits in rank order, and
// counts the cases of the splits the aggregate had no room for.
func buildSplits(names []string, agg *aggregate, table *relevanceMemo, rank Rank) ([]Split, int64) {
	out := make([]Split, 0, agg.splits.len())
	// The lists of names of one verdict vector, made once: many splits
	// share a vector, and share its lists, which no one changes. The
	// joined lists order the sort.
	type nameLists struct {
		allow, reject, invalid []string
		allowKey, rejectKey    string
	}
	lists := map[string]*nameLists{}
	listsOf := make([]*nameLists, 0, agg.splits.len())
	var kept int64
	agg.splits.each(func(k splitKey, s *splitAgg) {
		kept += s.count
		l := lists[k.verdicts]
		if l == nil {
			l = &nameLists{}
			l.allow, l.reject, l.invalid = splitNames(names, k.verdicts)
			l.allowKey, l.rejectKey = strings.Join(l.allow, ","), strings.Join(l.reject, ",")
			lists[k.verdicts] = l
		}
		out = append(out, Split{Shape: k.shape, Count: s.count,
			Witness:   SplitWitness{Constraint: s.key.constraint, Version: s.key.version},
			Relevance: table.Of(s.key.constraint),
			Allow:     l.allow, Reject: l.reject, Invalid: l.invalid})
		listsOf = append(listsOf, l)
	})
	type sortable struct {
		split         *Split
		allow, reject string
	}
	keys := make([]sortable, len(out))
	for i := range out {
		keys[i] = sortable{&out[i], listsOf[i].allowKey, listsOf[i].rejectKey}
	}
	slices.SortFunc(keys, func(x, y sortable) int {
		return cmp.Or(relevanceOrder(x.split.Relevance, x.split.Count, y.split.Relevance, y.split.Count, rank == RankCount),
			strings.Compare(x.split.Shape, y.split.Shape),
			strings.Compare(x.allow, y.allow),
			strings.Compare(x.reject, y.reject))
	})
	sorted := make([]Split, len(out))
	for i, k := range keys {
		sorted[i] = *k.split
	}
	return sorted, agg.splitCases - kept
}

// splitNames lists the names of the policies that allow, reject and find
// invalid the cases of a split with verdicts (one byte per policy), in
// one array: allow and reject are never nil, invalid is nil when empty.
func splitNames(names []string, verdicts string) (allow, reject, invalid []string) {
	n := min(len(verdicts), len(names))
	var na, nr int
	for i := range n {
		switch engine.Verdict(verdicts[i]) {
		case engine.Allow:
			na++
		case engine.Reject:
			nr++
		}
	}
	all := make([]string, n)
	allow, reject, invalid = all[:0:na], all[na:na:na+nr], all[na+nr:na+nr]
	for i := range n {
		switch engine.Verdict(verdicts[i]) {
		case engine.Allow:
			allow = append(allow, names[i])
		case engine.Reject:
			reject = append(reject, names[i])
		default:
			invalid = append(invalid, names[i])
		}
	}
	if len(invalid) == 0 {
		invalid = nil
	}
	return allow, reject, invalid
}

// whatDiffers says in words what a policy that gave mine (where the
// reference gave theirs) does with the case: "admits a prerelease of the
// next major", "refuses the constraint".
func whatDiffers(p engine.Policy, constraint, version string, mine, theirs engine.Verdict) string {
	switch {
	case mine == engine.Invalid:
		if p != nil {
			if _, err := p.Compile(constraint); err != nil {
				return "refuses the constraint"
			}
		}
		return "refuses the version"
	case theirs == engine.Invalid:
		return mine.String() + "s what the reference refuses"
	case mine == engine.Allow:
		return "admits " + describeCase(constraint, version)
	}
	return "rejects " + describeCase(constraint, version)
}

// describeCase says in words what the version of a case is to its
// constraint, as the engine reads both: "a prerelease of the next major"
// ("~> 1.2" with 2.0.0-beta.1), "a prerelease inside the range", "a
// release outside the range", with " (+build)" or " (v-prefixed)" when
// the version is written with build metadata or a "v". For a prerelease
// it names the first thing that applies: being one of the release a "~>"
// stops below, of an upper bound's release, of a release named with a
// prerelease, or of a lower bound's or pin's release; then whether its
// release lies inside the range by SemVer precedence alone.
func describeCase(constraint, version string) string {
	c, cerr := engine.ParseConstraint(constraint)
	v, verr := engine.ParseVersion(version)
	if cerr != nil || verr != nil {
		return "text the engine cannot read"
	}
	if !v.IsPrerelease() {
		if c.Holds(v) {
			return "a release inside the range" + writtenAs(v)
		}
		return "a release outside the range" + writtenAs(v)
	}
	return describePrerelease(c, v) + writtenAs(v)
}

// writtenAs says how a version is written when that may matter: with
// build metadata or a "v".
func writtenAs(v engine.Version) string {
	switch {
	case v.Build() != "":
		return " (+build)"
	case hasVPrefix(v):
		return " (v-prefixed)"
	}
	return ""
}

// describePrerelease is describeCase for a prerelease.
func describePrerelease(c engine.Constraint, v engine.Version) string {
	core := v.Core()
	for _, k := range c.Comparators() {
		if u, ok := k.Upper(); ok && core.Equal(u) {
			if u.Major() > k.Version.Major() {
				return "a prerelease of the next major"
			}
			return "a prerelease of the next minor"
		}
	}
	for _, k := range c.Comparators() {
		if !k.Version.SameCore(v) {
			continue
		}
		switch {
		case k.NamesPrerelease():
			switch d := v.Compare(k.Version); {
			case d > 0:
				return "a later prerelease of a named prerelease's release"
			case d < 0:
				return "an earlier prerelease of a named prerelease's release"
			}
			return "the named prerelease"
		case k.Op == engine.OpLess || k.Op == engine.OpLessEqual:
			return "a prerelease of the upper bound's release"
		case k.Op == engine.OpEqual:
			return "a prerelease of the pinned release"
		case k.Op == engine.OpNotEqual:
			return "a prerelease of an excluded release"
		default:
			return "a prerelease of the lower bound's release"
		}
	}
	if c.Holds(core) {
		return "a prerelease inside the range"
	}
	return "a prerelease outside the range"
}
