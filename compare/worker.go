package compare

import (
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"math/bits"
	"runtime/debug"
	"slices"
	"sync"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/elide"
)

// worker judges groups and adds what it sees to the run's aggregate,
// which the workers of a run share.
//
// A group is judged policy by policy on the fast path of engine/table.go:
// the worker reads each list of versions once per policy
// (engine.ReadVersions, cached per list), compiles the group's constraint
// once per policy against it, and has the whole list judged into a vector
// of verdicts. Each vector is kept as two bit planes (bit 0 and bit 1 of
// every verdict), so that the agreement of a pair on the whole group is a
// few word operations: an exclusive or and a population count. Only the
// versions where the policies do not all agree go on: each is filed under
// its local split, the pair of its case shape and its verdict vector, and
// the splits and their witnesses are then updated once per local split,
// not once per case. Each stripe of pairs keeps an index of the local
// splits' vectors, which adds up the local splits of each vector
// (vectorEntry); the index reaches the classes of its pairs when it is
// emptied or the run is over, pair by pair, each pair's classes summed
// over every vector before they are added to (classStripe.flush). A class
// keeps its witness's verdicts; the policies' reasons are fetched once the
// run is over, for the witnesses that remain (fillReasons).
//
// Judging and filing need no lock. The worker then holds the aggregate's
// lock to add the group's cases, splits and selections, and the lock of
// each stripe of pairs in turn, starting from a stripe of its own and
// leaving a stripe another worker holds for last, to add the pairs'
// counts and the local splits, so that the workers seldom wait for one
// another.
type worker struct {
	id       int // the worker's number in the run
	policies []engine.Policy
	pairs    [][2]int
	shared   *sharedAggregate
	log      *verdictLog
	lists    listCache
	shapes   groupShapes

	// the group being judged
	list     *versionList
	errs     []error
	verdicts [][]engine.Verdict // [policy][version]
	lo, hi   [][]uint64         // [policy][word]: bit 0 and bit 1 of each verdict
	diverged []uint64           // the versions where the policies do not all agree
	diverge  []int64            // per pair: the versions where it diverges
	splits   map[string]int32   // local split key -> index in local
	local    []localSplit
	refused  []string // per policy: its refusal of the constraint, "" until needed
	vrefused []string // per shape number: the refusal of its version, "" until needed
	key      []byte
	vkeys    []byte         // the local splits' keys in the stripes' indexes
	busy     []*classStripe // stripes whose lock another worker held
	picks    []string
	admitted []string // the versions a Selector allows, for pick
	// numbers of sharedAggregate.ids of generation gen: of each shape, of
	// the refusal of its version, of each policy's refusal of the
	// constraint (0 when it has none), and of the set of those refusals
	shapeIDs, vrefIDs, refIDs []uint32
	refusedID                 uint32
	gen                       int
	// the policies' refusals of the group's constraint, for the stripes'
	// indexes; nil when no policy refused it
	crefs *constraintRefusals

	// where the worker is, for the error when a policy panics
	policy  int
	version string
	stack   []byte
}

// localSplit is the diverging versions of one group that share a case
// shape and the verdict of every policy: every pair's class of each of
// them is the same.
type localSplit struct {
	shape    int32  // number within the group (groupShapes.shapes)
	verdicts string // one byte per policy
	count    int64
	witness  int     // the version of the smallest case
	key      caseKey // the smallest case's, once filed
	// the split's key in the stripes' indexes (worker.vkeys[vkey[0]:vkey[1]])
	// and its hash
	vkey  [2]int32
	vhash uint64
}

func newWorker(id int, policies []engine.Policy, pairs [][2]int, shared *sharedAggregate) *worker {
	return &worker{
		id:       id,
		policies: policies,
		pairs:    pairs,
		shared:   shared,
		lists:    listCache{policies: len(policies)},
		errs:     make([]error, len(policies)),
		verdicts: make([][]engine.Verdict, len(policies)),
		lo:       make([][]uint64, len(policies)),
		hi:       make([][]uint64, len(policies)),
		diverge:  make([]int64, len(pairs)),
		refused:  make([]string, len(policies)),
		refIDs:   make([]uint32, len(policies)),
		picks:    make([]string, len(policies)),
		splits:   map[string]int32{},
	}
}

