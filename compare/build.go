package compare

import (
	"hash/maphash"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/prerel/prerel/engine"
)

// buildReport turns the merged aggregate into a Report, deciding the cause
// of each class on its witness with the given number of goroutines.
func buildReport(info DomainInfo, policies []engine.Policy, pairs [][2]int, agg *aggregate, workers int, opt Options) *Report {
	r, _ := buildReportFrom(info, policies, pairs, agg, workers, opt, false)
	return r
}

// maxSharedSignatures bounds the signatures buildReport keeps to share
// among the classes of several pairs.
const maxSharedSignatures = 1 << 16

// buildReportFrom is buildReport; with fromRun, the aggregate is a run's,
// whose classes have no reasons yet: it fills them (fillClassReasons)
// while the causes are decided, and lets go of each pair's classes in agg
// once they are in the report, so that the two are not both in memory
// whole. The error is fillClassReasons'.
//
// The pairs' classes are made and sorted, and the causes decided, by
// workers goroutines; the splits are made meanwhile.
func buildReportFrom(info DomainInfo, policies []engine.Policy, pairs [][2]int, agg *aggregate, workers int, opt Options, fromRun bool) (*Report, error) {
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
	// Each pair's classes are sorted, then made straight in their place in
	// r.Classes, the pairs spread over workers goroutines; fromRun, a
	// pair's aggregate goes once its classes are made.
	r.Pairs = make([]Pair, len(pairs))
	at := make([]int, len(pairs)+1) // pair k's classes are r.Classes[at[k]:at[k+1]]
	for k := range pairs {
		at[k+1] = at[k] + agg.pairs[k].classCount()
	}
	r.Classes = make([]Class, at[len(pairs)])
	parallel(len(pairs), workers, func() func(k int) {
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
		var order []classOrder // a pair's classes
		var sorted []int32     // their positions in order, sorted before they are made
		return func(k int) {
			pa, pb := policies[pairs[k][0]], policies[pairs[k][1]]
			agg := &agg.pairs[k]
			left := agg.diverge
			order, sorted = order[:0], sorted[:0]
			agg.eachClass(func(ck classKey, count int64, least *caseKey, c *classAgg) {
				left -= count
				rel := relevance.Of(least.constraint)
				sorted = append(sorted, int32(len(order)))
				order = append(order, classOrder{signature: signature(ck), relevance: rel, share: rel.share(), count: count,
					a: ck.a, b: ck.b, least: least, agg: c})
			})
			byCount := r.Rank == RankCount
			slices.SortFunc(sorted, func(x, y int32) int { return order[x].compare(&order[y], byCount) })
			// The classes are zero: each field is set in its place, not
			// copied in whole.
			classes := r.Classes[at[k]:at[k+1]]
			a, b := pa.Name(), pb.Name()
			for i, j := range sorted {
				o, c := &order[j], &classes[i]
				c.A, c.B, c.Signature, c.Count, c.Relevance = a, b, o.signature, o.count, o.relevance
				w := &c.Witness
				w.Constraint, w.Version, w.AVerdict, w.BVerdict = o.least.constraint, o.least.version, o.a, o.b
				if agg := o.agg; agg != nil {
					w.AReason, w.BReason = agg.reason(0), agg.reason(1)
				}
			}
			clear(order) // let go of the pair's aggregate
			if fromRun {
				agg.classes, agg.final = newCapped[classKey, classAgg](1, classKey.less), nil
			}
			r.Pairs[k] = Pair{A: pa.Name(), B: pb.Name(), Agree: agg.agree, Diverge: agg.diverge, CasesLeftOut: left}
		}
	})
	splitsDone := make(chan struct{})
	go func() {
		defer close(splitsDone)
		r.Splits, r.SplitCasesLeftOut = buildSplits(r.Policies, agg, newRelevanceMemo(opt.Relevance), r.Rank)
	}()
	witnesses, classesOf, witnessOf := classWitnesses(r.Classes, workers)
	sides := make([][2]int32, len(r.Classes)) // the policies of each class
	for k, pr := range pairs {
		for i := at[k]; i < at[k+1]; i++ {
			sides[i] = [2]int32{int32(pr[0]), int32(pr[1])}
		}
	}
	var reasonsErr error
	reasonsDone := make(chan struct{})
	go func() {
		defer close(reasonsDone)
		if fromRun {
			reasonsErr = fillClassReasons(r.Classes, sides, witnesses, witnessOf, policies, workers)
		}
	}()
	decideWitnessCauses(r.Classes, sides, witnesses, classesOf, policies, workers, opt.cases)
	<-splitsDone
	<-reasonsDone
	if reasonsErr != nil {
		return nil, reasonsErr
	}
	r.Summary = buildSummary(r, byName)
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
	return r, nil
}

