package engine

import (
	"cmp"
	"sort"
	"strings"
	"testing"
)

func TestParseVersion(t *testing.T) {
	tests := []struct {
		in                  string
		major, minor, patch uint64
		pre, build          string
		err                 string // substring of the error; "" for success
	}{
		{in: "1.2.3", major: 1, minor: 2, patch: 3},
		{in: "v1.2.3", major: 1, minor: 2, patch: 3},
		{in: "0.0.0", major: 0},
		{in: "1.0.0-beta.1", major: 1, pre: "beta.1"},
		{in: "1.0.0-0.3.7", major: 1, pre: "0.3.7"},
		{in: "1.0.0-x-y-z.--", major: 1, pre: "x-y-z.--"},
		{in: "1.0.0+build.007", major: 1, build: "build.007"},
		{in: "1.0.0-rc.1+exp.sha.5114f85", major: 1, pre: "rc.1", build: "exp.sha.5114f85"},
		{in: "18446744073709551615.0.0", major: 18446744073709551615},
		{in: "", err: "column 1: expected a version, found end of input"},
		{in: "v", err: `column 2: expected a number after "v"`},
		{in: "1.2", err: "column 4: expected MAJOR.MINOR.PATCH, found only 2 numeric parts"},
		{in: "1", err: "found only 1 numeric part"},
		{in: "1.2.3.4", err: "column 6: too many numeric parts"},
		{in: "01.2.3", err: `column 1: major number "01" has a leading zero`},
		{in: "1.02.3", err: `column 3: minor number "02" has a leading zero`},
		{in: "1.0.0-01", err: `column 7: numeric prerelease identifier "01" has a leading zero`},
		{in: "1.0.0-", err: "column 7: expected a prerelease identifier"},
		{in: "1.0.0-a..b", err: "column 9: expected a prerelease identifier"},
		{in: "1.0.0+", err: "column 7: expected a build metadata identifier"},
		{in: "1.0.0beta", err: `column 6: unexpected "beta" in version`},
		{in: "1.0.0 ", err: `column 6: unexpected " " after the version`},
		{in: " 1.0.0", err: "column 1: expected a version"},
		{in: "1.0.0-beta_1", err: `column 11: unexpected "_1" after the version`},
		{in: "18446744073709551616.0.0", err: "too large"},
		{in: "1.x.0", err: `column 3: expected the minor number after "1.", found "x.0"`},
	}
	for _, tt := range tests {
		v, err := ParseVersion(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("ParseVersion(%q) error = %v, want it to contain %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseVersion(%q): %v", tt.in, err)
			continue
		}
		if v.Major() != tt.major || v.Minor() != tt.minor || v.Patch() != tt.patch || v.Prerelease() != tt.pre || v.Build() != tt.build {
			t.Errorf("ParseVersion(%q) = %d.%d.%d pre %q build %q", tt.in, v.Major(), v.Minor(), v.Patch(), v.Prerelease(), v.Build())
		}
		if got := v.String(); got != tt.in {
			t.Errorf("ParseVersion(%q).String() = %q", tt.in, got)
		}
	}
}

func TestParseVersionErrorIsParseError(t *testing.T) {
	_, err := ParseVersion("1.2")
	pe, ok := err.(*ParseError)
	if !ok {
		t.Fatalf("error %T, want *ParseError", err)
	}
	if pe.Kind != "version" || pe.Input != "1.2" || pe.Column != 4 {
		t.Errorf("ParseError = %+v", pe)
	}
}

// TestPrecedence checks SemVer section 11 with the spec's own example chain
// and the cases libraries get wrong.
func TestPrecedence(t *testing.T) {
	ascending := []string{
		"0.0.0",
		"0.9.9",
		"1.0.0-0",
		"1.0.0-1",
		"1.0.0-2",
		"1.0.0-10",
		"1.0.0-alpha",
		"1.0.0-alpha.1",
		"1.0.0-alpha.beta",
		"1.0.0-beta",
		"1.0.0-beta.2",
		"1.0.0-beta.11",
		"1.0.0-beta.alpha",
		"1.0.0-rc.1",
		"1.0.0",
		"1.0.1",
		"1.1.0",
		"2.0.0-0",
		"2.0.0",
		"10.0.0",
	}
	for i := range ascending {
		for j := range ascending {
			a, b := MustParseVersion(ascending[i]), MustParseVersion(ascending[j])
			want := cmp.Compare(i, j)
			if got := a.Compare(b); got != want {
				t.Errorf("Compare(%s, %s) = %d, want %d", a, b, got, want)
			}
		}
	}
}

