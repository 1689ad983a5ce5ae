package hclpolicy

import (
	"reflect"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prerel/prerel/compare"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/diag"
	"github.com/prerel/prerel/internal/longtest"
)

// specializedCases are admit expressions whose specialized form must give
// what the expression as written gives on every case: folding, unrolling,
// short circuits, errors on some cases, for expressions that cannot be
// unrolled, a for variable that shadows version, parts that read only the
// version and fail on some versions.
var specializedCases = []string{
	`version.is_prerelease ? version.prerelease[0] == "beta" : satisfies(constraint, version)`,
	`constraint.comparators[0].op == ">=" && satisfies(constraint, version)`,
	`anytrue([for i, c in constraint.bounds : i == 0 && holds(c, version) if c.bound != "upper"])`,
	`alltrue([for c in constraint.comparators : alltrue([for d in constraint.comparators : compare(c.version, d.version) <= 0 || holds(d, version)])])`,
	`length([for c in constraint.comparators : c if holds(c, version)]) == length(constraint.comparators)`,
	`[for version in constraint.comparators : version.op][0] == "~>" || satisfies(constraint, version)`,
	`try(version.prerelease[0], "") == "rc" || holds(">= 1.0.0", version)`,
	`false && version.prerelease[0] == "x"`,
	`version.prerelease[0] == "x" && false`,
	`version.prerelease[0] == "alpha" || true`,
	`true ? satisfies(constraint, version) : version.prerelease[0] == "a"`,
	`!version.is_prerelease || contains(constraint.comparators[*].op, "=")`,
	`compare(version, constraint.comparators[0].version) >= 0`,
	`alltrue(values({ for c in constraint.comparators : c.text => holds(c, version) }))`,
	`satisfies(constraint.text, version.text)`,
	`holds(constraint.bounds[length(constraint.bounds) - 1], version.ga)`,
	`anytrue([for c in constraint.comparators : c.names_prerelease && version.prerelease[0] == c.version.prerelease[0]])`,
	`alltrue([for c in constraint.bounds : c.bound == "upper" ? holds(c, version.ga) : holds(c, version)])`,
	`anytrue([for c in constraint.comparators : same_base(c.version, version) if c.names_prerelease]) || !version.is_prerelease && satisfies(constraint.bounds, version)`,
	`alltrue([for c in constraint.comparators : holds(c, parse_version(version.ga))]) && version.major < 2`,
}

// TestSpecializedAsWritten checks, on the exhaustive domain at scope 1 (a
// sample of its constraints every day, with every other version of each)
// and on the empty constraint, that
// a compiled policy (admit specialized for the constraint, parts that
// read only the version kept with it) gives the same result, verdict and
// reason, as admit evaluated as written, and MatchVerdict the same
// verdict without the reason.
func TestSpecializedAsWritten(t *testing.T) {
	longtest.SkipShort(t)
	ps := exprsAndDesigns(t, specializedCases)
	d, err := compare.Exhaustive(compare.MinScope)
	if err != nil {
		t.Fatal(err)
	}
	var groups []compare.Group
	_ = d.Groups(func(g compare.Group) bool { groups = append(groups, g); return true })
	groups = append(groups, compare.Group{Constraint: "", Versions: groups[0].Versions})
	if !longtest.Enabled() {
		// Every day a sample of the groups, every operator and every
		// kind of version among them; every group in the long run.
		var some []compare.Group
		for i := 0; i < len(groups); i += sampleStride {
			some = append(some, groups[i])
		}
		groups = append(some, groups[len(groups)-1])
	}
	// The value of each constraint and of each version, made once for
	// every policy: admit as written reads them as they are, and the
	// groups share one version list.
	cvs := make([]cty.Value, len(groups))
	for i, g := range groups {
		if c, err := engine.ParseConstraint(g.Constraint); err == nil {
			cvs[i] = constraintValue(c)
		}
	}
	read := map[string]cachedVersion{}
	for _, g := range groups {
		for _, text := range g.Versions {
			if _, ok := read[text]; ok {
				continue
			}
			if v, err := engine.ParseVersion(text); err == nil {
				obj := versionValue(v, text)
				read[text] = cachedVersion{obj: obj, arg: predecoded(obj, asVersion)}
			}
		}
	}
	for _, p := range ps {
		checked := 0
		for i, g := range groups {
			m, err := p.Compile(g.Constraint)
			if err != nil {
				continue
			}
			cv := cvs[i]
			for vi, text := range g.Versions {
				if !longtest.Enabled() && (vi+i)%2 != 0 {
					// Every day every other version of a group, the
					// others in the next group.
					continue
				}
				vv, ok := read[text]
				if !ok {
					continue
				}
				want := p.judge(p.written(), cv, vv)
				if got := m.Match(text); got != want {
					t.Fatalf("%s: %q with %s: compiled %+v, as written %+v", p.Rule(), g.Constraint, text, got, want)
				}
				if got := m.(engine.VerdictMatcher).MatchVerdict(text); got != want.Verdict {
					t.Fatalf("%s: %q with %s: MatchVerdict %v, Match %v", p.Rule(), g.Constraint, text, got, want.Verdict)
				}
				checked++
			}
		}
		if checked == 0 {
			t.Fatalf("%s: no case checked", p.Rule())
		}
	}
}

