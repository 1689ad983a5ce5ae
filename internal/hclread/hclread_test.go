package hclread

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/prerel/prerel/internal/bounded"
	"github.com/prerel/prerel/internal/diag"
	"github.com/prerel/prerel/internal/longtest"
	"github.com/prerel/prerel/internal/safefile"
)

// deep is the nesting of the hostile inputs: three times MaxNesting every
// day, which a parse without the check reads, a hundred times beyond it
// in the long run.
var deep = longtest.Pick(3*MaxNesting, 100000)

// wide is how many items, lines or template sequences the inputs of
// TestParseAcceptsNestingWithinTheLimit put side by side: twice
// MaxNesting every day, so that a level left open by each one goes past
// the limit, ten times in the long run.
var wide = longtest.Pick(2, 10) * MaxNesting

func rep(s string, n int) string { return strings.Repeat(s, n) }

// numbered returns n lines, format with the line number.
func numbered(format string, n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, format, i)
	}
	return b.String()
}

func TestParseRefusesDeepNesting(t *testing.T) {
	longtest.SkipShort(t)
	tooDeep := "Expressions nested deeper than 1000 levels"
	tests := []struct {
		name, src string
		json      bool
		at        string // the place reported
	}{
		{"tuples", "locals {\n x = " + rep("[", deep) + rep("]", deep) + "\n}\n", false, "f:2:6"},
		{"parentheses", "locals {\n  x = " + rep("(", deep) + "1" + rep(")", deep) + "\n}\n", false, "f:2:7"},
		{"objects", "x = " + rep("{a = ", deep) + "1" + rep("}", deep) + "\n", false, "f:1:5"},
		{"blocks", rep("a {\n", deep) + rep("}\n", deep), false, "f:1001:3"},
		{"negations", "x = " + rep("!", deep) + "true\n", false, "f:1:5"},
		{"minus signs", "x = " + rep("-", deep) + "1\n", false, "f:1:5"},
		{"conditionals", "x = a" + rep(" ? b : c", deep) + "\n", false, "f:1:7"},
		{"operators", "x = 1" + rep(" + 1", 2*deep) + "\n", false, "f:1:7"},
		{"indexes", "x = a" + rep("[b]", deep) + "\n", false, "f:1:6"},
		{"splats", "x = a" + rep("[*]", deep) + "\n", false, "f:1:6"},
		{"attribute splats", "x = a" + rep(".*.b", deep) + "\n", false, "f:1:7"},
		{"templates", `x = "` + rep(`${"`, deep) + rep(`"}`, deep) + "\"\n", false, "f:1:5"},
		{"directives", `x = "` + rep(`%{if a}`, deep) + rep(`%{endif}`, deep) + "\"\n", false, "f:1:5"},
		{"heredoc interpolations", "x = <<EOT\n" + rep("${[", deep) + rep("]}", deep) + "\nEOT\n", false, "f:1:5"},
		{"JSON arrays", `{"locals": {"x": ` + rep("[", deep) + rep("]", deep) + "}}", true, "f:1:1016"},
		{"JSON arrays, ten times as deep", rep("[", 10*deep) + rep("]", 10*deep), true, "f:1:1001"},
		{"JSON objects", rep(`{"a":`, deep) + "1" + rep("}", deep), true, "f:1:5001"},
		{"JSON template", `{"locals": {"x": "${` + rep("[", deep) + rep("]", deep) + `}"}}`, true, "f:1:18"},
		{"JSON template spelt with escapes", `{"x": "\u0024{` + rep(`\u005b`, deep) + `}"}`, true, "f:1:7"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bounded.Run(t, func() {
				parse := ParseHCL
				if tt.json {
					parse = ParseJSON
				}
				file, diags := parse([]byte(tt.src), "f")
				if file != nil || len(diags) != 1 {
					t.Fatalf("got a file (%v) and %d diagnostics: %v", file != nil, len(diags), diags)
				}
				if got := diag.Format(diags[0]); !strings.HasPrefix(got, tt.at+": "+tooDeep+";") {
					t.Errorf("diagnostic %q, want it at %s", got, tt.at)
				}
			})
		})
	}
}