func TestBuildAndPrefixIgnored(t *testing.T) {
	tests := []struct{ a, b string }{
		{"1.0.0", "1.0.0+def"},
		{"1.0.0+abc", "1.0.0+def"},
		{"v1.0.0", "1.0.0"},
		{"v1.0.0-rc.1+x", "1.0.0-rc.1"},
	}
	for _, tt := range tests {
		a, b := MustParseVersion(tt.a), MustParseVersion(tt.b)
		if a.Compare(b) != 0 || !a.Equal(b) {
			t.Errorf("%s and %s: Compare = %d, Equal = %v; want equal precedence", a, b, a.Compare(b), a.Equal(b))
		}
		if a == b {
			t.Errorf("%s == %s; want == to see the spelling", a, b)
		}
	}
}

func TestSortIsStableAndTotal(t *testing.T) {
	in := []string{"1.0.0", "1.0.0-rc.1", "v0.1.0", "1.0.0-beta.11", "1.0.0-beta.2", "0.1.0-0"}
	vs := make([]Version, len(in))
	for i, s := range in {
		vs[i] = MustParseVersion(s)
	}
	sort.Slice(vs, func(i, j int) bool { return vs[i].Less(vs[j]) })
	var got []string
	for _, v := range vs {
		got = append(got, v.String())
	}
	want := "0.1.0-0 v0.1.0 1.0.0-beta.2 1.0.0-beta.11 1.0.0-rc.1 1.0.0"
	if strings.Join(got, " ") != want {
		t.Errorf("sorted = %v, want %s", got, want)
	}
}

func TestVersionHelpers(t *testing.T) {
	v := MustParseVersion("v2.1.0-beta.1+git")
	if !v.IsPrerelease() {
		t.Error("IsPrerelease = false")
	}
	if got := v.Core().String(); got != "2.1.0" {
		t.Errorf("Core = %s", got)
	}
	if !v.SameCore(MustParseVersion("2.1.0")) || v.SameCore(MustParseVersion("2.1.1")) {
		t.Error("SameCore wrong")
	}
	if NewVersion(1, 2, 3) != MustParseVersion("1.2.3") {
		t.Error("NewVersion(1, 2, 3) differs from 1.2.3")
	}
	var w Version
	if err := w.UnmarshalText([]byte("1.0.0-rc.1")); err != nil || w.String() != "1.0.0-rc.1" {
		t.Errorf("UnmarshalText: %v %s", err, w)
	}
	if err := w.UnmarshalText([]byte("nope")); err == nil {
		t.Error("UnmarshalText(nope) succeeded")
	}
}

func TestCompareDoesNotAllocate(t *testing.T) {
	a, b := MustParseVersion("1.0.0-beta.11.x"), MustParseVersion("1.0.0-beta.2.y")
	allocs := testing.AllocsPerRun(100, func() {
		_ = a.Compare(b)
		_ = a == b
	})
	if allocs != 0 {
		t.Errorf("Compare allocates %v times", allocs)
	}
	allocs = testing.AllocsPerRun(100, func() {
		_, _ = ParseVersion("v1.0.0-beta.11+build")
	})
	if allocs != 0 {
		t.Errorf("ParseVersion allocates %v times", allocs)
	}
}

func FuzzParseVersion(f *testing.F) {
	for _, s := range []string{"1.2.3", "v1.0.0-rc.1+b", "1.0.0-01", "1.2", "", "99999999999999999999.0.0", "1.0.0-a..b", "1.0.0+"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParseVersion(s)
		if err != nil {
			if _, ok := err.(*ParseError); !ok {
				t.Fatalf("error %T is not a *ParseError", err)
			}
			return
		}
		if v.String() != s {
			t.Fatalf("String() = %q, want the input %q", v.String(), s)
		}
		w, err := ParseVersion(v.String())
		if err != nil || w != v {
			t.Fatalf("reparse of %q: %v, %v", s, w, err)
		}
		if v.Compare(v) != 0 || v.Compare(v.Core()) > 0 {
			t.Fatalf("%q: Compare inconsistent", s)
		}
	})
}

