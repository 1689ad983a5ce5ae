package compare

import (
	"fmt"
	"slices"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/elide"
)

// Tally is what an Aggregate holds, in plain values, for a caller that
// writes it down and reads it back (compare/shard's partial reports):
// the caps, the counts, every class each pair kept with its count and
// smallest witness and the smallest class key its cap turned away, the
// splits likewise, the selection, and the verdicts. Aggregate.Tally makes
// it, and NewAggregate makes the aggregate it describes.
type Tally struct {
	// ClassesPerPair and SplitLimit are the caps the aggregate keeps
	// within.
	ClassesPerPair, SplitLimit int
	// Cases counts the cases judged, SplitCases those where the policies
	// do not all agree.
	Cases, SplitCases int64
	// Pairs has one entry per pair of policies, in the order Run pairs
	// them (every policy with each that comes after it).
	Pairs []TallyPair
	// Splits are the splits kept, in key order; SplitsFrom is the
	// smallest key the cap turned away, nil when it turned none away.
	Splits     []TallySplit
	SplitsFrom *SplitKey
	// SelectionGroups counts the groups with a history; Selection has
	// one entry per pair (in the order of Pairs), nil when no group had
	// a history.
	SelectionGroups int64
	Selection       []TallySelectionPair
	// Verdicts holds, per policy name, every verdict by case offset,
	// packed as a baseline packs them, 3 marking the cases the aggregate
	// did not judge; nil when the aggregate records none.
	Verdicts map[string]string
}

// TallyPair is what an aggregate keeps of one pair of policies: their
// names, its counts, its classes in key order, and the smallest class key
// its cap turned away (nil when it turned none away).
type TallyPair struct {
	A, B           string
	Agree, Diverge int64
	Classes        []TallyClass
	From           *ClassKey
}

// ClassKey identifies a class of a pair: the case part of its signature
// (the case shape, or what a policy that answered Invalid refused) and
// each side's verdict.
type ClassKey struct {
	Shape string
	A, B  engine.Verdict
}

// Signature is the class's signature, as a report shows it and
// Signature gives it for a case of the class.
func (k ClassKey) Signature() string { return joinSignature(k.Shape, k.A, k.B) }

// TallyClass is a class an aggregate keeps: its count and its smallest
// witness, with the policies' reasons on it when they were fetched.
type TallyClass struct {
	ClassKey
	Count               int64
	Constraint, Version string
	AReason, BReason    string
}

// SplitKey identifies a split: a case shape and every policy's verdict,
// in the order of the policies.
type SplitKey struct {
	Shape    string
	Verdicts []engine.Verdict
}

// TallySplit is a split an aggregate keeps: its count and its smallest
// witness.
type TallySplit struct {
	SplitKey
	Count               int64
	Constraint, Version string
}

// TallySelectionPair is one pair's selection: how many groups with a
// history the pair installs the same version from and how many not, and
// the smallest where it does not (nil when it agrees on every group).
type TallySelectionPair struct {
	Agree, Diverge int64
	Witness        *TallySelectionWitness
}

// TallySelectionWitness is the smallest group a pair installs different
// versions from: its constraint, its history, and what each installs.
type TallySelectionWitness struct {
	Constraint, History string
	A, B                string
}

