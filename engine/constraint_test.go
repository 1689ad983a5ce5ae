package engine

import (
	"strings"
	"testing"
)

func TestParseConstraint(t *testing.T) {
	tests := []struct {
		in    string
		canon string // String(); "" for an error case
		n     int
		err   string
	}{
		{in: "", canon: "", n: 0},
		{in: "   ", canon: "", n: 0},
		{in: "1.2.3", canon: "1.2.3", n: 1},
		{in: "=1.2.3", canon: "= 1.2.3", n: 1},
		{in: ">= 1.2", canon: ">= 1.2", n: 1},
		{in: "~>1", canon: "~> 1", n: 1},
		{in: "~> v5.3.1", canon: "~> v5.3.1", n: 1},
		{in: " >= 1.0.0 ,< 2.0.0 ", canon: ">= 1.0.0, < 2.0.0", n: 2},
		{in: ">= 1.0.0-beta, < 1.0.0", canon: ">= 1.0.0-beta, < 1.0.0", n: 2},
		{in: "2.0.0-beta.1, >= 1.0.0", canon: "2.0.0-beta.1, >= 1.0.0", n: 2},
		{in: "!= 1.5.0-rc.1", canon: "!= 1.5.0-rc.1", n: 1},
		{in: "~> 1.2-beta", canon: "~> 1.2-beta", n: 1},
		{in: "= 1.0.0+abc", canon: "= 1.0.0+abc", n: 1},
		{in: ">\t1.0.0", canon: "> 1.0.0", n: 1},
		{in: ">= 1, <= 2, != 1.5, ~> 1.2", canon: ">= 1, <= 2, != 1.5, ~> 1.2", n: 4},
		{in: ">= ", err: `column 4: expected a version after ">=", found end of input`},
		{in: ">=", err: `column 3: expected a version after ">="`},
		{in: ">= x", err: `column 4: expected a version, found "x"`},
		{in: "=> 1.0", err: `column 1: unknown operator "=>"`},
		{in: "^1.0", err: `column 1: unknown operator "^1.0"`},
		{in: "~ 1.0", err: `column 1: unknown operator "~"`},
		{in: ">= 1.0.0 < 2.0.0", err: `column 10: expected "," between comparators, found "<"`},
		{in: ">= 4.84 < 6", err: `column 9: expected "," between comparators`},
		{in: "1.0.0,", err: `column 7: expected a comparator after ","`},
		{in: ",1.0.0", err: `column 1: unknown operator ","`},
		{in: "1.0.0,,2.0.0", err: `column 7: unknown operator ","`},
		{in: ">= 1.0.0.0", err: "column 9: too many numeric parts"},
		{in: ">= 6.XX, < 7", err: `column 6: expected the minor number after "6.", found "XX"`},
		{in: "~> master", err: `column 4: expected a version, found "master"`},
		{in: "main", err: `column 1: unknown operator "main"`},
		{in: "1.2.3 - 2.0.0", err: `column 7: expected "," between comparators, found "-"`},
		{in: ">= 1.0.0 || < 0.5", err: `column 10: expected "," between comparators, found "||"`},
		{in: "v", err: `column 2: expected a number after "v"`},
		{in: "= v 1.0", err: `column 4: expected a number after "v"`},
		{in: ">= 1.0-", err: "column 8: expected a prerelease identifier"},
		{in: ">= 1.0.0beta", err: `column 9: unexpected "beta" in version`},
	}
	for _, tt := range tests {
		c, err := ParseConstraint(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("ParseConstraint(%q) error = %v, want it to contain %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseConstraint(%q): %v", tt.in, err)
			continue
		}
		if c.String() != tt.canon || c.Len() != tt.n || c.Text() != tt.in {
			t.Errorf("ParseConstraint(%q) = %q (%d comparators, text %q), want %q (%d)", tt.in, c.String(), c.Len(), c.Text(), tt.canon, tt.n)
		}
		again, err := ParseConstraint(c.String())
		if err != nil || again.String() != c.String() {
			t.Errorf("reparse of %q: %q, %v", c.String(), again.String(), err)
		}
	}
}

func TestComparatorFields(t *testing.T) {
	c := MustParseConstraint("~> v1.2-rc.1+b, 3.0.0")
	got := c.Comparators()
	if len(got) != 2 {
		t.Fatalf("%d comparators", len(got))
	}
	first := got[0]
	if first.Op != OpPessimistic || first.Precision != 2 || first.Bare || first.Version.String() != "v1.2.0-rc.1+b" {
		t.Errorf("first = %+v (%s)", first, first.Version)
	}
	second := got[1]
	if second.Op != OpEqual || !second.Bare || second.Precision != 3 {
		t.Errorf("second = %+v", second)
	}
	if !c.NamesPrerelease() || MustParseConstraint(">= 1.0.0").NamesPrerelease() {
		t.Error("NamesPrerelease wrong")
	}
}

func TestUpper(t *testing.T) {
	tests := []struct {
		in, upper string
		ok        bool
	}{
		{"~> 1.2.3", "1.3.0", true},
		{"~> 1.2", "2.0.0", true},
		{"~> 1", "2.0.0", true},
		{"~> 1.2.3-beta", "1.3.0", true},
		{"~> 0.0", "1.0.0", true},
		{"~> 18446744073709551615", "", false},
		{"~> 1.18446744073709551615.0", "", false},
		{">= 1.0.0", "", false},
	}
	for _, tt := range tests {
		u, ok := MustParseConstraint(tt.in).Comparators()[0].Upper()
		if ok != tt.ok || ok && u.String() != tt.upper {
			t.Errorf("Upper(%s) = %s, %v; want %s, %v", tt.in, u, ok, tt.upper, tt.ok)
		}
	}
}

