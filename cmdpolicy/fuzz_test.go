package cmdpolicy

import (
	"bytes"
	"io"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
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

// FuzzReadAnswers reads arbitrary output of a command, through a small
// buffer and short lines so that every path of the reader is taken, whole
// or a byte at a time: the answers are those of its lines read one by
// one, then the end of the output, or a line too long and nothing after
// it.
func FuzzReadAnswers(f *testing.F) {
	for _, s := range []string{"allow\n", "allow\r\nreject\tr\n", "invalid", "maybe\n\n", "allow\t" + strings.Repeat("x", 60) + "\nallow\n", strings.Repeat("y", 41) + "\r\n", "\r\r\n", "allow\n\x00\xff\n"} {
		f.Add([]byte(s), false)
	}
	const size, max = 16, 40
	f.Fuzz(func(t *testing.T, out []byte, oneByte bool) {
		var want []answer
		rest := string(out)
		for rest != "" {
			line, after, _ := strings.Cut(rest, "\n")
			rest = after
			line = strings.TrimSuffix(line, "\r")
			if len(line) > max {
				want = append(want, answer{err: errTooLong})
				break
			}
			want = append(want, parseAnswer([]byte(line)))
		}
		if len(want) == 0 || want[len(want)-1].err == nil {
			want = append(want, answer{err: errEOF})
		}
		var r io.Reader = bytes.NewReader(out)
		if oneByte {
			r = iotest.OneByteReader(r)
		}
		var got []answer
		readAnswers(r, size, max, func(a answer) bool {
			got = append(got, a)
			return true
		})
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q read as\n%+v\nwant\n%+v", out, got, want)
		}
	})
}