func TestParseAcceptsNestingWithinTheLimit(t *testing.T) {
	longtest.SkipShort(t)
	const n = MaxNesting - 10
	tests := []struct {
		name, src string
		json      bool
	}{
		{"tuples", "x = " + rep("[", n) + rep("]", n) + "\n", false},
		{"blocks", rep("a {\n", n) + rep("}\n", n), false},
		{"operators", "x = 1" + rep(" + 1", n) + "\n", false},
		{"operators on many lines", numbered("x%d = 1 + 1 + 1\n", wide), false},
		{"list items", "x = [" + rep("a + 1, ", wide) + "]\n", false},
		{"object items", "x = {\n" + rep("a = b - 1\n", wide) + "}\n", false},
		{"templates", `x = "` + rep(`${"`, n/2) + rep(`"}`, n/2) + "\"\n", false},
		{"many templates", `x = "` + rep(`${a}-%{if b}c%{endif}`, wide) + "\"\n", false},
		{"comments", rep("# (((((\n", MaxNesting) + "x = 1\n", false},
		{"strings", numbered("x%d = \"((((([[[[[{{{{{\"\n", MaxNesting), false},
		{"JSON arrays", rep("[", n) + rep("]", n), true},
		{"JSON strings", `{"a": "` + rep("[", wide) + `"}`, true},
		{"JSON templates", `{"a": [` + rep(`"${a}${b}", `, wide) + `1]}`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			parse := ParseHCL
			if tt.json {
				parse = ParseJSON
			}
			file, diags := parse([]byte(tt.src), "f")
			if file == nil || diags.HasErrors() {
				t.Fatalf("refused: %v", diags)
			}
		})
	}
}

func TestReadFileAndFind(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.hcl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("mkfifo:", err)
	}
	zero := filepath.Join(dir, "zero.hcl")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.hcl")
	if err := os.WriteFile(big, make([]byte, safefile.ConfigLimit+1), 0o600); err != nil {
		t.Fatal(err)
	}
	plain := filepath.Join(dir, "plain.hcl")
	if err := os.WriteFile(plain, []byte("a = 1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path   string
		detail string // of ReadFile's diagnostic; "" when it reads
		found  bool   // Find's answer
		warn   string // Find's warning
	}{
		{fifo, "It is not a regular file (it is a FIFO or pipe).", false, "warning: Skipped the thing; It is not a regular file (it is a FIFO or pipe), so it is not read."},
		{zero, "It is not a regular file (it is a character device).", false, "warning: Skipped the thing; It is not a regular file (it is a character device), so it is not read."},
		{dir, "It is not a regular file (it is a directory).", false, "warning: Skipped the thing; It is not a regular file (it is a directory), so it is not read."},
		{big, "It is larger than 2 MiB, the limit for a configuration file.", true, ""},
		{filepath.Join(dir, "missing.hcl"), "no such file or directory", false, ""},
		{plain, "", true, ""},
	}
	for _, tt := range tests {
		t.Run(filepath.Base(tt.path), func(t *testing.T) {
			bounded.Run(t, func() {
				src, d := ReadFile(tt.path, "Cannot read the thing")
				switch {
				case tt.detail == "" && d != nil:
					t.Errorf("ReadFile: %v", d)
				case tt.detail == "" && string(src) != "a = 1\n":
					t.Errorf("ReadFile read %q", src)
				case tt.detail != "" && (d == nil || d.Detail != tt.detail || d.Subject.Filename != tt.path || d.Extra == nil):
					t.Errorf("ReadFile diagnostic %#v, want detail %q", d, tt.detail)
				}
				found, diags := Find(tt.path, "the thing")
				if found != tt.found {
					t.Errorf("Find = %v, want %v", found, tt.found)
				}
				var got string
				if len(diags) > 0 {
					got = strings.TrimPrefix(diag.Format(diags[0]), tt.path+": ")
				}
				if got != tt.warn || len(diags) > 1 {
					t.Errorf("Find diagnostics %v, want %q", diags, tt.warn)
				}
			})
		})
	}
}

func FuzzNesting(f *testing.F) {
	for _, s := range []string{
		"x = [[1], (2), {a = 3}]\n",
		"a \"b\" {\n  c = d[0] + e ? -f : !g\n}\n",
		"x = \"${a}%{if b}c%{else}d%{endif}\"\n",
		"x = <<-EOT\n  ${a}\n  EOT\n",
		"x = a[*].b.*.c\n",
		"# ]]]]\nx = [[[\n",
	} {
		f.Add([]byte(s))
	}
	for _, tt := range skimTests {
		f.Add([]byte(tt.src))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		toks, _ := hclsyntax.LexConfig(src, "f", hcl.Pos{Line: 1, Column: 1})
		var n nesting
		if d := n.scan(toks, 0, true); d != nil && bound(src) <= MaxNesting {
			t.Fatalf("nesting past the limit, but bound(src) = %d", bound(src))
		}
		checkSkim(t, src)
		_, _ = ParseHCL(src, "f")
		_, _ = ParseJSON(src, "f")
	})
}

