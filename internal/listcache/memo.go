package listcache

import (
	"strings"
	"sync"
)

// Memo maps a piece of constraint text to what a table of versions made
// of it (a parse and its column of verdicts over the table), so that a
// table compiles a constraint whose pieces it has met without calling
// its library again. It keeps at most its limit of pieces and builds the
// others again on each request. It is safe for concurrent use; entries
// are never changed once stored.
type Memo[E any] struct {
	mu    sync.RWMutex
	m     map[string]*E
	limit int
}

// NewMemo returns an empty memo that keeps at most limit pieces.
func NewMemo[E any](limit int) *Memo[E] {
	return &Memo[E]{m: make(map[string]*E), limit: limit}
}

// MemoLimit is how many pieces the memo of a table of n versions keeps:
// about 8 MB of one-byte verdicts, between 256 and 16,384 pieces.
func MemoLimit(n int) int { return min(max(8<<20/max(n, 1), 256), 1<<14) }

// Get returns the entry of key, building it on the first request.
func (c *Memo[E]) Get(key string, build func(string) *E) *E {
	c.mu.RLock()
	e, ok := c.m[key]
	c.mu.RUnlock()
	if ok {
		return e
	}
	e = build(key)
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.m[key]; ok {
		return old
	}
	if len(c.m) < c.limit {
		c.m[strings.Clone(key)] = e
	}
	return e
}
