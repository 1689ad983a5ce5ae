package compare

import "container/heap"

// capped keeps the entries of at most limit keys: those of the smallest
// keys it was offered, in the order less gives. Once it has turned a key
// away it turns away every key not less than that one, so the entries it
// keeps have seen every value added for their key, and which keys it
// keeps does not depend on the order they were offered in: merging the
// capped maps of several workers keeps the same keys as one worker would
// have.
type capped[K comparable, V any] struct {
	limit int
	less  func(a, b K) bool
	items map[K]*cappedItem[K, V]
	heap  cappedHeap[K, V] // the kept items, largest key on top
	full  bool             // a key was turned away; bound is the smallest
	bound K
}

type cappedItem[K comparable, V any] struct {
	key K
	val V
}

func newCapped[K comparable, V any](limit int, less func(a, b K) bool) *capped[K, V] {
	return &capped[K, V]{limit: max(limit, 1), less: less, items: map[K]*cappedItem[K, V]{},
		heap: cappedHeap[K, V]{less: less}}
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
	if it := c.items[k]; it != nil {
		return &it.val
	}
	if c.full && !c.less(k, c.bound) {
		return nil
	}
	it := &cappedItem[K, V]{key: k}
	c.items[k] = it
	heap.Push(&c.heap, it)
	if len(c.items) <= c.limit {
		return &it.val
	}
	top := heap.Pop(&c.heap).(*cappedItem[K, V])
	delete(c.items, top.key)
	c.full, c.bound = true, top.key
	if top == it {
		return nil
	}
	return &it.val
}

// turnAwayFrom turns away k and every larger key, dropping those kept.
func (c *capped[K, V]) turnAwayFrom(k K) {
	if !c.full || c.less(k, c.bound) {
		c.full, c.bound = true, k
	}
	for c.heap.Len() > 0 && !c.less(c.heap.items[0].key, c.bound) {
		top := heap.Pop(&c.heap).(*cappedItem[K, V])
		delete(c.items, top.key)
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

func (h *cappedHeap[K, V]) Len() int { return len(h.items) }

func (h *cappedHeap[K, V]) Less(i, j int) bool { return h.less(h.items[j].key, h.items[i].key) }

func (h *cappedHeap[K, V]) Swap(i, j int) {
	h.items[i], h.items[j] = h.items[j], h.items[i]
}

func (h *cappedHeap[K, V]) Push(x any) {
	h.items = append(h.items, x.(*cappedItem[K, V]))
}

func (h *cappedHeap[K, V]) Pop() any {
	old := h.items
	it := old[len(old)-1]
	old[len(old)-1] = nil
	h.items = old[:len(old)-1]
	return it
}