// Tally is what the aggregate holds, in plain values, each pair's classes
// and the splits in key order, so that the same aggregate gives the same
// Tally.
func (p *Aggregate) Tally() (Tally, error) {
	a := p.agg
	k := Tally{
		ClassesPerPair: p.classLimit, SplitLimit: p.splitLimit,
		Cases: a.cases, SplitCases: a.splitCases,
		Pairs:  make([]TallyPair, len(a.pairs)),
		Splits: []TallySplit{},
	}
	for i, pr := range pairIndexes(len(p.policies)) {
		pa := &a.pairs[i]
		kp := TallyPair{A: p.policies[pr[0]], B: p.policies[pr[1]], Agree: pa.agree, Diverge: pa.diverge, Classes: []TallyClass{}}
		var keys []classKey
		pa.classes.each(func(ck classKey, _ *classAgg) { keys = append(keys, ck) })
		slices.SortFunc(keys, func(x, y classKey) int { return lessCompare(x.less(y), y.less(x)) })
		for _, ck := range keys {
			c := pa.classes.get(ck)
			kp.Classes = append(kp.Classes, TallyClass{ClassKey: ClassKey{ck.shape, ck.a, ck.b}, Count: c.count,
				Constraint: c.key.constraint, Version: c.key.version, AReason: c.reason(0), BReason: c.reason(1)})
		}
		if pa.classes.full {
			b := pa.classes.bound
			kp.From = &ClassKey{Shape: b.shape, A: b.a, B: b.b}
		}
		k.Pairs[i] = kp
	}
	var skeys []splitKey
	a.splits.each(func(sk splitKey, _ *splitAgg) { skeys = append(skeys, sk) })
	slices.SortFunc(skeys, func(x, y splitKey) int { return lessCompare(x.less(y), y.less(x)) })
	for _, sk := range skeys {
		s := a.splits.get(sk)
		k.Splits = append(k.Splits, TallySplit{SplitKey: sk.export(), Count: s.count,
			Constraint: s.key.constraint, Version: s.key.version})
	}
	if a.splits.full {
		b := a.splits.bound.export()
		k.SplitsFrom = &b
	}
	if a.selection != nil {
		k.SelectionGroups = a.selGroups
		k.Selection = make([]TallySelectionPair, len(a.selection))
		for i := range a.selection {
			sa := &a.selection[i]
			sp := TallySelectionPair{Agree: sa.agree, Diverge: sa.diverge}
			if w := sa.witness; w != nil {
				sp.Witness = &TallySelectionWitness{Constraint: w.key.constraint, History: w.history, A: w.a, B: w.b}
			}
			k.Selection[i] = sp
		}
	}
	if p.verdicts != nil {
		k.Verdicts = make(map[string]string, len(p.policies))
		for i, name := range p.policies {
			s, err := encodeVerdicts(p.verdicts[i])
			if err != nil {
				return Tally{}, fmt.Errorf("compare: the verdicts of %s: %w", name, err)
			}
			k.Verdicts[name] = s
		}
	}
	return k, nil
}

// export is the split key in plain values.
func (k splitKey) export() SplitKey {
	v := make([]engine.Verdict, len(k.verdicts))
	for i := range len(k.verdicts) {
		v[i] = engine.Verdict(k.verdicts[i])
	}
	return SplitKey{Shape: k.shape, Verdicts: v}
}

// splitKeyOf is the split key of k.
func splitKeyOf(k SplitKey) splitKey {
	b := make([]byte, len(k.Verdicts))
	for i, v := range k.Verdicts {
		b[i] = byte(v)
	}
	return splitKey{k.Shape, string(b)}
}

// lessCompare turns two less results into a comparison.
func lessCompare(less, greater bool) int {
	switch {
	case less:
		return -1
	case greater:
		return 1
	}
	return 0
}

