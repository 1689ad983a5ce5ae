package compare

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/elide"
)

// AggregateJSON is the JSON form of an Aggregate: the fields it adds to
// the object of a partial report, "limits" (the caps: "classes_per_pair"
// and "splits"), "cases", "pairs" (counts, kept classes and
// "turned_away_from", the smallest class key the caps turned away),
// "split_cases", "splits", "splits_turned_away_from", "selection" and
// "verdicts" (per policy, packed as in a baseline, 3 marking the cases
// the aggregate did not judge). Embed it in the struct such an object is
// decoded into, and make the Aggregate with its Aggregate method;
// Aggregate.WriteJSONFields writes the same fields.
type AggregateJSON struct {
	Limits     limitsJSON        `json:"limits"`
	Cases      int64             `json:"cases"`
	Pairs      []pairJSON        `json:"pairs"`
	SplitCases int64             `json:"split_cases"`
	Splits     []splitJSON       `json:"splits"`
	SplitsFrom *splitKeyJSON     `json:"splits_turned_away_from,omitempty"`
	Selection  *selectionJSON    `json:"selection,omitempty"`
	Verdicts   map[string]string `json:"verdicts,omitempty"`
}

// The JSON form of the parts of an Aggregate.
type (
	limitsJSON struct {
		ClassesPerPair int `json:"classes_per_pair"`
		Splits         int `json:"splits"`
	}
	pairJSON struct {
		A        string        `json:"a"`
		B        string        `json:"b"`
		Agree    int64         `json:"agree"`
		Diverge  int64         `json:"diverge"`
		Classes  []classJSON   `json:"classes"`
		AwayFrom *classKeyJSON `json:"turned_away_from,omitempty"`
	}
	classKeyJSON struct {
		Shape string         `json:"shape"`
		A     engine.Verdict `json:"a_verdict"`
		B     engine.Verdict `json:"b_verdict"`
	}
	classJSON struct {
		Shape      string         `json:"shape"`
		A          engine.Verdict `json:"a_verdict"`
		B          engine.Verdict `json:"b_verdict"`
		Count      int64          `json:"count"`
		Constraint string         `json:"constraint"`
		Version    string         `json:"version"`
		AReason    string         `json:"a_reason"`
		BReason    string         `json:"b_reason"`
	}
	splitKeyJSON struct {
		Shape    string `json:"shape"`
		Verdicts string `json:"verdicts"`
	}
	splitJSON struct {
		Shape      string `json:"shape"`
		Verdicts   string `json:"verdicts"`
		Count      int64  `json:"count"`
		Constraint string `json:"constraint"`
		Version    string `json:"version"`
	}
	selectionJSON struct {
		Groups int64               `json:"groups"`
		Pairs  []selectionPairJSON `json:"pairs"`
	}
	selectionPairJSON struct {
		Agree   int64                 `json:"agree"`
		Diverge int64                 `json:"diverge"`
		Witness *selectionWitnessJSON `json:"witness,omitempty"`
	}
	selectionWitnessJSON struct {
		Constraint string `json:"constraint"`
		History    string `json:"history"`
		A          string `json:"a"`
		B          string `json:"b"`
	}
)

// splitVerdictLetters writes the verdicts of a split key, one letter per
// policy: r reject, a allow, i invalid.
const splitVerdictLetters = "rai"

func splitVerdictsText(v string) string {
	b := make([]byte, len(v))
	for i := range len(v) {
		b[i] = splitVerdictLetters[v[i]]
	}
	return string(b)
}

func splitVerdictsBytes(s string, policies int) (string, error) {
	if len(s) != policies {
		return "", fmt.Errorf("verdicts %q: %d letters for %d policies", s, len(s), policies)
	}
	b := make([]byte, len(s))
	for i := range len(s) {
		x := strings.IndexByte(splitVerdictLetters, s[i])
		if x < 0 {
			return "", fmt.Errorf("verdicts %q: %q is not r, a or i", s, s[i])
		}
		b[i] = byte(x)
	}
	return string(b), nil
}

