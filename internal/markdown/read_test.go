package markdown

import (
	"strings"
	"testing"
)

// hostile are inputs that try to leave a code span or to render as a
// link, an image, HTML or a terminal escape sequence.
var hostile = []string{
	"git::https://example.com/a``b ![img](https://evil.example/p.png) ``.git",
	"![tracker](https://evil.example/pixel.png) [click me](https://evil.example/phish)",
	"\x1b[2J\x1b[31mTERMINAL HIJACK\x1b[0m",
	"`` ` ```` x",
	"a`",
	" `a` ",
	"<img src=x onerror=alert(1)>",
	"[x]: https://evil.example/ref",
	"a\u202eb\u200dc\xff",
	"| a | b |\n|---|---|",
}

// readCodeSpan reads out as CommonMark reads an inline code span that
// makes up the whole of out: the opening run of backticks, the content
// up to the first run of exactly as many backticks, which must end out,
// and the content with one space stripped from each side when both
// sides have one and the content is not all spaces.
func readCodeSpan(out string) (string, bool) {
	n := 0
	for n < len(out) && out[n] == '`' {
		n++
	}
	if n == 0 {
		return "", false
	}
	for i := n; i < len(out); {
		if out[i] != '`' {
			i++
			continue
		}
		j := i
		for j < len(out) && out[j] == '`' {
			j++
		}
		if j-i == n {
			if j != len(out) {
				return "", false // the span ends early; the rest is Markdown
			}
			content := out[n:i]
			if len(content) >= 2 && content[0] == ' ' && content[len(content)-1] == ' ' && strings.Trim(content, " ") != "" {
				content = content[1 : len(content)-1]
			}
			return content, true
		}
		i = j
	}
	return "", false
}

// markup are the characters that must not appear in Escape's result
// without a backslash before them.
const markup = "\\`*_~[]!<>&|#$"

// readEscaped reads out as plain Markdown text: each backslash before
// ASCII punctuation stands for that character. It fails when a markup
// character is not escaped.
func readEscaped(out string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(out); i++ {
		c := out[i]
		if c == '\\' && i+1 < len(out) && strings.IndexByte("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", out[i+1]) >= 0 {
			b.WriteByte(out[i+1])
			i++
			continue
		}
		if strings.IndexByte(markup, c) >= 0 {
			return "", false
		}
		b.WriteByte(c)
	}
	return b.String(), true
}

// checkCode checks that Code(in) and CodeCell(in) read back as the text
// of in on one line, with nothing after the span.
func checkCode(t *testing.T, in string) {
	t.Helper()
	want := oneLine(in)
	if want == "" || want == `""` {
		want = `""`
	}
	got, ok := readCodeSpan(Code(in))
	if !ok || got != want {
		t.Errorf("Code(%q) = %q reads as %q (a whole span: %v), want %q", in, Code(in), got, ok, want)
	}
	// A table row is split at the unescaped pipes first; then "\|" is read as "|".
	cell := strings.ReplaceAll(CodeCell(in), `\|`, "|")
	if got, ok := readCodeSpan(cell); !ok || got != want {
		t.Errorf("CodeCell(%q) = %q reads as %q (a whole span: %v), want %q", in, CodeCell(in), got, ok, want)
	}
	if strings.ContainsRune(Code(in), '\x1b') {
		t.Errorf("Code(%q) = %q keeps an escape character", in, Code(in))
	}
}

// checkEscape checks that Escape(in) has no markup character without a
// backslash and reads back as the text of in on one line.
func checkEscape(t *testing.T, in string) {
	t.Helper()
	out := Escape(in)
	got, ok := readEscaped(out)
	if !ok {
		t.Errorf("Escape(%q) = %q has a markup character without a backslash", in, out)
		return
	}
	want := oneLine(in)
	if rest := strings.TrimLeft(want, " \t"); len(rest) < len(want) {
		want = " " + rest
	}
	if got != want {
		t.Errorf("Escape(%q) = %q reads as %q, want %q", in, out, got, want)
	}
	if !printableOnly(out) {
		t.Errorf("Escape(%q) = %q keeps a control character", in, out)
	}
}

func printableOnly(s string) bool {
	for _, r := range s {
		if r < 0x20 && r != '\t' || r == 0x7f || r == '\u202e' {
			return false
		}
	}
	return true
}

func TestHostileTextReadsLiterally(t *testing.T) {
	for _, in := range hostile {
		checkCode(t, in)
		checkEscape(t, in)
	}
}

func FuzzCode(f *testing.F) {
	for _, in := range hostile {
		f.Add(in)
	}
	f.Fuzz(func(t *testing.T, in string) { checkCode(t, in) })
}

func FuzzEscape(f *testing.F) {
	for _, in := range hostile {
		f.Add(in)
	}
	f.Fuzz(func(t *testing.T, in string) { checkEscape(t, in) })
}