// PanicError is Run's error when a policy panics: a bug in the policy,
// named with the case it panicked on.
type PanicError struct {
	Policy, Constraint, Version string
	// Value is what the policy panicked with, Stack the stack of the
	// goroutine that panicked.
	Value any
	Stack []byte
}

func (e *PanicError) Error() string {
	return fmt.Sprintf("compare: policy %q panicked on constraint %q, version %q: %v",
		e.Policy, elide.Head(e.Constraint, 200), elide.Head(e.Version, 200), e.Value)
}

// run judges one group with every policy and aggregates it. A panic in a
// policy becomes an error naming the policy and the case.
func (w *worker) run(g Group, offset int64) (err error) {
	w.stack = nil
	defer func() {
		if r := recover(); r != nil {
			stack := w.stack
			if stack == nil {
				stack = debug.Stack()
			}
			err = &PanicError{Policy: w.policies[w.policy].Name(), Constraint: g.Constraint, Version: w.version, Value: r, Stack: stack}
		}
	}()
	w.list = w.lists.get(g.Versions)
	odd := w.judge(g)
	for p := range w.policies {
		w.log.record(p, offset, w.verdicts[p])
	}
	ci := newConstraintInfo(g.Constraint)
	w.countPairs(len(g.Versions), odd)
	w.fileLocalSplits(&ci)
	w.prepareRefusals()
	if g.History != "" {
		w.pickAll(g)
	}
	for j := range w.local {
		ls := &w.local[j]
		ls.key = makeCaseKey(&ci, w.list.info(ls.witness))
	}
	w.aggregateGroup(&ci, g)
	w.indexKeys()
	w.aggregateStripes(len(g.Versions))
	return nil
}

// aggregateStripes adds the group to the pairs of every stripe: first to
// each stripe whose lock is free, starting from a stripe of its own, then
// to the others, waiting for their locks.
func (w *worker) aggregateStripes(n int) {
	stripes := w.shared.stripes
	w.busy = w.busy[:0]
	for i := range stripes {
		st := stripes[(2*w.id+i)%len(stripes)]
		if !st.mu.TryLock() {
			w.busy = append(w.busy, st)
			continue
		}
		w.aggregateLocked(st, n)
	}
	for _, st := range w.busy {
		st.mu.Lock()
		w.aggregateLocked(st, n)
	}
}

// aggregateLocked is aggregateClasses on stripe st, whose lock the caller
// has taken; it lets the lock go, also when a policy panics.
func (w *worker) aggregateLocked(st *classStripe, n int) {
	defer st.mu.Unlock()
	w.aggregateClasses(st, n)
}

// aggregateGroup adds the group's cases, local splits and selections to
// the aggregate, and numbers the case parts of the group's classes for
// the stripes' indexes.
func (w *worker) aggregateGroup(ci *constraintInfo, g Group) {
	s := w.shared
	s.mu.Lock()
	defer s.mu.Unlock()
	a := s.agg
	a.cases += int64(len(g.Versions))
	for j := range w.local {
		ls := &w.local[j]
		a.addSplit(w.shapes.shapes[ls.shape], ls.verdicts, ls.count, ls.key)
	}
	if g.History != "" {
		w.aggregateSelection(ci, g)
	}
	if len(w.local) == 0 {
		return
	}
	if s.ids == nil || len(s.ids) > maxIDs {
		s.ids = map[string]uint32{}
		s.gen++
	}
	w.gen = s.gen
	shapes := len(w.shapes.shapes)
	w.shapeIDs = resetSlice(w.shapeIDs, shapes, 0)
	w.vrefIDs = resetSlice(w.vrefIDs, shapes, 0)
	w.key = w.key[:0]
	for p, err := range w.errs {
		w.refIDs[p] = 0
		if err != nil {
			w.refIDs[p] = s.id(w.refusal(p, nil))
			w.key = binary.AppendUvarint(w.key, uint64(p))
			w.key = binary.AppendUvarint(w.key, uint64(w.refIDs[p]))
		}
	}
	w.refusedID, w.crefs = 0, nil
	if len(w.key) > 0 {
		w.refusedID = s.id(string(w.key))
		w.crefs = &constraintRefusals{text: slices.Clone(w.refused), ids: slices.Clone(w.refIDs)}
	}
	for j := range w.local {
		ls := &w.local[j]
		if w.shapeIDs[ls.shape] != 0 {
			continue
		}
		w.shapeIDs[ls.shape] = s.id(w.shapes.shapes[ls.shape])
		if r := w.vrefused[ls.shape]; r != "" {
			w.vrefIDs[ls.shape] = s.id(r)
		}
	}
}

