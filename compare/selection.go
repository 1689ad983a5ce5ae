package compare

import (
	"encoding/binary"
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

// selecting is what the worker works out of a group with a history:
// what each policy would install from it.
type selecting struct {
	picks    []string // per policy: what it installs, as pick shows it
	admitted []string // the versions a Selector allows, for pick
}

// pickAll works out what each policy would install from the group's
// versions, into w.picks. A policy that implements engine.Selector decides
// itself (as engine.Select) among the versions it allows; for the others
// the verdicts already judged decide, with the list's versions in the
// order engine.SelectNewest prefers them, so that the versions are not
// judged twice.
func (w *worker) pickAll(g Group) {
	for p, pol := range w.policies {
		w.policy, w.version = p, ""
		w.picks[p] = w.pick(p, pol, g)
	}
}

// aggregateSelection compares the picks of pickAll pair by pair. The
// caller holds the aggregate's lock.
func (w *worker) aggregateSelection(ci *constraintInfo, g Group) {
	a := w.shared.agg
	if a.selection == nil {
		a.selection = make([]selectionAgg, len(w.pairs))
	}
	a.selGroups++
	picks := w.picks
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
		if s := &a.selection[k]; s.witness == nil || key.less(s.witness.key) {
			s.offer(&selectionCandidate{key: *key, a: pa, b: pb, history: g.History})
		}
	}
}

// pick is what policy p would install from the group's versions, as a
// selection witness shows it.
//
// A policy that refuses the constraint installs nothing (engine.Select
// fails with the policy's refusal). A Selector picks the newest version
// it admits, by its own order, and answers pairwise as if each version
// were the only one available (engine.Selector): its pick is among the
// versions it allows, so it is handed only those, in list order; when it
// allows none it installs nothing, and when it allows one, that one. Its
// pick then depends on the versions it allows alone, not on the
// constraint that allowed them, so it is kept per list and set of allowed
// versions (versionList.picks): constraints of one shape often allow the
// same versions of a history.
func (w *worker) pick(p int, pol engine.Policy, g Group) string {
	if w.errs[p] != nil {
		return invalidSelected
	}
	return pickOf(p, pol, g.Constraint, w.list, w.verdicts[p], &w.admitted, &w.key)
}

// pickOf is what policy p (pol), which compiled constraint, would install
// from the versions of list, given its verdicts on them (worker.pick).
// admitted and key are buffers it reuses.
func pickOf(p int, pol engine.Policy, constraint string, list *versionList, verdicts []engine.Verdict, admitted *[]string, key *[]byte) string {
	if s, ok := pol.(engine.Selector); ok {
		*admitted = (*admitted)[:0]
		*key = binary.AppendUvarint((*key)[:0], uint64(p))
		for i, v := range verdicts {
			if v == engine.Allow {
				*admitted = append(*admitted, list.versions[i])
				*key = binary.AppendUvarint(*key, uint64(i))
			}
		}
		switch len(*admitted) {
		case 0:
			return noneSelected
		case 1:
			return (*admitted)[0]
		}
		if picked, ok := list.picks[string(*key)]; ok {
			return picked
		}
		sel, err := s.Select(constraint, *admitted)
		if err != nil {
			return invalidSelected // the constraint's, not the versions'
		}
		picked := noneSelected
		if sel.Found {
			picked = sel.Version
		}
		list.keepPick(string(*key), picked)
		return picked
	}
	for _, i := range list.newestOrder() {
		if verdicts[i] == engine.Allow {
			return list.versions[i]
		}
	}
	return noneSelected
}
