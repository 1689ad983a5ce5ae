package hclpolicy

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// TestRegexSearchesAsGo checks that regexall and regex_replace, which
// search for each match themselves (see searchFrom), give what go-cty's
// functions give, through the regexp package's FindAll and ReplaceAll:
// patterns with assertions that see the rune before a match (\b, \B,
// (?m)^), ^ and $, empty matches, captures, and strings with multibyte
// and invalid UTF-8.
func TestRegexSearchesAsGo(t *testing.T) {
	patterns := []string{
		`a`, `a*`, `a*?`, `a+b|a`, `\b`, `\B`, `\ba\w*`, `^`, `^a`, `(?m)^a*`, `$`, `(?m)$`, `\z`, `\A.`,
		`(a)(b)?`, `(?P<x>a|é)(?P<y>b*)`, `.`, `(?s).`, `[^a]`, `x*`, `(a|ab)(c|bcd)?`, `é+|\xff`, ``,
		`(?i)A`, `b\b`, `\Bb`, `(?U)a+`, `a{2}|a`, `(?:)`,
	}
	alphabet := []string{"a", "b", "c", " ", "\n", "é", "\xff", "ab", "x"}
	rng := rand.New(rand.NewSource(1))
	var strs []string
	strs = append(strs, "", "a", "aaa", "ab ab", "é a\nab", "\xffa\xff", "b a b", "aé")
	for range 60 {
		var b strings.Builder
		for range rng.Intn(12) {
			b.WriteString(alphabet[rng.Intn(len(alphabet))])
		}
		strs = append(strs, b.String())
	}
	repls := []string{"", "-", "<$0>", "[$1]", "${x}$y", "$$"}
	for _, p := range patterns {
		for _, s := range strs {
			args := []cty.Value{cty.StringVal(p), cty.StringVal(s)}
			want, wantErr := stdlib.RegexAllFunc.Call(args)
			got, gotErr := regexAllFunc.Call(args)
			if !sameResult(got, gotErr, want, wantErr) {
				t.Fatalf("regexall(%q, %q): %#v %v, want %#v %v", p, s, got, gotErr, want, wantErr)
			}
			for _, r := range repls {
				args := []cty.Value{cty.StringVal(s), cty.StringVal(p), cty.StringVal(r)}
				want, wantErr := stdlib.RegexReplaceFunc.Call(args)
				got, gotErr := regexReplaceFunc.Call(args)
				if !sameResult(got, gotErr, want, wantErr) {
					t.Fatalf("regex_replace(%q, %q, %q): %#v %v, want %#v %v", s, p, r, got, gotErr, want, wantErr)
				}
			}
		}
	}
}

// sameResult reports whether two functions' outcomes are the same.
func sameResult(got cty.Value, gotErr error, want cty.Value, wantErr error) bool {
	if gotErr != nil || wantErr != nil {
		return gotErr != nil && wantErr != nil && gotErr.Error() == wantErr.Error()
	}
	return got.RawEquals(want)
}