// WriteJSONFields writes the fields of the aggregate's JSON form
// (AggregateJSON), compact, without the braces of their object: the
// classes and splits of each pair in key order, so that the same
// aggregate gives the same bytes. They are written as they are encoded,
// not held whole in memory.
func (a *Aggregate) WriteJSONFields(w io.Writer) error {
	j, err := a.toJSON()
	if err != nil {
		return err
	}
	return streamFields(w, j)
}

func (p *Aggregate) toJSON() (*AggregateJSON, error) {
	a := p.agg
	j := &AggregateJSON{
		Limits:     limitsJSON{ClassesPerPair: p.classLimit, Splits: p.splitLimit},
		Cases:      a.cases,
		SplitCases: a.splitCases,
		Pairs:      make([]pairJSON, len(a.pairs)),
		Splits:     []splitJSON{},
	}
	for k, pr := range pairIndexes(len(p.policies)) {
		pa := &a.pairs[k]
		pj := pairJSON{A: p.policies[pr[0]], B: p.policies[pr[1]], Agree: pa.agree, Diverge: pa.diverge, Classes: []classJSON{}}
		var keys []classKey
		pa.classes.each(func(ck classKey, _ *classAgg) { keys = append(keys, ck) })
		slices.SortFunc(keys, func(x, y classKey) int { return lessCompare(x.less(y), y.less(x)) })
		for _, ck := range keys {
			c := pa.classes.get(ck)
			pj.Classes = append(pj.Classes, classJSON{Shape: ck.shape, A: ck.a, B: ck.b, Count: c.count,
				Constraint: c.key.constraint, Version: c.key.version, AReason: c.reason(0), BReason: c.reason(1)})
		}
		if pa.classes.full {
			b := pa.classes.bound
			pj.AwayFrom = &classKeyJSON{Shape: b.shape, A: b.a, B: b.b}
		}
		j.Pairs[k] = pj
	}
	var skeys []splitKey
	a.splits.each(func(sk splitKey, _ *splitAgg) { skeys = append(skeys, sk) })
	slices.SortFunc(skeys, func(x, y splitKey) int { return lessCompare(x.less(y), y.less(x)) })
	for _, sk := range skeys {
		s := a.splits.get(sk)
		j.Splits = append(j.Splits, splitJSON{Shape: sk.shape, Verdicts: splitVerdictsText(sk.verdicts), Count: s.count,
			Constraint: s.key.constraint, Version: s.key.version})
	}
	if a.splits.full {
		j.SplitsFrom = &splitKeyJSON{Shape: a.splits.bound.shape, Verdicts: splitVerdictsText(a.splits.bound.verdicts)}
	}
	if a.selection != nil {
		s := &selectionJSON{Groups: a.selGroups, Pairs: make([]selectionPairJSON, len(a.selection))}
		for k := range a.selection {
			sa := &a.selection[k]
			sp := selectionPairJSON{Agree: sa.agree, Diverge: sa.diverge}
			if w := sa.witness; w != nil {
				sp.Witness = &selectionWitnessJSON{Constraint: w.key.constraint, History: w.history, A: w.a, B: w.b}
			}
			s.Pairs[k] = sp
		}
		j.Selection = s
	}
	if p.verdicts != nil {
		j.Verdicts = make(map[string]string, len(p.policies))
		for i, name := range p.policies {
			s, err := encodeVerdicts(p.verdicts[i])
			if err != nil {
				return nil, fmt.Errorf("compare: the verdicts of %s: %w", name, err)
			}
			j.Verdicts[name] = s
		}
	}
	return j, nil
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

// Aggregate checks j, the JSON form of an aggregate of a run of the
// policies (in order) on a domain of domainCases cases, and makes the
// Aggregate it describes. It fails, saying why, on counts, classes,
// splits, a selection or verdicts that do not fit together.
func (j *AggregateJSON) Aggregate(policies []string, domainCases int64) (*Aggregate, error) {
	bad := func(format string, args ...any) error { return fmt.Errorf(format, args...) }
	np := len(policies)
	if len(j.Pairs) != np*(np-1)/2 {
		return nil, bad("%d pairs for %d policies, want %d", len(j.Pairs), np, np*(np-1)/2)
	}
	if j.Verdicts != nil && domainCases*int64(np) > maxRecordedVerdicts {
		return nil, bad("verdicts of %d cases and %d policies, more than a run records (%d)", domainCases, np, maxRecordedVerdicts)
	}
	lim := j.Limits
	pairs := pairIndexes(np)
	if lim.ClassesPerPair < 1 || lim.ClassesPerPair > maxLimit || lim.Splits < 1 || lim.Splits > maxLimit {
		return nil, bad("limits %d classes per pair, %d splits", lim.ClassesPerPair, lim.Splits)
	}
	if j.Cases < 0 || j.Cases > domainCases {
		return nil, bad("%d cases of a domain of %d", j.Cases, domainCases)
	}
	p := &Aggregate{policies: policies, classLimit: lim.ClassesPerPair, splitLimit: lim.Splits}
	a := newSizedAggregate(len(pairs), lim.ClassesPerPair, lim.Splits)
	a.cases, a.splitCases = j.Cases, j.SplitCases
	if a.splitCases < 0 || a.splitCases > a.cases {
		return nil, bad("%d split cases of %d", a.splitCases, a.cases)
	}
	for k, pj := range j.Pairs {
		pr := pairs[k]
		if pj.A != policies[pr[0]] || pj.B != policies[pr[1]] {
			return nil, bad("pair %d is %s vs %s, want %s vs %s", k+1, pj.A, pj.B, policies[pr[0]], policies[pr[1]])
		}
		if pj.Agree < 0 || pj.Diverge < 0 || pj.Agree+pj.Diverge != a.cases || pj.Diverge > a.splitCases {
			return nil, bad("%s vs %s agree on %d and diverge on %d of %d cases", pj.A, pj.B, pj.Agree, pj.Diverge, a.cases)
		}
		if len(pj.Classes) > lim.ClassesPerPair {
			return nil, bad("%s vs %s has %d classes, more than %d", pj.A, pj.B, len(pj.Classes), lim.ClassesPerPair)
		}
		pa := &a.pairs[k]
		pa.agree, pa.diverge = pj.Agree, pj.Diverge
		var bound *classKey
		if pj.AwayFrom != nil {
			bound = &classKey{pj.AwayFrom.Shape, pj.AwayFrom.A, pj.AwayFrom.B}
		}
		var sum int64
		for _, cj := range pj.Classes {
			ck := classKey{cj.Shape, cj.A, cj.B}
			if cj.A == cj.B || cj.Count < 1 || cj.Version == "" || pa.classes.get(ck) != nil ||
				bound != nil && !ck.less(*bound) {
				return nil, bad("%s vs %s: the class %q (%s, %s, %d cases) is empty, given twice, of one verdict or past the classes turned away",
					pj.A, pj.B, cj.Shape, cj.A, cj.B, cj.Count)
			}
			if cj.A != engine.Invalid && cj.B != engine.Invalid {
				if shape := caseShapeOf(cj.Constraint, cj.Version); shape != cj.Shape {
					return nil, bad("%s vs %s: the witness of the class %q (constraint %q, version %q) is a case of the shape %q: it is not a case of its class",
						pj.A, pj.B, elide.Head(cj.Shape, 200), elide.Head(cj.Constraint, 200), elide.Head(cj.Version, 200), elide.Head(shape, 200))
				}
			}
			sum += cj.Count
			if sum > pj.Diverge {
				return nil, bad("%s vs %s: the classes count more than the %d diverging cases", pj.A, pj.B, pj.Diverge)
			}
			c := pa.classes.add(ck)
			*c = classAgg{count: cj.Count, key: witnessKey(cj.Constraint, cj.Version)}
			if cj.AReason != "" || cj.BReason != "" {
				c.reasons = &[2]string{cj.AReason, cj.BReason}
			}
		}
		if bound != nil {
			pa.classes.turnAwayFrom(*bound)
		}
	}
	if len(j.Splits) > lim.Splits {
		return nil, bad("%d splits, more than %d", len(j.Splits), lim.Splits)
	}
	var bound *splitKey
	if j.SplitsFrom != nil {
		v, err := splitVerdictsBytes(j.SplitsFrom.Verdicts, np)
		if err != nil {
			return nil, bad("splits_turned_away_from: %v", err)
		}
		bound = &splitKey{j.SplitsFrom.Shape, v}
	}
	var sum int64
	for _, sj := range j.Splits {
		v, err := splitVerdictsBytes(sj.Verdicts, np)
		if err != nil {
			return nil, bad("split %q: %v", sj.Shape, err)
		}
		sk := splitKey{sj.Shape, v}
		if sj.Count < 1 || sj.Version == "" || a.splits.get(sk) != nil || bound != nil && !sk.less(*bound) {
			return nil, bad("the split %q (%s, %d cases) is empty, given twice or past the splits turned away", sj.Shape, sj.Verdicts, sj.Count)
		}
		if shape := caseShapeOf(sj.Constraint, sj.Version); shape != sj.Shape {
			return nil, bad("the witness of the split %q (constraint %q, version %q) is a case of the shape %q: it is not a case of its split",
				elide.Head(sj.Shape, 200), elide.Head(sj.Constraint, 200), elide.Head(sj.Version, 200), elide.Head(shape, 200))
		}
		sum += sj.Count
		if sum > a.splitCases {
			return nil, bad("the splits count more than the %d split cases", a.splitCases)
		}
		*a.splits.add(sk) = splitAgg{count: sj.Count, key: witnessKey(sj.Constraint, sj.Version)}
	}
	if bound != nil {
		a.splits.turnAwayFrom(*bound)
	}
	if s := j.Selection; s != nil {
		if len(s.Pairs) != len(pairs) || s.Groups < 0 {
			return nil, bad("selection of %d pairs, want %d", len(s.Pairs), len(pairs))
		}
		a.selGroups = s.Groups
		a.selection = make([]selectionAgg, len(pairs))
		for k, sp := range s.Pairs {
			if sp.Agree < 0 || sp.Diverge < 0 || sp.Agree+sp.Diverge != s.Groups || (sp.Diverge > 0) != (sp.Witness != nil) {
				return nil, bad("selection pair %d: %d groups agree and %d diverge of %d, witness %v", k+1, sp.Agree, sp.Diverge, s.Groups, sp.Witness != nil)
			}
			sa := &a.selection[k]
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
	if j.Verdicts != nil {
		p.verdicts = make([][]byte, np)
		for i, name := range policies {
			enc, ok := j.Verdicts[name]
			if !ok {
				return nil, bad("no verdicts for the policy %s", name)
			}
			v, err := unpackVerdicts(enc, domainCases)
			if err != nil {
				return nil, bad("the verdicts of %s: %v", name, err)
			}
			p.verdicts[i] = v
		}
		if len(j.Verdicts) != np {
			return nil, bad("verdicts for %d policies, want %d", len(j.Verdicts), np)
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

// unpackVerdicts reverses encodeVerdicts for a domain of cases cases,
// with any 2-bit value: a partial report's verdicts may be verdictAbsent.
// It reads no more than the cases need, so that a hostile file cannot make
// it inflate without bound.
func unpackVerdicts(s string, cases int64) ([]byte, error) {
	raw, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return nil, err
	}
	want := (cases + 3) / 4
	packed, err := io.ReadAll(io.LimitReader(flate.NewReader(bytes.NewReader(raw)), want+1))
	if err != nil {
		return nil, err
	}
	if int64(len(packed)) != want {
		return nil, fmt.Errorf("%d bytes of verdicts for %d cases, want %d", len(packed), cases, want)
	}
	out := make([]byte, cases)
	for i := range out {
		out[i] = packed[i/4] >> (2 * (i % 4)) & 3
	}
	return out, nil
}

// maxLimit bounds the caps an aggregate's JSON form may name.
const maxLimit = 1 << 30
