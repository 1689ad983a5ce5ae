package compare

import (
	"hash/maphash"
	"slices"
	"sync"

	"github.com/prerel/prerel/engine"
)

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

// vectorEntry is an entry of a stripe's index: what the classes of its
// pairs need of it (its case shape, the refusals of the policies that
// judged it Invalid, with their numbers), the cases of the local splits
// added to it and the smallest of them, and the next entry of the same
// hash. Its key (worker.indexKeys) is the numbers of its shape and of
// the set of refusals of the constraint, and its verdicts, which are
// those at its place (at) in the index's verdicts (classStripe.isKey).
type vectorEntry struct {
	next      *vectorEntry
	shape     string
	vref      string // what a policy refused of the shape's version, when one did
	crefs     *constraintRefusals
	shapeID   uint32
	vrefID    uint32
	refusedID uint32 // the number of the set of refusals of the constraint
	at        int32  // the entry's place in the index
	count     int64
	least     caseKey
}

// isKey reports whether entry v of the stripe's index has the key of
// shape number shapeID, refusals number refusedID and verdicts verdicts.
func (st *classStripe) isKey(v *vectorEntry, shapeID, refusedID uint32, verdicts string) bool {
	w := len(verdicts)
	return v.shapeID == shapeID && v.refusedID == refusedID &&
		string(st.verdicts[int(v.at)*w:int(v.at+1)*w]) == verdicts
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

// flush adds the entries of the stripe's index to the classes of its
// pairs, pair by pair, so that the classes of one pair are at hand while
// it is done, and empties the index; the caller holds the stripe's lock.
//
// With last (the index's last flush in a run that makes a report), a
// pair whose capped map has kept or turned away nothing yet takes its
// classes straight from the sums (pairAgg.final), the smallest keys the
// capped map would keep, without a map or an item per class; the sums
// point into the index's entries, which the stripe then lets go of
// whole rather than emptying them, with every other array it kept.
func (st *classStripe) flush(a *aggregate, pairs [][2]int, last bool) {
	if len(st.entries) > 0 {
		if st.classes == nil {
			st.classes = map[uint64]int32{}
		}
		if cap(st.sums) < len(st.entries) { // a pair has at most a sum per entry
			st.sums = make([]classSum, 0, len(st.entries))
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
		clear(st.sums) // let go of the entries
		st.sums = st.sums[:0]
	}
	if last {
		// The pairs' final sums hold on to the entries they point to,
		// and the workers are done: nothing of the index is used again.
		st.vectors, st.entries, st.verdicts, st.slabs, st.slabTaken = nil, nil, nil, nil, 0
		st.spare, st.sums, st.classes = nil, nil, nil
		return
	}
	st.emptyIndex()
}

// classSum is what the entries of a stripe's index add to one class of a
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
// workers, the pairs in a stripe per worker: each stripe indexes every
// local split (classStripe), so that more stripes would be more copies
// of the index, not less work.
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
