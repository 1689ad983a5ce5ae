package compare

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/prerel/prerel/catalogue"
)

// TestTextHeadFitsTheTerminal renders the report of every registered
// policy on exhaustive scope 1: the first screen, the domain, the
// policies and the agreement matrix, fits TextWidth columns.
func TestTextHeadFitsTheTerminal(t *testing.T) {
	d, err := Exhaustive(1)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Run(context.Background(), d, catalogue.New().All(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := RenderText(&b, r); err != nil {
		t.Fatal(err)
	}
	head, _, ok := strings.Cut(b.String(), "\nPairs\n")
	if !ok {
		t.Fatalf("no Pairs section:\n%s", b.String())
	}
	lines := strings.Split(head, "\n")
	if len(lines) < 30 {
		t.Errorf("the head is %d lines, want the 16x16 matrix in it", len(lines))
	}
	for i, l := range lines {
		if len(l) > TextWidth {
			t.Errorf("line %d is %d columns wide: %q", i+1, len(l), l)
		}
	}
	for _, want := range []string{"12 apparentlymart-exact", " 15 99 97 97 84 85 84 92 84 37 97 98 83 90 84  -  ="} {
		if !strings.Contains(head, want) {
			t.Errorf("the head lacks %q:\n%s", want, head)
		}
	}
}

func TestWrapWords(t *testing.T) {
	long := strings.Repeat("x", TextWidth+5)
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
