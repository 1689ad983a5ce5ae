package compare

import (
	"strings"

	"github.com/prerel/prerel/engine"
)

// selectionAgg counts, for one pair, the groups where the two policies
// would install the same thing, and keeps the smallest diverging group.
type selectionAgg struct {
	agree, diverge int64
	witness        *selectionCandidate
}

type selectionCandidate struct {
	key     selectionKey
	a, b    string
	history string
}

// selectionKey orders diverging groups: fewest comparators, then the
// smallest numbers, then the shortest constraint, then byte order of the
// constraint and of the history name.
type selectionKey struct {
	comps      int
	nums       uint64
	length     int
	constraint string
	history    string
}

func (k selectionKey) less(o selectionKey) bool {
	if k.comps != o.comps {
		return k.comps < o.comps
	}
	if k.nums != o.nums {
		return k.nums < o.nums
	}
	if k.length != o.length {
		return k.length < o.length
	}
	if c := strings.Compare(k.constraint, o.constraint); c != 0 {
		return c < 0
	}
	return k.history < o.history
}

func (s *selectionAgg) offer(c *selectionCandidate) {
	if s.witness == nil || c.key.less(s.witness.key) {
		s.witness = c
	}
}

func (s *selectionAgg) merge(o *selectionAgg) {
	s.agree += o.agree
	s.diverge += o.diverge
	if o.witness != nil {
		s.offer(o.witness)
	}
}

// aggregateSelection works out what each policy would install from the
// group's versions and compares the picks pair by pair. A policy that
// implements engine.Selector decides itself (engine.Select); for the others
// the verdicts already judged are replayed through engine.SelectNewest, so
// that the versions are not judged twice.
func (w *worker) aggregateSelection(ci *constraintInfo, g Group) {
	a := w.agg
	if a.selection == nil {
		a.selection = make([]selectionAgg, len(w.pairs))
	}
	a.selGroups++
	picks := make([]string, len(w.policies))
	for p, pol := range w.policies {
		w.policy, w.version = p, ""
		picks[p] = w.pick(p, pol, g)
	}
	var key *selectionKey
	for k, pr := range w.pairs {
		pa, pb := picks[pr[0]], picks[pr[1]]
		if pa == pb {
			a.selection[k].agree++
			continue
		}
		a.selection[k].diverge++
		if key == nil {
			key = &selectionKey{comps: ci.comps, nums: ci.nums, length: len(ci.text), constraint: ci.text, history: g.History}
		}
		a.selection[k].offer(&selectionCandidate{key: *key, a: pa, b: pb, history: g.History})
	}
}

// pick is what policy p would install from the group's versions, as a
// selection witness shows it.
func (w *worker) pick(p int, pol engine.Policy, g Group) string {
	var sel engine.Selection
	if s, ok := pol.(engine.Selector); ok {
		var err error
		sel, err = s.Select(g.Constraint, g.Versions)
		if err != nil {
			return InvalidSelected
		}
	} else {
		if w.errs[p] != nil {
			return InvalidSelected
		}
		sel = engine.SelectNewest(&replayMatcher{results: w.results[p], versions: g.Versions, m: w.matchers[p]}, g.Versions)
	}
	if !sel.Found {
		return NoneSelected
	}
	return sel.Version
}

// replayMatcher answers engine.SelectNewest with the results already
// judged for the same versions, in order; should it be asked about another
// version, it judges that one with the policy's matcher.
type replayMatcher struct {
	results  []engine.Result
	versions []string
	next     int
	m        engine.Matcher
}

func (r *replayMatcher) Match(version string) engine.Result {
	i := r.next
	r.next++
	if i < len(r.versions) && r.versions[i] == version {
		return r.results[i]
	}
	return r.m.Match(version)
}
