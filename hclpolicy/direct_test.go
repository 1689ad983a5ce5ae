package hclpolicy

import (
	"fmt"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/prerel/prerel/compare"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/diag"
	"github.com/prerel/prerel/internal/longtest"
)

// directCases are admit expressions whose calls a direct rewrite makes
// direct and which go off the common path: arguments of the wrong type,
// null, unknown or failing, a list of constants, a constant template,
// calls inside for expressions, splats and templates, evaluations that go
// over their budget, operators and conditionals on values of other
// types, null or failing.
var directCases = []string{
	`holds("> 1.0.0", version) && same_base("1.0.0", version) || compare(version, "2.0.0") > 0`,
	`same_base(version.prerelease[0], version)`,
	`compare(version, constraint.text) == 0`,
	`holds(version.is_prerelease ? "x" : ">= 1.0.0", version)`,
	`alltrue([for c in constraint.comparators : c.names_prerelease ? c.op : true])`,
	`anytrue(version.is_prerelease ? null : [true])`,
	`anytrue([for c in constraint.comparators : c.op == "="]) || contains(["=", "!=", "${"~"}>"], version.text)`,
	`alltrue([for s in ["a", "b"] : strlen("${s}-${version.text}") > 0])`,
	`anytrue(constraint.comparators[*].names_prerelease) || holds(constraint.comparators[0], version)`,
	`try(same_base(version.prerelease[0], version), false)`,
	`can(compare(version, constraint.text))`,
	`alltrue([for c in constraint.comparators : alltrue([for d in constraint.bounds : holds(d, version)])])`,
	`length([for a in range(300) : [for b in range(30) : holds(">= 1.0.0", version)]]) > 0`,
	`try(length([for a in range(2000) : holds(">= 1.0.0", version)]) > 0, true)`,
	`can(length([for a in range(100) : [for b in range(100) : same_base(version, "1.0.0")]]))`,
	`(version.is_prerelease ? null : true) || false`,
	`!(version.is_prerelease ? null : version.major == 1)`,
	`(version.is_prerelease ? version.prerelease[0] : "x") == "beta" != version.is_prerelease`,
	`version.major == 1 || version.text != constraint.text && version.prerelease == []`,
	`(version.is_prerelease ? 1 : "1") == "1" && (version.is_prerelease ? [1] : [2])[0] < 2`,
	`try((length([for a in range(50) : a]) > 0 ? jsondecode(version.is_prerelease ? "[1]" : "\"s\"") : "x") == "x", false)`,
	`strlen(version.major) > 0 && contains(version.prerelease, version.major)`,
	`try(strlen(jsondecode(version.is_prerelease ? "[1]" : "\"s\"")) > 0, false)`,
	`length(version.is_prerelease ? null : [1]) > 0`,
	`join(",", version.prerelease) != "" || format("%s-%d", version.text, version.major) == ""`,
	`upper(version.prerelease[0]) == "X"`,
	`length(regexall("[0-9]", version.text)) > 2`,
	`length(setproduct(range(version.major * 100), range(100))) > 0`,
	`try(length(split("", format("%0${version.major * 100000}d", 1))) > 0, false)`,
	`anytrue([for a in range(8) : alltrue([for i in range(8) : version.major > i])]) || holds(">= ${version.minor}.0", version.text)`,
	`compare(parse_version("${version.major}.0.0-${version.prerelease_text}x"), version) == 0 || same_base(version.ga, "1.0.0")`,
	`try(anytrue(null), alltrue(version.is_prerelease ? [true] : [for i in range(2) : false]))`,
	`(version.is_prerelease ? 10 : "x") != "" || version.major > 0`,
	`length({for i in range(version.major + 2) : (i > 0 ? 1e200 : i) => i}) > 0`,
	`try(tomap({a = version.text})[version.is_prerelease ? "a" : 1e30] != "", false)`,
	`"%{for s in version.prerelease}${s}%{endfor}" != "" && -version.major < 0 || try(version.text + 0 > 0, false)`,
	`{(version.text) = version.major, (version.ga) = -version.minor}[version.text] >= 0`,
	`regex_replace(version.text, "(\\.)|\\b", "<$1>") != "" && length(regexall("\\B|[0-9]", version.ga)) > 3`,
}

