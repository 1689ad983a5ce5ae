package compare

import "github.com/prerel/prerel/engine"

// aggregate is what a run keeps: counts per pair and per class, and the
// smallest witness of each class. Its size depends on the number of
// classes, not on the number of cases.
type aggregate struct {
	cases     int64
	pairs     []pairAgg
	selGroups int64
	selection []selectionAgg // one per pair; nil until a group has a history
	// splits counts the cases where the policies do not all agree, by
	// case shape, then by the verdicts of every policy in order (one
	// byte each).
	splits map[string]map[string]*splitAgg
}

// splitAgg counts the cases of one split with their smallest witness.
type splitAgg struct {
	count int64
	key   caseKey
}

// addSplit counts one case in the split (shape, verdicts).
func (a *aggregate) addSplit(shape string, verdicts []byte, key caseKey) {
	byVerdicts := a.splits[shape]
	if byVerdicts == nil {
		byVerdicts = map[string]*splitAgg{}
		a.splits[shape] = byVerdicts
	}
	s := byVerdicts[string(verdicts)]
	if s == nil {
		byVerdicts[string(verdicts)] = &splitAgg{count: 1, key: key}
		return
	}
	s.count++
	if key.less(s.key) {
		s.key = key
	}
}

type pairAgg struct {
	agree, diverge int64
	classes        map[classKey]*classAgg
}

// classKey identifies a class within a pair: the case shape and the two
// verdicts make the signature.
type classKey struct {
	shape string
	a, b  engine.Verdict
}

type classAgg struct {
	count  int64
	key    caseKey
	ra, rb engine.Result
}

func newAggregate(pairs int) *aggregate {
	a := &aggregate{pairs: make([]pairAgg, pairs), splits: map[string]map[string]*splitAgg{}}
	for i := range a.pairs {
		a.pairs[i].classes = map[classKey]*classAgg{}
	}
	return a
}

// add counts one diverging case in its class and keeps it as the witness
// when it is the smallest so far.
func (p *pairAgg) add(k classKey, key caseKey, ra, rb engine.Result) {
	c := p.classes[k]
	if c == nil {
		p.classes[k] = &classAgg{count: 1, key: key, ra: ra, rb: rb}
		return
	}
	c.count++
	if key.less(c.key) {
		c.key, c.ra, c.rb = key, ra, rb
	}
}

// merge adds o into a.
func (a *aggregate) merge(o *aggregate) {
	a.cases += o.cases
	for i := range a.pairs {
		p, q := &a.pairs[i], &o.pairs[i]
		p.agree += q.agree
		p.diverge += q.diverge
		for k, c := range q.classes {
			mine := p.classes[k]
			if mine == nil {
				p.classes[k] = c
				continue
			}
			mine.count += c.count
			if c.key.less(mine.key) {
				mine.key, mine.ra, mine.rb = c.key, c.ra, c.rb
			}
		}
	}
	for shape, byVerdicts := range o.splits {
		for v, s := range byVerdicts {
			mine := a.splits[shape][v]
			if mine == nil {
				if a.splits[shape] == nil {
					a.splits[shape] = map[string]*splitAgg{}
				}
				a.splits[shape][v] = s
				continue
			}
			mine.count += s.count
			if s.key.less(mine.key) {
				mine.key = s.key
			}
		}
	}
	a.selGroups += o.selGroups
	if o.selection == nil {
		return
	}
	if a.selection == nil {
		a.selection = make([]selectionAgg, len(o.selection))
	}
	for i := range a.selection {
		a.selection[i].merge(&o.selection[i])
	}
}
