package shard

import (
	"fmt"
	"io"
	"strings"

	"github.com/prerel/prerel/compare"
	"github.com/prerel/prerel/compare/internal/jsonstream"
	"github.com/prerel/prerel/engine"
)

// aggregateJSON is the JSON form of a compare.Aggregate (of its Tally):
// the fields it adds to the object of a partial report, "limits" (the
// caps: "classes_per_pair" and "splits"), "cases", "pairs" (counts, kept
// classes and "turned_away_from", the smallest class key the caps turned
// away), "split_cases", "splits", "splits_turned_away_from", "selection"
// and "verdicts" (per policy, packed as in a baseline, 3 marking the
// cases the aggregate did not judge). partialJSON embeds it; aggregateOf
// makes the Aggregate it describes, and writeAggregateFields writes the
// same fields.
type aggregateJSON struct {
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

func splitVerdictsText(v []engine.Verdict) string {
	b := make([]byte, len(v))
	for i, x := range v {
		b[i] = splitVerdictLetters[x]
	}
	return string(b)
}

func splitVerdicts(s string, policies int) ([]engine.Verdict, error) {
	if len(s) != policies {
		return nil, fmt.Errorf("verdicts %q: %d letters for %d policies", s, len(s), policies)
	}
	v := make([]engine.Verdict, len(s))
	for i := range len(s) {
		x := strings.IndexByte(splitVerdictLetters, s[i])
		if x < 0 {
			return nil, fmt.Errorf("verdicts %q: %q is not r, a or i", s, s[i])
		}
		v[i] = engine.Verdict(x)
	}
	return v, nil
}

// writeAggregateFields writes the fields of a's JSON form
// (aggregateJSON), compact, without the braces of their object: the
// classes and splits of each pair in key order, so that the same
// aggregate gives the same bytes. They are written as they are encoded,
// not held whole in memory.
func writeAggregateFields(w io.Writer, a *compare.Aggregate) error {
	j, err := aggregateToJSON(a)
	if err != nil {
		return err
	}
	return jsonstream.WriteFields(w, j)
}

// aggregateToJSON is a's JSON form.
func aggregateToJSON(a *compare.Aggregate) (*aggregateJSON, error) {
	t, err := a.Tally()
	if err != nil {
		return nil, err
	}
	j := &aggregateJSON{
		Limits:     limitsJSON{ClassesPerPair: t.ClassesPerPair, Splits: t.SplitLimit},
		Cases:      t.Cases,
		SplitCases: t.SplitCases,
		Pairs:      make([]pairJSON, len(t.Pairs)),
		Splits:     make([]splitJSON, len(t.Splits)),
		Verdicts:   t.Verdicts,
	}
	for k, tp := range t.Pairs {
		pj := pairJSON{A: tp.A, B: tp.B, Agree: tp.Agree, Diverge: tp.Diverge, Classes: make([]classJSON, len(tp.Classes))}
		for i, c := range tp.Classes {
			pj.Classes[i] = classJSON{Shape: c.Shape, A: c.A, B: c.B, Count: c.Count,
				Constraint: c.Constraint, Version: c.Version, AReason: c.AReason, BReason: c.BReason}
		}
		if b := tp.From; b != nil {
			pj.AwayFrom = &classKeyJSON{Shape: b.Shape, A: b.A, B: b.B}
		}
		j.Pairs[k] = pj
	}
	for i, s := range t.Splits {
		j.Splits[i] = splitJSON{Shape: s.Shape, Verdicts: splitVerdictsText(s.Verdicts), Count: s.Count,
			Constraint: s.Constraint, Version: s.Version}
	}
	if b := t.SplitsFrom; b != nil {
		j.SplitsFrom = &splitKeyJSON{Shape: b.Shape, Verdicts: splitVerdictsText(b.Verdicts)}
	}
	if t.Selection != nil {
		s := &selectionJSON{Groups: t.SelectionGroups, Pairs: make([]selectionPairJSON, len(t.Selection))}
		for k, sp := range t.Selection {
			pj := selectionPairJSON{Agree: sp.Agree, Diverge: sp.Diverge}
			if w := sp.Witness; w != nil {
				pj.Witness = &selectionWitnessJSON{Constraint: w.Constraint, History: w.History, A: w.A, B: w.B}
			}
			s.Pairs[k] = pj
		}
		j.Selection = s
	}
	return j, nil
}

// aggregateOf checks j, the JSON form of an aggregate of a run of the
// policies (in order) on a domain of domainCases cases, and makes the
// Aggregate it describes (compare.NewAggregate). It fails, saying why,
// on counts, classes, splits, a selection or verdicts that do not fit
// together.
func aggregateOf(j *aggregateJSON, policies []string, domainCases int64) (*compare.Aggregate, error) {
	t := compare.Tally{
		ClassesPerPair: j.Limits.ClassesPerPair, SplitLimit: j.Limits.Splits,
		Cases: j.Cases, SplitCases: j.SplitCases,
		Pairs:    make([]compare.TallyPair, len(j.Pairs)),
		Splits:   make([]compare.TallySplit, len(j.Splits)),
		Verdicts: j.Verdicts,
	}
	for k, pj := range j.Pairs {
		tp := compare.TallyPair{A: pj.A, B: pj.B, Agree: pj.Agree, Diverge: pj.Diverge, Classes: make([]compare.TallyClass, len(pj.Classes))}
		for i, c := range pj.Classes {
			tp.Classes[i] = compare.TallyClass{ClassKey: compare.ClassKey{Shape: c.Shape, A: c.A, B: c.B}, Count: c.Count,
				Constraint: c.Constraint, Version: c.Version, AReason: c.AReason, BReason: c.BReason}
		}
		if b := pj.AwayFrom; b != nil {
			tp.From = &compare.ClassKey{Shape: b.Shape, A: b.A, B: b.B}
		}
		t.Pairs[k] = tp
	}
	np := len(policies)
	if j.SplitsFrom != nil {
		v, err := splitVerdicts(j.SplitsFrom.Verdicts, np)
		if err != nil {
			return nil, fmt.Errorf("splits_turned_away_from: %v", err)
		}
		t.SplitsFrom = &compare.SplitKey{Shape: j.SplitsFrom.Shape, Verdicts: v}
	}
	for i, sj := range j.Splits {
		v, err := splitVerdicts(sj.Verdicts, np)
		if err != nil {
			return nil, fmt.Errorf("split %q: %v", sj.Shape, err)
		}
		t.Splits[i] = compare.TallySplit{SplitKey: compare.SplitKey{Shape: sj.Shape, Verdicts: v}, Count: sj.Count,
			Constraint: sj.Constraint, Version: sj.Version}
	}
	if s := j.Selection; s != nil {
		t.SelectionGroups = s.Groups
		t.Selection = make([]compare.TallySelectionPair, len(s.Pairs))
		for k, sp := range s.Pairs {
			tp := compare.TallySelectionPair{Agree: sp.Agree, Diverge: sp.Diverge}
			if w := sp.Witness; w != nil {
				tp.Witness = &compare.TallySelectionWitness{Constraint: w.Constraint, History: w.History, A: w.A, B: w.B}
			}
			t.Selection[k] = tp
		}
	}
	return compare.NewAggregate(policies, domainCases, t)
}