// NewAggregate checks k, what an aggregate of a run of the policies (in
// order) on a domain of domainCases cases holds, and makes the Aggregate
// it describes. It fails, saying why, on counts, classes, splits, a
// selection or verdicts that do not fit together.
func NewAggregate(policies []string, domainCases int64, k Tally) (*Aggregate, error) {
	bad := func(format string, args ...any) error { return fmt.Errorf(format, args...) }
	np := len(policies)
	if len(k.Pairs) != np*(np-1)/2 {
		return nil, bad("%d pairs for %d policies, want %d", len(k.Pairs), np, np*(np-1)/2)
	}
	if k.Verdicts != nil && domainCases*int64(np) > maxRecordedVerdicts {
		return nil, bad("verdicts of %d cases and %d policies, more than a run records (%d)", domainCases, np, maxRecordedVerdicts)
	}
	pairs := pairIndexes(np)
	if k.ClassesPerPair < 1 || k.ClassesPerPair > maxLimit || k.SplitLimit < 1 || k.SplitLimit > maxLimit {
		return nil, bad("limits %d classes per pair, %d splits", k.ClassesPerPair, k.SplitLimit)
	}
	if k.Cases < 0 || k.Cases > domainCases {
		return nil, bad("%d cases of a domain of %d", k.Cases, domainCases)
	}
	p := &Aggregate{policies: policies, classLimit: k.ClassesPerPair, splitLimit: k.SplitLimit}
	a := newSizedAggregate(len(pairs), k.ClassesPerPair, k.SplitLimit)
	a.cases, a.splitCases = k.Cases, k.SplitCases
	if a.splitCases < 0 || a.splitCases > a.cases {
		return nil, bad("%d split cases of %d", a.splitCases, a.cases)
	}
	for i, kp := range k.Pairs {
		pr := pairs[i]
		pa, pb := kp.A, kp.B
		if pa != policies[pr[0]] || pb != policies[pr[1]] {
			return nil, bad("pair %d is %s vs %s, want %s vs %s", i+1, pa, pb, policies[pr[0]], policies[pr[1]])
		}
		if kp.Agree < 0 || kp.Diverge < 0 || kp.Agree+kp.Diverge != a.cases || kp.Diverge > a.splitCases {
			return nil, bad("%s vs %s agree on %d and diverge on %d of %d cases", pa, pb, kp.Agree, kp.Diverge, a.cases)
		}
		if len(kp.Classes) > k.ClassesPerPair {
			return nil, bad("%s vs %s has %d classes, more than %d", pa, pb, len(kp.Classes), k.ClassesPerPair)
		}
		agg := &a.pairs[i]
		agg.agree, agg.diverge = kp.Agree, kp.Diverge
		var bound *classKey
		if kp.From != nil {
			bound = &classKey{kp.From.Shape, kp.From.A, kp.From.B}
		}
		var sum int64
		for _, kc := range kp.Classes {
			ck := classKey{kc.Shape, kc.A, kc.B}
			if kc.A == kc.B || kc.Count < 1 || kc.Version == "" || agg.classes.get(ck) != nil ||
				bound != nil && !ck.less(*bound) {
				return nil, bad("%s vs %s: the class %q (%s, %s, %d cases) is empty, given twice, of one verdict or past the classes turned away",
					pa, pb, kc.Shape, kc.A, kc.B, kc.Count)
			}
			if kc.A != engine.Invalid && kc.B != engine.Invalid {
				if shape := caseShapeOf(kc.Constraint, kc.Version); shape != kc.Shape {
					return nil, bad("%s vs %s: the witness of the class %q (constraint %q, version %q) is a case of the shape %q: it is not a case of its class",
						pa, pb, elide.Head(kc.Shape, 200), elide.Head(kc.Constraint, 200), elide.Head(kc.Version, 200), elide.Head(shape, 200))
				}
			}
			sum += kc.Count
			if sum > kp.Diverge {
				return nil, bad("%s vs %s: the classes count more than the %d diverging cases", pa, pb, kp.Diverge)
			}
			c := agg.classes.add(ck)
			*c = classAgg{count: kc.Count, key: witnessKey(kc.Constraint, kc.Version)}
			if kc.AReason != "" || kc.BReason != "" {
				c.reasons = &[2]string{kc.AReason, kc.BReason}
			}
		}
		if bound != nil {
			agg.classes.turnAwayFrom(*bound)
		}
	}
	if len(k.Splits) > k.SplitLimit {
		return nil, bad("%d splits, more than %d", len(k.Splits), k.SplitLimit)
	}
	var bound *splitKey
	if k.SplitsFrom != nil {
		if len(k.SplitsFrom.Verdicts) != np {
			return nil, bad("splits_turned_away_from: %d verdicts for %d policies", len(k.SplitsFrom.Verdicts), np)
		}
		b := splitKeyOf(*k.SplitsFrom)
		bound = &b
	}
	var sum int64
	for _, ks := range k.Splits {
		if len(ks.Verdicts) != np {
			return nil, bad("split %q: %d verdicts for %d policies", ks.Shape, len(ks.Verdicts), np)
		}
		sk := splitKeyOf(ks.SplitKey)
		if ks.Count < 1 || ks.Version == "" || a.splits.get(sk) != nil || bound != nil && !sk.less(*bound) {
			return nil, bad("the split %q (%s, %d cases) is empty, given twice or past the splits turned away", ks.Shape, verdictLetters(ks.Verdicts), ks.Count)
		}
		if shape := caseShapeOf(ks.Constraint, ks.Version); shape != ks.Shape {
			return nil, bad("the witness of the split %q (constraint %q, version %q) is a case of the shape %q: it is not a case of its split",
				elide.Head(ks.Shape, 200), elide.Head(ks.Constraint, 200), elide.Head(ks.Version, 200), elide.Head(shape, 200))
		}
		sum += ks.Count
		if sum > a.splitCases {
			return nil, bad("the splits count more than the %d split cases", a.splitCases)
		}
		*a.splits.add(sk) = splitAgg{count: ks.Count, key: witnessKey(ks.Constraint, ks.Version)}
	}
	if bound != nil {
		a.splits.turnAwayFrom(*bound)
	}
	if s := k.Selection; s != nil {
		if len(s) != len(pairs) || k.SelectionGroups < 0 {
			return nil, bad("selection of %d pairs, want %d", len(s), len(pairs))
		}
		a.selGroups = k.SelectionGroups
		a.selection = make([]selectionAgg, len(pairs))
		for i, sp := range s {
			if sp.Agree < 0 || sp.Diverge < 0 || sp.Agree+sp.Diverge != k.SelectionGroups || (sp.Diverge > 0) != (sp.Witness != nil) {
				return nil, bad("selection pair %d: %d groups agree and %d diverge of %d, witness %v", i+1, sp.Agree, sp.Diverge, k.SelectionGroups, sp.Witness != nil)
			}
			sa := &a.selection[i]
			sa.agree, sa.diverge = sp.Agree, sp.Diverge
			if w := sp.Witness; w != nil {
				ci := newConstraintInfo(w.Constraint)
				sa.witness = &selectionCandidate{
					key: selectionKey{comps: ci.comps, nums: ci.nums, length: len(ci.text), constraint: ci.text, history: w.History},
					a:   w.A, b: w.B, history: w.History,
				}
			}
		}
	}
	p.agg = a
	if k.Verdicts != nil {
		p.verdicts = make([][]byte, np)
		for i, name := range policies {
			enc, ok := k.Verdicts[name]
			if !ok {
				return nil, bad("no verdicts for the policy %s", name)
			}
			v, err := unpackVerdicts(enc, domainCases)
			if err != nil {
				return nil, bad("the verdicts of %s: %v", name, err)
			}
			p.verdicts[i] = v
		}
		if len(k.Verdicts) != np {
			return nil, bad("verdicts for %d policies, want %d", len(k.Verdicts), np)
		}
		present := int64(0)
		for i, x := range p.verdicts[0] {
			if x != verdictAbsent {
				present++
			}
			for _, v := range p.verdicts[1:] {
				if (v[i] == verdictAbsent) != (x == verdictAbsent) {
					return nil, bad("the verdicts of case %d are there for some policies only", i)
				}
			}
		}
		if present != a.cases {
			return nil, bad("verdicts for %d cases, the partial report counts %d", present, a.cases)
		}
	}
	return p, nil
}

// verdictLetters writes verdicts one letter each, as a partial report
// writes a split's: r reject, a allow, i invalid, and ? for any other.
func verdictLetters(verdicts []engine.Verdict) string {
	b := make([]byte, len(verdicts))
	for i, v := range verdicts {
		b[i] = '?'
		if v <= engine.Invalid {
			b[i] = "rai"[v]
		}
	}
	return string(b)
}

// witnessKey is the witness order key of a case.
func witnessKey(constraint, version string) caseKey {
	ci := newConstraintInfo(constraint)
	vi := newVersionInfo(version)
	return makeCaseKey(&ci, &vi)
}

// newSizedAggregate is newAggregate with the caps of a partial report.
func newSizedAggregate(pairs, classLimit, splitLimit int) *aggregate {
	a := &aggregate{pairs: make([]pairAgg, pairs), splits: newRankedCapped[splitKey, splitAgg](splitLimit, splitKey.less, splitKey.rank)}
	for i := range a.pairs {
		a.pairs[i].classes = newRankedCapped[classKey, classAgg](classLimit, classKey.less, classKey.rank)
	}
	return a
}

// maxLimit bounds the caps an aggregate's Tally may name.
const maxLimit = 1 << 30
