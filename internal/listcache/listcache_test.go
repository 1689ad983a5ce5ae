package listcache

import (
	"slices"
	"testing"
)

// TestGet checks that a list read again, by the same or an equal slice,
// is not parsed again; that a changed list, another variant, or a slice
// the caller changed in place is; and that the value is the parse of the
// texts given.
func TestGet(t *testing.T) {
	var c Cache[[]string]
	reads := 0
	read := func(texts []string) *[]string {
		reads++
		v := slices.Clone(texts)
		return &v
	}
	a := []string{"1.0.0", "1.1.0", "2.0.0-beta.1"}
	steps := []struct {
		name    string
		texts   []string
		variant int
		reads   int
	}{
		{"first read", a, 0, 1},
		{"the same slice", a, 0, 1},
		{"an equal slice", slices.Clone(a), 0, 1},
		{"another variant", a, 7, 2},
		{"another list", []string{"3.0.0"}, 0, 3},
		{"the empty list", nil, 0, 4},
		{"the empty list again", []string{}, 0, 4},
	}
	for _, s := range steps {
		got := c.Get(s.texts, s.variant, read)
		if reads != s.reads {
			t.Errorf("%s: %d reads, want %d", s.name, reads, s.reads)
		}
		if !slices.Equal(*got, s.texts) {
			t.Errorf("%s: the value is the parse of %q", s.name, *got)
		}
	}
	a[1] = "1.2.0" // changed in place: the cache kept a copy
	if got := c.Get(a, 0, read); !slices.Equal(*got, a) {
		t.Errorf("a list changed in place gives the parse of %q", *got)
	}
}