// classOrder is a class of one pair with what orders it, sorted (by its
// position) before the class is made so that the sort moves a word, not
// the class.
type classOrder struct {
	signature string
	relevance *Relevance
	share     float64 // the relevance's share
	count     int64
	a, b      engine.Verdict
	least     *caseKey  // the witness
	agg       *classAgg // the class in a capped map, with its reasons; nil for pairAgg.final's
}

// compare orders o before p as shareOrder does (the larger share, then
// the larger count; with byCount the larger count first), then by
// signature. It is shareOrder written out, as the sort of a pair's
// classes calls it most.
func (o *classOrder) compare(p *classOrder, byCount bool) int {
	switch {
	case o.share == p.share && o.count == p.count:
		return strings.Compare(o.signature, p.signature)
	case byCount && o.count != p.count, !byCount && o.share == p.share:
		return larger(o.count, p.count)
	}
	return larger(o.share, p.share)
}

// larger is -1 when a is larger than b, 1 otherwise: the order of a
// descending sort of values that differ.
func larger[T int64 | float64](a, b T) int {
	if a > b {
		return -1
	}
	return 1
}

// classWitnesses finds the witnesses of the classes, the classes of each
// (classesOf[w] are the indexes of those of witnesses[w], in order) and
// the witness of each class (witnessOf[i] is the number of classes[i]'s
// in witnesses), in blocks of classes in parallel. Each goroutine numbers the
// witnesses of its blocks in a map of its own and writes each class's
// number in place; the numbers are then made one, and the classes of
// every witness are parts of one array, not a slice grown per witness.
func classWitnesses(classes []Class, workers int) (witnesses [][2]string, classesOf [][]int32, witnessOf []int32) {
	const block = 1024
	type part struct {
		index map[[2]string]int32
		keys  [][2]string
	}
	var mu sync.Mutex
	var parts []*part
	of := make([]int32, len(classes))                     // each class's witness, by its part's number
	partOf := make([]int32, (len(classes)+block-1)/block) // the part of each block
	parallel(len(partOf), workers, func() func(int) {
		p := &part{index: map[[2]string]int32{}}
		mu.Lock()
		pi := int32(len(parts))
		parts = append(parts, p)
		mu.Unlock()
		return func(b int) {
			partOf[b] = pi
			for i := b * block; i < min(len(classes), (b+1)*block); i++ {
				w := &classes[i].Witness
				k := [2]string{w.Constraint, w.Version}
				n, ok := p.index[k]
				if !ok {
					n = int32(len(p.keys))
					p.index[k] = n
					p.keys = append(p.keys, k)
				}
				of[i] = n
			}
		}
	})
	index := map[[2]string]int32{}
	numbers := make([][]int32, len(parts)) // a part's numbers in witnesses
	for pi, p := range parts {
		numbers[pi] = make([]int32, len(p.keys))
		for j, k := range p.keys {
			n, ok := index[k]
			if !ok {
				n = int32(len(witnesses))
				index[k] = n
				witnesses = append(witnesses, k)
			}
			numbers[pi][j] = n
		}
		p.index = nil
	}
	size := make([]int32, len(witnesses))
	for i, n := range of {
		of[i] = numbers[partOf[i/block]][n]
		size[of[i]]++
	}
	all := make([]int32, len(classes))
	classesOf = make([][]int32, len(witnesses))
	at := int32(0)
	for w, m := range size {
		classesOf[w] = all[at : at : at+m]
		at += m
	}
	for i, w := range of {
		classesOf[w] = append(classesOf[w], int32(i))
	}
	return witnesses, classesOf, of
}

