package resolve

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/prerel/prerel/engine"
)

// NoMatch says why an item's chosen policy selects no version, and what
// would install the versions the user likely wants: the policies that
// select them for the constraint as written, and the small edits of the
// constraint under which the chosen policy selects them. Every edit is
// verified by running the chosen policy (engine.Select) over the listed
// versions; none is guessed.
type NoMatch struct {
	// Why says in words which comparator refuses the newest versions and
	// by which rule: a prerelease no comparator names, a prerelease of
	// another release, a version outside the range.
	Why string `json:"why"`
	// Rule is the chosen policy's rule in one line (engine.Policy.Rule).
	Rule string `json:"rule,omitempty"`
	// Wanted are the versions the user likely wants, as listed: the
	// newest prerelease above what today's Terraform selects (one whose
	// release is within the constraint first), then the newest release
	// (within the constraint if one is). Why is about the first.
	Wanted []string `json:"wanted"`
	// Policies maps each registered policy that selects one of Wanted for
	// the constraint as written to the version it selects.
	Policies map[string]string `json:"policies"`
	// Constraints are the edits under which the chosen policy selects one
	// of Wanted, smallest first: one comparator replaced or dropped, then
	// a constraint of its own ("~> 2.0.0-beta.1", ">= 2.0.0-beta.1, <
	// 3.0.0"), an exact pin only when nothing else does.
	Constraints []Edit `json:"constraints"`
	// DidYouMean are the near misses corrected: a comparator naming a
	// prerelease spelled otherwise than the one listed ("6.0.0-beta3"
	// for 6.0.0-beta.3), or a "v" prefix the chosen policy refuses, each
	// with what the chosen policy then selects.
	DidYouMean []Edit `json:"did_you_mean,omitempty"`

	order []string // the names of Policies in registration order
}

// Edit is a constraint under which the chosen policy selects a version.
type Edit struct {
	// Constraint is the new constraint; for a provider, the new
	// constraint of Module's requirement, the others kept.
	Constraint string `json:"constraint"`
	// Module is, for a provider, the module whose requirement the edit
	// replaces (RootModule or "module.eks").
	Module string `json:"module,omitempty"`
	// Selects is what the chosen policy selects with the edit, as listed.
	Selects string `json:"selects"`
	// Note says what a near miss corrects: `6.0.0-beta.3 is listed, not
	// 6.0.0-beta3`.
	Note string `json:"note,omitempty"`
}

// PolicyNames returns the names of Policies in the registry's order (for
// a NoMatch read from JSON, in name order).
func (n *NoMatch) PolicyNames() []string {
	if n.order != nil || len(n.Policies) == 0 {
		return n.order
	}
	names := make([]string, 0, len(n.Policies))
	for p := range n.Policies {
		names = append(names, p)
	}
	slices.Sort(names)
	return names
}

// The bounds of the work for one item.
const (
	// maxEditComparators is how many comparators of one requirement are
	// replaced or dropped one at a time.
	maxEditComparators = 8
	// maxEditRequirements is how many requirements of a provider are
	// edited.
	maxEditRequirements = 3
	// maxVerify is how many candidate constraints are run through the
	// chosen policy.
	maxVerify = 40
	// maxReason bounds a policy's reason quoted in Why.
	maxReason = 240
)

// listedVersion is a listed version the engine reads, and its text.
type listedVersion struct {
	text string
	v    engine.Version
}

