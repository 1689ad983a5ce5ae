package compare

import (
	"testing"
)

// caseShape is the signature's case part for a case where neither side
// is Invalid.
func caseShape(constraint, version string) string {
	ci, vi := newConstraintInfo(constraint), newVersionInfo(version)
	var g groupShapes
	g.reset(&ci)
	return g.shapeOf(&vi)
}

func TestCaseShape(t *testing.T) {
	tests := []struct {
		constraint, version, want string
	}{
		{">= 1.0.0-beta, < 1.0.0", "1.0.0-rc.1", ">= V-pre [=], < V [=]; version V-pre"},
		{">= 2.0.0-alpha.1, < 3.0.0", "2.5.1-rc.7", ">= V-pre [>], < V [<]; version V-pre"},
		{"~> 1", "2.0.0", "~> N [>, =U]; version V"},
		{"~> 1.2", "1.2.0", "~> N.N [=, <U]; version V"},
		{"~> 1.2.3-beta", "1.2.3", "~> N.N.N-pre [=, <U]; version V"},
		// A prerelease of the release a "~>" stops below is a class of its
		// own, apart from prereleases inside the range and above it.
		{"~> 1.0", "2.0.0-beta.1", "~> N.N [>, =U]; version V-pre"},
		{"~> 1.2.0", "1.3.0-rc.1", "~> N.N.N [>, =U]; version V-pre"},
		{"~> 1.0", "1.5.0-beta.1", "~> N.N [>, <U]; version V-pre"},
		{"~> 1.2", "3.0.0-beta.1", "~> N.N [>, >U]; version V-pre"},
		{"1.0.0", "1.0.0+build.5", "V [=]; version V+b"},
		{"=1.0.0", "1.0.0", "=V [=]; version V"},
		{"= 1.0.0", "1.0.0", "= V [=]; version V"},
		{"  >=  v1.0 ,<=2", "v1.5.0-0", ">= vV [>], <=V [<]; version vV-pre"},
		{"", "1.0.0-beta", "(any); version V-pre"},
		{">= 4.84 < 6", "4.84.1", `constraint syntax ">= N.N < N"; version V`},
		{"main", "1.0.0", `constraint syntax "a"; version V`},
		{">= 1.0.0", "v0.3rc1", `>= V [?]; version syntax "aN.NaN"`},
	}
	for _, tt := range tests {
		if got := caseShape(tt.constraint, tt.version); got != tt.want {
			t.Errorf("caseShape(%q, %q) =\n  %s\nwant\n  %s", tt.constraint, tt.version, got, tt.want)
		}
	}
}

// The numbers never reach a signature.
func TestCaseShapeDropsNumbers(t *testing.T) {
	a := caseShape(">= 1.0.0-beta, < 1.0.0", "1.0.0-rc.1")
	b := caseShape(">= 17.4.2-alpha.3, < 17.4.2", "17.4.2-x")
	if a != b {
		t.Errorf("same shape, different signatures:\n  %s\n  %s", a, b)
	}
}

func TestSyntaxShapeIsBounded(t *testing.T) {
	long := ""
	for range 1000 {
		long += "x1-"
	}
	if s := syntaxShape(long); len(s) > maxSyntaxShape+3 {
		t.Errorf("syntax shape of %d bytes is %d bytes long", len(long), len(s))
	}
	if got := syntaxShape("  a1.22\tbb"); got != " aN.N a" {
		t.Errorf("syntaxShape = %q", got)
	}
}

func TestSumNumbers(t *testing.T) {
	tests := []struct {
		s    string
		want uint64
	}{
		{"", 0},
		{">= 1.2.3, < 10", 16},
		{"1.0.0-rc.12", 13},
		{"99999999999999999999999", ^uint64(0)},
		{"18446744073709551615, 1", ^uint64(0)},
	}
	for _, tt := range tests {
		if got := sumNumbers(tt.s); got != tt.want {
			t.Errorf("sumNumbers(%q) = %d, want %d", tt.s, got, tt.want)
		}
	}
}

func TestWitnessOrder(t *testing.T) {
	key := func(c, v string) caseKey {
		ci, vi := newConstraintInfo(c), newVersionInfo(v)
		return makeCaseKey(&ci, &vi)
	}
	// Each case comes strictly before the next.
	ordered := []struct {
		why, constraint, version string
	}{
		{"no comparator", "", "9.9.9"},
		{"one comparator", ">= 5.0.0", "5.0.0"},
		{"smaller numbers", ">= 1.0.0, < 2.0.0", "1.0.0"},
		{"shorter text", ">= 1.0.0, < 2.0.0", "1.1.0"},
		{"then byte order of the constraint", ">= 1.0.0, < 2.0.0-a", "1.1.0"},
		{"then byte order of the version", ">= 1.0.0, < 2.0.0-a", "1.1.0-b"},
		{"same length and numbers, later bytes", ">= 1.0.0, < 2.0.0-b", "1.1.0-a"},
		{"bigger numbers", ">= 1.0.0, < 4.0.0", "1.0.0"},
		{"three comparators beat any two", ">= 0.0.0, < 0.0.1, != 0.0.0", "0.0.0"},
		{"an unparsable constraint counts its fields", ">= 0.0.0 , < 0.0.1, x, y", "0.0.0"},
	}
	for i := 1; i < len(ordered); i++ {
		p, q := ordered[i-1], ordered[i]
		kp, kq := key(p.constraint, p.version), key(q.constraint, q.version)
		if !kp.less(kq) || kq.less(kp) {
			t.Errorf("%s: want (%q, %q) before (%q, %q)", q.why, p.constraint, p.version, q.constraint, q.version)
		}
	}
	k := key(">= 1.0.0", "1.0.0")
	if k.less(k) {
		t.Error("a case comes before itself")
	}
}