// referenceCompare is SemVer section 11 for prereleases written plainly:
// split on dots, compare identifier by identifier.
func referenceCompare(a, b string) int {
	if a == b {
		return 0
	}
	if a == "" {
		return 1
	}
	if b == "" {
		return -1
	}
	x, y := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(x) && i < len(y); i++ {
		xn, yn := isNumeric(x[i]), isNumeric(y[i])
		switch {
		case xn && yn:
			if len(x[i]) != len(y[i]) {
				return cmp.Compare(len(x[i]), len(y[i]))
			}
			if c := strings.Compare(x[i], y[i]); c != 0 {
				return c
			}
		case xn:
			return -1
		case yn:
			return 1
		default:
			if c := strings.Compare(x[i], y[i]); c != 0 {
				return c
			}
		}
	}
	return cmp.Compare(len(x), len(y))
}

func FuzzComparePrerelease(f *testing.F) {
	for _, p := range [][2]string{{"beta.2", "beta.11"}, {"beta", "beta.1"}, {"beta.2", "beta2"}, {"alpha.1", "alpha.beta"}, {"1.10", "1.9"}, {"rc", ""}, {"a-b.c", "a-b"}, {"0", "00a"}} {
		f.Add(p[0], p[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		va, errA := ParseVersion("1.0.0-" + a)
		vb, errB := ParseVersion("1.0.0-" + b)
		if errA != nil || errB != nil {
			return
		}
		want := referenceCompare(va.Prerelease(), vb.Prerelease())
		if got := va.Compare(vb); got != want {
			t.Fatalf("Compare(%s, %s) = %d, want %d", va, vb, got, want)
		}
		if got := vb.Compare(va); got != -want {
			t.Fatalf("Compare(%s, %s) = %d, want %d", vb, va, got, -want)
		}
	})
}

// TestComparePrerelease: the SemVer 2.0.0 example order, and agreement
// with Compare on versions of one core.
func TestComparePrerelease(t *testing.T) {
	order := []string{"0", "1", "2", "10", "-", "0a", "A", "alpha", "alpha.1", "alpha.1.1", "alpha.2", "alpha.beta", "alpha0", "beta", "beta.2", "beta.11", "rc.1", ""}
	for i, a := range order {
		for j, b := range order {
			want := 0
			switch {
			case i < j:
				want = -1
			case i > j:
				want = 1
			}
			if got := ComparePrerelease(a, b); got != want {
				t.Errorf("ComparePrerelease(%q, %q) = %d, want %d", a, b, got, want)
			}
			va, vb := MustParseVersion("1.2.3"), MustParseVersion("1.2.3")
			if a != "" {
				va = MustParseVersion("1.2.3-" + a)
			}
			if b != "" {
				vb = MustParseVersion("1.2.3-" + b)
			}
			if got := va.Compare(vb); got != want {
				t.Errorf("%s vs %s: Compare %d, ComparePrerelease %d", va, vb, got, want)
			}
		}
	}
	for _, junk := range [][2]string{{"01", "1"}, {"a..b", "a.b"}, {".", ""}, {"", "."}} {
		_ = ComparePrerelease(junk[0], junk[1]) // must not panic
	}
}

func TestFindListed(t *testing.T) {
	listed := []string{"v1.0.0", "1.1.0+b1", "2.0.0-beta.1"}
	for _, tt := range []struct {
		version, want string
		ok            bool
	}{
		{"2.0.0-beta.1", "2.0.0-beta.1", true},
		{"1.0.0", "v1.0.0", true},
		{"v2.0.0-beta.1", "2.0.0-beta.1", true},
		{"1.1.0+b1", "1.1.0+b1", true},
		{"1.1.0", "", false},
		{"2.0.0-beta.2", "", false},
		{"not a version", "", false},
	} {
		got, ok := FindListed(tt.version, listed)
		if got != tt.want || ok != tt.ok {
			t.Errorf("FindListed(%q) = %q, %v; want %q, %v", tt.version, got, ok, tt.want, tt.ok)
		}
	}
}
