package compare

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/plural"
	"github.com/prerel/prerel/internal/printable"
)

// driftClassesPerPolicy is how many changed classes a PolicyDrift keeps.
const driftClassesPerPolicy = 5

// maxDriftChanges is how many changes a Drift lists; Drift.ChangesLeft
// counts the others.
const maxDriftChanges = 1000

// MaxDriftShapes bounds the changed case shapes ComputeDrift tells apart
// per policy, those with the shortest shapes (then in byte order);
// PolicyDrift.CasesLeftOut counts the changed cases of the others.
const MaxDriftShapes = 10_000

// Drift is what moved between a baseline and a run, told per policy for a
// reviewer: how many verdicts changed in which direction, and the most
// relevant changed case shapes with a witness each. Changes has the first
// differences diffReports finds.
type Drift struct {
	// Matches is true when the run matches the baseline.
	Matches bool `json:"matches"`
	// Exact is true when the baseline has per-case verdicts for the same
	// cases, so that Policies counts every changed verdict;
	// without them, only Changes tells the drift.
	Exact bool `json:"exact"`
	// Policies lists each policy with changed verdicts, in run order.
	Policies []PolicyDrift `json:"policies,omitempty"`
	// Changes are the changes from the baseline in sentences, the first
	// thousand;
	// ChangesLeft counts the others.
	Changes     []Change `json:"changes"`
	ChangesLeft int      `json:"changes_left,omitempty"`
}

// ChangeCount is the number of changes in all, listed or not.
func (d *Drift) ChangeCount() int {
	if d == nil {
		return 0
	}
	return len(d.Changes) + d.ChangesLeft
}