// noMatch explains why the chosen policy selects no version for the
// item and what would: all are the registered policies, each run once
// over the listed versions (those the item shows are not run again).
func (it *Item) noMatch(chosen engine.Policy, all []engine.Policy) *NoMatch {
	n := &NoMatch{Wanted: []string{}, Policies: map[string]string{}, Constraints: []Edit{}, order: []string{}}
	if chosen != nil {
		n.Rule = chosen.Rule()
	}
	var vs []listedVersion
	for _, s := range it.listed {
		if v, err := engine.ParseVersion(s); err == nil {
			vs = append(vs, listedVersion{s, v})
		}
	}
	c, err := engine.ParseConstraint(it.Constraint)
	cOK := err == nil
	wanted := it.wantedVersions(vs, c, cOK)
	for _, w := range wanted {
		n.Wanted = append(n.Wanted, w.text)
	}
	n.Why = it.whyNoMatch(chosen, vs, c, cOK, wanted)
	if chosen == nil {
		return n
	}
	// The policies that select a wanted version as written.
	for _, p := range all {
		name := p.Name()
		if name == chosen.Name() {
			continue
		}
		var sel string
		if v, shown := it.ByPolicy[name]; shown {
			if v != nil {
				sel = *v
			}
		} else if s, err := engine.Select(p, it.Constraint, it.listed); err == nil && s.Found {
			sel = s.Version
		}
		if sel != "" && slices.Contains(n.Wanted, sel) {
			n.Policies[name] = sel
			n.order = append(n.order, name)
		}
	}
	e := editor{it: it, chosen: chosen, budget: maxVerify, ran: map[string]*ranEdit{}, shown: map[string]bool{}}
	n.DidYouMean = e.nearMisses(vs)
	for _, w := range wanted {
		n.Constraints = append(n.Constraints, e.edits(w)...)
	}
	return n
}

// wantedVersions are the versions the user likely wants (see
// NoMatch.Wanted).
func (it *Item) wantedVersions(vs []listedVersion, c engine.Constraint, cOK bool) []listedVersion {
	var installable *engine.Version
	if s := it.ByPolicy[it.TerraformPolicy]; s != nil {
		if v, err := engine.ParseVersion(*s); err == nil {
			installable = &v
		}
	}
	var near, pre, rel, relIn *listedVersion
	newer := func(best *listedVersion, v engine.Version) bool { return best == nil || best.v.Less(v) }
	for i := range vs {
		lv := &vs[i]
		if !lv.v.IsPrerelease() {
			if newer(rel, lv.v) {
				rel = lv
			}
			if cOK && c.Holds(lv.v) && newer(relIn, lv.v) {
				relIn = lv
			}
			continue
		}
		if installable != nil && !installable.Less(lv.v) {
			continue
		}
		if cOK && (c.Holds(lv.v) || c.Holds(lv.v.Core())) && newer(near, lv.v) {
			near = lv
		}
		if newer(pre, lv.v) {
			pre = lv
		}
	}
	if near == nil && pre != nil && (rel == nil || rel.v.Less(pre.v)) {
		// No prerelease near the constraint: the newest, when it is newer
		// than every release.
		near = pre
	}
	var out []listedVersion
	if near != nil {
		out = append(out, *near)
	}
	r := relIn
	if r == nil {
		r = rel
	}
	if r != nil && (relIn != nil || near == nil || near.v.Less(r.v)) {
		out = append(out, *r)
	}
	return out
}

// label names what a wanted version is among the listed ones: "the
// newest version", "the newest prerelease", "the newest release", or "".
func label(w listedVersion, vs []listedVersion) string {
	newest, newestOfKind := true, true
	for _, lv := range vs {
		if w.v.Less(lv.v) {
			newest = false
			if lv.v.IsPrerelease() == w.v.IsPrerelease() {
				newestOfKind = false
			}
		}
	}
	switch {
	case newest:
		return "the newest version"
	case !newestOfKind:
		return ""
	case w.v.IsPrerelease():
		return "the newest prerelease"
	default:
		return "the newest release"
	}
}

