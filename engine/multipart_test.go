package engine

import (
	"strings"
	"testing"
)

// TestParseMultipartVersion: more than three numeric parts, as
// hashicorp/go-version reads them; three parts as ParseVersion.
func TestParseMultipartVersion(t *testing.T) {
	for _, c := range []struct {
		in, str, err string
		parts        int
	}{
		{in: "1.2.3.4", str: "1.2.3.4", parts: 4},
		{in: "v1.15.9.0-beta1+b", str: "v1.15.9.0-beta1+b", parts: 4},
		{in: "1.2.3.4.5.6", str: "1.2.3.4.5.6", parts: 6},
		{in: "1.2.3", str: "1.2.3", parts: 3},
		{in: "1.2", err: "column 4: expected MAJOR.MINOR.PATCH, found only 2 numeric parts"},
		{in: "1.2.3.", err: `column 7: expected a number after "1.2.3.", found end of input`},
		{in: "1.2.3.04", err: `column 7: fourth number "04" has a leading zero`},
		{in: "1.2.3.x", err: `column 7: expected a number after "1.2.3.", found "x"`},
		{in: "1.2.3.4.5.6.7.8.9.10.11.12.13.14.15.16.17", err: "too many numeric parts: at most 16"},
		{in: "1.2.3.18446744073709551616", err: `fourth number "18446744073709551616" is too large`},
	} {
		v, err := ParseMultipartVersion(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("ParseMultipartVersion(%q): error %v, want %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil || v.String() != c.str || v.Parts() != c.parts {
			t.Errorf("ParseMultipartVersion(%q) = %s (%d parts), %v; want %s (%d parts)", c.in, v, v.Parts(), err, c.str, c.parts)
		}
		if _, err := ParseVersion(c.in); (err == nil) != (c.parts == 3) {
			t.Errorf("ParseVersion(%q): %v", c.in, err)
		}
	}
}

// TestMultipartPrecedence: a missing part counts as zero.
func TestMultipartPrecedence(t *testing.T) {
	order := []string{"1.2.3-beta", "1.2.3", "1.2.3.1-rc.1", "1.2.3.1", "1.2.3.1.1", "1.2.3.2", "1.2.3.10", "1.2.4"}
	for i := range order {
		for j := range order {
			a, b := mustMultipart(t, order[i]), mustMultipart(t, order[j])
			want := 0
			if i < j {
				want = -1
			} else if i > j {
				want = 1
			}
			if got := a.Compare(b); got != want {
				t.Errorf("Compare(%s, %s) = %d, want %d", a, b, got, want)
			}
		}
	}
	if a, b := mustMultipart(t, "1.2.3"), mustMultipart(t, "1.2.3.0.0"); !a.Equal(b) || a.Compare(b) != 0 || !a.SameCore(b) {
		t.Errorf("1.2.3 and 1.2.3.0.0 differ")
	}
}

// TestMultipartConstraint: comparators of more than three parts, as
// go-version's Check reads them in required_version.
func TestMultipartConstraint(t *testing.T) {
	for _, c := range []struct {
		constraint, version string
		want                bool
	}{
		{"= 1.15.9.0", "1.15.9", true},
		{"~> 1.15.9.0", "1.15.9", false},
		{"~> 1.15.9.0", "1.15.9.0", true},
		{"~> 1.15.9.0", "1.15.9.7", true},
		{"~> 1.15.9.0", "1.15.10.0", false},
		{"~> 1.2.3.4.5", "1.2.3.4.9", true},
		{"~> 1.2.3.4.5", "1.2.3.5.0", false},
		{">= 1.2.3", "1.2.3.4", true},
		{"= 1.2.3", "1.2.3.4", false},
		{"~> 1.2.3", "1.2.3.4", true},
		{"> 1.2.3.4", "1.2.4", true},
		{"< 1.2.3.1", "1.2.3", true},
		{"!= 1.2.3.0", "1.2.3", false},
	} {
		k, err := ParseMultipartConstraint(c.constraint)
		if err != nil {
			t.Fatal(err)
		}
		if got := k.Holds(mustMultipart(t, c.version)); got != c.want {
			t.Errorf("%q holds %s = %v, want %v", c.constraint, c.version, got, c.want)
		}
		if k.String() != c.constraint {
			t.Errorf("String() = %q, want %q", k.String(), c.constraint)
		}
	}
	if _, err := ParseConstraint("~> 1.2.3.4"); err == nil || !strings.Contains(err.Error(), "too many numeric parts: at most three") {
		t.Errorf("ParseConstraint reads four parts: %v", err)
	}
	u, ok := mustMultipartConstraint(t, "~> 1.2.3.4.5").Comparators()[0].Upper()
	if !ok || u.String() != "1.2.3.5" {
		t.Errorf("Upper of ~> 1.2.3.4.5 = %s, %v; want 1.2.3.5", u, ok)
	}
}

func mustMultipart(t *testing.T, s string) Version {
	t.Helper()
	v, err := ParseMultipartVersion(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func mustMultipartConstraint(t *testing.T, s string) Constraint {
	t.Helper()
	c, err := ParseMultipartConstraint(s)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// FuzzParseMultipart: the multipart parsers never panic, read back what
// they print, and agree with ParseVersion and ParseConstraint on every
// text those accept.
func FuzzParseMultipart(f *testing.F) {
	for _, s := range []string{"1.2.3.4", "v1.15.9.0-beta1+b", "~> 1.15.9.0", ">= 1.2.3, < 1.2.3.4.5", "1.2.3.", "1.2.3.04", "= 1.0.0.0-rc.1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if v, err := ParseMultipartVersion(s); err == nil {
			w, err := ParseMultipartVersion(v.String())
			if err != nil || w != v {
				t.Fatalf("%q: reads back %v, %v", s, w, err)
			}
			if sv, err := ParseVersion(s); err == nil && sv != v {
				t.Fatalf("%q: ParseVersion %v, ParseMultipartVersion %v", s, sv, v)
			}
		} else if _, err2 := ParseVersion(s); err2 == nil {
			t.Fatalf("%q: ParseVersion reads it, ParseMultipartVersion refuses it: %v", s, err)
		}
		if c, err := ParseMultipartConstraint(s); err == nil {
			d, err := ParseMultipartConstraint(c.String())
			if err != nil || d.String() != c.String() {
				t.Fatalf("%q: reads back %q, %v", s, d.String(), err)
			}
		} else if _, err2 := ParseConstraint(s); err2 == nil {
			t.Fatalf("%q: ParseConstraint reads it, ParseMultipartConstraint refuses it: %v", s, err)
		}
	})
}

// admitAll admits every version.
type admitAll struct{}

func (admitAll) Match(string) Result { return Allowed("all") }

// TestSelectMultipart: an admitted version of four parts is ordered, not
// unreadable.
func TestSelectMultipart(t *testing.T) {
	sel := SelectNewest(admitAll{}, []string{"1.2.3", "1.2.3.4", "1.2.3.x", "1.2.3.10", "1.2.4-beta"})
	if !sel.Found || sel.Version != "1.2.4-beta" || len(sel.Unreadable) != 1 || sel.Unreadable[0].Version != "1.2.3.x" {
		t.Errorf("SelectNewest = %+v", sel)
	}
	sel = SelectNewest(admitAll{}, []string{"1.2.3", "1.2.3.4", "1.2.3.10", "1.2.3.9"})
	if sel.Version != "1.2.3.10" {
		t.Errorf("SelectNewest = %+v, want 1.2.3.10", sel)
	}
}