// loadExpr loads a policy whose admit is expr.
func loadExpr(t *testing.T, expr string) *Policy {
	t.Helper()
	path := filepath.Join(t.TempDir(), "p.hcl")
	if err := os.WriteFile(path, []byte("policy \"p\" {\n  admit = "+expr+"\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ps, diags := Load(path, Options{})
	if diags.HasErrors() {
		t.Fatalf("%s: %s", expr, diag.Format(diags[0]))
	}
	return ps[0]
}

// TestSpecializeUnrolls checks what Compile makes of hcl-cargo for a
// constraint of two comparators: the for expression is unrolled and
// folded away, the comparator that names no prerelease drops out, and
// !version.is_prerelease is read from the version's kept parts.
func TestSpecializeUnrolls(t *testing.T) {
	ps, diags := Load("../testdata/designs/hcl-cargo.hcl", Options{})
	if diags.HasErrors() {
		t.Fatal(diag.Format(diags[0]))
	}
	p := ps[0]
	if len(p.plan.parts) != 1 || exprSource(p.plan.parts[0], p.sources) != "!version.is_prerelease" {
		t.Fatalf("parts that read only the version: %d", len(p.plan.parts))
	}
	m, err := p.Compile(">= 1.0.0-beta, < 2.0.0")
	if err != nil {
		t.Fatal(err)
	}
	var calls []string
	fors := 0
	hclsyntax.VisitAll(m.(*matcher).admit.wholeExpr().(hclsyntax.Expression), func(n hclsyntax.Node) hcl.Diagnostics {
		switch n := n.(type) {
		case *hclsyntax.ForExpr:
			fors++
		case *hclsyntax.FunctionCallExpr:
			calls = append(calls, n.Name)
		}
		return nil
	})
	if fors != 0 || !reflect.DeepEqual(calls, []string{"satisfies", "same_base"}) {
		t.Fatalf("specialized: %d for expressions, calls %v; want none, [satisfies same_base]", fors, calls)
	}
}

// sampleStride is the stride of the groups TestSpecializedAsWritten
// checks every day.
const sampleStride = 19

// exprsAndDesigns loads a policy for each admit expression of exprs, then
// every policy of the designs under testdata/designs.
func exprsAndDesigns(t *testing.T, exprs []string) []*Policy {
	t.Helper()
	var ps []*Policy
	for _, e := range exprs {
		ps = append(ps, loadExpr(t, e))
	}
	designs, _ := filepath.Glob("../testdata/designs/*.hcl")
	for _, f := range designs {
		got, diags := Load(f, Options{})
		if diags.HasErrors() {
			t.Fatalf("%s: %s", f, diag.Format(diags[0]))
		}
		ps = append(ps, got...)
	}
	return ps
}

// TestFreeNames checks that collectFreeNames gives every node of the
// specialized and direct cases, guarded, the root names that
// hclsyntax.Variables gives it, each once.
func TestFreeNames(t *testing.T) {
	exprs := append(append([]string{
		`{for k, v in constraint.comparators : "${k}" => [for c in v.version.prerelease : c if k > 0 && version.major > 0]...}`,
		`{(version.text) = 1, a = constraint, "b" = [for version in [1] : version]}[version.text] == 1`,
	}, specializedCases...), directCases...)
	for _, src := range exprs {
		e, diags := hclsyntax.ParseExpression([]byte(src), "p.hcl", hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatalf("%s: %v", src, diags)
		}
		guard(e)
		names := freeNames{}
		collectFreeNames(names, e)
		hclsyntax.VisitAll(e, func(n hclsyntax.Node) hcl.Diagnostics {
			x, ok := n.(hclsyntax.Expression)
			if !ok {
				return nil
			}
			want := map[string]bool{}
			for _, v := range hclsyntax.Variables(x) {
				want[v.RootName()] = true
			}
			got, ok := names[n]
			if !ok || len(got) != len(want) {
				t.Fatalf("%s: %T at %s: names %v, want %v", src, n, n.Range(), got, want)
			}
			for _, r := range got {
				if !want[r] {
					t.Fatalf("%s: %T at %s: names %v, want %v", src, n, n.Range(), got, want)
				}
			}
			return nil
		})
	}
}

// TestSpecializedPaysForLoops checks that a case pays for the for
// expressions over a collection known once the constraint is known, as
// the expression as written does: one that is not unrolled (more than 64
// elements) keeps its charge, and one that is unrolled is paid for before
// the case's evaluation starts. Each policy here goes over the budget
// as written, because of such a loop and of a loop over range(1000 *
// version.major); compiled, it must too, with the same reason (before,
// the compiled policy charged nothing for the first loop and admitted).
func TestSpecializedPaysForLoops(t *testing.T) {
	dynamic := `length([for j in range(version.major * 1000) : j if j >= 0 || constraint.names_prerelease]) > 0`
	for _, expr := range []string{
		`alltrue([for i in range(1000) : version.major != i || constraint.names_prerelease]) && ` + dynamic,
		`alltrue([for a in range(60) : alltrue([for b in range(15) : version.major != a + b || constraint.names_prerelease])]) && ` + dynamic,
	} {
		p := loadExpr(t, expr)
		for _, c := range [][2]string{{">= 1.0", "1.2.0"}, {"~> 1.2.0-beta", "1.3.0"}, {"!= 1.5.0", "1.0.0-rc.1"}} {
			m, err := p.Compile(c[0])
			if err != nil {
				t.Fatal(err)
			}
			vv, err := p.versions.get(c[1], p.plan)
			if err != nil {
				t.Fatal(err)
			}
			want := p.judge(p.written(), m.(*matcher).constraint, vv)
			got := m.Match(c[1])
			if want.Verdict != engine.Invalid || !strings.Contains(want.Reason, "Evaluation budget exceeded; ") {
				t.Fatalf("%.40s: %q %q as written: %+v", expr, c[0], c[1], want)
			}
			if got != want {
				t.Errorf("%.40s: %q %q: compiled %+v, as written %+v", expr, c[0], c[1], got, want)
			}
		}
	}
}
