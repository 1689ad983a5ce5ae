package cmdpolicy

import (
	"strings"
	"testing"
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
