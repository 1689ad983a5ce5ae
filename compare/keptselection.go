package compare

import (
	"slices"
)

// keptSelection is the witness of a pair's selection noted by a
// KeptCheck: the group a run keeps as the smallest of its groups (by
// selectionKey) where the pair's policies install different versions,
// with what each installs there.
type keptSelection struct {
	part   int32
	a, b   int32 // the pair's policies
	key    selectionKey
	pa, pb string // what the witness says a and b install
	owned  bool   // a group of its run has its constraint and history
	held   bool   // and there a and b install pa and pb, which differ
	better int32  // in selBetters: the smallest group of its run where a and b differ, when it comes before key (or is key with other picks); -1 none
}

// keptGroup is a group where a pair installs different versions: its
// key and what each policy of the pair installs.
type keptGroup struct {
	key    selectionKey
	pa, pb string
}

// KeptSelection is the witness of a pair's selection a KeptCheck notes,
// for messages: its run (AddPart's number), the pair's policies A and B
// (indexes), the group (its constraint and history) and what the witness
// says A and B install there.
type KeptSelection struct {
	Part                 int
	A, B                 int
	Constraint, History  string
	ASelected, BSelected string
}

// AddSelection notes the witness of the selection of the pair of
// policies a and b (indexes into the names) that run part keeps: the
// group of constraint and history, where the witness says a installs pa
// and b installs pb. It returns its number among the selection
// witnesses.
func (k *KeptCheck) AddSelection(part, a, b int, constraint, history, pa, pb string) int {
	ci, ok := k.read[constraint]
	if !ok {
		full := newConstraintInfo(constraint)
		ci = constraintInfo{text: constraint, comps: full.comps, nums: full.nums}
		if len(k.read) >= 1<<16 {
			clear(k.read)
		}
		k.read[constraint] = ci
	}
	k.sels = append(k.sels, keptSelection{part: int32(part), a: int32(a), b: int32(b), pa: pa, pb: pb, better: -1,
		key: selectionKey{comps: ci.comps, nums: ci.nums, length: len(ci.text), constraint: ci.text, history: history}})
	k.selOrder = append(k.selOrder, int32(len(k.sels)-1))
	k.selSorted = false
	return len(k.sels) - 1
}

// Selections is the number of selection witnesses noted.
func (k *KeptCheck) Selections() int { return len(k.sels) }

// Selection returns what selection witness id is.
func (k *KeptCheck) Selection(id int) KeptSelection {
	s := &k.sels[id]
	return KeptSelection{Part: int(s.part), A: int(s.a), B: int(s.b), Constraint: s.key.constraint, History: s.key.history,
		ASelected: s.pa, BSelected: s.pb}
}

// UnboundSelection prepares a second walk of the domain that looks for
// the group the run of selection witness id keeps, wherever it is in the
// order: for a witness that is not held and that no group of its run
// before it replaces (KeptSelection).
func (k *KeptCheck) UnboundSelection(id int) {
	k.onlySel = id
	k.sels[id].better = -1
}

// KeptSelection reports whether a group of the run of selection witness
// id has its constraint and history (owned), whether the pair installs
// there what the witness says, two different versions (held), and the
// smallest group of those of the run where the pair installs different
// versions, with what each installs, when it comes before the witness or
// is its group with other picks, or, after UnboundSelection, wherever it
// is; found is false when there is none. The witness is the group its
// run keeps when held is true and found is false.
func (k *KeptCheck) KeptSelection(id int) (owned, held bool, constraint, history, pa, pb string, found bool) {
	s := &k.sels[id]
	if s.better < 0 {
		return s.owned, s.held, "", "", "", "", false
	}
	b := &k.selBetters[s.better]
	return s.owned, s.held, b.key.constraint, b.key.history, b.pa, b.pb, true
}

// sortSelections orders the selection witnesses by key, from the
// largest.
func (k *KeptCheck) sortSelections() {
	if k.selSorted {
		return
	}
	slices.SortFunc(k.selOrder, func(x, y int32) int {
		return lessCompare(k.sels[y].key.less(k.sels[x].key), k.sels[x].key.less(k.sels[y].key))
	})
	k.selSorted = true
}

// groupSelections looks at the current group, of constraint info k.ci,
// for the selection witnesses: it works out what the policies of a
// witness's pair install from the group's versions when the group is of
// the witness's run and comes before the witness or is its group. policy
// and version are set to what is being judged, for Group's recovery.
func (k *KeptCheck) groupSelections(g Group, policy *int, version *string) {
	if g.History == "" || len(k.sels) == 0 || k.only >= 0 {
		return
	}
	k.sortSelections()
	key := selectionKey{comps: k.ci.comps, nums: k.ci.nums, length: len(g.Constraint), constraint: g.Constraint, history: g.History}
	if k.onlySel < 0 && k.sels[k.selOrder[0]].key.less(key) {
		return // after every witness
	}
	clear(k.picked)
	k.list = nil
	pick := func(p int32) string {
		if !k.picked[p] {
			k.picks[p] = k.pick(int(p), g, policy, version)
			k.picked[p] = true
		}
		return k.picks[p]
	}
	for _, id := range k.selOrder {
		s := &k.sels[id]
		if k.onlySel >= 0 {
			if int(id) != k.onlySel {
				continue
			}
		} else if s.key.less(key) {
			break // and so do the others
		}
		if !k.ownsPart(s.part) {
			continue
		}
		same := k.onlySel < 0 && !key.less(s.key)
		if s.better >= 0 && !key.less(k.selBetters[s.better].key) && !same {
			continue
		}
		pa, pb := pick(s.a), pick(s.b)
		if pa == pb {
			if same {
				s.owned = true
			}
			continue
		}
		if same {
			s.owned = true
			if pa == s.pa && pb == s.pb {
				s.held = true
				continue
			}
			if s.better >= 0 && !key.less(k.selBetters[s.better].key) {
				continue
			}
		}
		if s.better < 0 {
			s.better = int32(len(k.selBetters))
			k.selBetters = append(k.selBetters, keptGroup{})
		}
		k.selBetters[s.better] = keptGroup{key: key, pa: pa, pb: pb}
	}
}

// pick is what policy p would install from the versions of g, worked
// out as a run does (worker.pick): p judges the versions on the run's
// fast path (a table of the list, kept while the list is met again), and
// pickOf picks from the verdicts.
func (k *KeptCheck) pick(p int, g Group, policy *int, version *string) string {
	*policy, *version = p, ""
	if k.list == nil {
		k.list = k.lists.get(g.Versions)
	}
	pol := k.policies[p]
	m, err := k.list.table(p, pol).Compile(g.Constraint)
	if err != nil {
		return invalidSelected
	}
	k.selVerdicts = slices.Grow(k.selVerdicts[:0], len(g.Versions))[:len(g.Versions)]
	func() {
		defer func() {
			if r := recover(); r != nil {
				*version = panickingVersion(pol, g)
				panic(r)
			}
		}()
		m.Verdicts(k.selVerdicts)
	}()
	return pickOf(p, pol, g.Constraint, k.list, k.selVerdicts, &k.admitted, &k.key)
}