// decideWitnessCauses sets the cause of every class, whose policies are
// sides[i] (-1 for none: CauseUnknown); classesOf[w] are the classes of
// witnesses[w] (classWitnesses). Classes of different pairs
// often share a witness, and the counterfactual cases of CauseOf depend on
// the witness alone, so the classes are taken witness by witness, spread
// over workers goroutines: a goroutine judges each (policy, case) of a
// witness's steps once, and the goroutines share the constraints the
// steps need, compiled once per policy for as many witnesses as they can
// keep them. The verdicts of the
// witness itself are the class's. A case of the steps that is a case of
// the run (cases, nil for none) is read from the run's verdict log
// (runCases); when the other cases name few enough versions, the policies
// judge them on the fast path (causeTables).
func decideWitnessCauses(classes []Class, sides [][2]int32, witnesses [][2]string, classesOf [][]int32, policies []engine.Policy, workers int, cases *runCases) {
	// The steps of each witness, worked out once when there are few
	// enough witnesses to keep them all; else each as it is decided.
	var steps [][]counterfactual
	var numbers [][]int32
	var inRun [][]int64
	var log *verdictLog // the run's verdicts, when inRun is set
	if len(witnesses) <= maxCauseWitnesses {
		steps = make([][]counterfactual, len(witnesses))
		parallel(len(witnesses), workers, func() func(int) {
			return func(w int) { steps[w] = counterfactuals(witnesses[w][0], witnesses[w][1]) }
		})
		var number map[string]int32
		numbers, number = numberConstraints(steps)
		if x := cases.index(number); x != nil {
			inRun, log = casesInRun(steps, numbers, x), x.log
		}
	}
	tables := newCauseTables(steps, numbers, inRun, policies, workers)
	matchers := &matcherCache{}
	// The witnesses of one constraint share most constraints of their
	// steps: taken one after the other, they find them compiled.
	order := make([]int32, len(witnesses))
	for w := range order {
		order[w] = int32(w)
	}
	slices.SortFunc(order, func(x, y int32) int {
		if c := strings.Compare(witnesses[x][0], witnesses[y][0]); c != 0 {
			return c
		}
		return strings.Compare(witnesses[x][1], witnesses[y][1])
	})
	// The classes of a witness lie far apart in classes: what the causes
	// read of them is read in order first, and their causes written back
	// in order last.
	of := make([]causeClass, len(classes))
	chunks := (len(classes) + causeChunk - 1) / causeChunk
	parallel(chunks, workers, func() func(int) {
		return func(k int) {
			for i := k * causeChunk; i < min(len(classes), (k+1)*causeChunk); i++ {
				w := &classes[i].Witness
				of[i] = causeClass{a: sides[i][0], b: sides[i][1], va: w.AVerdict, vb: w.BVerdict}
			}
		}
	})
	parallel(len(witnesses), workers, func() func(int) {
		j := causeJudge{policies: policies, of: of, matchers: matchers, tables: tables, log: log}
		return func(i int) {
			w := order[i]
			if steps != nil {
				j.decide(classesOf[w], steps[w], numbers[w], rowOf(inRun, int(w)))
			} else {
				j.decide(classesOf[w], counterfactuals(witnesses[w][0], witnesses[w][1]), nil, nil)
			}
		}
	})
	parallel(chunks, workers, func() func(int) {
		return func(k int) {
			for i := k * causeChunk; i < min(len(classes), (k+1)*causeChunk); i++ {
				classes[i].Cause = causeOfCode[of[i].cause]
			}
		}
	})
}

// causeClass is what the causes read of a class: its policies (-1 for
// none) and their verdicts on its witness; and the code of the cause
// decided (causeOfCode).
type causeClass struct {
	a, b   int32
	va, vb engine.Verdict
	cause  uint8
}

// causeChunk is how many classes a goroutine reads or writes in a row
// for the causes.
const causeChunk = 1 << 14

// causeOfCode is the causes by their code in causeClass.
var causeOfCode = [...]Cause{CauseUnknown, CauseSyntax, CauseVPrefix, CausePartial, CauseMetadata,
	CausePessimistic, CausePrecedence, CausePrerelease}

// causeCode is the code of c in causeOfCode.
func causeCode(c Cause) uint8 {
	for i, x := range causeOfCode {
		if x == c {
			return uint8(i)
		}
	}
	panic("compare: no code for the cause " + string(c))
}

