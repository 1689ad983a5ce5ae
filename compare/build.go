package compare

import (
	"sort"
	"sync"

	"github.com/prerel/prerel/engine"
)

// buildReport turns the merged aggregate into a Report, deciding the cause
// of each class on its witness with the given number of goroutines.
func buildReport(info DomainInfo, policies []engine.Policy, pairs [][2]int, agg *aggregate, workers int) *Report {
	r := &Report{Schema: SchemaVersion, Domain: info, Pairs: []Pair{}, Classes: []Class{}}
	for _, p := range policies {
		r.Policies = append(r.Policies, p.Name())
	}
	for k, pr := range pairs {
		pa, pb := policies[pr[0]], policies[pr[1]]
		agg := &agg.pairs[k]
		r.Pairs = append(r.Pairs, Pair{A: pa.Name(), B: pb.Name(), Agree: agg.agree, Diverge: agg.diverge})
		classes := make([]Class, 0, len(agg.classes))
		for ck, c := range agg.classes {
			classes = append(classes, Class{
				A:         pa.Name(),
				B:         pb.Name(),
				Signature: joinSignature(ck.shape, ck.a, ck.b),
				Count:     c.count,
				Witness: Witness{
					Constraint: c.key.constraint,
					Version:    c.key.version,
					AVerdict:   c.ra.Verdict,
					BVerdict:   c.rb.Verdict,
					AReason:    c.ra.Reason,
					BReason:    c.rb.Reason,
				},
			})
		}
		sort.Slice(classes, func(i, j int) bool {
			if classes[i].Count != classes[j].Count {
				return classes[i].Count > classes[j].Count
			}
			return classes[i].Signature < classes[j].Signature
		})
		r.Classes = append(r.Classes, classes...)
	}
	decideCauses(r.Classes, policies, workers)
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

// decideCauses sets the cause of every class, spreading the work over
// workers goroutines.
func decideCauses(classes []Class, policies []engine.Policy, workers int) {
	byName := make(map[string]engine.Policy, len(policies))
	for _, p := range policies {
		byName[p.Name()] = p
	}
	e := new(evaluator)
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				c := &classes[i]
				c.Cause = e.safeCauseOf(byName[c.A], byName[c.B], c.Witness.Constraint, c.Witness.Version)
			}
		}()
	}
	for i := range classes {
		next <- i
	}
	close(next)
	wg.Wait()
}

// safeCauseOf is CauseOf that answers CauseUnknown when a policy panics on
// a rewritten case or, answering differently this time, agrees.
func (e *evaluator) safeCauseOf(a, b engine.Policy, constraint, version string) (cause Cause) {
	defer func() {
		if recover() != nil {
			cause = CauseUnknown
		}
	}()
	if cause = e.causeOf(a, b, constraint, version); cause == "" {
		cause = CauseUnknown
	}
	return cause
}
