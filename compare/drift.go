package compare

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/prerel/prerel/engine"
)

// DriftClassesPerPolicy is how many changed classes a PolicyDrift keeps.
const DriftClassesPerPolicy = 5

// Drift is what moved between a baseline and a run, told per policy for a
// reviewer: how many verdicts changed in which direction, and the most
// relevant changed case shapes with a witness each. Changes has every
// difference Diff finds.
type Drift struct {
	// Matches is true when the run matches the baseline.
	Matches bool `json:"matches"`
	// Exact is true when the baseline has per-case verdicts for the same
	// domain, so that Policies counts every changed verdict; without
	// them, only Changes tells the drift.
	Exact bool `json:"exact"`
	// Policies lists each policy with changed verdicts, in run order.
	Policies []PolicyDrift `json:"policies,omitempty"`
	// Changes is Diff(baseline, run).
	Changes []Change `json:"changes"`
}

// PolicyDrift is the changed verdicts of one policy.
type PolicyDrift struct {
	Policy string `json:"policy"`
	// Changed counts the cases whose verdict changed.
	Changed int64 `json:"changed"`
	// Moves counts them by direction, largest first.
	Moves []Move `json:"moves"`
	// Classes are the changed cases grouped by case shape and direction,
	// most relevant first, the first DriftClassesPerPolicy of them;
	// ClassesLeft counts the others.
	Classes     []DriftClass `json:"classes"`
	ClassesLeft int          `json:"classes_left,omitempty"`
}

// Move counts the cases whose verdict went from From to To.
type Move struct {
	From  engine.Verdict `json:"from"`
	To    engine.Verdict `json:"to"`
	Count int64          `json:"count"`
}

// String writes "93 cases reject → allow".
func (m Move) String() string {
	return fmt.Sprintf("%s %s → %s", countCases(m.Count), m.From, m.To)
}

// DriftClass is the changed cases of one case shape and direction.
type DriftClass struct {
	Shape     string         `json:"shape"`
	From      engine.Verdict `json:"from"`
	To        engine.Verdict `json:"to"`
	Count     int64          `json:"count"`
	Witness   SplitWitness   `json:"witness"`
	Relevance *Relevance     `json:"relevance,omitempty"`
}

// ComputeDrift compares a run with a baseline. When both have per-case
// verdicts of the same domain (same description and case count), it
// counts every changed verdict per policy and walks d, the run's domain,
// once more to find the changed cases' texts, grouping them by shape with
// the smallest as witness, ranked by table's relevance. Otherwise it
// reports Changes alone.
func ComputeDrift(ctx context.Context, d Domain, baseline, run *Report, table *RelevanceTable) (*Drift, error) {
	dr := &Drift{Changes: Diff(baseline, run)}
	dr.Matches = len(dr.Changes) == 0
	if run.verdicts == nil || baseline.Verdicts == nil ||
		baseline.Domain.Description != run.Domain.Description || baseline.Domain.Cases != run.Domain.Cases {
		return dr, nil
	}
	changed := map[string][]int64{} // policy -> positions of changed cases
	olds := map[string][]byte{}
	var names []string
	for _, name := range run.Policies {
		enc, ok := baseline.Verdicts[name]
		if !ok {
			continue
		}
		old, err := decodeVerdicts(enc, run.Domain.Cases)
		if err != nil {
			return nil, fmt.Errorf("baseline verdicts of %s: %w", name, err)
		}
		cur := run.verdicts[name]
		pd := PolicyDrift{Policy: name}
		moves := map[[2]engine.Verdict]int64{}
		for i := range cur {
			if cur[i] != old[i] {
				moves[[2]engine.Verdict{engine.Verdict(old[i]), engine.Verdict(cur[i])}]++
				changed[name] = append(changed[name], int64(i))
				pd.Changed++
			}
		}
		if pd.Changed == 0 {
			continue
		}
		for k, n := range moves {
			pd.Moves = append(pd.Moves, Move{From: k[0], To: k[1], Count: n})
		}
		slices.SortFunc(pd.Moves, func(x, y Move) int {
			return cmp.Or(cmp.Compare(y.Count, x.Count), cmp.Compare(x.From, y.From), cmp.Compare(x.To, y.To))
		})
		olds[name] = old
		names = append(names, name)
		dr.Policies = append(dr.Policies, pd)
	}
	dr.Exact = true
	if len(names) == 0 {
		return dr, nil
	}
	classes, err := driftClasses(ctx, d, run, names, changed, olds, table)
	if err != nil {
		return nil, err
	}
	for i := range dr.Policies {
		cs := classes[dr.Policies[i].Policy]
		dr.Policies[i].Classes = cs[:min(len(cs), DriftClassesPerPolicy)]
		dr.Policies[i].ClassesLeft = len(cs) - len(dr.Policies[i].Classes)
	}
	return dr, nil
}

