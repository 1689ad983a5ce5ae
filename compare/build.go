package compare

import (
	"cmp"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/prerel/prerel/engine"
)

// buildReport turns the merged aggregate into a Report, deciding the cause
// of each class on its witness with the given number of goroutines.
func buildReport(info DomainInfo, policies []engine.Policy, pairs [][2]int, agg *aggregate, workers int, opt Options) *Report {
	return buildReportFrom(info, policies, pairs, agg, workers, opt, false)
}

// maxSharedSignatures bounds the signatures buildReport keeps to share
// among the classes of several pairs.
const maxSharedSignatures = 1 << 16

// buildReportFrom is buildReport; with consume, it lets go of each pair's
// classes in agg once they are in the report, so that the two are not
// both in memory whole.
func buildReportFrom(info DomainInfo, policies []engine.Policy, pairs [][2]int, agg *aggregate, workers int, opt Options, consume bool) *Report {
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
	relevance := newRelevanceMemo(opt.Relevance)
	signatures := map[classKey]string{} // classes of many pairs share one
	signature := func(ck classKey) string {
		s, ok := signatures[ck]
		if !ok {
			s = joinSignature(ck.shape, ck.a, ck.b)
			if len(signatures) >= maxSharedSignatures {
				clear(signatures)
			}
			signatures[ck] = s
		}
		return s
	}
	// Each pair's classes on their own first, so that with consume a
	// pair's aggregate can go before the report's classes are all made.
	byPair := make([][]Class, len(pairs))
	total := 0
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
				Signature: signature(ck),
				Count:     c.count,
				Relevance: relevance.Of(c.key.constraint),
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
		if consume {
			agg.classes = newCapped[classKey, classAgg](1, classKey.less)
		}
		r.Pairs = append(r.Pairs, Pair{A: pa.Name(), B: pb.Name(), Agree: agg.agree, Diverge: agg.diverge, CasesLeftOut: left})
		slices.SortFunc(classes, func(x, y Class) int {
			return cmp.Or(relevanceOrder(x.Relevance, x.Count, y.Relevance, y.Count, r.Rank == RankCount),
				strings.Compare(x.Signature, y.Signature))
		})
		byPair[k] = classes
		total += len(classes)
	}
	r.Classes = make([]Class, 0, total)
	for k := range byPair {
		r.Classes = append(r.Classes, byPair[k]...)
		byPair[k] = nil
	}
	decideCauses(r.Classes, policies, workers)
	r.Summary = buildSummary(r, byName)
	r.Splits, r.SplitCasesLeftOut = buildSplits(r.Policies, agg, relevance, r.Rank)
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
// the witness alone, so the classes are taken witness by witness, and the
// witnesses constraint by constraint, spread over workers goroutines: a
// goroutine judges each (policy, case) of a witness's steps once, and the
// goroutines share the constraints the steps need, compiled once per
// policy for as many witnesses as they can keep them. The verdicts of the
// witness itself are the class's.
func decideCauses(classes []Class, policies []engine.Policy, workers int) {
	index := make(map[string]int, len(policies))
	for i, p := range policies {
		index[p.Name()] = i
	}
	// The classes of each witness constraint, in the order they come.
	groups := map[string]int32{}
	var byConstraint [][]int32
	for i := range classes {
		c := classes[i].Witness.Constraint
		g, ok := groups[c]
		if !ok {
			g = int32(len(byConstraint))
			groups[c] = g
			byConstraint = append(byConstraint, nil)
		}
		byConstraint[g] = append(byConstraint[g], int32(i))
	}
	groups = nil
	matchers := &matcherCache{m: map[matcherKey]engine.Matcher{}}
	next := make(chan []int32)
	var wg sync.WaitGroup
	for range max(workers, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			j := causeJudge{policies: policies, index: index, matchers: matchers}
			for run := range next {
				slices.SortFunc(run, func(x, y int32) int {
					return cmp.Or(cmp.Compare(classes[x].Witness.Version, classes[y].Witness.Version), cmp.Compare(x, y))
				})
				for len(run) > 0 {
					w := &classes[run[0]].Witness
					n := 1
					for n < len(run) && classes[run[n]].Witness.Version == w.Version {
						n++
					}
					j.decide(classes, run[:n], w.Constraint, w.Version)
					run = run[n:]
				}
			}
		}()
	}
	for _, run := range byConstraint {
		next <- run
	}
	close(next)
	wg.Wait()
}