// indexKeys works out the key of each local split in the stripes'
// indexes, and its hash: the number of its shape, the number of the set of
// refusals of the constraint, and its verdicts.
func (w *worker) indexKeys() {
	w.vkeys = w.vkeys[:0]
	for j := range w.local {
		ls := &w.local[j]
		from := len(w.vkeys)
		w.vkeys = binary.LittleEndian.AppendUint32(w.vkeys, w.shapeIDs[ls.shape])
		w.vkeys = binary.LittleEndian.AppendUint32(w.vkeys, w.refusedID)
		w.vkeys = append(w.vkeys, ls.verdicts...)
		ls.vkey = [2]int32{int32(from), int32(len(w.vkeys))}
		ls.vhash = maphash.Bytes(w.shared.seed, w.vkeys[from:])
	}
}

// judge fills the verdicts and bit planes of every policy for the group.
// It reports whether some verdict is not one of engine's three, which the
// bit planes cannot tell apart.
func (w *worker) judge(g Group) (odd bool) {
	n := len(g.Versions)
	words := (n + 63) / 64
	for p, pol := range w.policies {
		w.policy, w.version = p, ""
		if cap(w.verdicts[p]) < n {
			w.verdicts[p] = make([]engine.Verdict, n)
			w.lo[p] = make([]uint64, words)
			w.hi[p] = make([]uint64, words)
		}
		out := w.verdicts[p][:n]
		w.verdicts[p] = out
		m, err := w.list.table(p, pol).Compile(g.Constraint)
		w.errs[p] = err
		if err != nil {
			for i := range out {
				out[i] = engine.Invalid
			}
		} else {
			w.verdictsOf(m, out, g)
		}
		lo, hi := w.lo[p][:words], w.hi[p][:words]
		clear(lo)
		clear(hi)
		for i, v := range out {
			lo[i>>6] |= uint64(v&1) << (i & 63)
			hi[i>>6] |= uint64(v>>1&1) << (i & 63)
			odd = odd || v > engine.Invalid
		}
		w.lo[p], w.hi[p] = lo, hi
	}
	return odd
}

// verdictsOf has m judge every version of the group into out. When the
// policy panics, it finds the version it panics on before the panic goes
// on to run's recovery.
func (w *worker) verdictsOf(m engine.TableMatcher, out []engine.Verdict, g Group) {
	defer func() {
		if r := recover(); r != nil {
			w.stack = debug.Stack()
			w.version = panickingVersion(w.policies[w.policy], g)
			panic(r)
		}
	}()
	m.Verdicts(out)
}

// panickingVersion is the first version of the group that p panics on
// when it judges the versions one at a time on text, or "" when it panics
// on none of them alone.
func panickingVersion(p engine.Policy, g Group) string {
	var m engine.Matcher
	if panics(func() {
		var err error
		if m, err = p.Compile(g.Constraint); err != nil {
			m = nil
		}
	}) || isNilMatcher(m) {
		return ""
	}
	for _, v := range g.Versions {
		if panics(func() { m.Match(v) }) {
			return v
		}
	}
	return ""
}

// panics reports whether f panics.
func panics(f func()) (panicked bool) {
	defer func() {
		if recover() != nil {
			panicked = true
		}
	}()
	f()
	return false
}

// countPairs counts, per pair, the versions of the group where it
// diverges, and marks the versions where the policies do not all agree.
func (w *worker) countPairs(n int, odd bool) {
	words := (n + 63) / 64
	if cap(w.diverged) < words {
		w.diverged = make([]uint64, words)
	}
	w.diverged = w.diverged[:words]
	clear(w.diverged)
	if odd {
		w.countPairsByByte(n)
		return
	}
	for k, pr := range w.pairs {
		alo, ahi, blo, bhi := w.lo[pr[0]], w.hi[pr[0]], w.lo[pr[1]], w.hi[pr[1]]
		d := 0
		for i := range w.diverged {
			x := (alo[i] ^ blo[i]) | (ahi[i] ^ bhi[i])
			d += bits.OnesCount64(x)
			w.diverged[i] |= x
		}
		w.diverge[k] = int64(d)
	}
}