// whyNoMatch is NoMatch.Why.
func (it *Item) whyNoMatch(chosen engine.Policy, vs []listedVersion, c engine.Constraint, cOK bool, wanted []listedVersion) string {
	if reason := it.Refused[it.Policy]; reason != "" {
		return fmt.Sprintf("%s refuses %q: %s", it.Policy, it.Constraint, clipReason(reason))
	}
	switch {
	case len(wanted) > 0:
	case it.Available == 0:
		return "the registry lists no versions"
	default:
		return fmt.Sprintf("none of the %d listed versions can be read", it.Available)
	}
	w := wanted[0]
	head := it.Policy + " refuses " + w.text
	if l := label(w, vs); l != "" {
		head += ", " + l
	}
	var facts []string
	var pred string // how w fails a comparator by precedence
	if cOK {
		facts, pred = it.facts(c, w)
	}
	if chosen != nil && len(facts) == 0 {
		// Nothing the constraint says of w by precedence: the policy's
		// own reason.
		if r := engine.Evaluate(chosen, it.Constraint, w.text); r.Verdict != engine.Allow {
			facts = append(facts, clipReason(r.Reason))
		} else {
			facts = append(facts, fmt.Sprintf("%s admits it alone but selects no version from the list", it.Policy))
		}
	}
	s := head + ": " + strings.Join(facts, ", and ")
	if !w.v.IsPrerelease() || !cOK {
		return s
	}
	var rel *listedVersion
	for i := range vs {
		if !vs[i].v.IsPrerelease() && (rel == nil || rel.v.Less(vs[i].v)) {
			rel = &vs[i]
		}
	}
	switch {
	case rel == nil:
		s += "; no release is listed"
	case slices.ContainsFunc(wanted, func(x listedVersion) bool { return x.text == rel.text }):
	default:
		if i := c.FirstFailure(&rel.v); i >= 0 {
			if p := it.failure(c.Comparators()[i], rel.v); p == pred {
				s += "; so does the newest release, " + rel.text
			} else {
				s += "; the newest release, " + rel.text + ", " + p
			}
		}
	}
	return s
}

// clipReason shortens a policy's reason to about maxReason bytes, its
// start and its end, where a library's reason often says what it
// refused.
func clipReason(s string) string {
	if len(s) <= maxReason {
		return s
	}
	head, tail := maxReason/2, len(s)-maxReason/2
	for head > 0 && !utf8.RuneStart(s[head]) {
		head--
	}
	for tail < len(s) && !utf8.RuneStart(s[tail]) {
		tail++
	}
	return s[:head] + " … " + s[tail:]
}

// facts say how the constraint refuses w: for a prerelease, when no
// comparator names a prerelease, or only one of another release; then
// the first comparator it fails by precedence, or for a prerelease
// within it, the first its release fails. pred is the failure by
// precedence, as failure words it, "" for none.
func (it *Item) facts(c engine.Constraint, w listedVersion) (facts []string, pred string) {
	cs := c.Comparators()
	if w.v.IsPrerelease() {
		var named []engine.Comparator
		same := false
		for _, k := range cs {
			if k.Op != engine.OpNotEqual && k.NamesPrerelease() {
				named = append(named, k)
				same = same || k.Version.SameCore(w.v)
			}
		}
		switch {
		case len(cs) == 0:
			facts = append(facts, "no constraint is written, so none names a prerelease")
		case len(named) == 0 && len(cs) == 1:
			facts = append(facts, it.comparatorText(cs[0])+" names no prerelease")
		case len(named) == 0:
			facts = append(facts, fmt.Sprintf("no comparator of %q names a prerelease", it.Constraint))
		case !same:
			facts = append(facts, fmt.Sprintf("%s names a prerelease of %s, not of %s", it.comparatorText(named[0]), plain(named[0].Version.Core()), plain(w.v.Core())))
		}
	}
	if i := c.FirstFailure(&w.v); i >= 0 {
		pred = it.failure(cs[i], w.v)
		facts = append(facts, w.text+" "+pred)
	} else if w.v.IsPrerelease() {
		// A range comparator that names no prerelease refuses its
		// release: the rule of policies that judge a prerelease by its
		// release (ga-bound).
		g := w.v.Core()
		if i := c.FirstFailure(&g); i >= 0 && cs[i].Op != engine.OpEqual && cs[i].Op != engine.OpNotEqual && !cs[i].NamesPrerelease() {
			facts = append(facts, "its release "+plain(g)+" "+it.failure(cs[i], g))
		}
	}
	return facts, pred
}