// numberConstraints numbers the constraints of the cases of the steps of
// every witness, from 0: numbers[w] are those of the cases of steps[w],
// in order, and index gives each constraint's number.
func numberConstraints(steps [][]counterfactual) (numbers [][]int32, index map[string]int32) {
	index = map[string]int32{}
	numbers = make([][]int32, len(steps))
	for w, ws := range steps {
		for _, s := range ws {
			for _, c := range s.cases {
				n, ok := index[c[0]]
				if !ok {
					n = int32(len(index))
					index[c[0]] = n
				}
				numbers[w] = append(numbers[w], n)
			}
		}
	}
	return numbers, index
}

// casesInRun gives the position in the domain's order of each case of
// the steps of every witness that is a case of the run (x), -1 for the
// others: inRun[w] are those of the cases of steps[w], in order, as
// numbers[w] (numberConstraints).
func casesInRun(steps [][]counterfactual, numbers [][]int32, x *runCaseIndex) (inRun [][]int64) {
	n := 0
	for _, ns := range numbers {
		n += len(ns)
	}
	all := make([]int64, 0, n) // one array for every witness
	inRun = make([][]int64, len(steps))
	for w, ws := range steps {
		k := 0
		for _, s := range ws {
			for _, c := range s.cases {
				all = append(all, x.offset(numbers[w][k], c[1]))
				k++
			}
		}
		inRun[w] = all[len(all)-k:]
	}
	return inRun
}

// rowOf is rows[w], or nil when rows is.
func rowOf(rows [][]int64, w int) []int64 {
	if rows == nil {
		return nil
	}
	return rows[w]
}

