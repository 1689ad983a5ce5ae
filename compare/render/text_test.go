package render

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/prerel/prerel/catalogue"
	"github.com/prerel/prerel/catalogue/cataloguetest"
	"github.com/prerel/prerel/compare"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/longtest"
)

// TestTextReportFitsTheTerminal renders the report of every registered
// policy on exhaustive scope 1: every line fits textWidth columns (but a
// single word longer than a line), and the answer, the summary against
// today's rule, fits one screen. What the summary says is checked on a
// fixed list of policies, so that a rule added to the catalogue changes
// nothing here.
func TestTextReportFitsTheTerminal(t *testing.T) {
	longtest.SkipShort(t)
	d, err := compare.Exhaustive(1)
	if err != nil {
		t.Fatal(err)
	}
	table := compare.NewRelevanceTable("test", []string{"~> 1.0", ">= 1.0.0", "1.2.3"})
	// screen renders the report of ps and returns its summary, checking
	// the width of every line and the summary's height.
	screen := func(ps []engine.Policy) string {
		t.Helper()
		r, err := compare.Run(context.Background(), d, ps, compare.Options{Relevance: table})
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := renderText(&b, r, Options{}); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		for i, l := range strings.Split(out, "\n") {
			if len([]rune(l)) > textWidth && strings.Contains(strings.TrimSpace(l), " ") {
				t.Errorf("%d policies: line %d is %d columns wide: %q", len(ps), i+1, len([]rune(l)), l)
			}
		}
		s, _, ok := strings.Cut(out, "\nCase shapes that split the policies")
		if !ok {
			t.Fatalf("no case shapes after the summary:\n%s", out)
		}
		if n := strings.Count(s, "\n"); n > 50 {
			t.Errorf("%d policies: the summary takes %d lines, want one screen of 50:\n%s", len(ps), n, s)
		}
		return s
	}
	screen(catalogue.New().All())
	fixed := screen(cataloguetest.Policies(textPolicies...))
	for _, want := range []string{
		"each compared with terraform-module (what Terraform",
		"100%       -      -  opentofu-module (same as terraform-module)",
		"linear, fallback, masterminds-pre (identical)",
		// The case argued about, in words, and a count many rows share
		// explained once.
		`next major: "~> 1.0" admits 2.0.0-beta, a prerelease of the next major, under`,
		"21 fewer on 7 rows: on each,",
	} {
		if !strings.Contains(fixed, want) {
			t.Errorf("the summary lacks %q:\n%s", want, fixed)
		}
	}
}

// textPolicies are the policies whose summary TestTextReportFitsTheTerminal
// reads: today's rules and those its lines name.
var textPolicies = []string{
	"terraform-module", "opentofu-module", "apparentlymart", "strict", "cargo", "linear", "fallback",
	"any-pre", "ga-bound", "masterminds", "masterminds-pre", "dependabot", "apparentlymart-exact", "terraform-module-versions", "tfupdate",
}

func TestWrapWords(t *testing.T) {
	long := strings.Repeat("x", textWidth+5)
	tests := []struct {
		words []string
		want  string
	}{
		{nil, ""},
		{[]string{"a"}, "a"},
		{[]string{"a", "b"}, "a b"},
		{[]string{strings.Repeat("a", 40), strings.Repeat("b", 39)}, strings.Repeat("a", 40) + " " + strings.Repeat("b", 39)},
		{[]string{strings.Repeat("a", 40), strings.Repeat("b", 40)}, strings.Repeat("a", 40) + "\n  " + strings.Repeat("b", 40)},
		{[]string{"1 a b,", long, "2 c"}, "1 a b,\n  " + long + "\n  2 c"},
	}
	for _, tt := range tests {
		if got := wrapWords(tt.words); got != tt.want {
			t.Errorf("wrapWords(%q) =\n%s\nwant\n%s", tt.words, got, tt.want)
		}
	}
}

func TestAgreeCell(t *testing.T) {
	agree := map[[2]string]int64{{"a", "b"}: 100, {"a", "c"}: 99, {"a", "d"}: 0}
	tests := []struct {
		a, b string
		want string
	}{
		{"a", "a", "-"},
		{"a", "b", "="},
		{"a", "c", "99"}, // 99% of 100: never rounded up to a full agreement
		{"a", "d", "0"},
		{"a", "e", "?"},
	}
	for _, tt := range tests {
		if got := agreeCell(tt.a, tt.b, agree, 100); got != tt.want {
			t.Errorf("agreeCell(%s, %s) = %q, want %q", tt.a, tt.b, got, tt.want)
		}
	}
	if got := agreeCell("a", "c", map[[2]string]int64{{"a", "c"}: 999}, 1000); got != "99" {
		t.Errorf("99.9%% shows as %q, want 99", got)
	}
}
