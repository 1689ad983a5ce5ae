package updaters

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/prerel/prerel/internal/longtest"
)

// masterminds331RewriteRange is rewriteRange of Masterminds/semver
// v3.3.1 (constraints.go), as it is.
func masterminds331RewriteRange(i string) string {
	m := mmRange.FindAllStringSubmatch(i, -1)
	if m == nil {
		return i
	}
	o := i
	for _, v := range m {
		t := fmt.Sprintf(">= %s, <= %s ", v[1], v[11])
		o = strings.Replace(o, v[0], t, 1)
	}
	return o
}

// inPlaceRewrite rewrites every range at its own place, which is what
// rewriteRange does unless a range's text occurs earlier.
func inPlaceRewrite(c string) string {
	var b strings.Builder
	at := 0
	for _, m := range mmRange.FindAllStringSubmatchIndex(c, -1) {
		b.WriteString(c[at:m[0]])
		b.WriteString(">= " + c[m[2]:m[3]] + ", <= " + c[m[22]:m[23]] + " ")
		at = m[1]
	}
	return b.String() + c[at:]
}

func TestRewriteRanges(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"", ""},
		{"~> 1.2", "~> 1.2"},
		{"1.2 - 1.4", ">= 1.2, <= 1.4 "},
		{"1.2 - 1.4 || 2 - 3", ">= 1.2, <= 1.4 ||>= 2, <= 3 "},
		{"1 - 2 - 3 - 4 - 5", ">= 1, <= 2 ->= 3, <= 4 - 5"},
		// The second range's text, " 2.0 - 3.0", first occurs in what
		// the first replacement left.
		{"1.0 - 2.0 - 3.0 || 2.0 - 3.0", ">= 1.0, <=>= 2.0, <= 3.0  || 2.0 - 3.0"},
		{"1 - 12 - 3,2 - 3", ">= 1, <= 1>= 2, <= 3 ,2 - 3"},
		// An occurrence that starts in the rewritten part and ends in the
		// range's own text.
		{"x 2.0  -  2.0 - 2.0 - 2.0 - ", "x>= 2.0, <=>= 2.0, <= 2.0 - 2.0 - "},
		{"1.0 - 2||2  -  1  -  2.0 - 1.0 - 2-a - 2-a - 2-a - 2 2-a || ", ">= 1.0, <= 2||2 ->= 1, <= 2.0 ->= 1.0, <=>= 2-a, <= 2-a - 2-a - 2 2-a || "},
	} {
		if got := rewriteRanges(tc.in); got != tc.want {
			t.Errorf("rewriteRanges(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if got := masterminds331RewriteRange(tc.in); got != tc.want {
			t.Errorf("the test is wrong: Masterminds rewrites %q to %q, not %q", tc.in, got, tc.want)
		}
	}
}

// TestRewriteRangesEqualsMasterminds compares rewriteRanges with the
// original on generated constraints: versions from a small set joined by
// hyphens, blanks, commas and "||", so that texts repeat and ranges
// chain, and some ranges are rewritten away from their own place.
func TestRewriteRangesEqualsMasterminds(t *testing.T) {
	t.Parallel()
	versions := []string{"1", "2", "12", "2-a", "x", "1|2"}
	seps := []string{" - ", " - ", " - ", " - ", "  -  ", "\t-\t", "-", " ", ",", " || ", "||"}
	r := rand.New(rand.NewPCG(35, 9))
	n := longtest.Pick(5000, 500000)
	moved := 0
	for range n {
		var b strings.Builder
		for range 2 + r.IntN(14) {
			b.WriteString(versions[r.IntN(len(versions))])
			b.WriteString(seps[r.IntN(len(seps))])
		}
		c := b.String()[r.IntN(2):] // sometimes starting inside a version
		want := masterminds331RewriteRange(c)
		if got := rewriteRanges(c); got != want {
			t.Fatalf("rewriteRanges(%q) = %q, Masterminds v3.3.1 gives %q", c, got, want)
		}
		if want != inPlaceRewrite(c) {
			moved++
		}
	}
	if moved < n/500 {
		t.Errorf("only %d of %d constraints have a range rewritten away from its place: the generator no longer tests that", moved, n)
	}
}

// TestRewriteRangesLinear bounds the work of rewriteRanges by a multiple
// of the constraint's length, on constraints of many ranges: ranges
// alone, and ranges whose hyphens chain and leave a hyphen between white
// space in the rewritten part, which the finder then reads.
func TestRewriteRangesLinear(t *testing.T) {
	t.Parallel()
	shapes := map[string]func(i int) string{
		"alternatives": func(i int) string { return fmt.Sprintf("%d.0.0 - %d.0.0 || ", i, i+1) },
		"chained":      func(i int) string { return fmt.Sprintf("%d - %d - %d, ", i, i+1, i+2) },
		"repeated":     func(i int) string { return "1.0 - 2.0 - 3.0, " },
	}
	for name, shape := range shapes {
		var b strings.Builder
		for i := range 5000 {
			b.WriteString(shape(i))
		}
		c := b.String()
		got, work := rewriteRangesWork(c)
		if work > 40*len(c) {
			t.Errorf("%s: %d bytes of ranges take %d steps of work, more than 40 a byte", name, len(c), work)
		}
		if got != inPlaceRewrite(c) {
			t.Errorf("%s: a range is rewritten away from its place", name)
		}
	}
}
