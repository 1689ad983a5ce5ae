package hclpolicy

import (
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/diag"
)

// layoutCases are expressions whose layout must keep every token: strings
// with interpolations and escapes, heredocs, objects whose attributes are
// separated by line breaks, comments, for expressions with if, splats,
// conditionals, and text that is not ASCII.
var layoutCases = []string{
	`satisfies(constraint, version)`,
	`"${join(", ", [for c in constraint.comparators : c.text if c.names_prerelease])} names a prerelease, \"quoted\""`,
	"lookup({\n  dev = 0 # least stable\n  alpha = 1\n  \"bêta\" = 2\n}, lower(regex(\"^[A-Za-z]*\", version.prerelease_text)), 0) >= 1",
	"<<EOT\nsome text\n  indented ${version.text}\nEOT\n",
	"alltrue([\n  for b in constraint.bounds :\n  !version.is_prerelease || contains([\"=\", \"!=\"], b.op) || b.names_prerelease\n  ? holds(b, version)\n  : holds(b, version.ga)\n])",
	`{for i, c in constraint.comparators : c.text => i if c.op != "!=" && c.names_prerelease && same_base(c.version, version)}`,
	`contains(constraint.comparators[*].op, "=") || length(constraint.bounds) > 2 && constraint.bounds[0].version.major == 1 && version.prerelease[0] == "rc"`,
	`min(4, [for c in constraint.comparators : c.version.major if c.names_prerelease]...) <= max([for b in constraint.bounds : b.version.minor]...)`,
}

// designExprs returns the admit and refuse expressions of the policies in
// testdata/designs, by where they are written.
func designExprs(t *testing.T) map[string]string {
	t.Helper()
	files, err := filepath.Glob("../testdata/designs/*.hcl")
	if err != nil || len(files) == 0 {
		t.Fatalf("no designs: %v", err)
	}
	out := map[string]string{}
	for _, f := range files {
		ps, diags := Load(f, Options{})
		if diags.HasErrors() {
			t.Fatal(diag.Format(diags[0]))
		}
		for _, p := range ps {
			for _, e := range []hcl.Expression{p.admit, p.refuse, p.refuseReason} {
				if e != nil {
					out[diag.FormatRange(e.Range())] = exprSource(e, p.sources)
				}
			}
		}
	}
	return out
}

// TestLayoutExpr checks that an expression laid out in lines fits the
// width, counted in runes, when the width leaves room for its longest
// token, and reads as the same expression: its lines, in parentheses, parse to the same
// tokens as the expression on one line.
func TestLayoutExpr(t *testing.T) {
	exprs := designExprs(t)
	for i, src := range layoutCases {
		exprs["case "+string(rune('a'+i))] = src
	}
	for name, src := range exprs {
		want := flatSource(src)
		for _, width := range []int{24, 30, 40, 50, explainWidth, 80, 200} {
			lines := layoutExpr(src, width)
			nodes, _ := exprNodes(src)
			for _, line := range lines {
				if n := utf8.RuneCountInString(line); n > width && width >= 50 && width >= 20+longest(nodes) {
					t.Errorf("%s at width %d: %d runes: %q", name, width, n, line)
				}
				if strings.TrimSpace(line) == "" || strings.TrimRight(line, " ") != line {
					t.Errorf("%s at width %d: blank or trailing space: %q", name, width, line)
				}
			}
			if strings.HasPrefix(src, "<<") {
				continue // a heredoc is shown on one line, which HCL does not read
			}
			joined := "(\n" + strings.Join(lines, "\n") + "\n)"
			if _, diags := hclsyntax.ParseExpression([]byte(joined), "", hcl.InitialPos); diags.HasErrors() {
				t.Errorf("%s at width %d: does not parse: %s\n%s", name, width, diags.Error(), joined)
			}
			if got := flatSource(joined); got != "("+want+")" {
				t.Errorf("%s at width %d: reads\n%s\nwant\n(%s)\nlaid out as\n%s", name, width, got, want, strings.Join(lines, "\n"))
			}
		}
	}
}