// failure says how v fails the comparator k by precedence, after v:
// `sorts below 2.0.0, where "~> 2.0" starts`.
func (it *Item) failure(k engine.Comparator, v engine.Version) string {
	q := it.comparatorText(k)
	bound := plain(k.Version)
	switch k.Op {
	case engine.OpEqual:
		return fmt.Sprintf("is not %s, which %s admits alone", bound, q)
	case engine.OpNotEqual:
		return "is excluded by " + q
	case engine.OpGreater:
		return fmt.Sprintf("is not above %s, where %s starts", bound, q)
	case engine.OpGreaterEqual:
		return fmt.Sprintf("sorts below %s, where %s starts", bound, q)
	case engine.OpLess:
		return fmt.Sprintf("is not below %s, where %s ends", bound, q)
	case engine.OpLessEqual:
		return fmt.Sprintf("is above %s, where %s ends", bound, q)
	case engine.OpPessimistic:
		if v.Less(k.Version) {
			return fmt.Sprintf("sorts below %s, where %s starts", bound, q)
		}
		if u, ok := k.Upper(); ok {
			return fmt.Sprintf("is not below %s, where %s ends", plain(u), q)
		}
	}
	return "is outside " + q
}

// comparatorText quotes a comparator, with the module that writes it
// for a provider several modules require: `"< 6.0" (module.eks)`.
func (it *Item) comparatorText(k engine.Comparator) string {
	q := fmt.Sprintf("%q", k.String())
	if it.Kind != KindProvider || len(it.Requirements) < 2 {
		return q
	}
	for _, r := range it.Requirements {
		c, err := engine.ParseConstraint(r.Constraint)
		if err != nil {
			continue
		}
		for _, x := range c.Comparators() {
			if x.String() == k.String() {
				return q + " (" + r.Module + ")"
			}
		}
	}
	return q
}

// plain writes v as a constraint names it: MAJOR.MINOR.PATCH and the
// prerelease, without a "v" or build metadata.
func plain(v engine.Version) string {
	s := fmt.Sprintf("%d.%d.%d", v.Major(), v.Minor(), v.Patch())
	if p := v.Prerelease(); p != "" {
		s += "-" + p
	}
	return s
}

// atPrecision writes the release of v with p numeric parts: "1.5" for
// 1.5.0 and 2.
func atPrecision(v engine.Version, p int) string {
	switch {
	case p <= 1:
		return fmt.Sprintf("%d", v.Major())
	case p == 2:
		return fmt.Sprintf("%d.%d", v.Major(), v.Minor())
	}
	return fmt.Sprintf("%d.%d.%d", v.Major(), v.Minor(), v.Patch())
}

// nextMajor is the release after v's major, "3.0.0" for 2.0.0-beta.1;
// false when it would overflow.
func nextMajor(v engine.Version) (string, bool) {
	if v.Major() == math.MaxUint64 {
		return "", false
	}
	return fmt.Sprintf("%d.0.0", v.Major()+1), true
}

// editor makes and verifies the candidate edits of an item's constraint.
type editor struct {
	it     *Item
	chosen engine.Policy
	budget int                 // candidates left to run
	ran    map[string]*ranEdit // by target and canonical constraint
	shown  map[string]bool     // the keys of the edits kept
}

// ranEdit is what the chosen policy selected with a candidate; ok is
// false when it refused the candidate.
type ranEdit struct {
	sel engine.Selection
	ok  bool
}

// target is one requirement an edit may replace: for a module call its
// constraint, for a provider one module's requirement.
type target struct {
	index int // in Requirements; -1 for a module call's constraint
	text  string
}

