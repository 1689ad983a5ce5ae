package compare

import (
	"cmp"
	"slices"
	"strings"
	"sync"

	"github.com/prerel/prerel/engine"
)

// buildReport turns the merged aggregate into a Report, deciding the cause
// of each class on its witness with the given number of goroutines.
func buildReport(info DomainInfo, policies []engine.Policy, pairs [][2]int, agg *aggregate, workers int, opt Options) *Report {
	r := &Report{Schema: SchemaVersion, Domain: info, Pairs: []Pair{}, Classes: []Class{}, Rank: opt.Rank}
	if r.Rank == "" {
		r.Rank = RankRelevance
	}
	byName := make(map[string]engine.Policy, len(policies))
	for _, p := range policies {
		r.Policies = append(r.Policies, p.Name())
		byName[p.Name()] = p
	}
	r.Reference = referenceOf(opt.Reference, r.Policies)
	for k, pr := range pairs {
		pa, pb := policies[pr[0]], policies[pr[1]]
		agg := &agg.pairs[k]
		classes := make([]Class, 0, agg.classes.len())
		left := agg.diverge
		agg.classes.each(func(ck classKey, c *classAgg) {
			left -= c.count
			classes = append(classes, Class{
				A:         pa.Name(),
				B:         pb.Name(),
				Signature: joinSignature(ck.shape, ck.a, ck.b),
				Count:     c.count,
				Relevance: opt.Relevance.Of(c.key.constraint),
				Witness: Witness{
					Constraint: c.key.constraint,
					Version:    c.key.version,
					AVerdict:   c.ra.Verdict,
					BVerdict:   c.rb.Verdict,
					AReason:    c.ra.Reason,
					BReason:    c.rb.Reason,
				},
			})
		})
		r.Pairs = append(r.Pairs, Pair{A: pa.Name(), B: pb.Name(), Agree: agg.agree, Diverge: agg.diverge, CasesLeftOut: left})
		slices.SortFunc(classes, func(x, y Class) int {
			return cmp.Or(relevanceOrder(x.Relevance, x.Count, y.Relevance, y.Count, r.Rank == RankCount),
				strings.Compare(x.Signature, y.Signature))
		})
		r.Classes = append(r.Classes, classes...)
	}
	decideCauses(r.Classes, policies, workers)
	r.Summary = buildSummary(r, byName)
	r.Splits, r.SplitCasesLeftOut = buildSplits(r.Policies, agg, opt.Relevance, r.Rank)
	if agg.selection != nil {
		s := &SelectionReport{Groups: agg.selGroups, Pairs: []SelectionPair{}}
		for k, pr := range pairs {
			sa := &agg.selection[k]
			sp := SelectionPair{A: policies[pr[0]].Name(), B: policies[pr[1]].Name(), Agree: sa.agree, Diverge: sa.diverge}
			if w := sa.witness; w != nil {
				sp.Witness = &SelectionWitness{Constraint: w.key.constraint, History: w.history, ASelected: w.a, BSelected: w.b}
			}
			s.Pairs = append(s.Pairs, sp)
		}
		r.Selection = s
	}
	return r
}

// decideCauses sets the cause of every class. Classes of different pairs
// often share a witness, and the counterfactual cases of CauseOf depend on
// the witness alone, so the classes are taken witness by witness, each
// (policy, case) judged once, spread over workers goroutines.
func decideCauses(classes []Class, policies []engine.Policy, workers int) {
	byName := make(map[string]engine.Policy, len(policies))
	for _, p := range policies {
		byName[p.Name()] = p
	}
	byWitness := map[[2]string][]int{}
	var order [][2]string
	for i, c := range classes {
		k := [2]string{c.Witness.Constraint, c.Witness.Version}
		if _, ok := byWitness[k]; !ok {
			order = append(order, k)
		}
		byWitness[k] = append(byWitness[k], i)
	}
	next := make(chan [2]string)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range next {
				decideWitness(classes, byWitness[k], byName, k[0], k[1])
			}
		}()
	}
	for _, k := range order {
		next <- k
	}
	close(next)
	wg.Wait()
}

// decideWitness sets the cause of the classes (indexes into classes) that
// share the witness (constraint, version).
func decideWitness(classes []Class, indexes []int, byName map[string]engine.Policy, constraint, version string) {
	steps := counterfactuals(constraint, version)
	memo := map[verdictKey]engine.Verdict{}
	verdict := func(p engine.Policy, c, v string) engine.Verdict {
		k := verdictKey{p.Name(), c, v}
		if got, ok := memo[k]; ok {
			return got
		}
		got := engine.Evaluate(p, c, v).Verdict
		memo[k] = got
		return got
	}
	for _, i := range indexes {
		c := &classes[i]
		c.Cause = safeDecide(byName[c.A], byName[c.B], constraint, version, steps, verdict)
	}
}

type verdictKey struct{ policy, constraint, version string }

// safeDecide is decideCause that answers CauseUnknown when a policy panics
// on a rewritten case or, answering differently this time, agrees.
func safeDecide(a, b engine.Policy, constraint, version string, steps []counterfactual, verdict func(p engine.Policy, c, v string) engine.Verdict) (cause Cause) {
	defer func() {
		if recover() != nil {
			cause = CauseUnknown
		}
	}()
	if cause = decideCause(a, b, constraint, version, steps, verdict); cause == "" {
		cause = CauseUnknown
	}
	return cause
}