// longest is how many runes the longest token of nodes has.
func longest(nodes []exprNode) int {
	n := 0
	for i := range nodes {
		n = max(n, utf8.RuneCountInString(nodes[i].text))
		if nodes[i].group() {
			n = max(n, longest(nodes[i].kids))
		}
	}
	return n
}

// TestLayoutExprShape pins the layout of a design's admit expression.
func TestLayoutExprShape(t *testing.T) {
	src := "satisfies(constraint, version) && (!version.is_prerelease || anytrue([\n" +
		"    for c in constraint.comparators : c.names_prerelease && c.op != \"!=\" && same_base(c.version, version)\n  ]))"
	want := []string{
		`satisfies(constraint, version) && (`,
		`  !version.is_prerelease || anytrue([`,
		`    for c in constraint.comparators :`,
		`    c.names_prerelease && c.op != "!=" && same_base(c.version, version)`,
		`  ])`,
		`)`,
	}
	if got := layoutExpr(src, 80); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if got := layoutExpr(src, 200); len(got) != 1 || got[0] != flatSource(src) {
		t.Errorf("at width 200: %q", got)
	}
	if got, want := flatSource(src), `satisfies(constraint, version) && (!version.is_prerelease || anytrue([for c in constraint.comparators : c.names_prerelease && c.op != "!=" && same_base(c.version, version)]))`; got != want {
		t.Errorf("flat: %s", got)
	}
}

// TestShowCompact checks that the objects prerel builds are shown by their
// text.
func TestShowCompact(t *testing.T) {
	c, err := engine.ParseConstraint("~> 1.2.0-beta, != 1.2.5")
	if err != nil {
		t.Fatal(err)
	}
	v, err := engine.ParseVersion("v1.2.3-rc.1+b")
	if err != nil {
		t.Fatal(err)
	}
	cv := constraintValue(c)
	for _, tt := range []struct {
		v    cty.Value
		want string
	}{
		{versionValue(v, "v1.2.3-rc.1+b"), `version("v1.2.3-rc.1+b")`},
		{cv, `"~> 1.2.0-beta, != 1.2.5"`},
		{cv.GetAttr("comparators"), `["~> 1.2.0-beta", "!= 1.2.5"]`},
		{cv.GetAttr("bounds"), `[">= 1.2.0-beta", "< 1.3.0", "!= 1.2.5"]`},
		{cty.ObjectVal(map[string]cty.Value{"v": versionValue(v, "1.2.3-rc.1"), "n": cty.NumberIntVal(2)}), `{n = 2, v = version("1.2.3-rc.1")}`},
	} {
		if got := show(tt.v); got != tt.want {
			t.Errorf("show = %s, want %s", got, tt.want)
		}
	}
}

// TestExplainDesignsFit checks, for every design on a few cases, that
// each subject fits the column the text form gives it, and that the lines
// of refuse and admit after their outcome (the expression, then its parts
// with their values, short on these cases) fit explainWidth.
func TestExplainDesignsFit(t *testing.T) {
	files, err := filepath.Glob("../testdata/designs/*.hcl")
	if err != nil || len(files) == 0 {
		t.Fatalf("no designs: %v", err)
	}
	for _, f := range files {
		ps, diags := Load(f, Options{})
		if diags.HasErrors() {
			t.Fatal(diag.Format(diags[0]))
		}
		for _, p := range ps {
			for _, pair := range [][2]string{
				{">= 1.0.0-beta", "1.0.0-rc"},
				{"~> 1.2.0-beta, != 1.2.5", "1.2.3-rc.1"},
				{">= 1.0.0", "2.0.0"},
			} {
				steps := engine.Explain(p, pair[0], pair[1]).Steps
				for i, s := range steps {
					if n := utf8.RuneCountInString(s.Subject); n > len("constraint") {
						t.Errorf("%s %q %q: subject %q", p.Name(), pair[0], pair[1], s.Subject)
					}
					outcome := i == 0 || steps[i-1].Subject != s.Subject
					if (s.Subject == "admit" || s.Subject == "refuse") && !outcome && utf8.RuneCountInString(s.Detail) > explainWidth {
						t.Errorf("%s %q %q: %d runes: %q", p.Name(), pair[0], pair[1], utf8.RuneCountInString(s.Detail), s.Detail)
					}
				}
			}
		}
	}
}