// targets are the requirements worth editing for w: a module call's
// constraint; for a provider, those with a comparator w or its release
// fails by precedence, else the root module's (else the first), at most
// maxEditRequirements.
func (e *editor) targets(w *listedVersion) []target {
	it := e.it
	if it.Kind != KindProvider {
		return []target{{-1, it.Constraint}}
	}
	var out, root []target
	for i, r := range it.Requirements {
		if r.Module == RootModule && root == nil {
			root = []target{{i, r.Constraint}}
		}
		if w == nil {
			continue
		}
		c, err := engine.ParseConstraint(r.Constraint)
		if err != nil {
			continue
		}
		g := w.v.Core()
		if c.FirstFailure(&w.v) >= 0 || c.FirstFailure(&g) >= 0 {
			out = append(out, target{i, r.Constraint})
		}
	}
	switch {
	case len(out) > 0:
	case root != nil:
		out = root
	case len(it.Requirements) > 0:
		out = []target{{0, it.Requirements[0].Constraint}}
	}
	if len(out) > maxEditRequirements {
		out = out[:maxEditRequirements]
	}
	return out
}

// full is the whole constraint with the target's text replaced by text.
func (e *editor) full(t target, text string) string {
	if t.index < 0 {
		return text
	}
	var parts []string
	for i, r := range e.it.Requirements {
		c := r.Constraint
		if i == t.index {
			c = text
		}
		if strings.TrimSpace(c) != "" {
			parts = append(parts, c)
		}
	}
	return strings.Join(parts, ", ")
}

// module is the module an edit of t is made in, for a provider.
func (e *editor) module(t target) string {
	if t.index < 0 {
		return ""
	}
	return e.it.Requirements[t.index].Module
}

// run runs the chosen policy with the target replaced by text, once per
// distinct constraint while the budget lasts; ok is false when the
// policy refuses it or selects none, when it is the constraint as
// written, when it was already kept as an edit, and once the budget is
// spent.
func (e *editor) run(t target, text string) (sel engine.Selection, key string, ok bool) {
	key = fmt.Sprintf("%d\x00%s", t.index, canonical(text))
	if e.shown[key] || canonical(text) == canonical(t.text) {
		return sel, key, false
	}
	r := e.ran[key]
	if r == nil {
		if e.budget <= 0 {
			return sel, key, false
		}
		e.budget--
		s, err := engine.Select(e.chosen, e.full(t, text), e.it.listed)
		r = &ranEdit{s, err == nil}
		e.ran[key] = r
	}
	return r.sel, key, r.ok && r.sel.Found
}

// keep records an edit as shown, so that it is not shown twice.
func (e *editor) keep(key string, edit Edit, out *[]Edit) {
	e.shown[key] = true
	*out = append(*out, edit)
}

// canonical is a constraint in the engine's canonical form, so that
// spellings of one constraint are run once; the text itself when the
// engine cannot read it.
func canonical(s string) string {
	if c, err := engine.ParseConstraint(s); err == nil {
		return c.String()
	}
	return strings.TrimSpace(s)
}

// split reads a requirement's comparators and their text as written;
// ok is false when the engine cannot read them or there are none.
func split(s string) (parts []string, cs []engine.Comparator, ok bool) {
	c, err := engine.ParseConstraint(s)
	if err != nil || c.Len() == 0 {
		return nil, nil, false
	}
	parts = strings.Split(s, ",")
	if len(parts) != c.Len() {
		return nil, nil, false
	}
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts, c.Comparators(), true
}

// replaced joins parts with part i replaced by r, or left out when r is
// "".
func replaced(parts []string, i int, r string) string {
	out := slices.Clone(parts)
	if r == "" {
		out = slices.Delete(out, i, i+1)
	} else {
		out[i] = r
	}
	return strings.Join(out, ", ")
}

// edits are the verified edits under which the chosen policy selects w.
func (e *editor) edits(w listedVersion) []Edit {
	var out []Edit
	pin := "= " + plain(w.v)
	for _, t := range e.targets(&w) {
		for _, cand := range candidates(t.text, w.v) {
			if sel, key, ok := e.run(t, cand); ok && sel.Version == w.text {
				e.keep(key, Edit{Constraint: cand, Module: e.module(t), Selects: sel.Version}, &out)
			}
		}
	}
	if len(out) > 0 {
		return out
	}
	// An exact pin, only when no range does it.
	for _, t := range e.targets(&w) {
		if sel, key, ok := e.run(t, pin); ok && sel.Version == w.text {
			e.keep(key, Edit{Constraint: pin, Module: e.module(t), Selects: sel.Version}, &out)
			return out
		}
	}
	return nil
}

