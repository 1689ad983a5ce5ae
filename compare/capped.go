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
	items  map[K]*cappedItem[K, V]
	heap   cappedHeap[K, V] // the kept items, largest key on top, once heaped
	heaped bool
	full   bool // a key was turned away; bound is the smallest
	bound  K
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
	return &capped[K, V]{limit: max(limit, 1), less: less, items: map[K]*cappedItem[K, V]{},
		heap: cappedHeap[K, V]{less: less}}
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
	if c.full && !c.less(k, c.bound) {
		return nil
	}
	if it := c.items[k]; it != nil {
		return it
	}
	return c.insert(k)
}

// insert keeps a new key, pushing out the largest kept one when there is
// no room; it returns nil, and keeps nothing, when that is k itself.
func (c *capped[K, V]) insert(k K) *cappedItem[K, V] {
	if len(c.items) < c.limit {
		it := &cappedItem[K, V]{key: k}
		c.items[k] = it
		if c.heaped {
			c.heap.push(it)
		}
		return it
	}
	c.buildHeap()
	top := c.heap.items[0]
	if !c.less(k, top.key) {
		c.full, c.bound = true, k
		return nil
	}
	delete(c.items, top.key)
	c.pushedOut++
	c.full, c.bound = true, top.key
	// The pushed-out item holds the new key: no caller holds an item
	// past its next call that adds a key.
	it := top
	*it = cappedItem[K, V]{key: k}
	c.items[k] = it
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
	c.heap.items = make([]*cappedItem[K, V], 0, len(c.items))
	for _, it := range c.items {
		c.heap.items = append(c.heap.items, it)
	}
	for i := len(c.heap.items)/2 - 1; i >= 0; i-- {
		c.heap.down(i)
	}
}

// turnAwayFrom turns away k and every larger key, dropping those kept.
func (c *capped[K, V]) turnAwayFrom(k K) {
	if !c.full || c.less(k, c.bound) {
		c.full, c.bound = true, k
	}
	if !c.heaped {
		for key, it := range c.items {
			if !c.less(key, c.bound) {
				delete(c.items, key)
				c.pushOut(it)
			}
		}
		return
	}
	for len(c.heap.items) > 0 && !c.less(c.heap.items[0].key, c.bound) {
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

// cappedHeap is a max-heap of items by key.
type cappedHeap[K comparable, V any] struct {
	items []*cappedItem[K, V]
	less  func(a, b K) bool
}

// push adds it to the heap.
func (h *cappedHeap[K, V]) push(it *cappedItem[K, V]) {
	h.items = append(h.items, it)
	h.up(len(h.items) - 1)
}

// pop removes and returns the item of the largest key.
func (h *cappedHeap[K, V]) pop() *cappedItem[K, V] {
	n := len(h.items) - 1
	top := h.items[0]
	h.items[0] = h.items[n]
	h.items[n] = nil
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
		if !h.less(items[parent].key, items[i].key) {
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
		if r := child + 1; r < n && h.less(items[child].key, items[r].key) {
			child = r
		}
		if !h.less(items[i].key, items[child].key) {
			return
		}
		items[i], items[child] = items[child], items[i]
		i = child
	}
}
