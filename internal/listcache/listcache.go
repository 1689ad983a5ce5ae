// Package listcache keeps what a parser made of the lists of versions
// read last, so that the policies that read versions alike and read the
// same list in turn, as a compare run reads each list with every policy,
// parse it once for all of them; and, with Memo, what a table of
// versions made of each piece of constraint text it has met, so that it
// parses and judges a piece once.
package listcache

import (
	"hash/maphash"
	"slices"
	"sync/atomic"
)

// Cache keeps, for the lists read last, what a parser made of each (L),
// found again by the list's texts and a variant (what else the value
// depends on, such as a bound the caller read the list with). A list is
// kept in the slot of its hash until another list takes the slot. It is
// safe for concurrent use; the values are shared, and must not be changed
// once made. The zero value is ready to use.
type Cache[L any] struct {
	slots [Slots]atomic.Pointer[entry[L]]
}

// Slots is how many lists a Cache keeps: a few per goroutine judging at
// the same time.
const Slots = 16

// entry is one list of a Cache: a copy of its texts, its variant and what
// the parser made of it.
type entry[L any] struct {
	texts   []string
	variant int
	value   *L
}

var seed = maphash.MakeSeed()

// Get returns what read makes of texts: the value made last for the same
// texts and variant, when the slot of their hash still has it, or a new
// one. The cache keeps a copy of texts, so the caller may change its
// slice afterwards.
func (c *Cache[L]) Get(texts []string, variant int, read func([]string) *L) *L {
	var h maphash.Hash
	h.SetSeed(seed)
	if n := len(texts); n > 0 {
		h.WriteString(texts[0])
		h.WriteByte(0)
		h.WriteString(texts[n/2])
		h.WriteByte(0)
		h.WriteString(texts[n-1])
	}
	slot := &c.slots[(h.Sum64()^uint64(len(texts))^uint64(variant)<<32)%Slots]
	if e := slot.Load(); e != nil && e.variant == variant && slices.Equal(e.texts, texts) {
		return e.value
	}
	v := read(texts)
	slot.Store(&entry[L]{texts: slices.Clone(texts), variant: variant, value: v})
	return v
}
