package compare

// capped keeps the entries of at most limit keys: those of the smallest
// keys it was offered, in the order less gives. Once it has turned a key
// away it turns away every key not less than that one, so the entries it
// keeps have seen every value added for their key, and which keys it
// keeps does not depend on the order they were offered in: merging the
// capped maps of several workers keeps the same keys as one worker would
// have.
//
// The heap that finds the largest kept key is built only once the map
// first runs over its limit: a map that never does pays nothing for it.
type capped[K comparable, V any] struct {
	limit  int
	less   func(a, b K) bool
	rank   func(K) uint64 // nil: every key ranks 0 (rankedLess)
	items  map[K]*cappedItem[K, V]
	heap   cappedHeap[K, V] // the kept items, largest key on top, once heaped
	heaped bool
	full   bool // a key was turned away; bound is the smallest
	bound  K
	// boundRank is bound's rank
	boundRank uint64
	// pushedOut counts the items pushed out (gone) so far.
	pushedOut int
}

type cappedItem[K comparable, V any] struct {
	key K
	val V
	// gone is set when the item is pushed out: its key is turned away
	// from then on.
	gone bool
}

func newCapped[K comparable, V any](limit int, less func(a, b K) bool) *capped[K, V] {
	return newRankedCapped[K, V](limit, less, nil)
}

// newRankedCapped is newCapped with the keys ranked by rank, which orders
// most keys without less: a key of a smaller rank is less, one of a
// larger rank is not, and keys of the same rank are ordered by less. The
// heap keeps each item's rank, so that pushing out the largest key seldom
// reads the keys.
func newRankedCapped[K comparable, V any](limit int, less func(a, b K) bool, rank func(K) uint64) *capped[K, V] {
	return &capped[K, V]{limit: max(limit, 1), less: less, rank: rank, items: map[K]*cappedItem[K, V]{},
		heap: cappedHeap[K, V]{less: less}}
}

// rankOf is k's rank, 0 without a rank.
func (c *capped[K, V]) rankOf(k K) uint64 {
	if c.rank == nil {
		return 0
	}
	return c.rank(k)
}

// rankedLess reports whether key a of rank ra is less than key b of rank
// rb.
func rankedLess[K any](less func(a, b K) bool, a K, ra uint64, b K, rb uint64) bool {
	if ra != rb {
		return ra < rb
	}
	return less(a, b)
}

// reserve makes room for n keys in a map that keeps none yet.
func (c *capped[K, V]) reserve(n int) {
	if len(c.items) == 0 {
		c.items = make(map[K]*cappedItem[K, V], min(n, c.limit))
	}
}

// get returns the value kept for k, or nil.
func (c *capped[K, V]) get(k K) *V {
	if it := c.items[k]; it != nil {
		return &it.val
	}
	return nil
}

// add returns the value kept for k, a new zero value when k is new and
// among the smallest keys, or nil when k is turned away. Adding a key can
// push out the largest kept one.
func (c *capped[K, V]) add(k K) *V {
	if it := c.addItem(k); it != nil {
		return &it.val
	}
	return nil
}

// addItem is add returning the item that holds the value. The item is
// the key's until the next call that adds a key: a key pushed out then
// may give its item to the new one. An item that turnAwayFrom pushes out
// is gone.
//
// Once full, the map keeps only keys below bound, so a key not below it
// is turned away without a look-up.
func (c *capped[K, V]) addItem(k K) *cappedItem[K, V] {
	r := c.rankOf(k)
	if c.full && !rankedLess(c.less, k, r, c.bound, c.boundRank) {
		return nil
	}
	if it := c.items[k]; it != nil {
		return it
	}
	return c.insert(k, r)
}

// insert keeps a new key, pushing out the largest kept one when there is
// no room; it returns nil, and keeps nothing, when that is k itself.
// r is k's rank.
func (c *capped[K, V]) insert(k K, r uint64) *cappedItem[K, V] {
	if len(c.items) < c.limit {
		it := &cappedItem[K, V]{key: k}
		c.items[k] = it
		if c.heaped {
			c.heap.push(heapEntry[K, V]{rank: r, it: it})
		}
		return it
	}
	c.buildHeap()
	top := c.heap.items[0]
	if !rankedLess(c.less, k, r, top.it.key, top.rank) {
		c.full, c.bound, c.boundRank = true, k, r
		return nil
	}
	delete(c.items, top.it.key)
	c.pushedOut++
	c.full, c.bound, c.boundRank = true, top.it.key, top.rank
	// The pushed-out item holds the new key: no caller holds an item
	// past its next call that adds a key.
	it := top.it
	*it = cappedItem[K, V]{key: k}
	c.items[k] = it
	c.heap.items[0].rank = r
	c.heap.down(0)
	return it
}