// skimTests are texts where skim must follow HCL's lexer closely, and
// whether it measures them (true) or leaves them to the lexer.
var skimTests = []struct {
	src    string
	within bool
}{
	{"a = 1 + 2 - 3\nb = [c[0], (d), {e = f}]\n", true},
	{"a = \"${b}%{if c}d%{else}e%{endif}\"\n", true},
	{"a = \"$${b} %%{c} $$${d} \\\" \\${e} $\" [\n", true},
	{"a = \"${ { } }\" [\n", true},
	{"a = \"${ {~} ~} }\" (\n", true},
	{"a = \"%{~ if b ~}c%{~ endif ~}\"\n", true},
	{"a = \"%{ iffy }%{ endiffy }%{ if-b }%{ endif\u00e9 }\"\n", true},
	{"a = \"\\\n\" [\n", true},
	{"# [[[ \" <<EOT\n// ((( \"\n/* {{{\n \" */ a = 1\n", true},
	{"a = <<EOT\n${b} $c $$d $${e} %%{f} %\n$\n  EOT \nEOT\n[\n", true},
	{"a = <<-EOT\r\n  b\r\n  EOT\r\n(\n", true},
	{"a = <<EOT\n\xffEOT\n[\n", true},
	{"a = <<EOT\nE\xffOT\nEOT\n[\n", true},
	{"a = <<EOT\n\u00a0EOT\u00a0\n[\n", true},
	{"a = <<EOT\n\u00e9EOT\nEOT\n[\n", true},
	{"a = <<EOT\n${<<EOU\n}\nEOU\n}EOT\nEOT\n[\n", true},
	{"a = <<EOT-1\nEOT-1\n<< EOT\n<<EOT x\n", true},
	{"a = b-c - 1e-5-3 + é-1\n", true},
	{"a = 1 /* b\n[\n", false},
	{"a = <<EOT\nb\rc\nEOT\n", false},
	{"a = <<\u00e9\n\u00e9\n", false},
	{"a = <<EOT\u00e9\nEOT\n", false},
	{"a = \xec\"b\"\n", false},
	{"a = " + strings.Repeat("[", MaxNesting), false},
}

func TestSkim(t *testing.T) {
	for _, tt := range skimTests {
		if got := checkSkim(t, []byte(tt.src)); got != tt.within {
			t.Errorf("skim(%q) = %v, want %v", tt.src, got, tt.within)
		}
	}
}

// checkSkim checks that when skim measures src, it measures it no less
// deep than HCL's tokens and sees the same levels, closings and
// separators; it returns skim's answer.
func checkSkim(t *testing.T, src []byte) bool {
	t.Helper()
	toks, _ := hclsyntax.LexConfig(src, "f", firstPos)
	var exact nesting
	var want []hclsyntax.TokenType
	exact.trace = &want
	d := exact.scan(toks, 0, true)
	var s skimmer
	var got []hclsyntax.TokenType
	s.n.trace = &got
	if !s.run(src) {
		return false
	}
	if d != nil {
		t.Fatalf("skim(%q) measured it within the limit, the tokens nest deeper: %v", src, d)
	}
	if s.n.max < exact.max {
		t.Errorf("skim(%q) measured %d levels, the tokens %d", src, s.n.max, exact.max)
	}
	if g, w := structure(got), structure(want); !slices.Equal(g, w) {
		t.Errorf("skim(%q) read\n%v\nthe tokens are\n%v", src, g, w)
	}
	return true
}

// structure returns the types that open, close or separate levels.
func structure(types []hclsyntax.TokenType) []hclsyntax.TokenType {
	var s []hclsyntax.TokenType
	for _, t := range types {
		switch t {
		case hclsyntax.TokenOBrace, hclsyntax.TokenCBrace, hclsyntax.TokenOParen, hclsyntax.TokenCParen,
			hclsyntax.TokenOBrack, hclsyntax.TokenCBrack, hclsyntax.TokenOQuote, hclsyntax.TokenCQuote,
			hclsyntax.TokenOHeredoc, hclsyntax.TokenCHeredoc, hclsyntax.TokenTemplateInterp,
			hclsyntax.TokenTemplateControl, hclsyntax.TokenTemplateSeqEnd, hclsyntax.TokenComma,
			hclsyntax.TokenNewline:
			s = append(s, t)
		}
	}
	return s
}

// TestSkimLargeConfiguration checks that the nesting of a large
// configuration with every kind of level is measured by skim, not HCL's
// lexer, as the lexer's tokens measure it (on its first 64 KiB every day,
// the whole in the long run: the lexer takes about 120 bytes for each
// byte of text), and costs no allocation per byte.
func TestSkimLargeConfiguration(t *testing.T) {
	src := config(1 << 20)
	if !checkSkim(t, config(longtest.Pick(64<<10, len(src)))) {
		t.Fatal("skim left the configuration to HCL's lexer")
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	d := checkNative(src, "main.tf")
	runtime.ReadMemStats(&after)
	if d != nil {
		t.Fatal(d)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > uint64(len(src))/16 {
		t.Errorf("measuring %d bytes allocated %d bytes", len(src), n)
	}
}
