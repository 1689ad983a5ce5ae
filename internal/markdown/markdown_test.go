package markdown

import (
	"strings"
	"testing"
)

func TestCode(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"empty", "", "`\"\"`"},
		{"plain", "1.2.0-beta", "`1.2.0-beta`"},
		{"operator", ">= 1.0, < 2.0", "`>= 1.0, < 2.0`"},
		{"pessimistic", "~> 1.2", "`~> 1.2`"},
		{"pipe", "a|b", "`a|b`"},
		{"html", "<script>alert(1)</script>", "`<script>alert(1)</script>`"},
		{"link", "[x](y)", "`[x](y)`"},
		{"image", "![i](u)", "`![i](u)`"},
		{"emphasis", "*a* _b_", "`*a* _b_`"},
		{"backslash", `a\b\`, "`a\\b\\`"},
		{"backtick inside", "a`b", "``a`b``"},
		{"two backticks inside", "a``b`c", "```a``b`c```"},
		{"backtick first", "`a", "`` `a ``"},
		{"backtick last", "a`", "`` a` ``"},
		{"only a backtick", "`", "`` ` ``"},
		{"only backticks", "```", "```` ``` ````"},
		{"space first", " a", "`  a `"},
		{"space last", "a ", "` a  `"},
		{"spaces around", " a ", "`  a  `"},
		{"only spaces", "   ", "`   `"},
		{"newline", "a\nb", "`a b`"},
		{"crlf", "a\r\nb\rc", "`a b c`"},
		{"only a newline", "\n", "` `"},
		{"trailing newline", "a\n", "` a  `"},
		{"escape sequence", "\x1b[2J\x1b[31mRED\x1b[0m", "`\\x1b[2J\\x1b[31mRED\\x1b[0m`"},
		{"bidirectional override", "a\u202eb", "`a\\u202eb`"},
		{"invalid utf-8", "a\xffb", "`a\\xffb`"},
		{"tab kept", "a\tb", "`a\tb`"},
		{"two backticks then an image", "git::https://example.com/a``b ![img](https://evil.example/p.png) ``.git",
			"```git::https://example.com/a``b ![img](https://evil.example/p.png) ``.git```"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Code(tt.in); got != tt.want {
				t.Errorf("Code(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestCodeCell(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"empty", "", "`\"\"`"},
		{"plain", "~> 1.2", "`~> 1.2`"},
		{"pipe", "a|b", "`a\\|b`"},
		{"pipes", "||", "`\\|\\|`"},
		{"escaped pipe", `a\|b`, "`a\\\\|b`"},
		{"backtick and pipe", "`|", "`` `\\| ``"},
		{"html", "<b>|</b>", "`<b>\\|</b>`"},
		{"newline", "a|\nb", "`a\\| b`"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := CodeCell(tt.in); got != tt.want {
				t.Errorf("CodeCell(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestEscape(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"empty", "", ""},
		{"plain", "test list of 1.2.3, (a) and 'b'", "test list of 1.2.3, (a) and 'b'"},
		{"backslash", `a\b`, `a\\b`},
		{"backticks", "a `b` ``c``", "a \\`b\\` \\`\\`c\\`\\`"},
		{"emphasis", "*a* _b_ **c**", `\*a\* \_b\_ \*\*c\*\*`},
		{"strikethrough", "~a~ ~> 1.0", `\~a\~ \~\> 1.0`},
		{"greater than", ">= 1.0", `\>= 1.0`},
		{"pipe", "a | b", `a \| b`},
		{"html", "<script>alert(1)</script>", `\<script\>alert(1)\</script\>`},
		{"link", "[x](y)", `\[x\](y)`},
		{"image", "![i](u)", `\!\[i\](u)`},
		{"entity", "&amp; &#42;", `\&amp; \&\#42;`},
		{"heading", "# h", `\# h`},
		{"issue reference", "see #12", `see \#12`},
		{"math", "$x$", `\$x\$`},
		{"newline", "a\nb", "a b"},
		{"crlf", "a\r\nb\rc", "a b c"},
		{"newline then heading", "a\n# h", `a \# h`},
		{"list marker", "- item", `\- item`},
		{"plus marker", "+ item", `\+ item`},
		{"thematic break", "---", `\---`},
		{"ordered marker", "1. item", `1\. item`},
		{"ordered marker paren", "12) item", `12\) item`},
		{"ordered marker alone", "3.", `3\.`},
		{"version first", "1.2.3 is out", "1.2.3 is out"},
		{"long number", "1234567890. x", "1234567890. x"},
		{"number and word", "1.x", "1.x"},
		{"dash inside", "a - b", "a - b"},
		{"leading spaces", "    code", " code"},
		{"leading tab and marker", "\t- x", ` \- x`},
		{"newline then marker", "\n1. x", ` 1\. x`},
		{"only spaces", "   ", " "},
		{"escape sequence", "\x1b[2J\x1b[31mRED", `\\x1b\[2J\\x1b\[31mRED`},
		{"bell and nul", "a\a\x00b", `a\\a\\x00b`},
		{"bidirectional override", "a\u202eb", `a\\u202eb`},
		{"registry warning", "![tracker](https://evil.example/pixel.png) [click me](https://evil.example/phish)",
			`\!\[tracker\](https://evil.example/pixel.png) \[click me\](https://evil.example/phish)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Escape(tt.in); got != tt.want {
				t.Errorf("Escape(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// TestCellSafe checks that what CodeCell and Escape return has no line
// break and no "|" without a backslash before it, so it cannot end a
// table row or cell.
func TestCellSafe(t *testing.T) {
	inputs := []string{"", "|", "a|b", `\|`, `\\|`, "`|`", "| a |\n|---|", "x\r\n|", "<td>|</td>"}
	funcs := []struct {
		name string
		f    func(string) string
	}{
		{"CodeCell", CodeCell},
		{"Escape", Escape},
	}
	for _, fn := range funcs {
		for _, in := range inputs {
			got := fn.f(in)
			if strings.ContainsAny(got, "\r\n") {
				t.Errorf("%s(%q) = %q has a line break", fn.name, in, got)
			}
			for i := 0; i < len(got); i++ {
				if got[i] == '|' && (i == 0 || got[i-1] != '\\') {
					t.Errorf("%s(%q) = %q has a bare | at byte %d", fn.name, in, got, i)
				}
			}
		}
	}
}