// candidates are the edits of constraint s tried for w, smallest first:
// each comparator replaced by one that names w, each dropped, then
// "~> W" and ">= W, < NEXTMAJOR".
func candidates(s string, w engine.Version) []string {
	var out []string
	wt := plain(w)
	next, hasNext := nextMajor(w)
	if parts, cs, ok := split(s); ok {
		n := min(len(cs), maxEditComparators)
		for i, k := range cs[:n] {
			var r string
			switch k.Op {
			case engine.OpPessimistic:
				r = "~> " + wt
				if !w.IsPrerelease() {
					r = "~> " + atPrecision(w, k.Precision)
				}
			case engine.OpGreater, engine.OpGreaterEqual:
				r = ">= " + wt
			case engine.OpEqual:
				r = "= " + wt
				if k.Bare {
					r = wt
				}
			case engine.OpLess, engine.OpLessEqual:
				if hasNext {
					r = "< " + next
				}
			}
			if r != "" {
				out = append(out, replaced(parts, i, r))
			}
		}
		if len(cs) > 1 {
			for i := range cs[:n] {
				out = append(out, replaced(parts, i, ""))
			}
		}
	}
	if w.IsPrerelease() {
		out = append(out, "~> "+wt)
	} else {
		out = append(out, "~> "+atPrecision(w, 2))
	}
	if hasNext {
		out = append(out, ">= "+wt+", < "+next)
	}
	return out
}

// nearMisses are the did-you-mean edits: a comparator whose prerelease is
// spelled otherwise than a listed one of the same release, respelled; a
// requirement with "v" prefixes, without them; each kept when the chosen
// policy then selects a version.
func (e *editor) nearMisses(vs []listedVersion) []Edit {
	var out []Edit
	try := func(t target, text, note string) {
		if sel, key, ok := e.run(t, text); ok {
			e.keep(key, Edit{Constraint: text, Module: e.module(t), Selects: sel.Version, Note: note}, &out)
		}
	}
	ts := e.targets(nil)
	if e.it.Kind == KindProvider {
		ts = nil
		for i, r := range e.it.Requirements {
			ts = append(ts, target{i, r.Constraint})
		}
	}
	for _, t := range ts {
		parts, cs, ok := split(t.text)
		if !ok {
			continue
		}
		cs = cs[:min(len(cs), maxEditComparators)]
		for i, k := range cs {
			if !k.NamesPrerelease() || slices.ContainsFunc(vs, func(lv listedVersion) bool { return lv.v.Equal(k.Version) }) {
				continue
			}
			for _, lv := range vs {
				if lv.v.IsPrerelease() && lv.v.SameCore(k.Version) && lv.v.Prerelease() != k.Version.Prerelease() &&
					loosePrerelease(lv.v.Prerelease()) == loosePrerelease(k.Version.Prerelease()) {
					r := plain(lv.v)
					if !k.Bare {
						r = k.Op.String() + " " + r
					}
					try(t, replaced(parts, i, r), fmt.Sprintf("%s is listed, not %s", lv.text, plain(k.Version)))
					break
				}
			}
		}
		vParts := slices.Clone(parts)
		prefixed := false
		for i, k := range cs {
			if strings.HasPrefix(k.Version.String(), "v") {
				vParts[i] = strings.Replace(k.String(), "v", "", 1)
				prefixed = true
			}
		}
		if prefixed {
			try(t, strings.Join(vParts, ", "), `without the "v" prefix`)
		}
	}
	return out
}

// loosePrerelease is a prerelease without the separators and case that
// people spell differently: "beta3", "beta.3", "Beta-3" read alike.
func loosePrerelease(p string) string {
	return strings.ToLower(strings.NewReplacer(".", "", "-", "").Replace(p))
}