// countPairsByByte is countPairs verdict by verdict, for a group where
// some verdict is none of engine's three.
func (w *worker) countPairsByByte(n int) {
	for k, pr := range w.pairs {
		va, vb := w.verdicts[pr[0]], w.verdicts[pr[1]]
		d := 0
		for i := range n {
			if va[i] != vb[i] {
				d++
				w.diverged[i>>6] |= 1 << (i & 63)
			}
		}
		w.diverge[k] = int64(d)
	}
}

// fileLocalSplits files every version where the policies do not all
// agree under its local split.
func (w *worker) fileLocalSplits(ci *constraintInfo) {
	w.shapes.reset(ci)
	clear(w.splits)
	clear(w.local)
	w.local = w.local[:0]
	for wi, x := range w.diverged {
		for x != 0 {
			i := wi<<6 | bits.TrailingZeros64(x)
			x &= x - 1
			vi := w.list.info(i)
			shape := w.shapes.shapeID(vi)
			w.key = binary.LittleEndian.AppendUint32(w.key[:0], uint32(shape))
			for p := range w.verdicts {
				w.key = append(w.key, byte(w.verdicts[p][i]))
			}
			if j, ok := w.splits[string(w.key)]; ok {
				s := &w.local[j]
				s.count++
				if makeCaseKey(ci, vi).less(makeCaseKey(ci, w.list.info(s.witness))) {
					s.witness = i
				}
				continue
			}
			key := string(w.key)
			w.splits[key] = int32(len(w.local))
			w.local = append(w.local, localSplit{shape: shape, verdicts: key[4:], count: 1, witness: i})
		}
	}
}

// prepareRefusals works out, before the aggregate is locked, the
// refusals the group's classes are signed with: for each local split and
// each policy that judged it Invalid while another did not, what that
// policy refused.
func (w *worker) prepareRefusals() {
	w.vrefused = resetSlice(w.vrefused, len(w.shapes.shapes), "")
	clear(w.refused)
	for j := range w.local {
		s := &w.local[j]
		for p := range w.policies {
			if engine.Verdict(s.verdicts[p]) == engine.Invalid {
				w.refusal(p, s)
			}
		}
	}
}

// refusal is the case part of the signature of the cases of local split
// s that policy p judged Invalid.
func (w *worker) refusal(p int, s *localSplit) string {
	if w.errs[p] == nil {
		// The version part of a shape decides the refusal of its version.
		r := w.vrefused[s.shape]
		if r == "" {
			r = versionRefusal(w.list.info(s.witness))
			w.vrefused[s.shape] = r
		}
		return r
	}
	r := w.refused[p]
	if r == "" {
		w.policy, w.version = p, ""
		r = refusedConstraint(w.policies[p], w.shapes.ci, w.shapes.spaced)
		w.refused[p] = r
	}
	return r
}

// resetSlice returns s with n elements, each v.
func resetSlice[T any](s []T, n int, v T) []T {
	s = s[:0]
	for range n {
		s = append(s, v)
	}
	return s
}

// sharedAggregate is the aggregate the workers of a run share: a lock for
// its counts of cases, splits and selection, and the pairs in stripes,
// each with a lock of its own and a class index.
type sharedAggregate struct {
	mu      sync.Mutex
	agg     *aggregate
	stripes []*classStripe

	// ids numbers the case parts of signatures (shapes and refusals) and
	// the sets of refusals of a constraint, from 1, for the stripes'
	// indexes; when it grows past maxIDs it starts again with the next
	// generation, and an index of another generation is emptied.
	ids map[string]uint32
	gen int
	// seed hashes the keys of the stripes' indexes.
	seed maphash.Seed
}

// maxIDs bounds the numbers of sharedAggregate.ids.
const maxIDs = 1 << 17

// id returns the number of s, the caller holding the lock.
func (s *sharedAggregate) id(str string) uint32 {
	id, ok := s.ids[str]
	if !ok {
		id = uint32(len(s.ids) + 1)
		s.ids[str] = id
	}
	return id
}