// pushOut marks an item no longer kept as gone, and lets go of its value,
// which a caller that still holds the item no longer needs.
func (c *capped[K, V]) pushOut(it *cappedItem[K, V]) {
	var zero V
	it.val, it.gone = zero, true
	c.pushedOut++
}

// buildHeap puts every kept item on the heap, the first time it is
// needed.
func (c *capped[K, V]) buildHeap() {
	if c.heaped {
		return
	}
	c.heaped = true
	c.heap.items = make([]heapEntry[K, V], 0, len(c.items))
	for k, it := range c.items {
		c.heap.items = append(c.heap.items, heapEntry[K, V]{rank: c.rankOf(k), it: it})
	}
	for i := len(c.heap.items)/2 - 1; i >= 0; i-- {
		c.heap.down(i)
	}
}

// turnAwayFrom turns away k and every larger key, dropping those kept.
func (c *capped[K, V]) turnAwayFrom(k K) {
	if r := c.rankOf(k); !c.full || rankedLess(c.less, k, r, c.bound, c.boundRank) {
		c.full, c.bound, c.boundRank = true, k, r
	}
	if !c.heaped {
		for key, it := range c.items {
			if !rankedLess(c.less, key, c.rankOf(key), c.bound, c.boundRank) {
				delete(c.items, key)
				c.pushOut(it)
			}
		}
		return
	}
	for len(c.heap.items) > 0 && !rankedLess(c.less, c.heap.items[0].it.key, c.heap.items[0].rank, c.bound, c.boundRank) {
		top := c.heap.pop()
		delete(c.items, top.key)
		c.pushOut(top)
	}
}

// merge adds the entries of o, combining values of the same key with
// join, and turns away what o turned away.
func (c *capped[K, V]) merge(o *capped[K, V], join func(mine, theirs *V)) {
	for k, it := range o.items {
		if mine := c.get(k); mine != nil {
			join(mine, &it.val)
			continue
		}
		if v := c.add(k); v != nil {
			*v = it.val
		}
	}
	if o.full {
		c.turnAwayFrom(o.bound)
	}
}

// len is the number of keys kept.
func (c *capped[K, V]) len() int { return len(c.items) }

// each calls f with every kept key and value, in no particular order.
func (c *capped[K, V]) each(f func(k K, v *V)) {
	for k, it := range c.items {
		f(k, &it.val)
	}
}

// cappedHeap is a max-heap of items by key, ranked (newRankedCapped).
type cappedHeap[K comparable, V any] struct {
	items []heapEntry[K, V]
	less  func(a, b K) bool
}

// heapEntry is an item of a cappedHeap with its key's rank.
type heapEntry[K comparable, V any] struct {
	rank uint64
	it   *cappedItem[K, V]
}

// lessAt reports whether the key of entry i is less than that of entry j.
func (h *cappedHeap[K, V]) lessAt(i, j int) bool {
	x, y := &h.items[i], &h.items[j]
	return rankedLess(h.less, x.it.key, x.rank, y.it.key, y.rank)
}

// push adds e to the heap.
func (h *cappedHeap[K, V]) push(e heapEntry[K, V]) {
	h.items = append(h.items, e)
	h.up(len(h.items) - 1)
}

// pop removes and returns the item of the largest key.
func (h *cappedHeap[K, V]) pop() *cappedItem[K, V] {
	n := len(h.items) - 1
	top := h.items[0].it
	h.items[0] = h.items[n]
	h.items[n] = heapEntry[K, V]{}
	h.items = h.items[:n]
	if n > 0 {
		h.down(0)
	}
	return top
}

// up moves item i towards the top while its key is larger than its
// parent's.
func (h *cappedHeap[K, V]) up(i int) {
	items := h.items
	for i > 0 {
		parent := (i - 1) / 2
		if !h.lessAt(parent, i) {
			return
		}
		items[parent], items[i] = items[i], items[parent]
		i = parent
	}
}

// down moves item i away from the top while a child's key is larger.
func (h *cappedHeap[K, V]) down(i int) {
	items := h.items
	n := len(items)
	for {
		child := 2*i + 1
		if child >= n {
			return
		}
		if r := child + 1; r < n && h.lessAt(child, r) {
			child = r
		}
		if !h.lessAt(i, child) {
			return
		}
		items[i], items[child] = items[child], items[i]
		i = child
	}
}
