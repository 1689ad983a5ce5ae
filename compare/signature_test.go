package compare

import (
	"testing"

	"github.com/prerel/prerel/engine"
)

func TestSignature(t *testing.T) {
	tests := []struct {
		constraint, version string
		a, b                engine.Verdict
		want                string
	}{
		{">= 1.0.0-beta, < 1.0.0", "1.0.0-rc.1", engine.Reject, engine.Allow,
			">= V-pre [=], < V [=]; version V-pre; a reject, b allow"},
		{">= 2.0.0-alpha.1, < 3.0.0", "2.5.1-rc.7", engine.Reject, engine.Allow,
			">= V-pre [>], < V [<]; version V-pre; a reject, b allow"},
		{"~> 1", "2.0.0", engine.Allow, engine.Reject, "~> N [>]; version V; a allow, b reject"},
		{"~> 1.2", "1.2.0", engine.Allow, engine.Reject, "~> N.N [=]; version V; a allow, b reject"},
		{"~> 1.2.3-beta", "1.2.3", engine.Allow, engine.Reject, "~> N.N.N-pre [=]; version V; a allow, b reject"},
		{"1.0.0", "1.0.0+build.5", engine.Allow, engine.Reject, "V [=]; version V+b; a allow, b reject"},
		{"=1.0.0", "1.0.0", engine.Allow, engine.Reject, "=V [=]; version V; a allow, b reject"},
		{"= 1.0.0", "1.0.0", engine.Allow, engine.Reject, "= V [=]; version V; a allow, b reject"},
		{"  >=  v1.0 ,<=2", "v1.5.0-0", engine.Allow, engine.Invalid, ">= vV [>], <=V [<]; version vV-pre; a allow, b invalid"},
		{"", "1.0.0-beta", engine.Allow, engine.Reject, "(any); version V-pre; a allow, b reject"},
		{">= 4.84 < 6", "4.84.1", engine.Invalid, engine.Allow, `constraint syntax ">= N.N < N"; version V; a invalid, b allow`},
		{"main", "1.0.0", engine.Invalid, engine.Reject, `constraint syntax "a"; version V; a invalid, b reject`},
		{">= 1.0.0", "v0.3rc1", engine.Reject, engine.Invalid, `>= V [?]; version syntax "aN.NaN"; a reject, b invalid`},
	}
	for _, tt := range tests {
		if got := Signature(tt.constraint, tt.version, tt.a, tt.b); got != tt.want {
			t.Errorf("Signature(%q, %q) =\n  %s\nwant\n  %s", tt.constraint, tt.version, got, tt.want)
		}
	}
}

// The numbers never reach a signature.
func TestSignatureDropsNumbers(t *testing.T) {
	a := Signature(">= 1.0.0-beta, < 1.0.0", "1.0.0-rc.1", engine.Reject, engine.Allow)
	b := Signature(">= 17.4.2-alpha.3, < 17.4.2", "17.4.2-x", engine.Reject, engine.Allow)
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