// classStripe is the pairs [from, to) of a run's aggregate, their lock,
// and their index of local splits, which adds the local splits of the
// same vector to the classes together.
type classStripe struct {
	mu       sync.Mutex
	from, to int

	// The classes a local split adds to depend on its case shape, its
	// verdict vector and, for a policy that refused the group's
	// constraint, what it refused (the shape decides what a policy that
	// refused the version refused). vectors maps the number of a shape,
	// of a set of refusals of the constraint (sharedAggregate.ids of
	// generation gen) and a verdict vector, by the hash of the three
	// (vectorEntry), to what the local splits of that key added up to
	// since the index was emptied; entries are the same in the order they
	// came. The index is added to the pairs' classes pair by pair, and
	// emptied, when it takes more than the stripe's share of maxIndexed
	// (indexBudget), when the numbers start again, and when the workers
	// are done (flush). A larger index sums more local splits of one class
	// before the class is looked up in its pair's capped map, which costs
	// a cache miss or two: even where the vectors seldom recur (the random
	// domain), their classes do.
	gen     int
	vectors map[uint64]*vectorEntry
	entries []*vectorEntry
	// verdicts are the entries' verdict vectors back to back, in order,
	// which a pair's flush reads through
	verdicts []byte
	indexed  int
	// the arrays the index's entries are taken from, slabSize entries
	// each, so that a miss allocates seldom, and how many entries are
	// taken; emptied with the index and used again
	slabs     [][]vectorEntry
	slabTaken int
	// spare is the map of the index emptied last, used again
	spare map[uint64]*vectorEntry
	// while one pair is flushed: its classes' sums, and the sum of each
	// class by the number of its case part and its verdicts
	// (classIndexKey)
	sums    []classSum
	classes map[uint64]int32
}

// slabSize is how many entries a stripe allocates at a time for its
// index. An emptied index keeps every array it took: an index never
// takes more than its budget and one group's local splits.
const slabSize = 1024

// newEntry returns a new entry of the stripe's index.
func (st *classStripe) newEntry() *vectorEntry {
	s, i := st.slabTaken/slabSize, st.slabTaken%slabSize
	if s == len(st.slabs) {
		st.slabs = append(st.slabs, make([]vectorEntry, slabSize))
	}
	st.slabTaken++
	return &st.slabs[s][i]
}

// emptyIndex empties the stripe's index, keeping its arrays and map for
// the next: the entries are zeroed so that they let go of their
// strings.
func (st *classStripe) emptyIndex() {
	for s := 0; s*slabSize < st.slabTaken; s++ {
		clear(st.slabs[s][:min(slabSize, st.slabTaken-s*slabSize)])
	}
	st.slabTaken = 0
	clear(st.entries)
	if st.vectors != nil {
		clear(st.vectors)
		st.spare = st.vectors
	}
	st.vectors, st.entries, st.verdicts = nil, st.entries[:0], st.verdicts[:0]
}

// vectorEntry is an entry of a stripe's index: the key of a local split
// (worker.indexKeys), what the classes of its pairs need of it (its case
// shape, the refusals of the policies that judged it
// Invalid, with their numbers), the cases of the local splits added to it
// and the smallest of them, and the next entry of the same hash.
type vectorEntry struct {
	key     string
	next    *vectorEntry
	shape   string
	vref    string // what a policy refused of the shape's version, when one did
	crefs   *constraintRefusals
	shapeID uint32
	vrefID  uint32
	count   int64
	least   caseKey
}

// constraintRefusals are the policies' refusals of a group's constraint
// and their numbers (sharedAggregate.ids), per policy: "" and 0 for a
// policy that did not refuse it.
type constraintRefusals struct {
	text []string
	ids  []uint32
}

// add adds local split ls to the entry.
func (v *vectorEntry) add(ls *localSplit) {
	if ls.key.less(v.least) {
		v.least = ls.key
	}
	v.count += ls.count
}

// casePart is the case part of the signature of pair pr's class of the
// entry, on which the pair's verdicts are va and vb, and its number: the
// refusal of a policy that judged it Invalid, otherwise the case shape
// (worker.classKey).
func (v *vectorEntry) casePart(pr [2]int, va, vb engine.Verdict) (uint32, string) {
	switch {
	case va == engine.Invalid:
		return v.refusal(pr[0])
	case vb == engine.Invalid:
		return v.refusal(pr[1])
	}
	return v.shapeID, v.shape
}

// refusal is what policy p refused of the entry's cases (worker.refusal).
func (v *vectorEntry) refusal(p int) (uint32, string) {
	if c := v.crefs; c != nil && c.ids[p] != 0 {
		return c.ids[p], c.text[p]
	}
	return v.vrefID, v.vref
}