// driftClasses walks the domain once and groups each policy's changed
// cases by case shape and direction.
func driftClasses(ctx context.Context, d Domain, run *Report, names []string, changed map[string][]int64,
	olds map[string][]byte, table *RelevanceTable) (map[string][]DriftClass, error) {
	type key struct {
		shape    string
		from, to engine.Verdict
	}
	type agg struct {
		count int64
		key   caseKey
	}
	byPolicy := map[string]map[key]*agg{}
	next := map[string]int{} // index into changed[name]
	for _, n := range names {
		byPolicy[n] = map[key]*agg{}
	}
	var offset int64
	var shapes groupShapes
	err := d.Groups(func(g Group) bool {
		if ctx.Err() != nil {
			return false
		}
		end := offset + int64(len(g.Versions))
		ci := newConstraintInfo(g.Constraint)
		reset := false
		for _, n := range names {
			pos := changed[n]
			for next[n] < len(pos) && pos[next[n]] < end {
				i := pos[next[n]]
				next[n]++
				if !reset {
					shapes.reset(&ci)
					reset = true
				}
				vi := newVersionInfo(g.Versions[i-offset])
				k := key{shapes.shapeOf(&vi), engine.Verdict(olds[n][i]), engine.Verdict(run.verdicts[n][i])}
				ck := makeCaseKey(&ci, &vi)
				a := byPolicy[n][k]
				switch {
				case a == nil:
					byPolicy[n][k] = &agg{count: 1, key: ck}
				default:
					a.count++
					if ck.less(a.key) {
						a.key = ck
					}
				}
			}
		}
		offset = end
		return true
	})
	if err == nil {
		err = ctx.Err()
	}
	if err != nil {
		return nil, err
	}
	out := map[string][]DriftClass{}
	for n, m := range byPolicy {
		var cs []DriftClass
		for k, a := range m {
			cs = append(cs, DriftClass{Shape: k.shape, From: k.from, To: k.to, Count: a.count,
				Witness:   SplitWitness{Constraint: a.key.constraint, Version: a.key.version},
				Relevance: table.Of(a.key.constraint)})
		}
		slices.SortFunc(cs, func(x, y DriftClass) int {
			return cmp.Or(relevanceOrder(x.Relevance, x.Count, y.Relevance, y.Count, false),
				strings.Compare(x.Shape, y.Shape), cmp.Compare(x.From, y.From), cmp.Compare(x.To, y.To))
		})
		out[n] = cs
	}
	return out, nil
}

// MovesText writes a policy's moves in a line: "93 cases reject → allow,
// 2 cases allow → reject"; both directions between allow and reject are
// named, 0 when none moved that way.
func (pd PolicyDrift) MovesText() string {
	var parts []string
	has := map[[2]engine.Verdict]bool{}
	for _, m := range pd.Moves {
		has[[2]engine.Verdict{m.From, m.To}] = true
		parts = append(parts, m.String())
	}
	for _, m := range []Move{{From: engine.Reject, To: engine.Allow}, {From: engine.Allow, To: engine.Reject}} {
		if !has[[2]engine.Verdict{m.From, m.To}] {
			parts = append(parts, m.String())
		}
	}
	return strings.Join(parts, ", ")
}
