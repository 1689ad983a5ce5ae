package compare

import (
	"hash/maphash"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/prerel/prerel/engine"
)

// sharedAggregate is the aggregate the workers of a run share: a lock for
// its counts of cases, splits and selection, and for the index of local
// splits, and the pairs in stripes, each with a lock of its own.
type sharedAggregate struct {
	mu      sync.Mutex
	agg     *aggregate
	stripes []*classStripe

	// ids numbers the case parts of signatures (shapes and refusals) and
	// the sets of refusals of a constraint, from 1, for the index; when
	// it grows past maxIDs it starts again with the next generation, and
	// the index of another generation is sealed.
	ids map[string]uint32
	gen int
	// seed hashes the keys of the index.
	seed maphash.Seed

	// index is the index of local splits the workers add to, nil until
	// the first; sealed are the indexes sealed since, in order, that some
	// stripe has not yet added to its pairs' classes, the next numbered
	// nextSeq; spare is an index every stripe is done with, emptied, to
	// use again.
	index   *classIndex
	sealed  []*classIndex
	nextSeq int
	spare   *classIndex
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

// classIndex is an index of local splits, which adds the local splits of
// the same vector to the classes together. There is one for all stripes,
// which the workers add each local split to once, under the aggregate's
// lock; once sealed, each stripe adds it to the classes of its pairs,
// under its own lock, and the last to do so leaves it to be used again.
//
// The classes a local split adds to depend on its case shape, its
// verdict vector and, for a policy that refused the group's constraint,
// what it refused (the shape decides what a policy that refused the
// version refused). vectors maps the number of a shape, of a set of
// refusals of the constraint (sharedAggregate.ids of generation gen) and
// a verdict vector, by the hash of the three (vectorEntry), to what the
// local splits of that key added up to; entries are the same in the order
// they came. The index is sealed when it takes more than indexBudget,
// when the numbers start again, and when the workers are done
// (sharedAggregate.flush). A larger index sums more local splits of one
// class before the class is looked up in its pair's capped map, which
// costs a cache miss or two: even where the vectors seldom recur (the
// random domain), their classes do.
type classIndex struct {
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
	// seq is the index's number among the run's sealed indexes, and
	// unflushed counts the stripes that have not added it to their pairs
	// yet.
	seq       int
	unflushed atomic.Int32
}

// classStripe is the pairs [from, to) of a run's aggregate, their lock,
// and where they are in the sealed indexes.
type classStripe struct {
	mu       sync.Mutex
	from, to int
	// next is the number (classIndex.seq) of the next sealed index the
	// stripe adds to its pairs' classes
	next int
	// while one pair is flushed: its classes' sums, and the sum of each
	// class by the number of its case part and its verdicts
	// (classIndexKey)
	sums    []classSum
	classes map[uint64]int32
}

// slabSize is how many entries an index allocates at a time. An emptied
// index keeps every array it took: an index never takes more than its
// budget and one group's local splits.
const slabSize = 1024

// newEntry returns a new entry of the index.
func (x *classIndex) newEntry() *vectorEntry {
	s, i := x.slabTaken/slabSize, x.slabTaken%slabSize
	if s == len(x.slabs) {
		x.slabs = append(x.slabs, make([]vectorEntry, slabSize))
	}
	x.slabTaken++
	return &x.slabs[s][i]
}

// empty empties the index, keeping its arrays and map for the next: the
// entries are zeroed so that they let go of their strings.
func (x *classIndex) empty() {
	for s := 0; s*slabSize < x.slabTaken; s++ {
		clear(x.slabs[s][:min(slabSize, x.slabTaken-s*slabSize)])
	}
	x.slabTaken = 0
	clear(x.entries)
	clear(x.vectors)
	x.entries, x.verdicts, x.indexed = x.entries[:0], x.verdicts[:0], 0
}

// openIndex returns the index the workers add to, sealing it first when
// it is of another generation than the numbers or past its budget; the
// caller holds the lock.
func (s *sharedAggregate) openIndex() *classIndex {
	if x := s.index; x != nil && (x.gen != s.gen || x.indexed > s.indexBudget()) {
		s.seal()
	}
	if s.index == nil {
		x := s.spare
		s.spare = nil
		if x == nil {
			x = &classIndex{vectors: map[uint64]*vectorEntry{}}
		}
		x.gen = s.gen
		s.index = x
	}
	return s.index
}

// seal seals the index the workers add to, for the stripes to add to
// their pairs' classes, and adds its entries to the splits; the caller
// holds the lock. The local splits of an entry are of one split (its
// shape and verdicts), so that the splits see an entry's sum rather than
// every local split of it: a capped map keeps the same smallest keys
// with the same counts whatever the order and grouping of what it is
// given.
func (s *sharedAggregate) seal() {
	x := s.index
	s.index = nil
	if x == nil || len(x.entries) == 0 {
		s.spare = x
		return
	}
	for _, v := range x.entries {
		s.agg.addSplit(v.shape, v.verdicts, v.count, v.least)
	}
	x.seq = s.nextSeq
	s.nextSeq++
	x.unflushed.Store(int32(len(s.stripes)))
	s.sealed = append(s.sealed, x)
}

// sealedIndexes appends to out the sealed indexes some stripe has not
// added to its pairs' classes yet, with their numbers, first letting go
// of those every stripe has; the caller holds the lock.
func (s *sharedAggregate) sealedIndexes(out []sealedIndex) []sealedIndex {
	for len(s.sealed) > 0 && s.sealed[0].unflushed.Load() == 0 {
		x := s.sealed[0]
		s.sealed[0] = nil
		s.sealed = s.sealed[1:]
		x.empty()
		s.spare = x
	}
	for _, x := range s.sealed {
		out = append(out, sealedIndex{x.seq, x})
	}
	return out
}

// sealedIndex is a sealed index and its number, which a worker keeps as
// it was when it held the aggregate's lock: a stripe past seq is done
// with the index, which may be in use again.
type sealedIndex struct {
	seq   int
	index *classIndex
}

// flushSealed adds the sealed indexes of sealed that stripe st has not
// added yet to its pairs' classes, in order; the caller holds the
// stripe's lock. With last, the last of them is the run's last
// (classStripe.flush).
func (st *classStripe) flushSealed(a *aggregate, pairs [][2]int, sealed []sealedIndex, last bool) {
	for j, si := range sealed {
		if si.seq < st.next {
			continue
		}
		st.flush(a, pairs, si.index, last && j == len(sealed)-1)
		st.next = si.seq + 1
		si.index.unflushed.Add(-1)
	}
}

// vectorEntry is an entry of an index of local splits: what the classes
// of its pairs need of it (its case shape, the refusals of the policies
// that judged it Invalid, with their numbers), the cases of the local
// splits added to it and the smallest of them, and the next entry of the
// same hash. Its key (worker.indexKeys) is the numbers of its shape and
// of the set of refusals of the constraint, and its verdicts, which are
// those at its place (at) in the index's verdicts (classIndex.isKey).
type vectorEntry struct {
	next      *vectorEntry
	shape     string
	verdicts  string // those of the index's verdicts at the entry's place
	vref      string // what a policy refused of the shape's version, when one did
	crefs     *constraintRefusals
	shapeID   uint32
	vrefID    uint32
	refusedID uint32 // the number of the set of refusals of the constraint
	at        int32  // the entry's place in the index
	count     int64
	least     caseKey
}

// isKey reports whether entry v of the index has the key of shape number
// shapeID, refusals number refusedID and verdicts verdicts.
func (x *classIndex) isKey(v *vectorEntry, shapeID, refusedID uint32, verdicts string) bool {
	w := len(verdicts)
	return v.shapeID == shapeID && v.refusedID == refusedID &&
		string(x.verdicts[int(v.at)*w:int(v.at+1)*w]) == verdicts
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
// entry, on which the pair's verdicts are va and vb, its number, and the
// policy whose refusal it is, -1 for the case shape: the refusal of a
// policy that judged it Invalid, otherwise the case shape
// (worker.classKey).
func (v *vectorEntry) casePart(pr [2]int, va, vb engine.Verdict) (uint32, int32) {
	switch {
	case va == engine.Invalid:
		return v.refusalID(pr[0]), int32(pr[0])
	case vb == engine.Invalid:
		return v.refusalID(pr[1]), int32(pr[1])
	}
	return v.shapeID, -1
}

// part is the case part of side (casePart): the refusal of policy side,
// or the shape for -1.
func (v *vectorEntry) part(side int32) string {
	if side < 0 {
		return v.shape
	}
	if c := v.crefs; c != nil && c.ids[side] != 0 {
		return c.text[side]
	}
	return v.vref
}

// refusalID is the number of what policy p refused of the entry's cases
// (worker.refusal).
func (v *vectorEntry) refusalID(p int) uint32 {
	if c := v.crefs; c != nil && c.ids[p] != 0 {
		return c.ids[p]
	}
	return v.vrefID
}

// flush adds the entries of index x to the classes of the stripe's
// pairs, pair by pair, so that the classes of one pair are at hand while
// it is done; the caller holds the stripe's lock.
//
// With last (the last index flushed in a run that makes a report), a
// pair whose capped map has kept or turned away nothing yet takes its
// classes straight from the sums (pairAgg.final), the smallest keys the
// capped map would keep, without a map or an item per class; the sums
// point into the index's entries, which the run then lets go of whole
// rather than emptying them.
func (st *classStripe) flush(a *aggregate, pairs [][2]int, x *classIndex, last bool) {
	if len(x.entries) > 0 {
		if st.classes == nil {
			st.classes = map[uint64]int32{}
		}
		if cap(st.sums) < len(x.entries) { // a pair has at most a sum per entry
			st.sums = make([]classSum, 0, len(x.entries))
		}
		for k := st.from; k < st.to; k++ {
			p := &a.pairs[k]
			distinct := st.sumPair(x, k, pairs[k])
			if last && distinct && p.classes.len() == 0 && !p.classes.full {
				p.final = finalClasses(st.sums, p.classes.limit)
				continue
			}
			st.addSums(p.classes)
		}
		clear(st.classes)
		clear(st.sums) // let go of the entries
		st.sums = st.sums[:0]
	}
	if last {
		st.sums, st.classes = nil, nil
	}
}

// classSum is what the entries of an index add to one class of a
// pair: the class's verdicts, its cases, and the entry of the smallest of
// them, whose case part (vectorEntry.part, of policy side, -1 for the
// shape) is the class's.
type classSum struct {
	entry *vectorEntry
	count int64
	side  int32
	a, b  engine.Verdict
}

// key is the sum's class key.
func (s *classSum) key() classKey {
	return classKey{s.entry.part(s.side), s.a, s.b}
}

// least is the smallest case of the sum.
func (s *classSum) least() *caseKey { return &s.entry.least }

// sumPair sums the entries of index x class by class for pair k, pr,
// into st.sums, and reports whether the sums have distinct keys: a class the
// index cannot number has a sum per entry.
func (st *classStripe) sumPair(x *classIndex, k int, pr [2]int) (distinct bool) {
	clear(st.classes)
	st.sums = st.sums[:0]
	distinct = true
	width := len(x.verdicts) / len(x.entries)
	for i, v := range x.entries {
		va, vb := engine.Verdict(x.verdicts[i*width+pr[0]]), engine.Verdict(x.verdicts[i*width+pr[1]])
		if va == vb {
			continue
		}
		id, side := v.casePart(pr, va, vb)
		if ik, indexed := classIndexKey(id, k, va, vb); indexed {
			if j, ok := st.classes[ik]; ok {
				sum := &st.sums[j]
				sum.count += v.count
				if v.least.less(sum.entry.least) {
					sum.entry = v
				}
				continue
			}
			st.classes[ik] = int32(len(st.sums))
		} else {
			// A class the index cannot number has a sum per entry:
			// the capped map adds them up by key.
			distinct = false
		}
		st.sums = append(st.sums, classSum{entry: v, count: v.count, side: side, a: va, b: vb})
	}
	return distinct
}

// finalClasses is the classes of sums, which have distinct keys, that a
// capped map of limit keys would keep: the smallest keys, in no
// particular order (the report orders them). Past the limit it selects
// among the keys' ranks and positions, not the sums: a rank orders most
// keys in one comparison.
func finalClasses(sums []classSum, limit int) []classSum {
	if len(sums) <= limit {
		return slices.Clone(sums)
	}
	order := make([]rankedSum, len(sums))
	for i := range sums {
		order[i] = rankedSum{rank: sums[i].key().rank(), at: int32(i)}
	}
	selectSmallest(order, limit, func(x, y rankedSum) bool {
		return rankedLess(classKey.less, sums[x.at].key(), x.rank, sums[y.at].key(), y.rank)
	})
	kept := make([]classSum, limit)
	for i := range kept {
		kept[i] = sums[order[i].at]
	}
	return kept
}

// selectSmallest moves the k smallest elements of s, which are distinct
// by less, to s[:k], in no particular order (a quickselect: each round
// parts the elements around the median of three, and goes on with the
// side that holds the k-th).
func selectSmallest[T any](s []T, k int, less func(a, b T) bool) {
	lo, hi := 0, len(s)
	for hi-lo > 12 {
		// The median of the first, middle and last goes last, as the
		// pivot.
		a, m, z := lo, lo+(hi-lo)/2, hi-1
		if less(s[m], s[a]) {
			s[m], s[a] = s[a], s[m]
		}
		if less(s[z], s[m]) {
			s[z], s[m] = s[m], s[z]
			if less(s[m], s[a]) {
				s[m], s[a] = s[a], s[m]
			}
		}
		s[m], s[z] = s[z], s[m]
		p := lo
		for i := lo; i < z; i++ {
			if less(s[i], s[z]) {
				s[i], s[p] = s[p], s[i]
				p++
			}
		}
		s[p], s[z] = s[z], s[p]
		// s[lo:p] are smaller than s[p], s[p+1:hi] larger.
		switch {
		case p == k:
			return
		case p < k:
			lo = p + 1
		default:
			hi = p
		}
	}
	slices.SortFunc(s[lo:hi], func(x, y T) int {
		if less(x, y) {
			return -1
		}
		return 1
	})
}

// rankedSum is a sum's position among the sums of finalClasses and its
// key's rank.
type rankedSum struct {
	rank uint64
	at   int32
}

// addSums adds the sums of st.sums to their classes.
func (st *classStripe) addSums(classes *capped[classKey, classAgg]) {
	classes.reserve(len(st.sums))
	for i := range st.sums {
		sum := &st.sums[i]
		addCases(classes.addItem(sum.key()), sum.count, sum.entry.least)
	}
}

// flush seals the index, once the workers are done, and has every
// stripe add the indexes it has not added yet to its pairs' classes, the
// stripes spread over workers goroutines; last is classStripe.flush's.
// Nothing of the indexes is used again.
func (s *sharedAggregate) flush(pairs [][2]int, workers int, last bool) {
	s.mu.Lock()
	s.seal()
	sealed := s.sealedIndexes(nil)
	s.index, s.sealed, s.spare = nil, nil, nil
	s.mu.Unlock()
	parallel(len(s.stripes), workers, func() func(int) {
		return func(i int) {
			st := s.stripes[i]
			st.mu.Lock()
			defer st.mu.Unlock()
			st.flushSealed(s.agg, pairs, sealed, last)
		}
	})
}

// maxIndexed bounds the memory of a run's indexes of local splits, in
// units of about 16 bytes, indexedVector units per entry with its key
// and verdicts. A pair's flush sums at most as many classes as the index
// has entries, in arrays the stripe keeps for the next.
// (A variable, so that a test can make every index small.)
var maxIndexed = 1 << 20

// minIndexed is the least budget of an index.
var minIndexed = 1 << 12

// indexBudget is the units an index may take before it is sealed: a
// stripe's share of maxIndexed, and at least minIndexed. An index is
// sealed before the next is opened, and its stripes add it to their
// pairs before their worker's next group: each index is about as large
// as the stripes' copies of it were when each stripe kept its own.
func (s *sharedAggregate) indexBudget() int {
	return max(maxIndexed/len(s.stripes), minIndexed)
}

// indexedVector is the units of maxIndexed of an entry.
const indexedVector = 12

// newSharedAggregate makes the aggregate of pairs pairs for workers
// workers, the pairs in a stripe per worker: each stripe reads every
// entry of every index (classStripe.flush), so that more stripes would
// be more reads of the index, not less work.
func newSharedAggregate(pairs, workers int) *sharedAggregate {
	s := &sharedAggregate{agg: newAggregate(pairs), seed: maphash.MakeSeed()}
	n := min(max(pairs, 1), max(workers, 1))
	for i := range n {
		s.stripes = append(s.stripes, &classStripe{from: i * pairs / n, to: (i + 1) * pairs / n})
	}
	return s
}

// classIndexKey is the key of a pair's class in classStripe.classes, or
// false when the index cannot hold it.
func classIndexKey(id uint32, pair int, va, vb engine.Verdict) (uint64, bool) {
	if pair >= 1<<24 || va >= 16 || vb >= 16 {
		return 0, false
	}
	return uint64(id)<<32 | uint64(pair)<<8 | uint64(va)<<4 | uint64(vb), true
}