// flush adds the entries of the stripe's index to the classes of its
// pairs, pair by pair, so that the classes of one pair are at hand while
// it is done, and empties the index; the caller holds the stripe's lock.
//
// With last (the index's last flush in a run that makes a report), a
// pair whose capped map has kept or turned away nothing yet takes its
// classes straight from the sums (pairAgg.final), the smallest keys the
// capped map would keep, without a map or an item per class.
func (st *classStripe) flush(a *aggregate, pairs [][2]int, last bool) {
	if len(st.entries) > 0 {
		if st.classes == nil {
			st.classes = map[uint64]int32{}
		}
		for k := st.from; k < st.to; k++ {
			p := &a.pairs[k]
			distinct := st.sumPair(k, pairs[k])
			if last && distinct && p.classes.len() == 0 && !p.classes.full {
				p.final = finalClasses(st.sums, p.classes.limit)
				continue
			}
			st.addSums(p.classes)
		}
		clear(st.classes)
		clear(st.sums) // let go of the entries' strings
		st.sums = st.sums[:0]
	}
	st.emptyIndex()
}

// classSum is what the entries of a stripe's index add to one class of a
// pair: the class's key, their cases and the smallest of them.
type classSum struct {
	key   classKey
	count int64
	least caseKey
}

// sumPair sums the stripe's entries class by class for pair k, pr, into
// st.sums, and reports whether the sums have distinct keys: a class the
// index cannot number has a sum per entry.
func (st *classStripe) sumPair(k int, pr [2]int) (distinct bool) {
	clear(st.classes)
	st.sums = st.sums[:0]
	distinct = true
	width := len(st.verdicts) / len(st.entries)
	for i, v := range st.entries {
		va, vb := engine.Verdict(st.verdicts[i*width+pr[0]]), engine.Verdict(st.verdicts[i*width+pr[1]])
		if va == vb {
			continue
		}
		id, part := v.casePart(pr, va, vb)
		if ik, indexed := classIndexKey(id, k, va, vb); indexed {
			if j, ok := st.classes[ik]; ok {
				sum := &st.sums[j]
				sum.count += v.count
				if v.least.less(sum.least) {
					sum.least = v.least
				}
				continue
			}
			st.classes[ik] = int32(len(st.sums))
		} else {
			// A class the index cannot number has a sum per entry:
			// the capped map adds them up by key.
			distinct = false
		}
		st.sums = append(st.sums, classSum{key: classKey{part, va, vb}, count: v.count, least: v.least})
	}
	return distinct
}

// finalClasses is the classes of sums, which have distinct keys, that a
// capped map of limit keys would keep: the smallest keys.
func finalClasses(sums []classSum, limit int) []classSum {
	if len(sums) > limit {
		slices.SortFunc(sums, func(x, y classSum) int {
			if x.key.less(y.key) {
				return -1
			}
			return 1
		})
		sums = sums[:limit]
	}
	return slices.Clone(sums)
}

// addSums adds the sums of st.sums to their classes.
func (st *classStripe) addSums(classes *capped[classKey, classAgg]) {
	classes.reserve(len(st.sums))
	for i := range st.sums {
		sum := &st.sums[i]
		addCases(classes.addItem(sum.key), sum.count, sum.least)
	}
}

// flush adds every entry of the stripes' indexes to its classes, once the
// workers are done, the stripes spread over workers goroutines; last is
// classStripe.flush's.
func (s *sharedAggregate) flush(pairs [][2]int, workers int, last bool) {
	parallel(len(s.stripes), workers, func() func(int) {
		return func(i int) {
			st := s.stripes[i]
			st.mu.Lock()
			defer st.mu.Unlock()
			st.flush(s.agg, pairs, last)
			st.slabs, st.spare = nil, nil // the workers are done
		}
	})
}

// maxIndexed bounds the memory of the indexes of a run's stripes, in
// units of about 16 bytes, indexedVector units per entry with its key
// and verdicts. A pair's flush sums at most as many classes as its
// stripe's index has entries, in arrays the stripe keeps for the next.
const maxIndexed = 1 << 20

// minIndexed is the least budget of a stripe's index.
const minIndexed = 1 << 12

// indexBudget is the units a stripe's index may take before it is
// emptied: the stripe's share of maxIndexed, and at least minIndexed.
func (s *sharedAggregate) indexBudget() int {
	return max(maxIndexed/len(s.stripes), minIndexed)
}

// indexedVector is the units of maxIndexed of an entry.
const indexedVector = 12