// causeJudge decides the causes of the classes of one witness after
// another, judging the cases of CauseOf's steps as engine.Evaluate does.
type causeJudge struct {
	policies []engine.Policy
	of       []causeClass // the classes, whose causes it sets
	classes  []causeClass // the classes of the witness being decided

	matchers *matcherCache
	tables   *causeTables // nil: every case on text

	// the witness being decided
	steps    []counterfactual
	cases    [][2]string // the cases of the steps, in order
	numbers  []int32     // the number of each case's constraint (numberConstraints), with tables
	inRun    []int64     // the position of each case in the run's log (casesInRun), or -1; nil for none
	log      *verdictLog // the run's verdicts, read at inRun
	stepOf   []int       // the step of each case
	at       []int32     // the position of each case's version in the tables, or -1
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
// use. A nil Matcher is a constraint the policy refuses. The constraints
// are kept in matcherShards shards by their hash, each with a lock of its
// own, so that goroutines that compile different constraints seldom wait
// for each other. The zero value is ready to use.
type matcherCache struct {
	shards [matcherShards]matcherShard
}

// matcherShard is one shard of a matcherCache.
type matcherShard struct {
	mu sync.RWMutex
	m  map[matcherKey]engine.Matcher
}

// matcherShards is the number of shards of a matcherCache.
const matcherShards = 16

// matcherSeed hashes constraints to the shards of matcherCaches.
var matcherSeed = maphash.MakeSeed()

// maxCauseMatchers bounds the compiled constraints a matcherCache keeps.
const maxCauseMatchers = 1 << 12

// get returns policy p's Matcher for constraint c, compiling it the first
// time.
func (mc *matcherCache) get(policies []engine.Policy, k matcherKey) engine.Matcher {
	sh := &mc.shards[maphash.String(matcherSeed, k.constraint)%matcherShards]
	sh.mu.RLock()
	m, ok := sh.m[k]
	sh.mu.RUnlock()
	if ok {
		return m
	}
	var err error
	if m, err = policies[k.policy].Compile(k.constraint); err != nil || isNilMatcher(m) {
		m = nil
	}
	sh.mu.Lock()
	if sh.m == nil || len(sh.m) >= maxCauseMatchers/matcherShards {
		sh.m = map[matcherKey]engine.Matcher{}
	}
	sh.m[k] = m
	sh.mu.Unlock()
	return m
}

// decide sets the cause of the classes (indexes into j.of) that share
// a witness, as CauseOf would; steps are the witness's counterfactuals,
// numbers the numbers of their cases' constraints (numberConstraints;
// nil without tables), and inRun their positions in the run's log
// (casesInRun; nil for none).
func (j *causeJudge) decide(indexes []int32, steps []counterfactual, numbers []int32, inRun []int64) {
	j.steps, j.numbers, j.inRun = steps, numbers, inRun
	j.cases, j.stepOf, j.at = j.cases[:0], j.stepOf[:0], j.at[:0]
	for s, step := range j.steps {
		for _, cv := range step.cases {
			j.cases = append(j.cases, cv)
			j.stepOf = append(j.stepOf, s)
			j.at = append(j.at, j.tables.at(cv[1]))
		}
	}
	j.verdicts = resetSlice(j.verdicts, len(j.cases)*len(j.policies), -1)
	// The classes lie far apart: they are all read first, in a loop that
	// waits for none of them.
	j.classes = j.classes[:0]
	for _, i := range indexes {
		j.classes = append(j.classes, j.of[i])
	}
	for k, c := range j.classes {
		cause := CauseUnknown
		if c.a >= 0 && c.b >= 0 {
			cause = j.safeDecide(int(c.a), int(c.b), c.va, c.vb)
		}
		j.of[indexes[k]].cause = causeCode(cause)
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
	if j.inRun != nil && j.inRun[i] >= 0 {
		got := j.log.verdict(p, j.inRun[i])
		j.verdicts[at] = int8(got)
		return got
	}
	c, v := j.cases[i][0], j.cases[i][1]
	if got, ok := j.tables.verdict(p, c, j.number(i), j.at[i]); ok {
		j.verdicts[at] = int8(got)
		return got
	}
	m := j.matchers.get(j.policies, matcherKey{p, c})
	got := engine.Invalid
	if m != nil {
		got = m.Match(v).Verdict
	}
	j.verdicts[at] = int8(got)
	return got
}

// number is the number of the constraint of case i, or -1 when the
// witness has none.
func (j *causeJudge) number(i int) int32 {
	if j.numbers == nil {
		return -1
	}
	return j.numbers[i]
}

// isNilMatcher reports whether m is nil or holds a nil pointer or
// function, which engine.Evaluate judges Invalid.
func isNilMatcher(m engine.Matcher) bool {
	return isNilValue(m)
}

// isNilValue reports whether x is nil or holds a nil pointer or function.
func isNilValue(x any) bool {
	if x == nil {
		return true
	}
	switch v := reflect.ValueOf(x); v.Kind() {
	case reflect.Pointer, reflect.Func, reflect.UnsafePointer:
		return v.IsNil()
	}
	return false
}

// parallel calls the function newWorker returns for each of 0 to n-1,
// from workers goroutines that each call newWorker once, and returns when
// every call has.
func parallel(n, workers int, newWorker func() func(int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(max(workers, 1), max(n, 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			do := newWorker()
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				do(i)
			}
		}()
	}
	wg.Wait()
}

// groupParallel calls visit(i, add) for every i in [0, n), spread over
// workers goroutines as parallel does; visit files values under keys with
// add. It returns each key and the values filed under it (groups[j] are
// those of keys[j]), the keys in no particular order and the values of a
// key in no particular order either. Each goroutine files under keys of
// its own, and the groups are joined at the end, key by key.
func groupParallel[K comparable, V any](n, workers int, visit func(i int, add func(K, V))) (keys []K, groups [][]V) {
	type part struct {
		index  map[K]int32
		keys   []K
		groups [][]V
	}
	var mu sync.Mutex
	var parts []*part
	parallel(n, workers, func() func(int) {
		p := &part{index: map[K]int32{}}
		mu.Lock()
		parts = append(parts, p)
		mu.Unlock()
		add := func(k K, v V) {
			g, ok := p.index[k]
			if !ok {
				g = int32(len(p.groups))
				p.index[k] = g
				p.keys = append(p.keys, k)
				p.groups = append(p.groups, nil)
			}
			p.groups[g] = append(p.groups[g], v)
		}
		return func(i int) { visit(i, add) }
	})
	if len(parts) == 1 {
		return parts[0].keys, parts[0].groups
	}
	index := map[K]int32{}
	for _, p := range parts {
		for j, k := range p.keys {
			if g, ok := index[k]; ok {
				groups[g] = append(groups[g], p.groups[j]...)
				continue
			}
			index[k] = int32(len(groups))
			keys = append(keys, k)
			groups = append(groups, p.groups[j])
		}
	}
	return keys, groups
}