// TestHolds checks base satisfaction: precedence alone, no prerelease rule.
func TestHolds(t *testing.T) {
	tests := []struct {
		c, v string
		want bool
	}{
		{"", "1.0.0-beta", true},
		{"1.0.0", "1.0.0", true},
		{"1.0", "1.0.0", true},
		{"= 1.0.0", "1.0.0+def", true},
		{"= 1.0.0+abc", "1.0.0+def", true},
		{"= 1.0.0", "1.0.0-rc.1", false},
		{"!= 1.0.0", "1.0.0+x", false},
		{"!= 1.0.0", "1.0.0-rc.1", true},
		{"> 1.0.0-beta", "1.0.0-beta.1", true},
		{"> 1.0.0", "1.0.1-alpha", true},
		{">= 1.2", "1.2.0", true},
		{">= 1.2", "1.2.0-rc.1", false},
		{"< 2.0.0", "2.0.0-beta.1", true},
		{"<= 1.2", "1.2.5", false},
		{"~> 1.2.3", "1.2.9", true},
		{"~> 1.2.3", "1.3.0", false},
		{"~> 1.2.3", "1.3.0-beta", true},
		{"~> 1.2", "1.9.9", true},
		{"~> 1.2", "2.0.0-beta.1", true},
		{"~> 1.2", "2.0.0", false},
		{"~> 1", "1.0.0", true},
		{"~> 1", "2.0.0", false},
		{"~> 1.2.3-beta", "1.2.3-rc.1", true},
		{"~> 1.2.3-beta", "1.2.3-alpha", false},
		{"~> 18446744073709551615", "18446744073709551615.5.0", true},
		{">= 1.0.0-beta, < 1.0.0", "1.0.0-rc.1", true},
		{">= 1.0.0, < 2.0.0", "2.0.0-beta.1", true},
		{">= 1.0.0, != 1.5.0", "1.5.0", false},
	}
	for _, tt := range tests {
		c := MustParseConstraint(tt.c)
		if got := c.Holds(MustParseVersion(tt.v)); got != tt.want {
			t.Errorf("B(%q, %s) = %v, want %v", tt.c, tt.v, got, tt.want)
		}
	}
}

func TestHoldsDoesNotAllocate(t *testing.T) {
	c := MustParseConstraint(">= 1.0.0-beta, < 2.0.0, ~> 1.2, != 1.5.0-rc.1")
	v := MustParseVersion("1.5.0-rc.2")
	if allocs := testing.AllocsPerRun(100, func() { _ = c.Holds(v) }); allocs != 0 {
		t.Errorf("Holds allocates %v times", allocs)
	}
}

func TestOpString(t *testing.T) {
	for op, want := range map[Op]string{OpEqual: "=", OpNotEqual: "!=", OpGreater: ">", OpGreaterEqual: ">=", OpLess: "<", OpLessEqual: "<=", OpPessimistic: "~>", 0: "?", 99: "?"} {
		if got := op.String(); got != want {
			t.Errorf("Op(%d).String() = %q, want %q", op, got, want)
		}
	}
}

func FuzzParseConstraint(f *testing.F) {
	for _, s := range []string{"", ">= 1.0.0, < 2.0.0", "~> v1.2-rc.1+b", "=> 1", ">=1.0.0<2", "1.0.0,", "~> 18446744073709551615", "!= 1.5.0-rc.1, ~>1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseConstraint(s)
		if err != nil {
			pe, ok := err.(*ParseError)
			if !ok {
				t.Fatalf("error %T is not a *ParseError", err)
			}
			if pe.Column < 1 || pe.Column > len(s)+1 {
				t.Fatalf("column %d outside the input of length %d", pe.Column, len(s))
			}
			return
		}
		again, err := ParseConstraint(c.String())
		if err != nil {
			t.Fatalf("canonical form %q of %q does not parse: %v", c.String(), s, err)
		}
		if again.String() != c.String() || again.Len() != c.Len() {
			t.Fatalf("parse-print-parse of %q: %q then %q", s, c.String(), again.String())
		}
		for i, cmp := range c.Comparators() {
			if cmp != again.Comparators()[i] {
				t.Fatalf("comparator %d of %q changed on reparse: %+v vs %+v", i, s, cmp, again.Comparators()[i])
			}
		}
	})
}

// TestPessimisticMatchesItsExpansion checks "~>" against ">= lower, < Upper"
// over a grid of versions around the bounds.
func TestPessimisticMatchesItsExpansion(t *testing.T) {
	var versions []Version
	for _, s := range []string{"0.0.0", "0.9.9", "1.0.0-0", "1.0.0", "1.1.9", "1.2.0-rc.1", "1.2.0", "1.2.3-beta", "1.2.3", "1.2.9", "1.3.0-0", "1.3.0", "1.3.1", "2.0.0-0", "2.0.0-beta.1", "2.0.0", "2.0.1-rc.1", "3.0.0",
		"18446744073709551615.0.0", "1.18446744073709551615.0"} {
		versions = append(versions, MustParseVersion(s))
	}
	for _, cs := range []string{"~> 1", "~> 1.2", "~> 1.2.3", "~> 1.2.3-beta", "~> 1.2-beta", "~> 0", "~> 0.0.0", "~> 18446744073709551615", "~> 1.18446744073709551615.0"} {
		cmp := MustParseConstraint(cs).Comparators()[0]
		upper, bounded := cmp.Upper()
		for _, v := range versions {
			want := v.Compare(cmp.Version) >= 0 && (!bounded || v.Compare(upper) < 0)
			if got := cmp.Holds(v); got != want {
				t.Errorf("%s holds %s = %v, want %v (upper %s, bounded %v)", cs, v, got, want, upper, bounded)
			}
		}
	}
}