// newSharedAggregate makes the aggregate of pairs pairs for workers
// workers, the pairs in two stripes per worker.
func newSharedAggregate(pairs, workers int) *sharedAggregate {
	s := &sharedAggregate{agg: newAggregate(pairs), seed: maphash.MakeSeed()}
	n := min(max(pairs, 1), 2*max(workers, 1))
	for i := range n {
		s.stripes = append(s.stripes, &classStripe{from: i * pairs / n, to: (i + 1) * pairs / n})
	}
	return s
}

// aggregateClasses adds the group's counts and local splits to the pairs
// of stripe st, the caller holding the stripe's lock: the local splits to
// the stripe's index, which adds them to the classes of every pair that
// diverges on them when it is emptied.
func (w *worker) aggregateClasses(st *classStripe, n int) {
	a := w.shared.agg
	for k := st.from; k < st.to; k++ {
		a.pairs[k].diverge += w.diverge[k]
		a.pairs[k].agree += int64(n) - w.diverge[k]
	}
	if len(w.local) == 0 {
		return
	}
	switch {
	case w.gen < st.gen:
		// The group's numbers are of a generation the index is past.
		for j := range w.local {
			w.addUnindexed(st, &w.local[j])
		}
		return
	case w.gen > st.gen || st.vectors == nil || st.indexed > w.shared.indexBudget():
		st.flush(a, w.pairs, false)
		st.gen, st.indexed = w.gen, 0
		st.vectors, st.spare = st.spare, nil
		if st.vectors == nil {
			st.vectors = map[uint64]*vectorEntry{}
		}
	}
	for j := range w.local {
		ls := &w.local[j]
		key := w.vkeys[ls.vkey[0]:ls.vkey[1]]
		v := st.vectors[ls.vhash]
		for v != nil && v.key != string(key) {
			v = v.next
		}
		if v != nil {
			v.add(ls)
			continue
		}
		v = st.newEntry()
		*v = vectorEntry{key: string(key), next: st.vectors[ls.vhash], shape: w.shapes.shapes[ls.shape],
			vref: w.vrefused[ls.shape], crefs: w.crefs, shapeID: w.shapeIDs[ls.shape], vrefID: w.vrefIDs[ls.shape],
			count: ls.count, least: ls.key}
		st.vectors[ls.vhash] = v
		st.entries = append(st.entries, v)
		st.verdicts = append(st.verdicts, ls.verdicts...)
		st.indexed += indexedVector
	}
}

// addUnindexed adds local split ls to the classes of the stripe's pairs
// that diverge on it, finding each by its key.
func (w *worker) addUnindexed(st *classStripe, ls *localSplit) {
	a := w.shared.agg
	for k := st.from; k < st.to; k++ {
		pr := w.pairs[k]
		va, vb := engine.Verdict(ls.verdicts[pr[0]]), engine.Verdict(ls.verdicts[pr[1]])
		if va != vb {
			addCases(a.pairs[k].classes.addItem(w.classKey(ls, pr, va, vb)), ls.count, ls.key)
		}
	}
}

// classKey is the key of pair pr's class of local split ls, on which the
// pair's verdicts are va and vb.
func (w *worker) classKey(ls *localSplit, pr [2]int, va, vb engine.Verdict) classKey {
	switch {
	case va == engine.Invalid:
		return classKey{w.refusal(pr[0], ls), va, vb}
	case vb == engine.Invalid:
		return classKey{w.refusal(pr[1], ls), va, vb}
	}
	return classKey{w.shapes.shapes[ls.shape], va, vb}
}

// addCases adds n cases, the smallest of them least, to the class of item
// it, unless the pair turned the class away (it is nil or gone).
func addCases(it *cappedItem[classKey, classAgg], n int64, least caseKey) {
	if it == nil || it.gone {
		return
	}
	c := &it.val
	if c.count == 0 {
		*c = classAgg{count: n, key: least}
		return
	}
	c.count += n
	if least.less(c.key) {
		c.key = least
	}
}

// classIndexKey is the key of a pair's class in classStripe.classes, or
// false when the index cannot hold it.
func classIndexKey(id uint32, pair int, va, vb engine.Verdict) (uint64, bool) {
	if pair >= 1<<24 || va >= 16 || vb >= 16 {
		return 0, false
	}
	return uint64(id)<<32 | uint64(pair)<<8 | uint64(va)<<4 | uint64(vb), true
}