// directBudgetCases are admit expressions that go over their budget in a
// way this round of charges added: prerel's own functions, operators,
// conditionals, keys, indexes and searches of a regular expression. Each
// evaluation takes the whole budget, so every day they are checked on one
// group only.
var directBudgetCases = []string{
	`alltrue([for x in [[for i in range(300) : ">= ${i}.0"]] : alltrue([for a in range(300) : satisfies(x, version)])])`,
	`alltrue([for x in [[for i in range(500) : i]] : alltrue([for a in range(50) : x != [a]])]) || version.major > 0`,
	`(version.is_prerelease ? 1e100000 : "x") != "" || version.major > 0`,
	`length({for i in range(version.major + 2) : (i > 0 ? 1e20000 : i) => i}) > 0`,
	`try(tomap({a = version.text})[version.is_prerelease ? "a" : 1e30000] != "", false)`,
	`length(regexall("0*1|0", format("%0${version.major * 3000}d", 0))) > 0`,
}

// TestDirectAsHCL evaluates admit as written and as rewritten by direct,
// each in an evaluation of its own, for the designs, the specialized
// cases and the direct cases, on a sample of the exhaustive domain at
// scope 1 (its first group only, every day, for the cases that go over
// their budget or spend more than half of it on a case of that group):
// the same value, the same diagnostics and the same steps charged.
func TestDirectAsHCL(t *testing.T) {
	ps := exprsAndDesigns(t, append(append(append([]string(nil), specializedCases...), directCases...), directBudgetCases...))
	heavy := map[string]bool{}
	for _, e := range directBudgetCases {
		heavy["admit = "+e] = true
	}
	d, err := compare.Exhaustive(compare.MinScope)
	if err != nil {
		t.Fatal(err)
	}
	// Every 389th group every day, every 97th in the long run.
	stride := longtest.Pick(389, 97)
	var groups []compare.Group
	i := 0
	_ = d.Groups(func(g compare.Group) bool {
		if i%stride == 0 {
			groups = append(groups, g)
		}
		i++
		return true
	})
	for _, p := range ps {
		if p.admitRun == p.admit {
			continue
		}
		// An expression that goes over its budget, or spends more than
		// half of it on a case of the first group, is costly: every day
		// it is checked on that group only.
		costly := heavy[p.Rule()]
		for i, g := range groups {
			if costly && i != 0 && !longtest.Enabled() {
				continue
			}
			c, err := engine.ParseConstraint(g.Constraint)
			if err != nil {
				continue
			}
			cv := constraintValue(c)
			for j, text := range g.Versions {
				if j%5 != 0 {
					continue
				}
				v, err := engine.ParseVersion(text)
				if err != nil {
					continue
				}
				obj := versionValue(v, text)
				want, wantSteps := evalCounting(p.admit, cv, obj)
				costly = costly || wantSteps > MaxSteps/2
				got, gotSteps := evalCounting(p.admitRun, cv, obj)
				if got != want || gotSteps != wantSteps {
					t.Fatalf("%s: %q with %s: direct %s (%d steps), as HCL evaluates it %s (%d steps)", p.Rule(), g.Constraint, text, got, gotSteps, want, wantSteps)
				}
			}
		}
	}
}

// evalCounting evaluates e for a case in an evaluation of its own and
// describes the value and the diagnostics; steps is what it charged.
func evalCounting(e hcl.Expression, cv, vv cty.Value) (out string, steps int) {
	ev := newEvaluation()
	defer ev.release()
	ev.ctx.Variables[varConstraint] = cv
	ev.ctx.Variables[varVersion] = vv
	ev.ctx.Variables[judgedArg] = predecoded(vv, asVersion)
	v, diags := ev.value(e)
	out = fmt.Sprintf("%#v", v)
	for _, d := range diags {
		out += "\n" + diag.Format(d)
	}
	return out, ev.b.steps
}
