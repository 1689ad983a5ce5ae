package listcache

import (
	"strings"
	"sync"
	"testing"
)

// TestMemo checks that a piece is built once while the memo has room,
// built again on each request once it is full, and that the value is
// the build's for that piece.
func TestMemo(t *testing.T) {
	m := NewMemo[string](2)
	builds := 0
	build := func(key string) *string {
		builds++
		v := strings.ToUpper(key)
		return &v
	}
	steps := []struct {
		key    string
		builds int
	}{
		{">= 1.0", 1},
		{">= 1.0", 1},
		{"< 2.0", 2},
		{"< 2.0", 2},
		{"!= 1.5", 3}, // the memo is full: built, not kept
		{"!= 1.5", 4},
		{">= 1.0", 4},
	}
	for _, s := range steps {
		if got := *m.Get(s.key, build); got != strings.ToUpper(s.key) {
			t.Errorf("Get(%q) = %q", s.key, got)
		}
		if builds != s.builds {
			t.Errorf("after Get(%q): %d builds, want %d", s.key, builds, s.builds)
		}
	}
}

// TestMemoConcurrent gets the same pieces from many goroutines: every
// caller sees one value per piece once it is stored.
func TestMemoConcurrent(t *testing.T) {
	m := NewMemo[int](MemoLimit(100))
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 100 {
				key := string(rune('a' + (i+g)%26))
				if v := m.Get(key, func(k string) *int { n := int(k[0]); return &n }); *v != int(key[0]) {
					t.Errorf("Get(%q) = %d", key, *v)
				}
			}
		})
	}
	wg.Wait()
	if MemoLimit(1<<30) != 256 || MemoLimit(0) != 1<<14 {
		t.Errorf("MemoLimit bounds: %d, %d", MemoLimit(1<<30), MemoLimit(0))
	}
}
