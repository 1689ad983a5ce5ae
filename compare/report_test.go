package compare

import (
	"slices"
	"testing"
)

// pairClasses gives each pair's classes as ClassesOf does, in report
// order, whether a pair's classes come in one run, in several, or named
// either way round.
func TestPairClassesAsClassesOf(t *testing.T) {
	class := func(a, b, sig string) Class { return Class{A: a, B: b, Signature: sig} }
	for _, tc := range []struct {
		name    string
		classes []Class
	}{
		{"none", nil},
		{"one run per pair", []Class{class("x", "y", "1"), class("x", "y", "2"), class("x", "z", "3")}},
		{"runs interleaved", []Class{class("x", "y", "1"), class("x", "z", "2"), class("x", "y", "3")}},
		{"either way round", []Class{class("x", "y", "1"), class("y", "x", "2"), class("x", "y", "3")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &Report{Classes: tc.classes}
			pc := newPairClasses(r)
			for _, p := range [][2]string{{"x", "y"}, {"y", "x"}, {"x", "z"}, {"y", "z"}} {
				if got, want := pc.of(p[0], p[1]), r.ClassesOf(p[0], p[1]); !slices.Equal(got, want) {
					t.Errorf("of(%s, %s) = %v, ClassesOf %v", p[0], p[1], got, want)
				}
			}
		})
	}
}
