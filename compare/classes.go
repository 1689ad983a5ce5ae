package compare

import (
	"encoding/binary"
	"hash/maphash"
	"slices"
)

// numbering is what the worker works out of a group, holding the
// aggregate's lock, to add its local splits to the index (the numbers of
// its case parts and of the policies' refusals of its constraint, and
// each local split's key in the index), the sealed indexes it then sees,
// and the stripes it found locked on its way through them.
type numbering struct {
	// numbers of sharedAggregate.ids: of each shape, of the refusal of
	// its version, of each policy's refusal of the constraint (0 when it
	// has none), and of the set of those refusals
	shapeIDs, vrefIDs, refIDs []uint32
	refusedID                 uint32
	// the policies' refusals of the group's constraint, for the index;
	// nil when no policy refused it
	crefs  *constraintRefusals
	vkeys  []byte         // the local splits' keys in the index
	sealed []sealedIndex  // the sealed indexes some stripe has not added
	busy   []*classStripe // stripes whose lock another worker held
}

// aggregateStripes adds the group's counts to the pairs of every stripe,
// and the sealed indexes to their classes: first to each stripe whose
// lock is free, starting from a stripe of its own, then to the others,
// waiting for their locks.
func (w *worker) aggregateStripes(n int) {
	stripes := w.shared.stripes
	w.busy = w.busy[:0]
	for i := range stripes {
		st := stripes[(w.id+i)%len(stripes)]
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

// aggregateGroup adds the group's cases and selections to the aggregate,
// and the local splits to the index, once for every stripe (the index
// adds them to the splits when it is sealed); it keeps the sealed indexes
// that the stripes are to add to their pairs.
func (w *worker) aggregateGroup(ci *constraintInfo, g Group) {
	s := w.shared
	s.mu.Lock()
	defer s.mu.Unlock()
	defer func() { w.sealed = s.sealedIndexes(w.sealed[:0]) }()
	a := s.agg
	a.cases += int64(len(g.Versions))
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
	w.indexKeys()
	w.addToIndex(s.openIndex())
}

// indexKeys works out the key of each local split in the index, and its
// hash: the number of its shape, the number of the set of
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

// aggregateClasses adds the group's counts to the pairs of stripe st,
// and the sealed indexes it has not added yet to their classes, the
// caller holding the stripe's lock.
func (w *worker) aggregateClasses(st *classStripe, n int) {
	a := w.shared.agg
	for k := st.from; k < st.to; k++ {
		a.pairs[k].diverge += w.diverge[k]
		a.pairs[k].agree += int64(n) - w.diverge[k]
	}
	st.flushSealed(a, w.pairs, w.sealed, false)
}

// addToIndex adds the group's local splits to index x, the caller holding
// the aggregate's lock.
func (w *worker) addToIndex(x *classIndex) {
	for j := range w.local {
		ls := &w.local[j]
		v := x.vectors[ls.vhash]
		for v != nil && !x.isKey(v, w.shapeIDs[ls.shape], w.refusedID, ls.verdicts) {
			v = v.next
		}
		if v != nil {
			v.add(ls)
			continue
		}
		v = x.newEntry()
		*v = vectorEntry{next: x.vectors[ls.vhash], shape: w.shapes.shapes[ls.shape], verdicts: ls.verdicts, vref: w.vrefused[ls.shape],
			crefs: w.crefs, shapeID: w.shapeIDs[ls.shape], vrefID: w.vrefIDs[ls.shape], refusedID: w.refusedID,
			at: int32(len(x.entries)), count: ls.count, least: ls.key}
		x.vectors[ls.vhash] = v
		x.entries = append(x.entries, v)
		x.verdicts = append(x.verdicts, ls.verdicts...)
		x.indexed += indexedVector
	}
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
