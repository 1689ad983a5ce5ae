package cmdpolicy

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/printable"
)

// FuzzParseAnswer reads arbitrary answer lines: each is a verdict with a
// printable reason of bounded length, or garbage, never a panic.
func FuzzParseAnswer(f *testing.F) {
	for _, s := range []string{"allow", "reject\tout of range", "invalid\t", "maybe", "allow\t\x1b[31mred", "allow\t\xff", "", "\t", "allow\tx\ty"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		a := parseAnswer(line)
		if a.garbage {
			if a.line != string(line) {
				t.Fatalf("garbage %q kept as %q", line, a.line)
			}
			return
		}
		word, _, _ := strings.Cut(string(line), "\t")
		if a.result.Verdict.String() != word {
			t.Fatalf("%q read as %v", line, a.result.Verdict)
		}
		r := a.result.Reason
		if r == "" || !utf8.ValidString(r) || !printable.Safe(r) || len(r) > engine.MaxReason+len("…")*4 {
			t.Fatalf("%q gives the reason %q", line, r)
		}
	})
}

// FuzzSplitCommand splits arbitrary command lines: words or an error,
// never a panic, and words that written back as a command line split
// into themselves again.
func FuzzSplitCommand(f *testing.F) {
	for _, s := range []string{"python3 rule.py", `a\ b "c \"d\"" 'e f'`, "a #b", "$x", `"$(y)"`, "a | b", "'open", `end\`, "a\\\nb", "@(x)", "{a,b} ~ *"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		words, err := SplitCommand(line)
		if err != nil {
			return
		}
		for _, w := range words {
			if !utf8.ValidString(w) || strings.ContainsRune(w, '\'') || strings.ContainsFunc(w, unicode.IsControl) {
				return // commandLine writes these as Go strings, for people, not for a shell
			}
		}
		again, err := SplitCommand(commandLine(words))
		if err != nil || strings.Join(again, "\x00") != strings.Join(words, "\x00") || len(again) != len(words) {
			t.Fatalf("%q splits into %q, written back as %s, which splits into %q, %v", line, words, commandLine(words), again, err)
		}
	})
}