// PolicyDrift is the changed verdicts of one policy.
type PolicyDrift struct {
	Policy string `json:"policy"`
	// Changed counts the cases whose verdict changed.
	Changed int64 `json:"changed"`
	// Moves counts them by direction, largest first.
	Moves []Move `json:"moves"`
	// Classes are the changed cases grouped by case shape and direction,
	// most relevant first, the first five of them;
	// ClassesLeft counts the others. CasesLeftOut counts the changed
	// cases of the shapes past MaxDriftShapes, which are not told apart.
	Classes      []DriftClass `json:"classes"`
	ClassesLeft  int          `json:"classes_left,omitempty"`
	CasesLeftOut int64        `json:"cases_left_out,omitempty"`
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
// verdicts of the same cases (sameCases), it counts every changed verdict
// per policy and walks d, the run's domain, once more to find the changed
// cases' texts, grouping them by shape with the smallest as witness,
// ranked by table's relevance. Otherwise it reports Changes alone. It
// fails when baseline or run is nil, or when d is nil and the verdicts
// changed.
func ComputeDrift(ctx context.Context, d Domain, baseline, run *Report, table *RelevanceTable) (*Drift, error) {
	if baseline == nil || run == nil {
		return nil, fmt.Errorf("compare: drift needs a baseline and a run")
	}
	dr := &Drift{}
	var total int
	dr.Changes, total = diff(baseline, run, maxDriftChanges)
	dr.ChangesLeft = total - len(dr.Changes)
	dr.Matches = total == 0
	if run.verdicts.get() == nil || baseline.Verdicts == nil || !sameCases(baseline.Domain, run.Domain) {
		return dr, nil
	}
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
		cur := run.verdicts.get()[name]
		if len(cur) != len(old) {
			continue
		}
		pd := PolicyDrift{Policy: name}
		var moves [4][4]int64
		for i := range cur {
			if cur[i] != old[i] {
				moves[old[i]&3][cur[i]&3]++
				pd.Changed++
			}
		}
		if pd.Changed == 0 {
			continue
		}
		for from := range moves {
			for to, n := range moves[from] {
				if n > 0 {
					pd.Moves = append(pd.Moves, Move{From: engine.Verdict(from), To: engine.Verdict(to), Count: n})
				}
			}
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
	if d == nil {
		return nil, fmt.Errorf("compare: drift needs the run's domain to describe the changed verdicts")
	}
	classes, err := driftClasses(ctx, d, run, names, olds, table)
	if err != nil {
		return nil, err
	}
	for i := range dr.Policies {
		pd := &dr.Policies[i]
		cs := classes[pd.Policy]
		pd.Classes = cs[:min(len(cs), driftClassesPerPolicy)]
		pd.ClassesLeft = len(cs) - len(pd.Classes)
		pd.CasesLeftOut = pd.Changed
		for _, c := range cs {
			pd.CasesLeftOut -= c.Count
		}
	}
	return dr, nil
}

// driftKey identifies a changed case shape of one policy.
type driftKey struct {
	shape    string
	from, to engine.Verdict
}

func (k driftKey) less(o driftKey) bool {
	return cmp.Or(cmp.Compare(len(k.shape), len(o.shape)), strings.Compare(k.shape, o.shape),
		cmp.Compare(k.from, o.from), cmp.Compare(k.to, o.to)) < 0
}

// driftAgg counts the changed cases of one shape with the smallest.
type driftAgg struct {
	count int64
	key   caseKey
}

// driftClasses walks the domain once and groups each policy's changed
// cases by case shape and direction.
func driftClasses(ctx context.Context, d Domain, run *Report, names []string,
	olds map[string][]byte, table *RelevanceTable) (map[string][]DriftClass, error) {
	byPolicy := make([]*capped[driftKey, driftAgg], len(names))
	curs := make([][]byte, len(names))
	for i, n := range names {
		byPolicy[i] = newCapped[driftKey, driftAgg](MaxDriftShapes, driftKey.less)
		curs[i] = run.verdicts.get()[n]
	}
	cases := run.Domain.Cases
	var offset int64
	var shapes groupShapes
	var overrun bool
	err := d.Groups(func(g Group) bool {
		if ctx.Err() != nil {
			return false
		}
		end := offset + int64(len(g.Versions))
		if end > cases {
			overrun = true
			return false
		}
		var ci constraintInfo
		reset := false
		for j, v := range g.Versions {
			pos := offset + int64(j)
			var vi versionInfo
			var shape string
			known := false
			for p, n := range names {
				from, to := olds[n][pos], curs[p][pos]
				if from == to {
					continue
				}
				if !reset {
					ci = newConstraintInfo(g.Constraint)
					shapes.reset(&ci)
					reset = true
				}
				if !known {
					vi = newVersionInfo(v)
					shape = shapes.shapeOf(&vi)
					known = true
				}
				ck := makeCaseKey(&ci, &vi)
				k := driftKey{shape, engine.Verdict(from), engine.Verdict(to)}
				a := byPolicy[p].get(k)
				if a == nil {
					if a = byPolicy[p].add(k); a != nil {
						*a = driftAgg{count: 1, key: ck}
					}
					continue
				}
				a.count++
				if ck.less(a.key) {
					a.key = ck
				}
			}
		}
		offset = end
		return true
	})
	if err == nil {
		err = ctx.Err()
	}
	if err == nil && (overrun || offset != cases) {
		err = fmt.Errorf("compare: the domain %s yields other cases than it did for the run", run.Domain.Description)
	}
	if err != nil {
		return nil, err
	}
	out := map[string][]DriftClass{}
	for p, n := range names {
		var cs []DriftClass
		byPolicy[p].each(func(k driftKey, a *driftAgg) {
			cs = append(cs, DriftClass{Shape: k.shape, From: k.from, To: k.to, Count: a.count,
				Witness:   SplitWitness{Constraint: a.key.constraint, Version: a.key.version},
				Relevance: table.Of(a.key.constraint)})
		})
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

// Told is the drift told in short, for stderr, from the baseline read
// from path: the changed verdicts per policy, then the first max changes
// in words, a count of the rest, and how to rewrite the baseline. It is
// "" when the run matches the baseline.
func (d *Drift) Told(path string, max int) string {
	if d.Matches {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "the run differs from the baseline %s in %s:\n", printable.String(path), plural.Of(d.ChangeCount(), "way", "ways"))
	for _, pd := range d.Policies {
		fmt.Fprintf(&b, "  %s: %s\n", pd.Policy, pd.MovesText())
	}
	shown := d.Changes[:min(len(d.Changes), max)]
	for _, c := range shown {
		fmt.Fprintf(&b, "  - %s\n", printable.String(c.Text))
	}
	if left := d.ChangeCount() - len(shown); left > 0 {
		fmt.Fprintf(&b, "  ... and %s (the report lists the changed verdicts per policy)\n", plural.Of(left, "more change", "more changes"))
	}
	fmt.Fprintf(&b, "If the change is intended, rewrite the baseline with --write-baseline %s.", printable.String(path))
	return b.String()
}