// causeJudge decides the causes of the classes of one witness after
// another, judging the cases of CauseOf's steps as engine.Evaluate does.
type causeJudge struct {
	policies []engine.Policy
	index    map[string]int // policy name -> index in policies

	matchers *matcherCache

	// the witness being decided
	steps    []counterfactual
	cases    [][2]string // the cases of the steps, in order
	stepOf   []int       // the step of each case
	verdicts []int8      // [case*len(policies)+policy]; -1 until judged
}

// matcherKey is a policy (its index) and a constraint.
type matcherKey struct {
	policy     int
	constraint string
}

// matcherCache keeps the constraints the steps of the witnesses need,
// compiled, for the goroutines of decideCauses: the constraints of one
// witness's steps recur in many others. A Matcher is safe for concurrent
// use. A nil Matcher is a constraint the policy refuses.
type matcherCache struct {
	mu sync.RWMutex
	m  map[matcherKey]engine.Matcher
}

// maxCauseMatchers bounds the compiled constraints a matcherCache keeps.
const maxCauseMatchers = 1 << 12

// get returns policy p's Matcher for constraint c, compiling it the first
// time.
func (mc *matcherCache) get(policies []engine.Policy, k matcherKey) engine.Matcher {
	mc.mu.RLock()
	m, ok := mc.m[k]
	mc.mu.RUnlock()
	if ok {
		return m
	}
	var err error
	if m, err = policies[k.policy].Compile(k.constraint); err != nil || isNilMatcher(m) {
		m = nil
	}
	mc.mu.Lock()
	if len(mc.m) >= maxCauseMatchers {
		clear(mc.m)
	}
	mc.m[k] = m
	mc.mu.Unlock()
	return m
}

// decide sets the cause of the classes (indexes into classes) that share
// the witness (constraint, version), as CauseOf would.
func (j *causeJudge) decide(classes []Class, indexes []int32, constraint, version string) {
	j.steps = counterfactuals(constraint, version)
	j.cases, j.stepOf = j.cases[:0], j.stepOf[:0]
	for s, step := range j.steps {
		for _, cv := range step.cases {
			j.cases = append(j.cases, cv)
			j.stepOf = append(j.stepOf, s)
		}
	}
	j.verdicts = resetSlice(j.verdicts, len(j.cases)*len(j.policies), -1)
	for _, i := range indexes {
		c := &classes[i]
		a, aok := j.index[c.A]
		b, bok := j.index[c.B]
		if !aok || !bok {
			c.Cause = CauseUnknown
			continue
		}
		c.Cause = j.safeDecide(a, b, c.Witness.AVerdict, c.Witness.BVerdict)
	}
}

// safeDecide is decideCause for policies a and b, whose verdicts on the
// witness are va and vb, on the steps of the witness being decided. It
// answers CauseUnknown when a policy panics on a rewritten case, or when
// the two agree on the witness.
func (j *causeJudge) safeDecide(a, b int, va, vb engine.Verdict) (cause Cause) {
	defer func() {
		if recover() != nil {
			cause = CauseUnknown
		}
	}()
	switch {
	case va == vb:
		return CauseUnknown
	case va == engine.Invalid || vb == engine.Invalid:
		return CauseSyntax
	}
	for i := range j.cases {
		if j.verdict(a, i) == j.verdict(b, i) {
			return j.steps[j.stepOf[i]].cause
		}
	}
	return CauseUnknown
}

// verdict is engine.Evaluate's verdict of policy p on case i of the
// witness's steps.
func (j *causeJudge) verdict(p, i int) engine.Verdict {
	at := i*len(j.policies) + p
	if v := j.verdicts[at]; v >= 0 {
		return engine.Verdict(v)
	}
	c, v := j.cases[i][0], j.cases[i][1]
	m := j.matchers.get(j.policies, matcherKey{p, c})
	got := engine.Invalid
	if m != nil {
		got = m.Match(v).Verdict
	}
	j.verdicts[at] = int8(got)
	return got
}

// isNilMatcher reports whether m is nil or holds a nil pointer or
// function, which engine.Evaluate judges Invalid.
func isNilMatcher(m engine.Matcher) bool {
	if m == nil {
		return true
	}
	switch v := reflect.ValueOf(m); v.Kind() {
	case reflect.Pointer, reflect.Func, reflect.UnsafePointer:
		return v.IsNil()
	}
	return false
}
